"""test/utils/fault-inject.py: every allocation failure ends in a clear
error and no output.

    fault-inject.py SHIM TMP TOOL ARGS...

Runs `TOOL ARGS... -o TMP/out.cl --constraints TMP/out.json -MD` once to
count the allocations the tool itself makes (SHIM is
test/utils/failmalloc.c built as a shared library; the count is that of
the process that makes the most, the child that rewrites), then once for
every N from 1 to that count with the N-th allocation failing (in each
process that makes that many). Each of those runs
must exit with status 4, say "error: out of memory" and leave none of the
three output files. Prints one line per run that does not, then
"fault injection: N allocations, F bad"; exits 1 if any was bad.
"""
import os
import subprocess
import sys


def main():
    shim, tmp, tool, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(tmp, exist_ok=True)
    outs = [os.path.join(tmp, n) for n in ("out.cl", "out.json", "out.d")]
    cmd = [tool] + args + ["-o", outs[0], "--constraints", outs[1], "-MD"]
    count_file = os.path.join(tmp, "count")

    def run(env):
        for o in outs:
            if os.path.exists(o):
                os.remove(o)
        env = dict(os.environ, LD_PRELOAD=shim, **env)
        # The limit is subprocess's: the shim must load into the tool only.
        try:
            return subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True,
                                  timeout=60)
        except subprocess.TimeoutExpired as e:
            return subprocess.CompletedProcess(cmd, -1, "timed out: %s" %
                                               (e.output or ""))

    if os.path.exists(count_file):
        os.remove(count_file)
    r = run({"FAILMALLOC_COUNT": count_file})
    with open(count_file) as f:
        total = max(int(line) for line in f)
    if r.returncode != 0 or total == 0:
        print("fault injection: the run without a failure failed (exit %d, "
              "%d allocations):\n%s" % (r.returncode, total, r.stdout))
        return 1
    bad = 0
    for n in range(1, total + 1):
        r = run({"FAILMALLOC_NTH": str(n)})
        left = [os.path.basename(o) for o in outs if os.path.exists(o)]
        if (r.returncode != 4 or "error: out of memory" not in r.stdout or
                left):
            bad += 1
            print("allocation %d: exit %d, files left %s: %s" %
                  (n, r.returncode, left, r.stdout.strip()[-300:]))
    print("fault injection: %d allocations, %d bad" % (total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
