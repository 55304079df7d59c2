"""Checks a gsync-check JSON report against the format docs/check.md
describes, and prints one line that tests match:

  report: N rules (NAME=VERDICT ...), control VERDICT, recommended NAME|none

Usage: check-report.py REPORT.json. Exits 1, saying which field, when the
report does not hold to the format."""
import json
import sys

VERDICTS = {"pass", "fail", "untested", "unsupported", "error"}


def need(cond, what):
    if not cond:
        sys.exit("check-report: %s" % what)


def number(obj, key, where):
    need(isinstance(obj.get(key), (int, float)) and
         not isinstance(obj.get(key), bool), "%s.%s: not a number" % (where, key))


def stress(s, where):
    for k in ("groups", "participants", "episodes", "stale"):
        need(isinstance(s.get(k), int) and s[k] >= 0,
             "%s.%s: not a count" % (where, k))
    number(s, "seconds", where)


def main():
    r = json.load(open(sys.argv[1], encoding="utf-8"))
    need(r.get("format") == "gsync-check" and r.get("version") == 1,
         "format/version")
    need(r.get("tool", "").startswith("gsync-check "), "tool")
    for k in ("name", "platform", "version", "opencl_c", "type"):
        need(isinstance(r["device"].get(k), str), "device.%s" % k)
    o = r["options"]
    need(isinstance(o.get("quick"), bool), "options.quick")
    for k in ("local_size", "episodes", "short_iters", "long_iters", "reps",
              "spin_limit_ms"):
        need(isinstance(o.get(k), int), "options.%s" % k)
    c = r["control"]
    need(c.get("rule") == "noop", "control.rule")
    need(c.get("verdict") in ("sees", "blind", "error", "unsupported"),
         "control.verdict")
    if "stress" in c:
        stress(c["stress"], "control.stress")
    names = []
    for i, x in enumerate(r["rules"]):
        w = "rules[%d]" % i
        need(isinstance(x.get("name"), str), w + ".name")
        need(isinstance(x.get("default"), bool), w + ".default")
        need(isinstance(x.get("summary"), str), w + ".summary")
        need(x.get("verdict") in VERDICTS, w + ".verdict")
        names.append("%s=%s" % (x["name"], x["verdict"]))
        if x["verdict"] in ("unsupported", "error"):
            need(isinstance(x.get("message"), str), w + ".message")
            continue
        need(isinstance(x.get("coresident"), int), w + ".coresident")
        stress(x["stress"], w + ".stress")
        s = x["stress"]
        want = ("fail" if s["stale"] else
                "pass" if s["participants"] >= 2 else "untested")
        need(x["verdict"] == want, w + ".verdict: not what its stress says")
        need(isinstance(x.get("timing"), list) and x["timing"],
             w + ".timing")
        for t in x["timing"]:
            need(isinstance(t.get("groups"), int), w + ".timing.groups")
            need(isinstance(t.get("participants"), int),
                 w + ".timing.participants")
            number(t, "us_per_barrier", w + ".timing")
            number(t, "launch_us", w + ".timing")
        d = x["discovery"]
        for k in ("launched", "admitted_min", "admitted_max"):
            need(isinstance(d.get(k), int), w + ".discovery." + k)
        for k in ("us", "plain_us", "ratio"):
            number(d, k, w + ".discovery")
        a = x["abort"]
        need(isinstance(a.get("groups"), int), w + ".abort.groups")
        need(a.get("ended") in ("aborted", "completed"), w + ".abort.ended")
        for k in ("spin_limit_ms", "ms", "late_ms"):
            number(a, k, w + ".abort")
    rec = r["recommendation"]
    need(isinstance(rec.get("why"), str) and rec["why"], "recommendation.why")
    best = rec.get("rule")
    if best is not None:
        x = [x for x in r["rules"] if x["name"] == best]
        need(x and x[0]["verdict"] == "pass",
             "recommendation.rule: not a rule that passed")
        need(c["verdict"] == "sees",
             "recommendation.rule: recommended where the control is %s"
             % c["verdict"])
    print("report: %d rules (%s), control %s, recommended %s" %
          (len(names), " ".join(names), c["verdict"], best or "none"))


main()
