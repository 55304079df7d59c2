"""test/utils/rules-complete.py: every built-in barrier is shipped whole,
and its facts are written once, in its rule header.

    rules-complete.py TOOL SRC_ROOT [--write-docs]

For each barrier `TOOL --list-barriers` shows (the built-in rules), checks
that
  - its golden test, test/rewrite/barrier-NAME.cl, exists and its checks of
    the constraints (prefix JSON or REQ) pin the state sizes ("fixed",
    "per_group") and the requirements ("opencl_c_version", every extension
    and atomic capability) that the tool writes for it over the golden
    test's own input;
  - if its header has @split (it splits into global_barrier_arrive() and
    global_barrier_wait()), its golden test of the halves,
    test/rewrite/split-NAME.cl, exists and rewrites with it;
  - its header (rewrite-rules/barrier-NAME.cl) says what it does
    (@summary) and where it is correct (@runs-on), and its --list-barriers
    line is those two;
  - the barrier tables of docs/barriers.md and README.md, between the
    markers below, are what this script generates from the headers and
    the constraints the tool writes (with --write-docs it writes them
    there instead): name, what it does, what it needs (the constraints'
    "requires" of a one-kernel input in the rule's @opencl-c version), its
    state (the same constraints' "bytes", with the default discovery),
    whether it splits (@split), where it runs.
The run tests need nothing per barrier: test/utils/barrier-runs.py takes
the list from the tool. Prints one line per problem and exits 1 if any.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


BEGIN = ("<!-- The barrier table below is generated from the rule headers "
         "by test/utils/rules-complete.py --write-docs. -->")
END = "<!-- End of the generated barrier table. -->"


def listing(tool):
    """The barrier lines --list-barriers shows: {name: line}, in order."""
    out = subprocess.run([tool, "--list-barriers"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    lines, inside = {}, False
    for line in out.splitlines():
        if line.startswith("barriers"):
            inside = True
        elif not line.startswith("  "):
            inside = False
        elif inside:
            lines[line.split()[0]] = line
    return lines


def header(path):
    """The "@key value" lines of a rule file's first comment: {key: [v]}."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    first = text[:text.find("*/")] if "*/" in text else ""
    keys = {}
    for m in re.finditer(r"^\s*\*?\s*@([a-z-]+)[ \t]*(.*?)\s*$", first, re.M):
        keys.setdefault(m.group(1), []).append(m.group(2))
    return keys


def needs(req):
    """The requirements of a rewrite's constraints, in a table cell."""
    parts = ["OpenCL C %s+" % req["opencl_c_version"]]
    parts += ["`%s`" % e for e in req["extensions"]]
    if req["atomic_capabilities"]:
        parts.append("atomics " + ", ".join(
            "`%s`" % a for a in req["atomic_capabilities"]))
    return ", ".join(parts)


def table(rows):
    """The generated table: one row per barrier, the default first."""
    out = ["", "| name | what it does | needs | state bytes | splits | "
           "runs on |", "|---|---|---|---|---|---|"]
    out += rows
    return "\n".join(out) + "\n"


def check_docs(src, text_of_table, write):
    """Problems of the generated tables in docs/barriers.md and README.md."""
    problems = []
    for rel in ("docs/barriers.md", "README.md"):
        path = os.path.join(src, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if BEGIN not in text or END not in text:
            problems.append("%s: the markers of the barrier table are "
                            "missing" % rel)
            continue
        head, rest = text.split(BEGIN, 1)
        body, tail = rest.split(END, 1)
        if body == text_of_table:
            continue
        if write:
            with open(path, "w", encoding="utf-8") as f:
                f.write(head + BEGIN + text_of_table + END + tail)
            continue
        problems.append("%s: the barrier table differs from the rule headers "
                        "(run test/utils/rules-complete.py TOOL ROOT "
                        "--write-docs)" % rel)
    return problems


def constraints(tool, args):
    """The constraints the tool writes when run with args."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([tool] + args + [
            "-o", os.path.join(tmp, "out.cl"), "--constraints",
            os.path.join(tmp, "out.json")], check=True)
        with open(os.path.join(tmp, "out.json"), encoding="utf-8") as f:
            return json.load(f)


def main():
    tool, src = sys.argv[1], sys.argv[2]
    write = sys.argv[3:] == ["--write-docs"]
    problems = []
    lines = listing(tool)
    names = list(lines)
    rows = []
    common = os.path.join(src, "test", "rewrite", "Inputs", "common.cl")
    for b in names:
        rule = os.path.join(src, "rewrite-rules", "barrier-%s.cl" % b)
        keys = header(rule)
        summary = keys.get("summary", [""])[0]
        runs_on = keys.get("runs-on", [""])[0]
        default = lines[b].endswith(" (default)")
        if not summary or not runs_on:
            problems.append("%s: rewrite-rules/barrier-%s.cl has no %s" %
                            (b, b, "@summary" if not summary else "@runs-on"))
        want = "  %-12s %s; runs on %s%s" % (b, summary, runs_on,
                                             " (default)" if default else "")
        if lines[b] != want:
            problems.append("%s: --list-barriers shows '%s', its header says "
                            "'%s'" % (b, lines[b].strip(), want.strip()))
        # Written in the rule's own lowest OpenCL C version, so that
        # "requires" is what the rule and the discovery need.
        std = keys.get("opencl-c", ["1.2"])[0]
        c = constraints(tool, ["--barrier=%s" % b, "-cl-std=CL%s" % std,
                               common])
        req, by = c["requires"], c["kernels"][0]["state_arg"]["bytes"]
        splits = "split" in keys
        row = "| `%s`%s | %s | %s | %d + %d per group | %s | %s |" % (
            b, " (default)" if default else "", summary, needs(req),
            by["fixed"], by["per_group"], "yes" if splits else "no", runs_on)
        split_test = os.path.join(src, "test", "rewrite", "split-%s.cl" % b)
        if splits and not os.path.exists(split_test):
            problems.append("%s: it splits (@split) but has no golden test "
                            "%s" % (b, os.path.relpath(split_test, src)))
        elif splits:
            with open(split_test, encoding="utf-8") as f:
                if "%%gsync --barrier=%s " % b not in f.read():
                    problems.append("%s: %s does not rewrite with it" %
                                    (b, os.path.relpath(split_test, src)))
        if default:
            rows.insert(0, row)
        else:
            rows.append(row)
        golden = os.path.join(src, "test", "rewrite", "barrier-%s.cl" % b)
        if not os.path.exists(golden):
            problems.append("%s: no golden test %s" % (b, golden))
            continue
        with open(golden, encoding="utf-8") as f:
            text = f.read()
        checks = "\n".join(
            re.findall(r"^// (?:JSON|REQ)(?:-NEXT)?: (.*)$", text, re.M))
        # The golden test's own rewrite: its first %gsync command.
        m = re.search(r"^// RUN: %gsync (.*?) -o %t\.cl", text, re.M)
        if not m:
            problems.append("%s: %s runs no '%%gsync ... -o %%t.cl'" %
                            (b, os.path.relpath(golden, src)))
            continue
        args = shlex.split(m.group(1).replace(
            "%S", os.path.join(src, "test", "rewrite")))
        c = constraints(tool, args)
        bytes_ = c["kernels"][0]["state_arg"]["bytes"]
        req = c["requires"]
        want = ['"fixed": %d' % bytes_["fixed"],
                '"per_group": %d' % bytes_["per_group"],
                '"opencl_c_version": "%s"' % req["opencl_c_version"]]
        want += ['"%s"' % e for e in req["extensions"]]
        want += ['"%s"' % a for a in req["atomic_capabilities"]]
        for w in want:
            if w not in checks:
                problems.append("%s: %s checks no %s" %
                                (b, os.path.relpath(golden, src), w))
    problems += check_docs(src, table(rows), write)
    for p in problems:
        print(p)
    print("rules: %d barriers, %d problems" % (len(names), len(problems)))
    return 1 if problems or not names else 0


if __name__ == "__main__":
    sys.exit(main())
