"""The differential test at scale, within a time budget: runs run.py on
one seed after another (each in a process of its own, under a time limit,
so that a kernel PoCL's compiler takes too long over is reported and not
waited for), several at once, until the seeds or the budget run out, and
sums up:

  OK        every output right
  FAIL      an output differs from the reference while the input itself
            is right built optimised: a wrong result of the tool's making
  INPUT     the device miscompiles the input itself (ref-O2 differs from
            ref); said apart, with whether the outputs are right anyway
  REFUSED   the uniformity checker refused the kernel (conservative)
  TIMEOUT   the seed did not finish within --seed-timeout

Every line run.py prints goes to --log; the summary goes to standard
output, and the seeds of each kind but OK are listed there. Exit status 1
if any seed FAILed. CI runs a sample (test/differential/sample.test);
docs/pocl.md gives the figures of the long runs.

usage: campaign.py --tool GSYNC_REWRITE --work DIR --log FILE
                   [--first N] [--seeds COUNT] [--budget SECONDS]
                   [--jobs J] [--seed-timeout SECONDS] [--O0]
                   [--variants disc,nd,spin0] [--truth FILE|fibers]"""
import argparse
import collections
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = ["OK", "FAIL", "INPUT", "REFUSED", "TIMEOUT"]


def run_seed(args, seed):
    """Runs one seed; returns (kind, line)."""
    work = os.path.join(args.work, f"s{seed}")
    cmd = [sys.executable, os.path.join(HERE, "run.py"), "--tool", args.tool,
           "--work", work, "--variants", args.variants,
           str(seed)] + (["--O0"] if args.o0 else []) + \
        (["--truth", args.truth] if args.truth else [])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=args.seed_timeout, check=False)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", f"TIMEOUT seed {seed} (over {args.seed_timeout} s)"
    lines = [l for l in proc.stdout.splitlines()
             if l.split(" ", 1)[0] in KINDS]
    if not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return "FAIL", (f"FAIL seed {seed}: run.py exited "
                        f"{proc.returncode}: {tail}")
    return lines[-1].split(" ", 1)[0], lines[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--first", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=3600.0,
                        help="seconds after which no seed is started")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed-timeout", type=float, default=600.0)
    parser.add_argument("--O0", dest="o0", action="store_true")
    parser.add_argument("--truth", help="run.py's --truth")
    parser.add_argument("--variants", default="disc,nd,spin0",
                        help="run.py's --variants (disc alone: the default "
                        "output, what the campaign's figure is about)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    start = time.monotonic()
    seeds = iter(range(args.first, args.first + args.seeds))
    counts = collections.Counter()
    listed = collections.defaultdict(list)

    lock = threading.Lock()

    def worker(log):
        for seed in seeds:
            if time.monotonic() - start > args.budget:
                break
            kind, line = run_seed(args, seed)
            with lock:  # the log as the seeds finish, for a run to watch
                counts[kind] += 1
                if kind != "OK":
                    listed[kind].append(seed)
                log.write(line + "\n")
                log.flush()

    with open(args.log, "w", encoding="utf-8") as log, \
            ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for future in [pool.submit(worker, log) for _ in range(args.jobs)]:
            future.result()
    for kind in listed:
        listed[kind].sort()
    ran = sum(counts.values())
    minutes = (time.monotonic() - start) / 60
    print(f"campaign: {ran} seeds from {args.first} in {minutes:.1f} min, "
          f"{args.jobs} at once, tool {args.tool}, variants {args.variants}"
          + (", also built -cl-opt-disable" if args.o0 else "")
          + (f", truth {args.truth}" if args.truth else ""))
    for kind in KINDS:
        seeds_of = listed.get(kind, [])
        listing = " ".join(map(str, seeds_of))
        print(f"  {kind:8} {counts[kind]:5}"
              + (f"  seeds {listing}" if seeds_of else ""))
    if ran < args.seeds:
        print(f"  budget of {args.budget:.0f} s spent after {ran} of "
              f"{args.seeds} seeds")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
