#!/usr/bin/env python3
"""--barrier=auto's output, constraints and documentation against the one
table they follow (include/gsync-auto.def) and the rule headers.

usage: auto-check.py contains OUTPUT.cl ROOT
       auto-check.py constraints FILE.json ROOT
       auto-check.py docs ROOT [--write-docs]

  contains     the output holds every candidate rule's file byte for byte,
               in the table's order, each right after its own guard;
  constraints  "auto.rules" names the candidates in the table's order, each
               with its guard macro, "splits" as its header's @split, its
               header's extensions and atomic capabilities, and state
               bytes of 256 + @state-fixed and @state-per-group (plus the
               discovery rule's, none for the shipped ones); the top-level
               state is the largest of each part;
  docs         docs/auto.md's table, between the markers below, is what
               this script generates from the table (with --write-docs it
               writes it there instead).
One line per problem; exit status 1 when there is one.
"""
import json
import os
import re
import sys

BEGIN = ("<!-- The table below is generated from include/gsync-auto.def "
         "by test/utils/auto-check.py docs --write-docs. -->")
END = "<!-- End of the generated table. -->"


def table(root):
    """The candidates and the device rows of include/gsync-auto.def."""
    rules, devices = [], []
    with open(os.path.join(root, "include", "gsync-auto.def"),
              encoding="utf-8") as f:
        for line in f:
            m = re.match(r'^GSYNC_AUTO_RULE\("([^"]+)"\)\s*$', line)
            if m:
                rules.append(m.group(1))
            m = re.match(r'^GSYNC_AUTO_DEVICE\((\w+), "([^"]+)", "(.*)"\)\s*$',
                         line)
            if m:
                devices.append(m.groups())
    return rules, devices


def macro(name):
    return "GSYNC_BARRIER_" + name.upper().replace("-", "_")


def header(root, name):
    """The @keys of rewrite-rules/barrier-NAME.cl: {key: [values]}."""
    with open(os.path.join(root, "rewrite-rules", "barrier-%s.cl" % name),
              encoding="utf-8") as f:
        text = f.read()
    keys = {}
    for m in re.finditer(r"^ \* @([a-z-]+)[ \t]*(.*)$",
                         text[:text.index("*/")], re.M):
        keys.setdefault(m.group(1), []).append(m.group(2).strip())
    return text, keys


def contains(out, root):
    rules, _ = table(root)
    with open(out, encoding="utf-8") as f:
        text = f.read()
    problems, at = [], 0
    for name in rules:
        body, _ = header(root, name)
        guard = "defined(%s)\n" % macro(name)
        i = text.find(guard + body, at)
        if i < 0:
            problems.append("%s: rule %s is not there, after '#elif %s', "
                            "byte for byte" % (out, name, guard.strip()))
        else:
            at = i + len(guard) + len(body)
    return problems


def constraints(path, root):
    rules, _ = table(root)
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    problems = []
    inside = doc.get("auto", {}).get("rules", [])
    if doc.get("barrier") != "auto":
        problems.append('%s: "barrier" is not "auto"' % path)
    if [r.get("name") for r in inside] != rules:
        problems.append("%s: auto.rules %s, the table %s" %
                        (path, [r.get("name") for r in inside], rules))
    fixed, per_group = 0, 0
    for r in inside:
        if r.get("name") not in rules:
            continue
        _, keys = header(root, r["name"])
        want = {
            "define": macro(r["name"]),
            "splits": "split" in keys,
            "fixed": 256 + int(keys.get("state-fixed", ["0"])[0]),
            "per_group": int(keys.get("state-per-group", ["0"])[0]),
        }
        got = {
            "define": r.get("define"),
            "splits": r.get("splits"),
            "fixed": r.get("state_bytes", {}).get("fixed"),
            "per_group": r.get("state_bytes", {}).get("per_group"),
        }
        for k in want:
            if want[k] != got[k]:
                problems.append("%s: auto rule %s: %s is %r, its header says "
                                "%r" % (path, r["name"], k, got[k], want[k]))
        req = r.get("requires", {})
        for key, field in (("extension", "extensions"),
                           ("atomic-capability", "atomic_capabilities")):
            for v in keys.get(key, []):
                if v not in req.get(field, []):
                    problems.append("%s: auto rule %s: requires.%s lacks %s" %
                                    (path, r["name"], field, v))
        fixed = max(fixed, want["fixed"])
        per_group = max(per_group, want["per_group"])
    for k in doc.get("kernels", []):
        if not k.get("global_barrier"):
            continue
        b = k["state_arg"]["bytes"]
        if (b["fixed"], b["per_group"]) != (fixed, per_group):
            problems.append("%s: kernel %s: state %d + %d per group, not the "
                            "largest inside, %d + %d" %
                            (path, k["name"], b["fixed"], b["per_group"],
                             fixed, per_group))
    return problems


def docs_table(root):
    rules, devices = table(root)
    lines = [BEGIN,
             "| device | rule | why |",
             "|---|---|---|"]
    for kind, name, text in devices:
        what, _, why = text.partition(": ")
        lines.append("| %s | `%s` | %s |" % (what, name, why or "-"))
    lines.append("")
    lines.append("Candidates, in the order libgsync falls back on them: %s." %
                 ", ".join("`%s` (`-D%s`)" % (n, macro(n)) for n in rules))
    lines.append(END)
    return "\n".join(lines)


def docs(root, write):
    path = os.path.join(root, "docs", "auto.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        return ["%s: the markers of the generated table are missing" % path]
    start = text.index(BEGIN)
    end = text.index(END) + len(END)
    want = docs_table(root)
    if text[start:end] == want:
        return []
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:start] + want + text[end:])
        return []
    return ["%s: the device table differs from include/gsync-auto.def "
            "(run test/utils/auto-check.py docs ROOT --write-docs)" % path]


def main(argv):
    if len(argv) >= 4 and argv[1] == "contains":
        problems = contains(argv[2], argv[3])
    elif len(argv) >= 4 and argv[1] == "constraints":
        problems = constraints(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == "docs":
        problems = docs(argv[2], "--write-docs" in argv[3:])
    else:
        sys.stderr.write(__doc__)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
