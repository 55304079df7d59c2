"""The differential test on a machine without PyOpenCL or libclang (the GPU
machine), in two halves:

  replay.py prepare --tool GSYNC_REWRITE --out DIR [--kernel FILE]... SEED...
      here: writes, for each seed, gen.py's kernel (and header), the
      reference (global_barrier() as barrier()), the default output and
      the --no-discovery output with their constraints and the tool's
      messages (disc.err, nd.err), and the inputs run.py would draw,
      into DIR/seedN/
  replay.py run --host "GSYNC_DIFFHOST" --platform NAME [--jobs J]
                [--ref-only] [--truth FILE] DIR
      there: runs every seed of DIR with test/differential/host.c on the
      platform whose name holds NAME, as run.py runs them: ref built with
      -cl-opt-disable, ref-O2 optimised, disc (17 groups along dimension
      0 for grid-stride kernels), nd and nd2 built as libgsync builds
      them, and prints one line a seed, OK, FAIL, INPUT or REFUSED as
      run.py does, then the counts. With --truth FILE ('SEED HASH'
      lines: fibers.py's, made here, or NVIDIA's run --ref-only) a seed
      with a line there has it as its reference, as run.py --truth: PoCL
      gets some inputs wrong, or crashes building them, at either level
      (docs/pocl.md, sections 6 and 8), and then its own run of the input
      is no reference; INPUT then means ref-O2 differs from the truth
      and every output is right, and an output that differs from the
      truth is a FAIL.

With --ref-only, prepare writes only each seed's reference and inputs,
and run prints the reference's result, 'SEED HASH' a line: a device
whose work-group barrier is the hardware's (NVIDIA) gives the truth that
run.py --truth checks PoCL against, where PoCL miscompiles the input at
every optimisation level (docs/pocl.md, section 6).

Exit status of run: 1 if any seed FAILed."""
import argparse
import collections
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fibers  # noqa: E402


def prepare(args):
    import gen  # noqa: E402
    # PyOpenCL: only here, on the machine that prepares
    import run  # noqa: E402
    cases = []
    for seed in args.seeds:
        kernel = gen.Kernel(seed)
        src = kernel.source("seed")
        cases.append((f"seed{seed}", seed, src, kernel.headers("seed"),
                      kernel.guarded, gen.inputs(seed), kernel.local()))
    for path in args.kernel:
        # As run.py's check_file.
        _, src, shapes, headers = gen.hand_kernel(path)
        for label, local in shapes:
            cases.append((f"kernel-{label}", label, src, headers, False,
                          gen.inputs(), local))
    for stem, seed, src, headers, guarded, r, local in cases:
        d = os.path.join(args.out, stem)
        os.makedirs(d, exist_ok=True)
        gen.write_headers(d, headers)
        local, n, k, a0 = run.draw_inputs(r, guarded, local)
        with open(os.path.join(d, "src.cl"), "w", encoding="utf-8") as out:
            out.write(src)
        with open(os.path.join(d, "ref.cl"), "w", encoding="utf-8") as out:
            out.write(gen.REFERENCE + src)
        with open(os.path.join(d, "input.bin"), "wb") as out:
            out.write(run.np.array([n, k], run.np.int32).tobytes() +
                      a0.tobytes())
        meta = {"seed": seed, "local": list(local), "n": n, "k": k,
                "guarded": guarded, "variants": {}}
        for name, flags in ([] if args.ref_only else
                            [("disc", []), ("nd", ["--no-discovery"])]):
            # In the seed's directory, with names relative to it (as host()
            # builds): the outputs' #line directives and the build options
            # are the same wherever DIR is, and a second run finds the
            # first one's programs in PoCL's kernel cache.
            proc = subprocess.run(
                [args.tool, "--inline-includes", *flags, "src.cl",
                 "-o", name + ".cl", "--constraints", name + ".json"],
                cwd=d, capture_output=True, text=True, check=False)
            with open(os.path.join(d, name + ".err"), "w",
                      encoding="utf-8") as out:
                out.write(proc.stderr)
            first = gen.first_error(proc.stderr)
            meta["variants"][name] = (
                "ok" if proc.returncode == 0 else
                ("refused: " if gen.refused(proc.returncode, first)
                 else "error: ") + first)
        with open(os.path.join(d, "meta.json"), "w", encoding="utf-8") as out:
            json.dump(meta, out)
    return 0


def host(args, d, meta, cl, groups, constraints=None, options=""):
    # The host runs in the seed's directory (see prepare): a program
    # named by a relative path is found from here first.
    cmd = [os.path.abspath(w) if os.sep in w and os.path.exists(w) else w
           for w in shlex.split(args.host)] + [
        "--platform", args.platform, "--cl", cl, "--input", "input.bin",
        "--groups", str(groups), "--local", "x".join(map(str, meta["local"])),
        "--options", f"-I. {options}"]
    if constraints:
        cmd += ["--constraints", constraints]
    try:
        p = subprocess.run(cmd, cwd=d, capture_output=True, text=True,
                           timeout=args.timeout, check=False)
    except subprocess.TimeoutExpired:
        return "error: timed out"
    out = p.stdout.strip().splitlines()
    if out:
        return out[-1]
    # No result line: what the host (or the driver, crashing) said last.
    err = p.stderr.strip().splitlines()
    status = (f"killed by signal {-p.returncode}" if p.returncode < 0
              else f"exit status {p.returncode}")
    return f"error: no output ({status}" + (f"; {err[-1][:200]}" if err
                                            else "") + ")"


def replay_seed(args, d):
    with open(os.path.join(d, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    shape = "x".join(map(str, meta["local"]))
    label = (f"seed {meta['seed']}" if isinstance(meta["seed"], int)
             else meta["seed"])
    head = (f"{label} ({'guarded' if meta['guarded'] else 'grid-stride'}, "
            f"local size {shape}, n {meta['n']}, k {meta['k']})")
    refused = [v for v, why in meta["variants"].items() if why != "ok"]
    if refused:
        why = meta["variants"][refused[0]]
        kind = "REFUSED" if why.startswith("refused: ") else "FAIL"
        return kind, f"{kind} {head}: {refused[0]}: {why}"
    truth = args.truths.get(str(meta["seed"]))
    ref_o2 = host(args, d, meta, "ref.cl", 1)
    if truth is not None:
        # The truth (fibers.py or NVIDIA): PoCL may get the input wrong,
        # or crash building it, at either level; ref-O2 only says so.
        ref = f"result {truth}"
    else:
        ref = host(args, d, meta, "ref.cl", 1, options="-cl-opt-disable")
    if not ref.startswith("result") and ref_o2.startswith("result"):
        # PoCL 5.0 aborts building some kernels at -cl-opt-disable (an
        # unused local array): the optimised build is then the reference.
        head += " (reference built optimised: -cl-opt-disable failed)"
        ref = ref_o2
    if not ref.startswith("result"):
        return "FAIL", f"FAIL {head}: ref: {ref}"
    runs = {"disc": host(args, d, meta, "disc.cl",
                         1 if meta["guarded"] else 17, "disc.json"),
            "nd": host(args, d, meta, "nd.cl", 1, "nd.json")}
    if not meta["guarded"]:
        runs["nd2"] = host(args, d, meta, "nd.cl", 2, "nd.json")
    bad = [f"{name}({res})" if not res.startswith("result") else name
           for name, res in runs.items() if res != ref]
    line = fibers.verdict(head, bad, ref_o2 != ref, truth is not None)
    return line.split()[0], line


def truth(args, d):
    """The reference's result on this device (built optimised, as
    NVIDIA's compiler does anyway): a line 'LABEL HASH' for run.py
    --truth."""
    with open(os.path.join(d, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    ref = host(args, d, meta, "ref.cl", 1)
    value = ref.split()[1] if ref.startswith("result") else ref
    return f"{meta['seed']} {value}"


def replay(args):
    if args.ref_only:
        dirs = sorted(
            os.path.join(args.dir, e) for e in os.listdir(args.dir)
            if os.path.exists(os.path.join(args.dir, e, "meta.json")))
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for future in as_completed([pool.submit(truth, args, d)
                                        for d in dirs]):
                print(future.result(), flush=True)
        return 0
    dirs = sorted(os.path.join(args.dir, e) for e in os.listdir(args.dir)
                  if os.path.exists(os.path.join(args.dir, e, "meta.json")))
    counts = collections.Counter()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(replay_seed, args, d) for d in dirs]
        for future in as_completed(futures):  # as they end: a run cut
            kind, line = future.result()      # short keeps what it has
            counts[kind] += 1
            print(line, flush=True)
    print(f"replay on {args.platform}: {sum(counts.values())} seeds: "
          + ", ".join(f"{k} {counts[k]}"
                      for k in ["OK", "FAIL", "INPUT", "REFUSED"]))
    return 1 if counts["FAIL"] else 0


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--tool", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--kernel", action="append", default=[],
                   help="also a kernel written by hand (as run.py --kernel)")
    p.add_argument("--ref-only", action="store_true",
                   help="only the reference and the inputs "
                   "(for run --ref-only)")
    p.add_argument("seeds", type=int, nargs="*")
    r = sub.add_parser("run")
    r.add_argument("--host", required=True,
                   help="the command that runs gsync-diffhost "
                   "(split as a shell would)")
    r.add_argument("--platform", required=True)
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--timeout", type=float, default=300.0)
    r.add_argument("--ref-only", action="store_true",
                   help="print the reference's result of each seed, "
                   "'SEED HASH' (run.py --truth takes them)")
    r.add_argument("--truth",
                   help="a file of 'SEED HASH' lines (fibers.py, or run "
                   "--ref-only on NVIDIA): a seed's reference is its line, "
                   "and the input is built here only optimised, to say "
                   "INPUT where it differs")
    r.add_argument("dir")
    args = parser.parse_args()
    # A seed whose truth could not be made keeps PoCL's own reference.
    args.truths = (fibers.read_truths(args.truth)
                   if getattr(args, "truth", None) else {})
    return prepare(args) if args.what == "prepare" else replay(args)


if __name__ == "__main__":
    sys.exit(main())
