"""Checks the four PoCL kernel-compiler bugs of docs/pocl.md on the OpenCL
device at hand, and that the same kernels with anchors, as the tool
writes them, are right.

  early-return.cl   a `return` that is never taken, after a barrier whose
                    leader does atomics, loses the `if (i < n)` guard
                    after it: f[0] must be n
  leader-block.cl   a barrier helper whose work is done by
                    `get_local_id(0) == 0` makes a user's own
                    `if (get_local_id(0) == 0)` block run in every
                    work-item: f[0] must count the a[i] > 100 once
  loop-header.cl    a loop guarded in its header, `for (; running(c);)`,
                    whose body reaches such a barrier through a helper
                    that returns a value, ends after one round: f[0]
                    must count the rounds until every a[i] is halved to 0
  entry-exit.cl     an exit at the kernel's entry, as discovery's, makes
                    the user's `if (get_local_id(0) == 0)` after a
                    work-group barrier run in no work-item: f[0] must
                    count the odd a[i]

All four are one bug (docs/pocl.md, section 6): PoCL adds a barrier at
the top of the blocks that lead only to a barrier not every path
reaches, stops climbing at a block that holds only a barrier, and so puts
its barrier inside a branch not every work-item takes. Each kernel runs
as it is, optimised and with -cl-opt-disable, and is reported as
"reproduces" or "does not reproduce" (a fixed PoCL does not fail it).
Then each runs anchored, as the tool writes the output: a statement no
compiler can move (here a volatile store; the tool's gsync_anchor() is a
volatile read) after every work-group barrier, after every statement
that holds a return, and at the top of every loop body that reaches a
barrier. That form must be right at both optimisation levels; so must the
same with the anchors compiled out (-Dno_anchors) at -cl-opt-disable,
while optimised it must fail for at least one kernel, or the anchors are
not what makes the difference and the check says so. Exit status 1 if
one does not hold.

usage: check.py [KERNELS_DIR]"""
import os
import re
import sys
import warnings

import numpy as np
import pyopencl as cl

warnings.simplefilter("ignore")

ANCHOR = ("#ifdef no_anchors\n#define anchor() ((void)0)\n#else\n"
          "void anchor(void) { volatile int a; a = 0; }\n#endif\n")


def anchored(src):
    """src with anchors where the tool writes them."""
    out, n = re.subn(r"(\n\s*barrier\(CLK_[A-Z_ |]*\);)", r"\1 anchor();",
                     src)
    assert n > 0
    out = re.sub(r"(\n\s*if \([^\n]*\)\n\s*return;)", r"\1 anchor();", out)
    out = out.replace("  for (; running(c);) {",
                      "  for (; running(c);) { anchor();")
    return ANCHOR + out


def run(ctx, queue, code, options, local, n, a0):
    """One work-group of local work-items; returns f[0]."""
    mf = cl.mem_flags
    prg = cl.Program(ctx, code).build(options=options)

    def buf(host):
        return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
    f = np.zeros(16, np.int32)
    fb = buf(f)
    prg.k(queue, (local,), (local,), buf(a0), buf(np.zeros(n, np.int32)), fb,
          np.int32(n), np.int32(2), buf(np.zeros(1024, np.uint32)))
    cl.enqueue_copy(queue, f, fb)
    queue.finish()
    return int(f[0])


def main():
    kernels = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "kernels")
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    a0 = (np.arange(218, dtype=np.int32) * 37) % 1000
    cases = [("early-return.cl", 16, 14, a0[:14], 14),
             ("leader-block.cl", 8, 218, a0,
              int(np.count_nonzero(a0 > 100))),
             ("loop-header.cl", 16, 10, a0[:10],
              int(a0[:10].max()).bit_length()),
             ("entry-exit.cl", 16, 100, a0[:100],
              int(np.count_nonzero(a0[:100] & 1)))]
    failed = 0
    teeth = 0
    for name, local, n, a, want in cases:
        with open(os.path.join(kernels, name), encoding="utf-8") as f:
            src = f.read()
        got = {o: run(ctx, queue, src, o, local, n, a)
               for o in ("", "-cl-opt-disable")}
        bug = any(v != want for v in got.values())
        print(f"{name}: the bug {'reproduces' if bug else 'does not reproduce'}"
              f" (f[0] {got['']} optimised, {got['-cl-opt-disable']} with "
              f"-cl-opt-disable, {want} expected)")
        fixed = anchored(src)
        for o in ("", "-cl-opt-disable", "-cl-opt-disable -Dno_anchors"):
            v = run(ctx, queue, fixed, o, local, n, a)
            ok = v == want
            failed += not ok
            print(f"{name}: anchored {o or '-O2'}: f[0] {v}: "
                  f"{'right' if ok else 'WRONG'}")
        teeth += run(ctx, queue, fixed, "-Dno_anchors", local, n, a) != want
    print(f"anchors compiled out, optimised: {teeth} of {len(cases)} wrong"
          + ("" if teeth else ": the check cannot tell the anchors' effect"))
    return 1 if failed or not teeth else 0


if __name__ == "__main__":
    sys.exit(main())
