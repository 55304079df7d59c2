"""bench/pocl-build.py: how long the OpenCL CPU device (PoCL) takes to
compile a kernel file's outputs, against the input itself.

For each kernel file and each variant, REPS cold builds, each in a fresh
process with empty PoCL and PyOpenCL caches (as on a first run): the
program built, then its binary fetched, which makes PoCL compile every
kernel's work-group function (PyOpenCL does so to fill its own cache, so
this is what a PyOpenCL host pays on a first run). Variants:
  input   the file with global_barrier() defined as barrier() (what the
          kernel's own code costs PoCL)
  nd      the --no-discovery output
  disc    the default output (discovery)
each rewritten by every tool of TOOLS, so that two builds of the tool are
compared in the same run. Prints one line per build,
  BUILD file variant tool seconds
then per file, variant and tool the median and its ratio to the input:
  PBUILD file variant tool median_s ratio_to_input

usage: python3 bench/pocl-build.py [FILE...]
Environment: TOOLS ("NAME=PATH ...", default "head=build/tool/gsync-rewrite"),
REPS (default 5), OPTIONS (build options, default none).
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["apps/graph/bfs.cl", "apps/graph/pagerank.cl",
         "test/run/kernels/stencil.cl", "test/run/kernels/stencil3d.cl"]
# One cold build, in its own process: prints the seconds it took.
CHILD = r"""
import sys, time, pyopencl as cl
src = open(sys.argv[1]).read()
ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
t = time.perf_counter()
prog = cl.Program(ctx, src).build(options=sys.argv[2:])
prog.get_info(cl.program_info.BINARIES)
print(time.perf_counter() - t)
"""


def fail(msg):
    print("pocl-build.py: error: " + msg, file=sys.stderr)
    sys.exit(1)


def cold_build(path, options, work):
    cache = os.path.join(work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    env.pop("PYOPENCL_NO_CACHE", None)
    p = subprocess.run([sys.executable, "-c", CHILD, path] + options,
                       capture_output=True, text=True, env=env,
                       cwd=os.path.dirname(path))
    if p.returncode != 0:
        fail(f"{path}: build failed: {p.stderr.strip()[-300:]}")
    return float(p.stdout.split()[-1])


def main():
    files = sys.argv[1:] or [os.path.join(ROOT, f) for f in FILES]
    tools = [t.split("=", 1) for t in os.environ.get(
        "TOOLS", "head=" + os.path.join(ROOT, "build/tool/gsync-rewrite")
    ).split()]
    reps = int(os.environ.get("REPS", "5"))
    options = os.environ.get("OPTIONS", "").split()
    work = tempfile.mkdtemp(prefix="pocl-build-")
    times = {}
    try:
        builds = []
        for f in files:
            name = os.path.basename(f)
            stem = os.path.join(work, name)
            inc = ["-I" + os.path.dirname(os.path.abspath(f))]
            inp = stem + ".input.cl"
            with open(f) as src, open(inp, "w") as out:
                out.write("#define global_barrier() "
                          "barrier(CLK_GLOBAL_MEM_FENCE)\n" + src.read())
            builds.append((name, "input", "-", inp, inc))
            for tname, tool in tools:
                for variant, flags in (("nd", ["--no-discovery"]),
                                       ("disc", [])):
                    out = f"{stem}.{tname}.{variant}.cl"
                    p = subprocess.run(
                        [tool] + flags + [f, "-o", out, "--constraints",
                                          out + ".json"],
                        capture_output=True, text=True)
                    if p.returncode != 0:
                        fail(f"{tool} {f}: {p.stderr.strip()[-300:]}")
                    builds.append((name, variant, tname, out, inc))
        # Interleaved: every build once per round.
        for _ in range(reps):
            for name, variant, tname, path, inc in builds:
                t = cold_build(path, inc + options, work)
                times.setdefault((name, variant, tname), []).append(t)
                print(f"BUILD {name} {variant} {tname} {t:.3f}", flush=True)
        for name, variant, tname, _, _ in builds:
            med = statistics.median(times[(name, variant, tname)])
            base = statistics.median(times[(name, "input", "-")])
            print(f"PBUILD {name} {variant} {tname} {med:.3f} "
                  f"{med / base:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
