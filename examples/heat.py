#!/usr/bin/env python3
"""The bundled example in Python: heat.cl, rewritten by gsync-rewrite, run
through the gsync module with PyOpenCL on the first OpenCL device, and
checked against the same computation in numpy.

usage: heat.py [--groups G] [--local L] [--steps S]
               [REWRITTEN.cl CONSTRAINTS.json]

Without files it rewrites heat.cl (next to this script) itself, with the
gsync-rewrite on PATH or named in $GSYNC_REWRITE.
"""
import argparse
import os
import sys

# First: where numpy or PyOpenCL is missing (a python3 other than the one
# python3-pyopencl is for), its error says which python3 to run.
import gsync

import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402

N = 4096
ALPHA = np.float32(0.25)


def reference(u, steps):
    """The heat steps on the CPU, in float32 as the kernel computes them."""
    u = u.copy()
    for _ in range(steps):
        u = u + ALPHA * (np.roll(u, 1) - np.float32(2) * u + np.roll(u, -1))
    return u


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, default=256)
    ap.add_argument("--local", type=int, default=64)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("files", nargs="*", metavar="FILE")
    a = ap.parse_args(argv)
    if len(a.files) == 2:
        prog = gsync.load(a.files[1], source_path=a.files[0])
    elif not a.files:
        here = os.path.dirname(os.path.abspath(__file__))
        prog = gsync.rewrite(os.path.join(here, "heat.cl"))
    else:
        ap.error("give both REWRITTEN.cl and CONSTRAINTS.json, or neither")

    dev = cl.get_platforms()[0].get_devices()[0]
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    built = prog.build(ctx)  # checks the device, then builds
    heat = prog.kernel(queue, built.heat, max_groups=a.groups)

    u0 = np.zeros(N, np.float32)
    u0[N // 2 - 63:N // 2 + 64] = 100
    mf = cl.mem_flags
    u = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=u0)
    tmp = cl.Buffer(ctx, mf.READ_WRITE, u0.nbytes)
    # One launch; a barrier that waits past the spin limit raises
    # gsync.LaunchAborted naming the barrier.
    info = heat(queue, a.groups, a.local, u, tmp, np.uint32(N),
                np.uint32(a.steps), ALPHA)
    got = np.empty_like(u0)
    cl.enqueue_copy(queue, got, u)

    worst = float(np.max(np.abs(got - reference(u0, a.steps))))
    print(f"device:       {dev.name}")
    print(f"launched:     {a.groups} work-groups x {a.local} work-items, "
          "one launch")
    print(f"took part:    {info.participants} work-group"
          f"{'' if info.participants == 1 else 's'} of the {a.groups} launched")
    if info.note:  # fewer than launched: why, and what it means for ids
        print(f"note:         {info.note}")
    print(f"barriers:     {2 * a.steps} global barriers per launch")
    ok = worst < 1e-3
    print(f"result:       {'matches the numpy reference' if ok else 'WRONG'} "
          f"(largest difference: {worst:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
