"""Checks the virtual-grid search of the prelude (gsync_ctx_grid) against
a brute-force reference, for every number of admitted groups P from 1 to
the launch's count, in launches of several shapes.

The prelude comes from the tool's own output for a one-line kernel; a
test kernel appended to it runs gsync_ctx_grid in every work-group with
P = 1 + the group's linear id (as if discovery had admitted P groups) and
writes the grid it chose. The reference enumerates every grid
v0 x v1 x v2 with v_d <= n_d and v0 v1 v2 <= P (for each v0, v1 only the
largest v2 can be best) and keeps the best by docs/nd.md's rules: the
largest product, then the fewest rounds, then the widest in dimension 0,
then in dimension 1. Built optimised, with -cl-opt-disable, and with
-Dgsync_grid_shared (the search a GPU runs, its work-items sharing the
candidates; PoCL's own is the leader's), on the first OpenCL device. Prints one line per shape and build; exit status 1
if any grid differs.

usage: grid-table.py TOOL WORKDIR"""
import os
import subprocess
import sys
import warnings

import numpy as np
import pyopencl as cl

warnings.simplefilter("ignore")

KERNEL = """
kernel void grid_table(global uint *out, global uint *scratch) {
  local uint gsync_shared[GSYNC_SHARED_WORDS];
  struct gsync_ctx c;
  gsync_ctx_begin(&c, scratch, gsync_shared);
  uint g = gsync_launch_group();
  c.group = 0u;
  c.groups = g + 1u;
  int in = gsync_ctx_grid(&c, gsync_shared);
  if (gsync_leader()) {
    out[4u * g] = (uint)in;
    out[4u * g + 1u] = c.n[0];
    out[4u * g + 2u] = c.n[1];
    out[4u * g + 3u] = c.n[2];
  }
}

kernel void root_table(global const uint *p, global uint *out) {
  uint i = get_global_id(0);
  out[2u * i] = gsync_root(p[i], 2u);
  out[2u * i + 1u] = gsync_root(p[i], 3u);
}
"""

# (groups per dimension, local size): one work-item to 64, 2-D and 3-D,
# one dimension far wider than the others.
SHAPES = [((12, 10, 8), (4, 1, 1)),
          ((40, 30, 1), (8, 8, 1)),
          ((5, 6, 7), (2, 2, 2)),
          ((100, 3, 2), (1, 1, 1)),
          ((1, 17, 13), (3, 1, 1)),
          ((70, 70, 1), (16, 1, 1))]


def ceil_div(a, b):
    return -(-a // b)



def reference(n, p, v0, v1):
    """The best grid for P = p; v0, v1 every pair of extents (arrays)."""
    total = n[0] * n[1] * n[2]
    if total <= p:
        return tuple(n)
    if n[1] * n[2] == 1:
        return (p, 1, 1)
    v2 = np.minimum(n[2], p // (v0 * v1))
    ok = v2 > 0
    a, b, c = v0[ok], v1[ok], v2[ok]
    rounds = np.minimum(ceil_div(n[0], a) * ceil_div(n[1], b) *
                        ceil_div(n[2], c), 0xffffffff)
    # np.lexsort sorts by its last key first: product, then fewest rounds,
    # then the widest in dimension 0, then in dimension 1.
    best = np.lexsort((-b, -a, rounds, -(a * b * c)))[0]
    return (int(a[best]), int(b[best]), int(c[best]))


def roots():
    """Inputs of gsync_root: 0, 1, every perfect square and cube near a
    power of two and one each side, and the largest uint."""
    ps = {0, 1, 2, 0xffffffff, 0xfffffffe}
    for e in range(1, 33):
        for base in (round((2 ** e) ** 0.5), round((2 ** e) ** (1 / 3))):
            for r in range(max(base - 2, 1), base + 3):
                for v in (r * r, r * r * r):
                    for d in (-1, 0, 1):
                        if 0 <= v + d <= 0xffffffff:
                            ps.add(v + d)
    return sorted(ps)


def iroot(p, k):
    r = int(round(p ** (1 / k)))
    while r > 0 and r ** k > p:
        r -= 1
    while (r + 1) ** k <= p:
        r += 1
    return r


def main():
    tool, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "one.cl")
    with open(src, "w") as f:
        f.write("kernel void one(global uint *a) { global_barrier(); }\n")
    out = os.path.join(work, "one.out.cl")
    subprocess.run([tool, src, "-o", out, "--constraints",
                    os.path.join(work, "one.json")], check=True)
    with open(out) as f:
        text = f.read() + KERNEL
    ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    bad = 0
    mf = cl.mem_flags
    for options in ([], ["-cl-opt-disable"], ["-Dgsync_grid_shared"]):
        prog = cl.Program(ctx, text).build(options=options)
        name = " ".join(options) or "optimised"
        ps = np.array(roots(), dtype=np.uint32)
        got = np.zeros(2 * len(ps), dtype=np.uint32)
        pbuf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=ps)
        obuf = cl.Buffer(ctx, mf.WRITE_ONLY, got.nbytes)
        prog.root_table(queue, (len(ps),), None, pbuf, obuf)
        cl.enqueue_copy(queue, got, obuf)
        wrong = [(int(p), int(got[2 * i]), int(got[2 * i + 1]))
                 for i, p in enumerate(ps)
                 if (got[2 * i], got[2 * i + 1]) != (iroot(int(p), 2),
                                                     iroot(int(p), 3))]
        if wrong:
            bad += 1
            print(f"{name} gsync_root: {len(wrong)} of {len(ps)} wrong, "
                  f"first p={wrong[0][0]}: {wrong[0][1:]}")
        else:
            print(f"{name} gsync_root: {len(ps)} square and cube roots right")
        for n, local in SHAPES:
            count = n[0] * n[1] * n[2]
            host = np.zeros(4 * count, dtype=np.uint32)
            buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                            hostbuf=host)
            scratch = cl.Buffer(ctx, mf.READ_WRITE, 4096)
            glob = tuple(n[d] * local[d] for d in range(3))
            prog.grid_table(queue, glob, local, buf, scratch)
            cl.enqueue_copy(queue, host, buf)
            queue.finish()
            v0, v1 = np.meshgrid(np.arange(1, n[0] + 1, dtype=np.int64),
                                 np.arange(1, n[1] + 1, dtype=np.int64),
                                 indexing="ij")
            v0, v1 = v0.ravel(), v1.ravel()
            wrong = []
            for g in range(count):
                want = reference(n, g + 1, v0, v1)
                got = tuple(int(v) for v in host[4 * g + 1:4 * g + 4])
                if host[4 * g] != 1 or got != tuple(want):
                    wrong.append((g + 1, got, want))
            shape = "x".join(map(str, n))
            lsize = "x".join(map(str, local))
            if wrong:
                bad += 1
                p, got, want = wrong[0]
                print(f"{name} {shape} local {lsize}: {len(wrong)} of {count}"
                      f" grids wrong, first P={p}: {got}, expected {want}")
            else:
                print(f"{name} {shape} local {lsize}: {count} grids right")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
