# lit configuration for gsync-rewrite's tests.
#
# Substitutions:
#   %gsync      the gsync-rewrite tool of this build
#   %gsync-run  the run-test host program (builds and runs on OpenCL)
#   %corpus-run  %gsync-run for test/corpus/kernel-corpus.py's builds;
#               'none' (no builds) in the sanitizer build
#   %gsync-check  gsync-check, the barrier rules checked on a device
#   %check-report REPORT.json  test/utils/check-report.py: a gsync-check
#               report against its format, summed up in one line
#   %gsync-diffhost  test/differential/host.c: one differential variant,
#               for devices without PyOpenCL
#   %gsync-arrays  test/pocl/arrays-host.c: kernels of uint arrays, what
#               the arrays hold after each launch
#   %gsync-misuse  test/run/misuse.c: libgsync's functions misused
#   %gsync-watch  test/run/watch.c: running launches watched, cancelled
#   %gsync-hostile  test/run/hostile.c: the host side under hostile use,
#               with canaries around the state
#   %heat-host  the bundled example's host program
#   %gsync-app  apps/app.c: BFS and heat, persistent kernel against relaunch
#   %gsync-graph  apps/graph.c: the graph applications of apps/graph/
#   %graph-barriers APP INPUT TMP [OPTS]  test/utils/graph-barriers: APP
#               with every barrier, --no-discovery, on 2 and 4 groups
#   %barrier-runs TEST TMP  test/utils/barrier-runs.py: the CASE lines of
#               the run-test scenario TEST with every barrier
#   %check-rules  gsync-check-rules: checks rule headers as the build does
#   %apps       apps/, the applications' sources (apps/app and apps/graph
#               hold their kernels)
#   %api-test   test/api/api-test.c: the engine's interface used from C
#   %sweep-race test/cli/Inputs/sweep-race.c: temporary files against sweeps
#   %clang-cl   clang -fsyntax-only for OpenCL C: recompiles rewritten output
#   %clang-pp   clang's preprocessor alone on OpenCL C (-E -P): what a
#               build of rewritten output with given -D options compiles
#   %rules      test/rules, rule files used only by tests (the no-op barrier)
#   %kernels    test/run/kernels, the run tests' input kernels
#   %examples   examples/, the bundled example
#   %timeout    a wall-clock limit for anything that runs a kernel
#   %timeout-short  a tighter one for a launch that must end within seconds
#               (one that the spin limit aborts): the build, the abort and
#               the draining of every group, under load and ASan, fit in it
#   %expect-exit N CMD   succeeds if CMD exits with status N
#   %cmake      the cmake that configured this build
#   %src-root   the source tree; %build-root this build tree
#   %build-example  test/utils/build-example: builds examples/scan against
#               this build, installed (see its header)
#   %man        docs/gsync-rewrite.1, the manual page
#   %python     the Python that runs lit (for test/utils/*.py)
#   %lit        that Python with the lit that runs this suite
#   %opencl CMD  runs CMD, a command of the test's own that runs OpenCL
#               (a program it builds, a script using PyOpenCL): a test
#               runs OpenCL only through a substitution that says so
#               (test/utils/barrier_format.py)
#   %no-leak-scan CMD  runs CMD without LeakSanitizer's scan at each exit
#               of the sanitizer build's processes (see below)
#   %as-user    runs a command as an unprivileged user when the tests run
#               as root (setpriv, as nobody), so that permissions apply;
#               nothing otherwise
#   %char-device DIR NAME   prints a character device to write to (see
#               test/utils/char-device)
#   %pytest     pytest on Debian's python3, with the gsync package of this
#               build tree (build/python) and its tools, under a timeout
#   %pkg-python  that python3, with that package and those tools
#   %libgsync-preload  what a python3 that loads this build's libgsync.so
#               needs in LD_PRELOAD, quoted: in a sanitizer build, the
#               sanitizer's runtime; '' otherwise
#   %with-libgsync  env GSYNC_LIBRARY=(this build's libgsync.so): for a
#               script that imports the gsync package of the source tree,
#               which has no libgsync-path.txt (test/differential/run.py)
# Features: ninja, when the Ninja build tool is installed; pyopencl, when
# the python3 of %pytest has pyopencl, numpy and pytest; sanitize, in a
# GSYNC_SANITIZE build; tsan, when cc links a program with
# -fsanitize=thread.
import os
import subprocess
import sys

import lit

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "utils"))
from barrier_format import ShTestPerBarrier  # noqa: E402


config.name = "gsync-rewrite"
config.suffixes = [".cl", ".test"]
config.excludes = ["kernels", "Inputs", "rules", "utils"]
config.test_source_root = os.path.dirname(__file__)

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bindir, config.environment.get("PATH", os.environ["PATH"])])
for var in ("HOME", "TMPDIR", "ASAN_OPTIONS", "UBSAN_OPTIONS",
            "LSAN_OPTIONS", "XDG_CACHE_HOME", "OCL_ICD_VENDORS",
            "POCL_CACHE_DIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# No test reads or writes the user's cache of gsync-check's recommendations
# (docs/auto.md): those that want one name their own.
config.environment["GSYNC_CHECK_CACHE"] = ""


src = config.source_root
# A GSYNC_SANITIZE build.
sanitize = config.sanitize.upper() in ("ON", "1", "TRUE", "YES")
# The substitutions that run OpenCL (build or launch kernels on the
# device), each declared with opencl(): scripts/check.sh's plain build
# keeps every test using one (see sanitizer-build-follows below).
runs_opencl = ["%barrier-runs"]


def opencl(name, value):
    config.substitutions.append((name, value))
    runs_opencl.append(name)


# The leak checker stays on for the tool; for the run-test host it would
# report the OpenCL driver's (PoCL's) own allocations, not ours to fix.
no_leaks = "env ASAN_OPTIONS=detect_leaks=0 "
# A test that runs the tool over tens to hundreds of generated inputs (a
# table, a corpus, mutations) runs it under %no-leak-scan: at each exit
# LeakSanitizer scans libLLVM's and libclang's data in both of the tool's
# processes, about a third of a run's time in the sanitizer build
# (gen-barrier-places.py's 232 runs: 67 s -> 46 s). Memory errors are
# still caught on every run; leaks, on every run of the tests that rewrite
# each input once (rewrite/, uniform/*.cl, diag/, cli/, input/) and by the
# fuzzers, which check for leaks after every input they try.
config.substitutions.append(("%no-leak-scan", no_leaks.strip()))
opencl("%gsync-run", no_leaks + config.gsync_run)
# The corpus tests' builds of their outputs on the OpenCL device: none in
# the sanitizer build, where they cost a minute and a half (PoCL's
# compiler under the sanitizer's allocator) to test what the plain build's
# run tests already did; the tool's rewrites there are what counts.
opencl("%corpus-run", "none" if sanitize else no_leaks + config.gsync_run)
opencl("%gsync-check", no_leaks + config.gsync_check)
config.substitutions.append(
    ("%check-report", sys.executable + " " +
     os.path.join(src, "test", "utils", "check-report.py")))
opencl("%gsync-diffhost", no_leaks + config.gsync_diffhost)
opencl("%gsync-arrays", config.gsync_arrays)
opencl("%gsync-watch", no_leaks + config.gsync_watch)
opencl("%gsync-hostile", no_leaks + config.gsync_hostile)
opencl("%gsync-misuse", no_leaks + config.gsync_misuse)
opencl("%heat-host", no_leaks + config.heat_host)
opencl("%gsync-app", no_leaks + config.gsync_app)
opencl("%gsync-graph", no_leaks + config.gsync_graph)
opencl("%graph-barriers", no_leaks + "sh " +
       os.path.join(src, "test", "utils", "graph-barriers") + " " +
       config.gsync_tool + " " + config.gsync_graph)
barrier_runs = " ".join([
        sys.executable, os.path.join(src, "test", "utils", "barrier-runs.py"),
        "--tool", config.gsync_tool, "--run", config.gsync_run,
        "--filecheck", os.path.join(config.llvm_bindir, "FileCheck"),
        "--rules", os.path.join(src, "rewrite-rules"),
        "--kernels", os.path.join(src, "test", "run", "kernels")])
# A test running %barrier-runs becomes one lit test per barrier
# (test/utils/barrier_format.py); in the sanitizer build, for the default
# barrier only: what differs between barriers is the kernel's code, which
# PoCL runs alike in both builds, while the host's and the tool's code is
# the same for every barrier (the tool renders each in rewrite/barrier-*.cl
# there).
sanitizer_few = ("tree",)
# With --param sanitizer-build-follows=1 (scripts/check.sh, which runs the
# sanitizer build's suite next), the plain build leaves to it each test
# that runs no OpenCL and that it runs alike. A test that runs OpenCL stays
# here too: PoCL compiles each kernel here first, about twice as fast as
# under the sanitizer's allocator, and the sanitizer build's run of the
# same test then finds it in PoCL's kernel cache (the two builds give the
# same sources and options, but for an input generated under %t: the
# constraints name its directory, in the build tree, so its output's
# fingerprint differs; a large one is built in the plain build alone, as
# scale/lines-50000-build.test is). Kept as well: the barriers it leaves
# out and the tests it does not support.
follows = lit_config.params.get("sanitizer-build-follows", "0") == "1"
if follows and not sanitize:
    lit_config.note("the tests that run no OpenCL and that the sanitizer "
                    "build runs alike are left to it "
                    "(--param sanitizer-build-follows=1)")
# A test that uses none of the substitutions that run OpenCL runs with no
# OpenCL platform to find (test/utils/barrier_format.py).
no_vendors = os.path.join(config.test_exec_root, "no-opencl-vendors")
os.makedirs(no_vendors, exist_ok=True)
config.test_format = ShTestPerBarrier(
    config.gsync_tool, barrier_runs, runs_opencl, no_vendors,
    few=sanitizer_few if sanitize else (),
    sanitizer_follows=follows and not sanitize)
config.substitutions.append(("%check-rules", config.check_rules))
config.substitutions.append(("%gsync", config.gsync_tool))
config.substitutions.append(("%apps", os.path.join(src, "apps")))
config.substitutions.append(("%api-test", config.api_test))
config.substitutions.append(("%sweep-race", config.sweep_race))
config.substitutions.append(
    ("%clang-cl", config.clang + " -fsyntax-only -Xclang -finclude-default-header"))
config.substitutions.append(("%clang-pp", config.clang + " -E -P -x cl"))
config.substitutions.append(("%rules", os.path.join(src, "test", "rules")))
config.substitutions.append(
    ("%kernels", os.path.join(src, "test", "run", "kernels")))
config.substitutions.append(("%examples", os.path.join(src, "examples")))
config.substitutions.append(
    ("%man", os.path.join(src, "docs", "gsync-rewrite.1")))
config.substitutions.append(("%python", sys.executable))
# Marks a command of the test's own (a program it builds, a script using
# PyOpenCL) that runs OpenCL: "%opencl CMD" runs CMD.
opencl("%opencl", "env")
config.substitutions.append(
    ("%lit", sys.executable + " " + os.path.join(
        os.path.dirname(os.path.dirname(lit.__file__)), "lit.py")))
config.substitutions.append(("%timeout-short", "timeout -k 5 30"))
config.substitutions.append(("%timeout", "timeout -k 5 120"))
config.substitutions.append(
    ("%expect-exit", "sh " + os.path.join(src, "test", "utils", "expect-exit")))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%src-root", src))
config.substitutions.append(("%build-root", config.build_root))
opencl("%build-example", os.path.join(src, "test", "utils", "build-example"))
if os.geteuid() == 0 and os.path.exists("/usr/bin/setpriv"):
    config.substitutions.append(
        ("%as-user",
         "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups"))
else:
    config.substitutions.append(("%as-user", ""))
config.substitutions.append(
    ("%char-device", "sh " + os.path.join(src, "test", "utils", "char-device")))
if sanitize:
    config.available_features.add("sanitize")
if config.ninja:
    config.available_features.add("ninja")

# The gsync Python package loads libgsync.so with ctypes. In a sanitizer
# build that library needs ASan's runtime loaded before anything else,
# which python3 does not link: it is preloaded, and the C++ runtime with
# it, or ASan fails on the first C++ exception PyOpenCL throws (its
# __cxa_throw finds no real one to call).
runtimes = []
if sanitize:
    runtimes = [
        subprocess.run([config.c_compiler, "-print-file-name=" + n],
                       capture_output=True, text=True).stdout.strip()
        for n in ("libasan.so", "libstdc++.so.6")]
python_preload = "'" + " ".join(runtimes) + "'"
opencl("%libgsync-preload", python_preload)
# The build's libgsync.so, as python/CMakeLists.txt wrote its path for the
# package of the build tree.
with open(os.path.join(config.build_root, "python", "gsync",
                       "libgsync-path.txt")) as f:
    opencl("%with-libgsync", "env GSYNC_LIBRARY=" + f.read().strip())
# The gsync Python package's tests run on the python3 CMake found (Debian's,
# where python3-pyopencl is), not necessarily the one running lit.
gsync_python = " ".join([
    "env PYTHONDONTWRITEBYTECODE=1",
    "LD_PRELOAD=" + python_preload,
    "PYTHONPATH=" + os.path.join(config.build_root, "python"),
    "GSYNC_REWRITE=" + config.gsync_tool,
    "GSYNC_RUN=" + config.gsync_run,
    "ASAN_OPTIONS=detect_leaks=0",
    config.python3])
opencl("%pytest", "timeout -k 5 300 " + gsync_python
       + " -m pytest -q -p no:cacheprovider")
opencl("%pkg-python", gsync_python)
if subprocess.run([config.python3, "-c", "import pyopencl, numpy, pytest"],
                  stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("pyopencl")
# test/run/tsan.test builds libgsync again with ThreadSanitizer.
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    try:
        if subprocess.run(["cc", "-fsanitize=thread", "-x", "c", "-", "-o",
                           os.path.join(tmp, "a.out")],
                          input=b"int main(void) { return 0; }\n",
                          stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            config.available_features.add("tsan")
    except OSError:
        pass
