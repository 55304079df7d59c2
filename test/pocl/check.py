"""Checks the four PoCL kernel-compiler bugs of docs/pocl.md on the OpenCL
device at hand, and that the forms gsync-rewrite writes instead are right.

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
                    a leader test that clang computed once before a
                    barrier wrong after it: f[0] must count the odd a[i]

Each bug form runs optimised and with -cl-opt-disable, and is reported as
"reproduces" or "does not reproduce" (a fixed PoCL does not fail this).
Each workaround form (the same kernel as the tool writes it: no return;
the leader test through a volatile; the loop's guard at the end of its
body) must give the right answer at every optimisation level; the last
has no form without the exit, and its workaround is the build option
the host libraries add on PoCL, -cl-opt-disable, which must give the
right answer. Exit status 1 if one does not.

usage: check.py [KERNELS_DIR]"""
import os
import sys
import warnings

import numpy as np
import pyopencl as cl

warnings.simplefilter("ignore")


def early_return(src):
    """The early-return kernel and its workaround: the return removed."""
    fixed = src.replace("  if (*c->left)\n    return;\n", "")
    assert fixed != src
    return fixed


def leader_block(src):
    """The leader-block kernel and its workaround: the barrier's (and the
    join's) leader test through a volatile, as gsync_leader() does."""
    fixed = ("int leader(void) { volatile uint l = get_local_id(0); "
             "return l == 0; }\n" + src)
    fixed = fixed.replace("  if (get_local_id(0) == 0) {\n    uint before",
                          "  if (leader()) {\n    uint before")
    fixed = fixed.replace("get_group_id(0) == 0 && get_local_id(0) == 0",
                          "get_group_id(0) == 0 && leader()")
    assert fixed.count("leader())") == 2
    return fixed


def loop_header(src):
    """The loop-header kernel and its workaround: the guard moved from the
    loop's header to the end of its body."""
    fixed = src.replace("  for (; running(c);) {\n",
                        "  for (;;) {\n").replace(
        "      break;\n  }\n", "      break;\n    if (!running(c))\n"
        "      break;\n  }\n")
    assert fixed.count("running(c)") == 2
    return fixed


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
    cases = [("early-return.cl", early_return, 16, 14, a0[:14], 14),
             ("leader-block.cl", leader_block, 8, 218, a0,
              int(np.count_nonzero(a0 > 100))),
             ("loop-header.cl", loop_header, 16, 10, a0[:10],
              int(a0[:10].max()).bit_length()),
             ("entry-exit.cl", None, 16, 100, a0[:100],
              int(np.count_nonzero(a0[:100] & 1)))]
    failed = 0
    for name, workaround, local, n, a, want in cases:
        with open(os.path.join(kernels, name), encoding="utf-8") as f:
            src = f.read()
        got = {o: run(ctx, queue, src, o, local, n, a)
               for o in ("", "-cl-opt-disable")}
        bug = any(v != want for v in got.values())
        print(f"{name}: the bug {'reproduces' if bug else 'does not reproduce'}"
              f" (f[0] {got['']} optimised, {got['-cl-opt-disable']} with "
              f"-cl-opt-disable, {want} expected)")
        fixed = workaround(src) if workaround else src
        for o in ("", "-cl-opt-disable") if workaround else \
                ("-cl-opt-disable",):
            v = run(ctx, queue, fixed, o, local, n, a)
            ok = v == want
            failed += not ok
            print(f"{name}: workaround {o or '-O2'}: f[0] {v}: "
                  f"{'right' if ok else 'WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
