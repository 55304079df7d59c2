#!/bin/bash
# bench/candidates/run-gpu.sh: the candidate barriers and discovery
# protocols on the GPU machine, in the folder bench/candidates/prepare.sh
# made (after `. .gpu/on-gpu.sh` from the project root):
#   CUDA grid.sync() (gridsync.cu) at the start and again at the end; the
#   relaunch and no-barrier baselines; every candidate timed at CONFIGS;
#   the message-passing stress test for every candidate and the no-op
#   control; discovery against a plain launch of the same groups (DLAUNCH);
#   the SASS of a few candidates' loop kernels.
# Writes $OUT/cand-raw.txt (bench/table.py reads it) and $OUT/sass.txt.
# Env: VARIANTS, DISCOVERY (default: what prepare.sh rewrote), CONFIGS,
# SCONFIGS (stress), EPISODES, SASS (candidates to disassemble), NO_CUDA=1.
set -u
here=$(pwd)
OUT=${OUT:-$here/out}
mkdir -p "$OUT"
K=$here/k
B=$here/gsync-bench
export LD_LIBRARY_PATH=$here/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
R=$OUT/cand-raw.txt
VARIANTS=${VARIANTS:-$(cat "$K/VARIANTS")}
DISCOVERY=${DISCOVERY:-$(cat "$K/DISCOVERY")}
CONFIGS=${CONFIGS:-132x256,264x256,528x256,1056x256,132x1024,264x1024}
SCONFIGS=${SCONFIGS:-$CONFIGS}
DCONFIGS=${DCONFIGS:-1056x256,2112x256,4224x256,8448x256,16896x256}
EPISODES=${EPISODES:-100000}
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
echo "# $(date -u) bench/candidates/run-gpu.sh on $(hostname)" >> "$R"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,driver_version --format=csv,noheader >> "$R" 2>&1
gridsync() {
  [ -n "${NO_CUDA:-}" ] && return
  [ -x /tmp/gridsync ] || timeout 120 nvcc -O3 -arch=sm_90 -o /tmp/gridsync gridsync.cu > "$OUT/nvcc.log" 2>&1
  timeout 60 /tmp/gridsync 100 2100 9 | tee -a "$R"
}
gridsync
echo "CONFIGS $GSYNC_PLATFORM $CONFIGS" >> "$R"
timeout 120 "$B" baseline --configs "$CONFIGS" --reps 9 | tee -a "$R"
for v in $VARIANTS; do
  timeout 60 "$B" time --cl "$K/loop.$v.nd.cl" --constraints "$K/loop.$v.nd.json" \
    --configs "$CONFIGS" --reps 9 | tee -a "$R" || echo "FAILED time $v rc=$?" | tee -a "$R"
done
gridsync
for d in $DISCOVERY; do
  timeout 60 "$B" disc --cl "$K/loop.d-$d.cl" --constraints "$K/loop.d-$d.json" \
    --nd "$K/loop.base.nd.cl" --nd-constraints "$K/loop.base.nd.json" \
    --configs "$DCONFIGS" --reps 15 | tee -a "$R" || echo "FAILED disc $d rc=$?" | tee -a "$R"
done
for v in $VARIANTS noop; do
  timeout 90 "$B" stress --cl "$K/mp.$v.nd.cl" --constraints "$K/mp.$v.nd.json" \
    --configs "$SCONFIGS" --episodes "$EPISODES" | tee -a "$R"
  echo "stress $v rc=$?" >> "$R"
done
for v in ${SASS:-tree w-rem1 wa-rt1 flip-ar}; do
  {
    echo "=== $v"
    timeout 30 "$B" binary --cl "$K/loop.$v.nd.cl" --constraints "$K/loop.$v.nd.json" --out "/tmp/$v.bin" &&
      tr -d '\000' < "/tmp/$v.bin" > "/tmp/$v.ptx" &&
      timeout 60 ptxas -arch=sm_90 "/tmp/$v.ptx" -o "/tmp/$v.cubin" &&
      timeout 30 cuobjdump -sass "/tmp/$v.cubin" | grep -E 'Function|MEMBAR|ERRBAR|ATOM|RED|LDG|STG|CCTL|BAR|NANOSLEEP|SEL|YIELD|BRA|EXIT|CALL|RET' 
  } >> "$OUT/sass.txt" 2>&1
done
echo "candidates done" | tee -a "$R"
