"""Differential test of the rewrite on the OpenCL device at hand (PoCL in
the test suite): for each seed, a kernel from gen.py runs

  ref        global_barrier() as barrier() in one work-group, built with
             -cl-opt-disable: the reference
  ref-O2     the same, optimised
  nd-O2/O0   the --no-discovery output, one work-group, optimised and not
  nd2-O2     the same in two work-groups (grid-stride kernels only)
  spin0-O2   --no-discovery --spin-limit=0 (no abort machinery at all)
  disc       the default output (discovery), 17 work-groups launched
             (grid-stride kernels only: discovery may leave groups out),
             built with the options the host libraries give (on PoCL
             that includes -cl-opt-disable: docs/pocl.md, section 6)
  disc-O2    the same built optimised, only with --disc-O2: PoCL 3.1
             miscompiles some (seeds 124, 133, 135), which is why

and every result (a, b and f[0..2] after the launch) must equal the
reference. A variant whose state shows an abort, or that differs, fails the
seed with its name; so does a rewrite the tool refuses for any reason but
the uniformity checker's (REFUSED: conservative, not wrong).

usage: run.py --tool GSYNC_REWRITE --work DIR [--disc-O2] [--kernel FILE]...
              SEED...
Exit status 1 if any seed failed."""
import argparse
import json
import os
import random
import subprocess
import sys
import warnings

import numpy as np
import pyopencl as cl

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import gen  # noqa: E402
import gsync  # noqa: E402

warnings.simplefilter("ignore")  # PyOpenCL's build-log warnings
REFERENCE = ("#define global_barrier() "
             "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)\n")


class Refused(Exception):
    """The uniformity checker refused the kernel: it could not prove that
    every work-item reaches a barrier (gen.py's slot rotation through a
    private pointer is beyond it). A refusal is no wrong result."""


class Launcher:
    """Runs a kernel on the inputs of one seed."""

    def __init__(self, ctx, queue, a0, n, k, local):
        self.ctx, self.queue = ctx, queue
        self.a0, self.n, self.k, self.local = a0, n, k, local

    def run(self, code, options, groups, constraints):
        ctx, mf = self.ctx, cl.mem_flags
        prg = cl.Program(ctx, code).build(options=options)

        def buf(host):
            return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                             hostbuf=host)
        a, b = self.a0.copy(), np.zeros(self.n, np.int32)
        f = np.zeros(16, np.int32)
        bufs = [buf(a), buf(b), buf(f)]
        args = bufs + [np.int32(self.n), np.int32(self.k)]
        state = None
        if constraints is not None:
            size = constraints["kernels"][0]["state_arg"]["bytes"]
            words = (size["fixed"] + size["per_group"] * groups + 3) // 4
            state = np.zeros(words, np.uint32)
            args.append(buf(state))
        prg.k(self.queue, (groups * self.local,), (self.local,), *args)
        for host, dev in zip([a, b, f], bufs):
            cl.enqueue_copy(self.queue, host, dev)
        note = ""
        if state is not None:
            cl.enqueue_copy(self.queue, state, args[-1])
            if state[10] != 0:
                note = " (aborted: record " + str(list(state[10:18])) + ")"
        self.queue.finish()
        return a.tobytes() + b.tobytes() + f[:3].tobytes(), note


def rewrite(tool, src_path, name, flags):
    """Runs the tool; returns (code, constraints) or raises with its error;
    the constraints' path is code's with .json added."""
    out = f"{src_path[:-3]}.{name}.cl"
    proc = subprocess.run([tool, *flags, src_path, "-o", out,
                           "--constraints", out + ".json"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        first = proc.stderr.strip().splitlines()[0]
        if "not reached by every work-item" in first or \
                "not every work-item reaches it" in first:
            raise Refused(f"{name}: {first}")
        raise RuntimeError(f"{name}: the tool refused: {first}")
    with open(out, encoding="utf-8") as code, \
            open(out + ".json", encoding="utf-8") as cons:
        return code.read(), json.load(cons)


def check_seed(tool, work, seed, ctx, queue, disc_o2=False):
    """Returns a line that starts with OK, FAIL or REFUSED."""
    kernel = gen.Kernel(seed)
    return check_kernel(tool, work, f"seed {seed}", f"seed{seed}",
                        kernel.source(), kernel.guarded,
                        random.Random(seed * 7 + 1), ctx, queue, disc_o2)


def check_file(tool, work, path, ctx, queue, disc_o2=False):
    """The same for a kernel written by hand in gen.py's signature, in
    grid-stride style; its inputs come from the random stream of seed 6
    (eight work-items a group: the quickest for PoCL to compile)."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    name = os.path.basename(path)[:-3]
    return check_kernel(tool, work, name, name, src, False, random.Random(6),
                        ctx, queue, disc_o2)


def check_kernel(tool, work, label, stem, src, guarded, r, ctx, queue,
                 disc_o2=False):
    """Runs every variant of src against the reference on inputs drawn
    from r; returns a line that starts with OK, FAIL or REFUSED."""
    local = r.choice([8, 16, 32, 64])
    n = r.randint(local // 2 + 1, local) if guarded else r.randint(40, 300)
    k = r.randint(1, 3)
    a0 = np.array([r.randint(0, 1000) for _ in range(n)], np.int32)
    src_path = os.path.join(work, f"{stem}.cl")
    with open(src_path, "w", encoding="utf-8") as out:
        out.write(src)
    run = Launcher(ctx, queue, a0, n, k, local).run
    head = f"{label} ({'guarded' if guarded else 'grid-stride'}, " \
           f"local size {local}, n {n}, k {k})"
    try:
        results = {"ref-O2": run(REFERENCE + src, "", 1, None)}
        ref, _ = run(REFERENCE + src, "-cl-opt-disable", 1, None)
        code, cons = rewrite(tool, src_path, "nd", ["--no-discovery"])
        results["nd-O2"] = run(code, "", 1, cons)
        results["nd-O0"] = run(code, "-cl-opt-disable", 1, cons)
        if not guarded:
            results["nd2-O2"] = run(code, "", 2, cons)
        code, cons = rewrite(tool, src_path, "spin0",
                             ["--no-discovery", "--spin-limit=0"])
        results["spin0-O2"] = run(code, "", 1, cons)
        if not guarded:
            code, cons = rewrite(tool, src_path, "disc", [])
            lib = gsync.load(f"{src_path[:-3]}.disc.cl.json")
            results["disc"] = run(code, lib.build_options(ctx.devices[0]),
                                  17, cons)
            if disc_o2:
                results["disc-O2"] = run(code, "", 17, cons)
    except Refused as err:
        return f"REFUSED {head}: {err}"
    except (RuntimeError, cl.Error) as err:
        return f"FAIL {head}: {err}"
    bad = [name + note for name, (res, note) in results.items()
           if res != ref or note]
    if bad:
        return f"FAIL {head}: differs from the reference: {' '.join(bad)}"
    return f"OK {head}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--disc-O2", dest="disc_o2", action="store_true",
                        help="also the discovery output built optimised")
    parser.add_argument("--kernel", action="append", default=[],
                        help="also a kernel file written by hand")
    parser.add_argument("seeds", type=int, nargs="*")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    failed = 0
    o2 = args.disc_o2
    lines = [lambda s=s: check_seed(args.tool, args.work, s, ctx, queue, o2)
             for s in args.seeds]
    lines += [lambda p=p: check_file(args.tool, args.work, p, ctx, queue, o2)
              for p in args.kernel]
    for check in lines:
        line = check()
        print(line, flush=True)
        failed += line.startswith("FAIL")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
