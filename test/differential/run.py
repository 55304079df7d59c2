"""Differential test of the rewrite on the OpenCL device at hand (PoCL in
the test suite): for each seed, a kernel from gen.py runs

  ref        global_barrier() as barrier() in one work-group, built with
             -cl-opt-disable: the reference
  nd         the --no-discovery output, one work-group
  nd2        the same in two work-groups (grid-stride kernels only)
  spin0      --no-discovery --spin-limit=0 (no abort machinery at all)
  disc       the default output (discovery), 17 work-groups launched
             (grid-stride kernels only: discovery may leave groups out)

each built with the options the host libraries give (on PoCL they include
-cl-opt-disable: docs/pocl.md, section 6); with --O2 also each built
optimised (ref-O2, nd-O2, nd2-O2, spin0-O2, disc-O2), which is what a
host that builds the output its own way gets, and with --O2-only those
alone (PoCL 3.1 miscompiles some: seeds 124, 133 and 135 with discovery;
seed 148 even the reference),

and every result (a, b and f[0..2] after the launch) must equal the
reference. A variant whose state shows an abort, or that differs, fails the
seed with its name; so does a rewrite the tool refuses for any reason but
the uniformity checker's (REFUSED: conservative, not wrong).

usage: run.py --tool GSYNC_REWRITE --work DIR [--O2 | --O2-only]
              [--kernel FILE]...
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


def check_seed(tool, work, seed, ctx, queue, o2=None):
    """Returns a line that starts with OK, FAIL or REFUSED."""
    kernel = gen.Kernel(seed)
    return check_kernel(tool, work, f"seed {seed}", f"seed{seed}",
                        kernel.source(), kernel.guarded,
                        random.Random(seed * 7 + 1), ctx, queue, o2)


def check_file(tool, work, path, ctx, queue, o2=None):
    """The same for a kernel written by hand in gen.py's signature, in
    grid-stride style; its inputs come from the random stream of seed 6
    (eight work-items a group: the quickest for PoCL to compile)."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    name = os.path.basename(path)[:-3]
    return check_kernel(tool, work, name, name, src, False, random.Random(6),
                        ctx, queue, o2)


def check_kernel(tool, work, label, stem, src, guarded, r, ctx, queue,
                 o2=None):
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
        ref, _ = run(REFERENCE + src, "-cl-opt-disable", 1, None)
        results = {}
        if o2:
            results["ref-O2"] = run(REFERENCE + src, "", 1, None)
        variants = [("nd", ["--no-discovery"], [1, 2]),
                    ("spin0", ["--no-discovery", "--spin-limit=0"], [1]),
                    ("disc", [], [17])]
        for name, flags, launches in variants:
            if guarded and name == "disc":
                continue
            code, cons = rewrite(tool, src_path, name, flags)
            lib = gsync.load(f"{src_path[:-3]}.{name}.cl.json")
            builds = []
            if o2 != "only":
                builds.append(("", lib.build_options(ctx.devices[0])))
            if o2:
                builds.append(("-O2", ""))
            for groups in launches:
                if guarded and groups > 1:
                    continue
                label = name + ("2" if groups == 2 else "")
                for suffix, options in builds:
                    results[label + suffix] = run(code, options, groups, cons)
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
    parser.add_argument("--O2", dest="o2", action="store_const",
                        const="also", default=None,
                        help="also every variant built optimised")
    parser.add_argument("--O2-only", dest="o2", action="store_const",
                        const="only",
                        help="every variant built optimised, no other")
    parser.add_argument("--kernel", action="append", default=[],
                        help="also a kernel file written by hand")
    parser.add_argument("seeds", type=int, nargs="*")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    failed = 0
    tool, work, o2 = args.tool, args.work, args.o2
    lines = [lambda s=s: check_seed(tool, work, s, ctx, queue, o2)
             for s in args.seeds]
    lines += [lambda p=p: check_file(tool, work, p, ctx, queue, o2)
              for p in args.kernel]
    for check in lines:
        line = check()
        print(line, flush=True)
        failed += line.startswith("FAIL")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
