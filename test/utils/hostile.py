"""test/utils/hostile.py: hostile inputs end within seconds, in a clear
error or in success, never in a signal, a hang or a partial output.

    hostile.py TOOL TMP SET

SET names a table below: 'deep', inputs deep or long enough to find what
grows faster than the input. Each case is written into a directory of
its own under TMP and TOOL runs there on it with `-o out.cl` (killed at
twice the case's time). A case passes when TOOL exits with the status the
case expects (a signal never passes), within the case's time, and after
an error has printed a message naming the input and written no out.cl.
Prints "ok NAME" or "FAIL NAME: why" for each case, then "hostile SET: N
cases, F bad"; exits 1 if any was bad.
"""
import os
import re
import subprocess
import sys
import time

KERNEL = "kernel void k(global int *a) {{ a[0] = {}; }}\n"


def chain(n, first, link):
    """n macro definitions M0 .. M<n-1>: M0 is first, each other M<i> is
    link(i)."""
    return "#define M0 %s\n" % first + "".join(
        "#define M%d %s\n" % (i, link(i)) for i in range(1, n))


# name: (the input's text, the exit status expected, at most this many
# seconds). The macro chains took time quadratic in their length in the
# plan and the find stages: 16,000 links took 4 s, and 64,000 would take
# a minute. Each barrier site's line and column was counted from the
# start of the input: 40,000 sites took 10 s.
N_MACROS = 64000
N_SITES = 80000
DEEP = {
    # A chain used in a kernel that reaches no barrier.
    "macro-chain": (chain(N_MACROS, "1", lambda i: "M%d" % (i - 1)) +
                    KERNEL.format("M%d" % (N_MACROS - 1)), 0, 10),
    # The same chain spelling an id in a kernel that takes part.
    "macro-chain-barrier": (
        chain(N_MACROS, "get_global_id(0)", lambda i: "M%d" % (i - 1)) +
        "kernel void k(global int *a) { a[M%d] = 1; global_barrier(); }\n" %
        (N_MACROS - 1), 0, 10),
    # A chain each of whose links names the next one, the last spelling
    # kernel.
    "kernel-chain": ("".join("#define K%d K%d\n" % (i, i + 1)
                             for i in range(N_MACROS)) +
                     "#define K%d kernel\n" % N_MACROS +
                     "K0 void k(global int *a) { a[0] = 1; }\n", 0, 10),
    # A kernel of 80,000 barriers.
    "barrier-sites": ("kernel void k(global int *a) {\n" +
                      "  global_barrier();\n" * N_SITES + "}\n", 0, 10),
}

SETS = {"deep": DEEP}


def run_case(tool, tmp, name, text, status, seconds):
    """Runs one case; returns None if it passed, else why not."""
    case = os.path.join(tmp, name)
    os.makedirs(case, exist_ok=True)
    with open(os.path.join(case, "in.cl"), "w") as f:
        f.write(text)
    out = os.path.join(case, "out.cl")
    if os.path.exists(out):
        os.remove(out)
    start = time.monotonic()
    try:
        r = subprocess.run([tool, "in.cl", "-o", "out.cl"], cwd=case,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           errors="replace", timeout=2 * seconds)
    except subprocess.TimeoutExpired:
        return "still running after %d s" % (2 * seconds)
    took = time.monotonic() - start
    err = r.stderr.strip()
    if r.returncode < 0:
        return "killed by signal %d: %s" % (-r.returncode, err[-300:])
    if r.returncode != status:
        return "exit %d, expected %d: %s" % (r.returncode, status, err[-300:])
    if took > seconds:
        return "took %.1f s, more than %d s" % (took, seconds)
    if status and not re.search(r"error: .*in\.cl", err):
        return "no error naming the input: %s" % err[-300:]
    if status and os.path.exists(out):
        return "wrote out.cl after an error"
    return None


def main():
    tool, tmp, which = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    bad = 0
    cases = SETS[which]
    for name, (text, status, seconds) in cases.items():
        why = run_case(tool, tmp, name, text, status, seconds)
        if why:
            bad += 1
            print("FAIL %s: %s" % (name, why))
        else:
            print("ok %s" % name)
    print("hostile %s: %d cases, %d bad" % (which, len(cases), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
