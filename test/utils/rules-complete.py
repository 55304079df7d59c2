"""test/utils/rules-complete.py: every built-in barrier is shipped whole.

    rules-complete.py TOOL SRC_ROOT

For each barrier `TOOL --list-barriers` shows (the built-in rules), checks
that it has
  - its golden test, test/rewrite/barrier-NAME.cl, whose checks of the
    constraints (prefix JSON or REQ) pin the state sizes ("fixed",
    "per_group") and the requirements ("opencl_c_version", every extension
    and atomic capability) that the tool writes for it over the golden
    test's own input;
  - its row in the tables of docs/barriers.md and README.md.
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


def barriers(tool):
    """The barrier names --list-barriers shows."""
    out = subprocess.run([tool, "--list-barriers"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    names, inside = [], False
    for line in out.splitlines():
        if line.startswith("barriers"):
            inside = True
        elif not line.startswith("  "):
            inside = False
        elif inside:
            names.append(line.split()[0])
    return names


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
    problems = []
    with open(os.path.join(src, "docs", "barriers.md"), encoding="utf-8") as f:
        doc = f.read()
    with open(os.path.join(src, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    names = barriers(tool)
    for b in names:
        golden = os.path.join(src, "test", "rewrite", "barrier-%s.cl" % b)
        row = re.compile(r"^\| `%s`" % re.escape(b), re.M)
        if not row.search(doc):
            problems.append("%s: no row in docs/barriers.md" % b)
        if not row.search(readme):
            problems.append("%s: no row in README.md" % b)
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
    for p in problems:
        print(p)
    print("rules: %d barriers, %d problems" % (len(names), len(problems)))
    return 1 if problems or not names else 0


if __name__ == "__main__":
    sys.exit(main())
