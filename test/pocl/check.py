"""Checks the kernels of docs/pocl.md, section 6, that PoCL's work-group
compiler gets wrong, on the OpenCL device at hand, and that the same
kernels with anchors, as the tool writes them, are right.

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
  exit-join.cl      two returns around a barrier and the kernel's end
                    meet in one block: with a local size of 1x2x4 the
                    `if (i == 0)` block after them runs twice, at every
                    optimisation level: f[0] must be 1
  leader-ids.cl     after a barrier whose leader does an atomic, a 4x4
                    group's reduction into lb[linear local id] keeps one
                    work-item of each row: f[0] must count the a[i] > 100

The first four are PoCL adding a barrier at the top of the blocks that
lead only to a barrier not every path reaches, stopping its climb at a
block that holds only a barrier, and so putting its barrier inside a
branch not every work-item takes; the fifth is its tail replication
copying the code after such a join once per way in; the sixth is a
work-item id queried after such a barrier coming out as another work-item's. Each kernel runs as
it is, optimised and with -cl-opt-disable, and is reported as
"reproduces" or "does not reproduce" (a fixed PoCL does not fail it).
Then each runs anchored, as the tool writes the output: a statement no
compiler can move (here a volatile store; the tool's gsync_anchor() is a
volatile read) after every work-group barrier, after every statement
that holds a return, at the top of every loop body that reaches a
barrier and at the end of the kernel, and get_local_id() and
get_global_id() read through a volatile, as the tool's prelude has them
wherever it has anchors. That form must be right at both
optimisation levels; so must the first four with the anchors compiled
out (-Dno_anchors) at -cl-opt-disable, while optimised every kernel must
fail with them compiled out, or the anchors are not what makes the
difference and the check says so. Exit status 1 if one does not hold.

usage: check.py [KERNELS_DIR]"""
import os
import re
import sys
import warnings

import numpy as np
import pyopencl as cl

warnings.simplefilter("ignore")

ANCHOR = ("#ifdef no_anchors\n#define anchor() ((void)0)\n#else\n"
          "void anchor(void) { volatile int a; a = 0; }\n"
          "size_t fresh_local_id(uint d) {\n"
          "  volatile size_t id = get_local_id(d);\n  return id;\n}\n"
          "size_t fresh_global_id(uint d) {\n"
          "  volatile size_t id = get_global_id(d);\n  return id;\n}\n"
          "#define get_local_id(d) fresh_local_id(d)\n"
          "#define get_global_id(d) fresh_global_id(d)\n#endif\n")


def anchored(src):
    """src with anchors where the tool writes them."""
    out, n = re.subn(r"(\n\s*barrier\(CLK_[A-Z_ |]*\);)", r"\1 anchor();",
                     src)
    assert n > 0
    out = re.sub(r"(\n\s*if \([^\n]*\)\n\s*return;)", r"\1 anchor();", out)
    out = out.replace("  for (; running(c);) {",
                      "  for (; running(c);) { anchor();")
    # The kernel (each file's last function) ends with one.
    out, n = re.subn(r"\n}\s*$", "\n  anchor();\n}\n", out)
    assert n == 1
    return ANCHOR + out


def run(ctx, queue, code, options, local, n, a0):
    """One work-group of local work-items (a tuple); returns f[0]."""
    mf = cl.mem_flags
    prg = cl.Program(ctx, code).build(options=options)

    def buf(host):
        return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
    f = np.zeros(16, np.int32)
    fb = buf(f)
    prg.k(queue, local, local, buf(a0), buf(np.zeros(n, np.int32)), fb,
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
    # name, local size, n, a, f[0] expected, whether -cl-opt-disable alone
    # is right on PoCL 3.1
    cases = [("early-return.cl", (16,), 14, a0[:14], 14, True),
             ("leader-block.cl", (8,), 218, a0,
              int(np.count_nonzero(a0 > 100)), True),
             ("loop-header.cl", (16,), 10, a0[:10],
              int(a0[:10].max()).bit_length(), True),
             ("entry-exit.cl", (16,), 100, a0[:100],
              int(np.count_nonzero(a0[:100] & 1)), True),
             ("exit-join.cl", (1, 2, 4), 8, a0[:8], 1, False),
             ("leader-ids.cl", (4, 4), 15, a0[:15],
              int(np.count_nonzero(a0[:15] > 100)), True)]
    failed = 0
    teeth = 0
    for name, local, n, a, want, o0_right in cases:
        with open(os.path.join(kernels, name), encoding="utf-8") as f:
            src = f.read()
        got = {o: run(ctx, queue, src, o, local, n, a)
               for o in ("", "-cl-opt-disable")}
        bug = any(v != want for v in got.values())
        verdict = "reproduces" if bug else "does not reproduce"
        print(f"{name}: the bug {verdict}"
              f" (f[0] {got['']} optimised, {got['-cl-opt-disable']} with "
              f"-cl-opt-disable, {want} expected)")
        fixed = anchored(src)
        levels = ["", "-cl-opt-disable"]
        if o0_right:
            levels.append("-cl-opt-disable -Dno_anchors")
        for o in levels:
            v = run(ctx, queue, fixed, o, local, n, a)
            ok = v == want
            failed += not ok
            print(f"{name}: anchored {o or '-O2'}: f[0] {v}: "
                  f"{'right' if ok else 'WRONG'}")
        teeth += run(ctx, queue, fixed, "-Dno_anchors", local, n, a) != want
    print(f"anchors compiled out, optimised: {teeth} of {len(cases)} wrong"
          + ("" if teeth == len(cases) else
             ": the check cannot tell the anchors' effect"))
    return 1 if failed or teeth != len(cases) else 0


if __name__ == "__main__":
    sys.exit(main())
