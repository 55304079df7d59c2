# The three device calls of 2026-11-25, in order (each run after '. .gpu/on-gpu.sh' with build/ and .gpu/ carried, following 'sh test/gpu/prepare.sh' and 'ABORT_BARRIERS="tree flip" ABORT_LIMITS="1s 5s" HEALTHY_LIMITS="10ms 50ms" bash bench/spin-limit.sh prepare' here).
# --- call 1
# one device call: harden, OpenCL C, spin limit (abort latency, healthy bounds), PoCL bug check, NVIDIA run tests (tree)
cd "$(dirname "$0")/.."
. .gpu/on-gpu.sh
export OUT
nvidia-smi -L | head -1
s=$(date +%s)
timeout -k 5 150 bash test/gpu/harden.sh > "$OUT/harden.log" 2>&1; echo "harden rc=$? $(( $(date +%s) - s ))s"
timeout -k 5 60 bash test/gpu/opencl-c.sh > "$OUT/opencl-c.log" 2>&1; echo "opencl-c rc=$? $(( $(date +%s) - s ))s"
if python3 -c 'import pyopencl' 2>/dev/null; then
  for p in 0 1; do PYOPENCL_CTX=$p timeout 120 python3 test/pocl/check.py > "$OUT/pocl-check-$p.txt" 2>&1; done
else echo "no pyopencl" > "$OUT/pocl-check.txt"; fi
echo "pocl rc=$? $(( $(date +%s) - s ))s"
PLAT=NVIDIA CORES=4224 LOCAL=64 REPS=2 ABORT_GROUPS="8448 20000" ABORT_LIMITS="1s 5s" ABORT_BARRIERS="tree flip" HEALTHY_LIMITS="10ms 50ms" SKIP=uneven TMO=60 \
  timeout -k 5 230 bash bench/spin-limit.sh run > "$OUT/spin-limit-h100.txt" 2>&1; echo "spin rc=$? $(( $(date +%s) - s ))s"
PLATFORMS=NVIDIA BARRIERS=tree BUDGET=60 timeout -k 5 90 bash test/gpu/run.sh > /dev/null 2>&1; echo "run rc=$? $(( $(date +%s) - s ))s"
ls "$OUT"
# --- call 2
cd "$(dirname "$0")/.."
. .gpu/on-gpu.sh
export OUT
s=$(date +%s)
PLAT=NVIDIA CORES=4224 LOCAL=64 REPS=1 ABORT_GROUPS="8448 20000" ABORT_LIMITS="1s 5s" ABORT_BARRIERS="tree flip" SKIP="uneven healthy" TMO=60 \
  timeout -k 5 200 bash bench/spin-limit.sh run > "$OUT/spin-limit-h100.txt" 2>&1; echo "spin rc=$? $(( $(date +%s) - s ))s"
PLAT=Portable CORES=16 LOCAL=64 REPS=1 ABORT_GROUPS="64" ABORT_LIMITS="1s 5s" ABORT_BARRIERS="tree" SKIP="healthy" TMO=60 \
  timeout -k 5 100 bash bench/spin-limit.sh run > "$OUT/spin-limit-pocl5.txt" 2>&1; echo "spin-pocl rc=$? $(( $(date +%s) - s ))s"
timeout -k 5 60 bash bench/regs-gpu.sh > "$OUT/regs.txt" 2>&1
VARIANTS="tree" STRESS_VARIANTS="tree noop" POCL_VARIANTS="tree" timeout -k 5 200 bash bench/run-gpu.sh > /dev/null 2>&1; echo "bench rc=$? $(( $(date +%s) - s ))s"
ls "$OUT"
# --- call 3
timeout -k 5 300 bash test/gpu/nd.sh > $OUT/nd.log 2>&1; timeout -k 5 270 bash bench/run-graph.sh > $OUT/graph.log 2>&1
# --- later the same day: the watch (docs/watch.md) and the run tests with it
# (on this machine first: sh test/gpu/prepare.sh; sh ../shared/gpu/prepare.sh)
timeout -k 5 240 bash test/gpu/watch.sh > $OUT/watch.log 2>&1
BUDGET=280 PLATFORMS=NVIDIA timeout -k 5 320 bash test/gpu/run.sh > $OUT/run.log 2>&1
