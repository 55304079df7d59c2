"""Differential test of the rewrite on the OpenCL device at hand (PoCL in
the test suite): for each seed, a kernel from gen.py runs

  ref        global_barrier() as barrier() in one work-group, built with
             -cl-opt-disable: the reference
  ref-O2     the same built optimised: if it differs from ref, the device
             miscompiles the input itself, and the seed is reported as
             INPUT (apart from the tool's results; its variants still run)
  disc       the default output (discovery), in 17 work-groups along
             dimension 0 for grid-stride kernels (discovery may leave
             groups out), in one otherwise
  nd         the --no-discovery output in one work-group
  nd2        the same in two work-groups (grid-stride kernels only)
  spin0      --no-discovery --spin-limit=0 (no abort machinery at all)

every output built as a host builds it: with the options libgsync gives
(gsync.Program.build_options: the -D and -I the constraints name, and no
-cl-opt-disable, on PoCL as anywhere: docs/pocl.md, section 6), so
optimised; with --O0 each also with -cl-opt-disable added (disc-O0, ...).
Every result (a, b and f[0..2] after the launch) must equal the
reference. A variant whose state shows an abort, or that differs, fails
the seed with its name; so does a rewrite the tool refuses for any reason
but the uniformity checker's (REFUSED: conservative, not wrong).

Each line starts with OK, FAIL, INPUT (ref-O2 differs from ref; the
variants that differ from ref are listed too) or REFUSED. --classic draws
the kernels gen.py drew before its 2-D and 3-D shapes, headers, Jacobi
loops and early exits (the seeds that tests and docs/pocl.md name).

With --truth, a seed's reference is another device's result for the
input (test/differential/truth-nvidia.txt: NVIDIA's, whose work-group
barrier is the hardware's), or with --truth fibers the input run as C
with every work-item a thread of control of its own (fibers.py, any
seed, no device): PoCL gets some inputs wrong at every optimisation level
(docs/pocl.md, sections 6 and 8), and then ref agrees with a wrong
output. INPUT then means that ref-O2 differs from the truth and every
output is right; an output that differs from the truth is a FAIL, whatever
ref-O2 gives.

usage: run.py --tool GSYNC_REWRITE --work DIR [--O0] [--classic]
              [--truth FILE|fibers] [--variants disc,nd,spin0]
              [--kernel FILE]... SEED...
Exit status 1 if any seed failed. It imports the gsync package of this
source tree, which loads the libgsync that $GSYNC_LIBRARY names (the
tests give the build's, build/runtime/libgsync.so.0.1), else an installed
one the system's loader finds."""
import argparse
import json
import os
import subprocess
import sys
import warnings

import numpy as np

# The references (the input, built by PyOpenCL as it comes) would go
# through PyOpenCL's cache of binaries, and to fill it PoCL compiles every
# kernel's generic work-group function too, which nothing here loads: what
# runs is the function compiled for the launch's local size either way.
# Without that cache a seed builds in about two thirds of the time
# (test/differential/kernels.test: 42 s -> 26 s on PoCL 3.1). The outputs
# are built by the gsync package, which never uses that cache
# (python/gsync/__init__.py).
os.environ.setdefault("PYOPENCL_NO_CACHE", "1")
import pyopencl as cl  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
import gen  # noqa: E402
import gsync  # noqa: E402
import fibers  # noqa: E402

# --truth fibers: each case's reference from fibers.py (the input run
# with every work-item a thread of control of its own, on the CPU without
# OpenCL).
FIBERS = "fibers"

warnings.simplefilter("ignore")  # PyOpenCL's build-log warnings
VARIANTS = ("disc", "nd", "spin0")


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
        """groups: work-groups along dimension 0 (1 along the others)."""
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
        glob = (self.local[0] * groups,) + tuple(self.local[1:])
        prg.k(self.queue, glob, self.local, *args)
        for host, dev in zip([a, b, f], bufs):
            cl.enqueue_copy(self.queue, host, dev)
        note = ""
        if state is not None:
            cl.enqueue_copy(self.queue, state, args[-1])
            if state[10] != 0:
                note = " (aborted: record " + str(list(state[10:18])) + ")"
        self.queue.finish()
        return a.tobytes() + b.tobytes() + f[:3].tobytes(), note


def digest(result):
    """FNV-1a (64 bits) of a result's bytes: what test/differential/host.c
    prints, so that results from another device compare."""
    h = 14695981039346656037
    for byte in result:
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def rewrite(tool, src_path, name, flags):
    """Runs the tool; returns (code, constraints) or raises with its error;
    the constraints' path is code's with .json added."""
    out = f"{src_path[:-3]}.{name}.cl"
    proc = subprocess.run([tool, *flags, src_path, "-o", out,
                           "--constraints", out + ".json"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        first = gen.first_error(proc.stderr)
        if gen.refused(proc.returncode, first):
            raise Refused(f"{name}: {first}")
        raise RuntimeError(f"{name}: the tool refused: {first}")
    with open(out, encoding="utf-8") as code, \
            open(out + ".json", encoding="utf-8") as cons:
        return code.read(), json.load(cons)


def check_seed(tool, work, seed, ctx, queue, o0=False, classic=False,
               only=VARIANTS, truths=None):
    """Returns a line that starts with OK, FAIL, INPUT or REFUSED."""
    kernel = gen.Kernel(seed, classic)
    stem = f"seed{seed}"
    src = kernel.source(stem)  # draws the header's helpers too
    gen.write_headers(work, kernel.headers(stem))
    return check_kernel(tool, work, f"seed {seed}", stem, src, kernel.guarded,
                        gen.inputs(seed), ctx, queue, o0,
                        kernel.local(), only,
                        truths if truths == FIBERS else
                        None if classic else (truths or {}).get(str(seed)))


def check_file(tool, work, path, ctx, queue, o0=False, only=VARIANTS,
               truths=None):
    """The same for a kernel written by hand in gen.py's signature, in
    grid-stride style (gen.hand_kernel: its local sizes and headers); its
    inputs come from gen.inputs(); one line for each local size."""
    name, src, shapes, headers = gen.hand_kernel(path)
    gen.write_headers(work, headers)
    lines = []
    for label, local in shapes:
        lines.append(check_kernel(tool, work, label, name, src, False,
                                  gen.inputs(), ctx, queue, o0, local,
                                  only, truths if truths == FIBERS
                                  else (truths or {}).get(label)))
    return "\n".join(lines)


def draw_inputs(r, guarded, local=None):
    """(local, n, k, a0) for a kernel, drawn from r; a local size too if
    local is None (replay.py prepare draws the same)."""
    drawn = r.choice([8, 16, 32, 64])
    local = local or (drawn,)
    items = int(np.prod(local))
    n = r.randint(items // 2 + 1, items) if guarded else r.randint(40, 300)
    k = r.randint(1, 3)
    a0 = np.array([r.randint(0, 1000) for _ in range(n)], np.int32)
    return local, n, k, a0


def check_kernel(tool, work, label, stem, src, guarded, r, ctx, queue,
                 o0=False, local=None, only=VARIANTS, truth=None):
    """Runs every variant of src against the reference on inputs drawn
    from r (and a local size drawn from it, if local is None); returns a
    line that starts with OK, FAIL, INPUT or REFUSED."""
    local, n, k, a0 = draw_inputs(r, guarded, local)
    src_path = os.path.join(work, f"{stem}.cl")
    with open(src_path, "w", encoding="utf-8") as out:
        out.write(src)
    run = Launcher(ctx, queue, a0, n, k, local).run
    shape = "x".join(str(d) for d in local)
    head = f"{label} ({'guarded' if guarded else 'grid-stride'}, " \
           f"local size {shape}, n {n}, k {k})"
    include = f"-I{work}"
    if truth == FIBERS:
        try:
            truth = fibers.reference(work, stem, src, local, n, k, a0)
        except RuntimeError as e:
            return f"FAIL {head}: no reference: {e}"
    try:
        if truth is None:
            ref, _ = run(gen.REFERENCE + src, f"-cl-opt-disable {include}", 1,
                         None)
        else:
            ref = truth
        ref_o2, _ = run(gen.REFERENCE + src, include, 1, None)
        results = {}
        variants = [("disc", ["--inline-includes"], [1 if guarded else 17]),
                    ("nd", ["--inline-includes", "--no-discovery"], [1, 2]),
                    ("spin0", ["--inline-includes", "--no-discovery",
                               "--spin-limit=0"], [1])]
        for name, flags, launches in variants:
            if name not in only:
                continue
            code, cons = rewrite(tool, src_path, name, flags)
            lib = gsync.load(f"{src_path[:-3]}.{name}.cl.json")
            options = lib.build_options(ctx.devices[0])
            builds = [("", options)]
            if o0:
                builds.append(("-O0", options + " -cl-opt-disable"))
            for groups in launches:
                if guarded and groups > 1:
                    continue
                label = name + ("2" if groups == 2 else "")
                for suffix, opts in builds:
                    results[label + suffix] = run(code, opts, groups, cons)
    except Refused as err:
        return f"REFUSED {head}: {err}"
    except (RuntimeError, cl.Error) as err:
        return f"FAIL {head}: {err}"
    if truth is not None:
        # Another device's result (replay.py run --ref-only, on NVIDIA):
        # PoCL can be wrong about the input at every optimisation level.
        ref_o2 = digest(ref_o2)
        results = {name: (digest(res), note)
                   for name, (res, note) in results.items()}
    bad = [name + note for name, (res, note) in results.items()
           if res != ref or note]
    return fibers.verdict(head, bad, ref_o2 != ref, truth is not None)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--O0", dest="o0", action="store_true",
                        help="also every output built with -cl-opt-disable")
    parser.add_argument("--classic", action="store_true",
                        help="the kernels gen.py drew before its extensions")
    parser.add_argument("--kernel", action="append", default=[],
                        help="also a kernel file written by hand")
    parser.add_argument("--truth",
                        help="a file of 'SEED HASH' lines: each seed's "
                        "reference result from another device (replay.py "
                        "run --ref-only), which then is the reference; or "
                        "'fibers': each case's from fibers.py, the input "
                        "run with a fiber a work-item on the CPU")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help="which outputs run: disc (the default output; "
                        "nd and nd2 without discovery; spin0 without the "
                        "spin limit too), comma-separated")
    parser.add_argument("seeds", type=int, nargs="*")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    failed = 0
    tool, work, o0 = args.tool, args.work, args.o0
    only = tuple(args.variants.split(","))
    truths = {}
    if args.truth == FIBERS:
        truths = FIBERS
    elif args.truth:
        truths = fibers.read_truths(args.truth)
    lines = [lambda s=s: check_seed(tool, work, s, ctx, queue, o0,
                                    args.classic, only, truths)
             for s in args.seeds]
    lines += [lambda p=p: check_file(tool, work, p, ctx, queue, o0, only,
                                     truths)
              for p in args.kernel]
    for check in lines:
        out = check()
        print(out, flush=True)
        failed += sum(line.startswith("FAIL") for line in out.split("\n"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
