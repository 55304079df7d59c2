"""scripts/test-cpu.py: runs lit as scripts/check.sh does and says how
much processor time each test took (user and system, of every process it
waited for), which on a machine of two cores is what CI's time is made
of: a test's wall time depends on what ran beside it, its processor
time much less.

usage: python3 scripts/test-cpu.py OUT.tsv [LIT ARGUMENTS...]

Appends one line per test to OUT.tsv, "user<TAB>system<TAB>wall<TAB>name"
(seconds), then prints the tests by processor time, most first, with the
sum. For example, the plain suite as CI runs it, on a cold PoCL cache:

    XDG_CACHE_HOME=$(mktemp -d) python3 scripts/test-cpu.py plain.tsv \\
        -s --param sanitizer-build-follows=1 build/test
"""
import os
import resource
import sys

sys.path.insert(0, "/usr/lib/llvm-14/build/utils/lit")
import lit.main  # noqa: E402
import lit.worker  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(next(line for line in __doc__.splitlines()
                      if line.startswith("usage:")))
    out = sys.argv.pop(1)
    run_one = lit.worker._execute

    # lit runs each test in a worker process of its own pool, one test at
    # a time, and waits for every command the test starts: the worker's
    # children's times grow by exactly the test's.
    def timed(test, lit_config):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = run_one(test, lit_config)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(out, "a", encoding="utf-8") as f:
            f.write("%.1f\t%.1f\t%.1f\t%s\n" % (
                after.ru_utime - before.ru_utime,
                after.ru_stime - before.ru_stime, result.elapsed,
                test.getFullName()))
        return result

    lit.worker._execute = timed
    try:
        lit.main.main()
    except SystemExit as e:
        status = e.code
    else:
        status = 0
    rows = []
    with open(out, encoding="utf-8") as f:
        for line in f:
            user, system, wall, name = line.rstrip("\n").split("\t")
            rows.append((float(user) + float(system), float(system),
                         float(wall), name))
    rows.sort(reverse=True)
    print("cpu_s  sys_s  wall_s  test")
    for cpu, system, wall, name in rows:
        print("%6.1f %6.1f %7.1f  %s" % (cpu, system, wall, name))
    print("%6.1f %6.1f %7.1f  (sum of %d tests)" % (
        sum(r[0] for r in rows), sum(r[1] for r in rows),
        sum(r[2] for r in rows), len(rows)))
    sys.exit(status)


if __name__ == "__main__":
    main()
