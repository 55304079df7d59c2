#!/bin/bash
# bench/run-gpu.sh: the barrier benchmark and the message-passing stress test
# on the GPU machine. Needs what test/gpu/prepare.sh made (build/gpu-kernels,
# build/gpu-lib) and build/gpu-bin/gsync-bench (see bench/README.md).
#   . .gpu/on-gpu.sh; bash bench/run-gpu.sh
# Writes raw RESULT/STRESS lines to $OUT/bench-raw.txt; bench/table.py turns
# them into bench/results/*.md and the plot.
# Environment: VARIANTS, CONFIGS, EPISODES, POCL_EPISODES, NO_CUDA=1 (skip
# gridsync.cu), NO_POCL=1, PLAT (default NVIDIA), STRESS_LIMIT (seconds per
# variant, default 60).
set -u
root=$(pwd)
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
K=$root/build/gpu-kernels
B=${B:-$root/build/bench/gsync-bench}
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=$OUT/bench-raw.txt
PLAT=${PLAT:-NVIDIA}
VARIANTS=${VARIANTS:-tree flip gen atomic-or volatile}
EPISODES=${EPISODES:-100000}
POCL_EPISODES=${POCL_EPISODES:-100000}
echo "# $(date -u) bench/run-gpu.sh on $(hostname)" >> "$R"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader >> "$R" 2>&1
full=1056
if [ -z "${NO_CUDA:-}" ]; then
  command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
  if timeout 120 nvcc -O3 -arch=sm_90 -o /tmp/gridsync bench/gridsync.cu > "$OUT/nvcc.log" 2>&1; then
    timeout 60 /tmp/gridsync 100 2100 7 | tee -a "$R"
    f=$(awk '$1=="OCCUPANCY" && $2==256 {print $4}' "$R" | tail -1)
    [ -n "$f" ] && full=$f
  else
    echo "NVCC-FAILED (see nvcc.log)" | tee -a "$R"; tail -5 "$OUT/nvcc.log"
  fi
fi
CONFIGS=${CONFIGS:-132x256,264x256,528x256,${full}x256,132x1024,264x1024}
export GSYNC_PLATFORM=$PLAT
echo "CONFIGS $PLAT $CONFIGS" >> "$R"
timeout 120 "$B" baseline --configs "$CONFIGS" | tee -a "$R"
for v in $VARIANTS; do
  timeout 60 "$B" time --cl "$K/loop.$v.nd.cl" --constraints "$K/loop.$v.nd.json" \
    --configs "$CONFIGS" | tee -a "$R" || echo "FAILED time $v rc=$?" | tee -a "$R"
done
# Discovery: cost (launch with 0 phases, against --no-discovery) and how many
# groups it admits, ticket lock vs lock-free, up to 16x oversubscription.
DC=132x256,264x256,528x256,${full}x256,$((4 * full))x256,$((16 * full))x256
for v in ${DISC_VARIANTS:-tree.d-ticket tree.d-lockfree}; do
  timeout 90 "$B" time --cl "$K/loop.$v.cl" --constraints "$K/loop.$v.json" \
    --configs "$DC" --short 10 --long 60 --reps 5 | sed 's/^RESULT/DISC/' | tee -a "$R" \
    || echo "FAILED disc $v rc=$?" | tee -a "$R"
done
# Message passing: zero stale reads is the only pass; noop must see some.
SC=132x256,264x256,528x256,${full}x256
for v in ${STRESS_VARIANTS:-$VARIANTS noop}; do
  timeout ${STRESS_LIMIT:-60} "$B" stress --cl "$K/mp.$v.nd.cl" --constraints "$K/mp.$v.nd.json" \
    --configs "$SC" --episodes "$EPISODES" | tee -a "$R"
  echo "stress $v rc=$?" >> "$R"
done
if [ -z "${NO_POCL:-}" ]; then
  export GSYNC_PLATFORM=Portable POCL_MAX_PTHREAD_COUNT=16
  for v in $VARIANTS acq-rel noop; do
    timeout 60 "$B" stress --cl "$K/mp.$v.nd.cl" --constraints "$K/mp.$v.nd.json" \
      --configs 4x64,16x64 --episodes "$POCL_EPISODES" | sed 's/^STRESS/PSTRESS/' | tee -a "$R"
  done
  timeout 100 "$B" time --cl "$K/loop.tree.nd.cl" --constraints "$K/loop.tree.nd.json" \
    --configs 16x64 --short 100 --long 1100 --reps 3 | sed 's/^RESULT/PRESULT/' | tee -a "$R"
fi
echo "bench done" | tee -a "$R"
