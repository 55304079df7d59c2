"""The differential test's reference without OpenCL: a seed's input
(global_barrier() as barrier(), in one work-group) compiled as C with
fibers.c and run with every work-item a thread of control of its own (a
fiber with its own stack), barrier() a switch to the next until all have
come. That is what NVIDIA's driver does with the reference
(truth-nvidia.txt), on any machine with a C compiler: PoCL gets some
inputs wrong at every optimisation level (docs/pocl.md, sections 6 and
8), so its own run of the input is no reference for them.

  fibers.py [--jobs J] [--check FILE] [--work DIR] [--kernel FILE]...
            SEED...
      prints 'SEED HASH' for each seed, and 'LABEL HASH' for each local
      size of each kernel written by hand (what replay.py run --ref-only
      prints); with --check FILE (truth-nvidia.txt), compares each with
      the file's line for that seed instead and prints the ones that
      differ, then 'fibers: N cases, S same, D differ, E errors'.
      Exit status 1 if any differs or fails.

run.py --truth fibers takes each seed's reference from here.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

HARNESS = os.path.join(HERE, "fibers.c")
# A `local` variable of a function (a declaration: after `;`, `{` or `}`,
# where a parameter comes after `(` or `,`): one for the whole work-group,
# which the fibers share as a static one.
LOCAL_DECLARATION = re.compile(r"([;{}]\s*)(?:__)?local\b")


def reference(work, stem, src, local, n, k, a0, timeout=120):
    """The result hash of src (gen.py's signature, headers already in
    work) run as one group of the local size on inputs n, k and a0 (a
    list or numpy array of int32); raises RuntimeError saying why none
    could be made."""
    code = os.path.join(work, f"{stem}.fibers.c")
    exe = os.path.join(work, f"{stem}.fibers")
    data = os.path.join(work, f"{stem}.fibers.in")
    with open(code, "w", encoding="utf-8") as out:
        out.write(gen.REFERENCE + LOCAL_DECLARATION.sub(r"\1static", src))
    with open(data, "wb") as out:
        out.write(b"".join(int(v).to_bytes(4, "little", signed=True)
                           for v in [n, k, *a0]))
    cc = subprocess.run(
        [os.environ.get("CC", "cc"), "-std=gnu11", "-O1", "-fwrapv",
         f'-DKERNEL_FILE="{os.path.basename(code)}"',
         "-I", work, HARNESS, "-o", exe],
        capture_output=True, text=True, check=False)
    if cc.returncode != 0:
        first = next((line for line in cc.stderr.splitlines()
                      if "error" in line), cc.stderr.strip()[:200])
        raise RuntimeError(f"fibers reference does not compile: {first}")
    shape = "x".join(str(d) for d in local)
    try:
        p = subprocess.run([exe, data, shape], capture_output=True,
                           text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"fibers reference still running after "
                           f"{timeout} s") from None
    out = p.stdout.strip()
    if p.returncode != 0 or not out.startswith("result "):
        raise RuntimeError(f"fibers reference: {out or p.stderr.strip()}"
                           f" (exit {p.returncode})")
    return out.split()[1]


def seed_reference(seed, work):
    """reference() of gen.py's seed on run.py's inputs for it."""
    import run  # noqa: E402  (draw_inputs; PyOpenCL; run imports fibers)
    kernel = gen.Kernel(seed)
    stem = f"seed{seed}"
    src = kernel.source(stem)
    gen.write_headers(work, kernel.headers(stem))
    local, n, k, a0 = run.draw_inputs(gen.inputs(seed), kernel.guarded,
                                      kernel.local())
    return reference(work, stem, src, local, n, k, a0)


def kernel_references(path, work):
    """[(label, hash or None, why)] for a kernel written by hand
    (gen.hand_kernel: its local sizes and headers, inputs from
    gen.inputs()), a label per local size as run.py --kernel names them."""
    import run  # noqa: E402  (as in seed_reference)
    name, src, shapes, headers = gen.hand_kernel(path)
    gen.write_headers(work, headers)
    results = []
    for label, local in shapes:
        local, n, k, a0 = run.draw_inputs(gen.inputs(), False, local)
        try:
            results.append((label, reference(work, name, src, local, n, k,
                                             a0), None))
        except RuntimeError as e:
            results.append((label, None, str(e)))
    return results


def read_truths(path):
    """A truth file's 'LABEL HASH' lines (this tool's, or replay.py run
    --ref-only's) as {label: hash}. A label whose line holds no hash
    ('LABEL error: ...': no truth could be made) is left out, so a reader
    takes it as a case without a truth."""
    with open(path, encoding="utf-8") as f:
        return {w[0]: w[1] for w in map(str.split, f)
                if len(w) >= 2 and re.fullmatch(r"[0-9a-f]{16}", w[1])}


def verdict(head, bad, input_differs, against_truth):
    """The line of run.py and replay.py for a case whose outputs in bad
    (labels, with what went wrong) differ from the reference, and whose
    input built optimised differs from it if input_differs: FAIL, INPUT
    or OK, then head. Against a truth a wrong output is wrong, whatever
    PoCL makes of the input; against PoCL's own run of the input, an
    input that differs built optimised leaves the outputs unjudged."""
    if bad and against_truth:
        return (f"FAIL {head}: differs from the truth: {' '.join(bad)}"
                + ("; so does the input built optimised" if input_differs
                   else ""))
    if input_differs:
        return (f"INPUT {head}: the input itself differs built optimised"
                + (f"; so do {' '.join(bad)}" if bad else
                   "; every output is right"))
    if bad:
        return f"FAIL {head}: differs from the reference: {' '.join(bad)}"
    return f"OK {head}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", help="a file of 'SEED HASH' lines")
    ap.add_argument("--work", help="where the builds go (default: a "
                    "temporary directory)")
    ap.add_argument("--kernel", action="append", default=[],
                    help="also a kernel file written by hand")
    ap.add_argument("seeds", type=int, nargs="*")
    args = ap.parse_args()
    truths = read_truths(args.check) if args.check else {}
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or tmp

        def one(seed):
            d = os.path.join(work, f"s{seed}")
            os.makedirs(d, exist_ok=True)
            try:
                return seed, seed_reference(seed, d), None
            except RuntimeError as e:
                return seed, None, str(e)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(one, args.seeds))
        for i, path in enumerate(args.kernel):
            d = os.path.join(work, f"k{i}")
            os.makedirs(d, exist_ok=True)
            results += kernel_references(path, d)
    same = differ = errors = 0
    for label, value, why in results:
        if why:
            errors += 1
            print(f"{label} error: {why}")
        elif not args.check:
            print(f"{label} {value}")
        elif str(label) not in truths:
            errors += 1
            print(f"{label} not in {args.check}")
        elif truths[str(label)] == value:
            same += 1
        else:
            differ += 1
            print(f"{label} differs: fibers {value}, "
                  f"{args.check} {truths[str(label)]}")
    if args.check:
        print(f"fibers: {len(results)} cases, {same} same, {differ} differ, "
              f"{errors} errors")
    return 1 if differ or errors else 0


if __name__ == "__main__":
    sys.exit(main())
