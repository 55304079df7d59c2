#!/bin/bash
# bench/run-gpu.sh: the barrier benchmark and the message-passing stress test
# on the GPU machine. Needs what test/gpu/prepare.sh made (build/gpu-kernels,
# build/gpu-lib) and build/bench/gsync-bench (cmake --build build).
#   . .gpu/on-gpu.sh; bash bench/run-gpu.sh
# Writes raw RESULT/DLAUNCH/STRESS lines to $OUT/bench-raw.txt; bench/table.py
# turns them into the tables and the plot of bench/results/h100.md.
# Environment: VARIANTS, SLOW_VARIANTS (timed with 10 and 110 phases, not
# 100 and 2100: Xiao-Feng costs hundreds of us a barrier), CONFIGS,
# DISC_VARIANTS, STRESS_VARIANTS, POCL_VARIANTS, EPISODES, POCL_EPISODES,
# NO_CUDA=1 (skip gridsync.cu), NO_POCL=1, PLAT (default NVIDIA),
# STRESS_LIMIT (seconds per variant, default 60).
set -u
# A failed gsync-bench must show: its status through the pipes into tee
# (pipefail), and its message in the raw file (2>&1). Without both, a
# config it refused (a local size the kernel cannot have) vanished from
# the results unnoticed.
set -o pipefail
root=$(pwd)
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
K=$root/build/gpu-kernels
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
B=${B:-$root/build/bench/gsync-bench}
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=$OUT/bench-raw.txt
PLAT=${PLAT:-NVIDIA}
# By default the barriers test/gpu/prepare.sh rewrote (test/gpu/barriers.sh),
# the default first; on NVIDIA (OpenCL C 1.2) those that build there.
if [ "$PLAT" = NVIDIA ]; then
  VARIANTS=${VARIANTS:-$(gpu_barriers_cl12)}
else
  VARIANTS=${VARIANTS:-$(gpu_barriers)}
fi
EPISODES=${EPISODES:-100000}
POCL_EPISODES=${POCL_EPISODES:-100000}
echo "# $(date -u) bench/run-gpu.sh on $(hostname)" >> "$R"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader >> "$R" 2>&1
full=1056
if [ -z "${NO_CUDA:-}" ]; then
  command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
  if timeout 120 nvcc -O3 -arch=sm_90 -o /tmp/gridsync bench/gridsync.cu > /tmp/nvcc.log 2>&1; then
    timeout 60 /tmp/gridsync 100 2100 7 | tee -a "$R"
    f=$(awk '$1=="OCCUPANCY" && $2==256 {print $4}' "$R" | tail -1)
    [ -n "$f" ] && full=$f
  else
    echo "NVCC-FAILED" | tee -a "$R"; tail -5 /tmp/nvcc.log | tee -a "$R"
  fi
fi
CONFIGS=${CONFIGS:-132x256,264x256,528x256,${full}x256,132x1024,264x1024}
export GSYNC_PLATFORM=$PLAT
echo "CONFIGS $PLAT $CONFIGS" >> "$R"
timeout 120 "$B" baseline --configs "$CONFIGS" | tee -a "$R"
SLOW_VARIANTS=${SLOW_VARIANTS:-atomic-or volatile}
for v in $VARIANTS; do
  iters="--short 100 --long 2100 --reps 7"
  case " $SLOW_VARIANTS " in *" $v "*) iters="--short 10 --long 110 --reps 5" ;; esac
  timeout 60 "$B" time --cl "$K/loop.$v.nd.cl" --constraints "$K/loop.$v.nd.json" \
    --configs "$CONFIGS" $iters 2>&1 | tee -a "$R" || echo "FAILED time $v rc=$?" | tee -a "$R"
done
# Discovery: a launch with 0 phases against a plain launch of the same
# groups that return at once, in the same run (DLAUNCH: bench.c), and how
# many groups it admits, at 1x to 16x the co-resident count; with the same
# kernel without discovery, through libgsync and raw, for comparison.
DC=${full}x256,$((2 * full))x256,$((4 * full))x256,$((8 * full))x256,$((16 * full))x256
for v in ${DISC_VARIANTS:-$(for d in $(gpu_discoveries); do echo $DEF.d-$d; done)}; do
  timeout 90 "$B" disc --cl "$K/loop.$v.cl" --constraints "$K/loop.$v.json" \
    --nd "$K/loop.$DEF.nd.cl" --nd-constraints "$K/loop.$DEF.nd.json" \
    --configs "$DC" --reps 15 2>&1 | tee -a "$R" || echo "FAILED disc $v rc=$?" | tee -a "$R"
done
# Message passing: zero stale reads is the only pass; noop must see some.
SC=${SCONFIGS:-132x256,264x256,528x256,${full}x256,132x1024,264x1024}
for v in ${STRESS_VARIANTS:-$VARIANTS noop}; do
  timeout ${STRESS_LIMIT:-60} "$B" stress --cl "$K/mp.$v.nd.cl" --constraints "$K/mp.$v.nd.json" \
    --configs "$SC" --episodes "$EPISODES" 2>&1 | tee -a "$R"
  echo "stress $v rc=$?" >> "$R"
done
if [ -z "${NO_POCL:-}" ]; then
  export GSYNC_PLATFORM=Portable POCL_MAX_PTHREAD_COUNT=16
  for v in ${POCL_VARIANTS:-$(gpu_barriers) noop}; do
    timeout 60 "$B" stress --cl "$K/mp.$v.nd.cl" --constraints "$K/mp.$v.nd.json" \
      --configs 4x64,16x64 --episodes "$POCL_EPISODES" | sed 's/^STRESS/PSTRESS/' | tee -a "$R"
  done
  timeout 100 "$B" time --cl "$K/loop.$DEF.nd.cl" --constraints "$K/loop.$DEF.nd.json" \
    --configs 16x64 --short 100 --long 1100 --reps 3 | sed 's/^RESULT/PRESULT/' | tee -a "$R"
fi
# gridsync again: the baseline has not drifted.
[ -z "${NO_CUDA:-}" ] && [ -x /tmp/gridsync ] && timeout 60 /tmp/gridsync 100 2100 7 | sed 's/^RESULT gridsync/RESULT gridsync-again/' | tee -a "$R"
echo "bench done" | tee -a "$R"
