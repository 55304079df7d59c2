#!/bin/bash
# test/gpu/all.sh: everything for one device call, in the project root on
# the GPU machine, after `. .gpu/on-gpu.sh`:
#   the run tests on NVIDIA and on PoCL (in parallel: one uses the GPU, the
#   other the CPU), the late jumps' table on both (test/pocl/late-jumps.test),
#   libgsync's misuse checks (test/gpu/harden.sh) and where
#   the participants run (test/gpu/placement.sh), then
#   the NVIDIA benchmark and stress test (alone).
# Env: TEST_BUDGET (s, default 170), STEPS="tests bench" (default both; add
#   graph for bench/run-graph.sh, GRAPH_LIMIT s, default 300),
#   and what test/gpu/run.sh / bench/run-gpu.sh take (BARRIERS: by default
#   those test/gpu/prepare.sh rewrote, the default first; test/gpu/barriers.sh).
set -u
export OUT=${OUT:-$(pwd)/build/gpu-out}
mkdir -p "$OUT"
STEPS=${STEPS:-tests bench}
TB=${TEST_BUDGET:-170}
nvidia-smi -L 2>&1 | head -2
clinfo -l 2>&1 | head -6
if echo "$STEPS" | grep -q tests; then
  (PLATFORMS=NVIDIA BUDGET=$TB timeout -k 5 $((TB + 40)) bash test/gpu/run.sh >/dev/null 2>&1) &
  (PLATFORMS=Portable BUDGET=$TB timeout -k 5 $((TB + 40)) bash test/gpu/run.sh >/dev/null 2>&1) &
  wait
  # The late jumps' table (test/pocl/gen-late-jumps.py), every kernel at
  # both levels, and the warned shapes, on each platform.
  for p in NVIDIA Portable; do
    timeout -k 5 200 python3 test/pocl/gen-late-jumps.py --all \
      --host build/test/gsync-arrays --platform $p --timeout 90 \
      --work build/gpu-kernels/late-jumps > "$OUT/late-jumps-$p.txt" 2>&1
    timeout -k 5 100 python3 test/pocl/gen-late-jumps.py --warned \
      --host build/test/gsync-arrays --platform $p --timeout 45 \
      --work build/gpu-kernels/late-warned > "$OUT/late-warned-$p.txt" 2>&1
  done
  timeout -k 5 200 bash test/gpu/harden.sh >/dev/null 2>&1
  timeout -k 5 60 bash test/gpu/placement.sh >/dev/null 2>&1
fi
if echo "$STEPS" | grep -q bench; then
  timeout -k 5 ${BENCH_LIMIT:-170} bash bench/run-gpu.sh >/dev/null 2>&1
fi
# The graph applications (bench/run-graph.sh): only when STEPS names graph.
if echo "$STEPS" | grep -q graph; then
  timeout -k 5 ${GRAPH_LIMIT:-300} bash bench/run-graph.sh >/dev/null 2>&1
fi
for f in "$OUT"/gpu-run-*.txt "$OUT"/late-*.txt "$OUT"/harden.txt "$OUT"/placement.txt; do [ -f "$f" ] && { echo "=== $f"; cat "$f"; }; done
[ -f "$OUT/bench-raw.txt" ] && { echo "=== bench"; grep -v '^#' "$OUT/bench-raw.txt"; }
[ -f "$OUT/graph-table.md" ] && { echo "=== graph"; cat "$OUT/graph-table.md"; }
true
