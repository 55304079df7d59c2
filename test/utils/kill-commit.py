#!/usr/bin/env python3
"""test/utils/kill-commit.py: kills a run of gsync-rewrite at every instant
of its writing, and checks what each kill leaves.

    kill-commit.py KILLAT_SO TOOL INPUT DIR

KILLAT_SO is test/utils/killat.c built: with KILLAT_NTH=N it kills the run
(SIGKILL) just before its N-th call that writes or names a file. In DIR,
for every N up to the number of such calls a run makes, the old pair
(out.cl and out.json: INPUT rewritten with --barrier=flip) is put in place,
a run that writes the new pair over it (the default barrier) is killed
before its N-th call, and then a next run writes other files in DIR
(other.cl, other.json). Prints:

    calls: N
    after the kill: old O, new W, mixed M, of which a commit left to finish J
    after the next run: old O, new W, mixed M, files left F

"Mixed" is one file of each pair. A kill may leave a commit half done (the
journal of a run that renames two files); the next run in the directory
finishes it, and removes what a killed run left (.gsync-tmp.*).
"""
import os
import subprocess
import sys

PAIR = ("out.cl", "out.json")
KEEP = set(PAIR) | {"other.cl", "other.json"}


def run(tool, args, env=None):
    return subprocess.run([tool] + args, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=env).returncode


def state(old, new):
    """"old", "new" or "mixed": what the pair in the directory is."""
    got = []
    for name in PAIR:
        with open(name, "rb") as f:
            got.append(f.read())
    got = tuple(got)
    return "old" if got == old else "new" if got == new else "mixed"


def main():
    so, tool, src, where = sys.argv[1:5]
    os.chdir(where)
    write = ["-o", "out.cl", "--constraints", "out.json", "--", src]
    pairs = {}
    for kind, extra in (("old", ["--barrier=flip"]), ("new", [])):
        if run(tool, extra + write) != 0:
            sys.exit("kill-commit.py: a run failed")
        pairs[kind] = tuple(open(n, "rb").read() for n in PAIR)
    env = dict(os.environ, LD_PRELOAD=so, KILLAT_COUNT="calls")
    if os.path.exists("calls"):
        os.remove("calls")
    if run(tool, write, env) != 0:
        sys.exit("kill-commit.py: a counted run failed")
    # A line from each process (the tool rewrites in a child): the
    # largest count is the process that writes the files.
    calls = max(int(line) for line in open("calls"))
    os.remove("calls")
    after_kill = {"old": 0, "new": 0, "mixed": 0, "journal": 0}
    after_next = {"old": 0, "new": 0, "mixed": 0, "left": 0}
    for n in range(1, calls + 1):
        for name, data in zip(PAIR, pairs["old"]):
            with open(name, "wb") as f:
                f.write(data)
        env = dict(os.environ, LD_PRELOAD=so, KILLAT_NTH=str(n))
        run(tool, write, env)
        s = state(pairs["old"], pairs["new"])
        after_kill[s] += 1
        after_kill["journal"] += s == "mixed" and any(
            e.endswith("-commit") for e in os.listdir("."))
        if run(tool, ["-o", "other.cl", "--constraints", "other.json", "--",
                      src]) != 0:
            sys.exit("kill-commit.py: the next run failed")
        after_next[state(pairs["old"], pairs["new"])] += 1
        left = set(os.listdir(".")) - KEEP
        after_next["left"] += len(left)
        for name in left:  # so that the next round starts clean
            os.remove(name)
    print("calls: %d" % calls)
    print("after the kill: old %(old)d, new %(new)d, mixed %(mixed)d, of "
          "which a commit left to finish %(journal)d" % after_kill)
    print("after the next run: old %(old)d, new %(new)d, mixed %(mixed)d, "
          "files left %(left)d" % after_next)


main()
