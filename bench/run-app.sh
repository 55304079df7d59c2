#!/bin/bash
# bench/run-app.sh: the applications of apps/app.c on the GPU machine, each
# a persistent kernel with global_barrier() against the same work relaunched
# per phase, same device, same run: BFS on a 1000x1000 grid graph (1999
# levels) and examples/heat.cl over 100,000 steps (200,000 barriers).
# Needs build/gpu-kernels/app (test/gpu/prepare.sh) and build/apps/gsync-app.
#   . .gpu/on-gpu.sh; bash bench/run-app.sh
# Env: APP_VARIANTS (default: "default", the barrier a user gets), GROUPS_N
# (work-groups launched, default 1056 = the H100's co-resident count at 256
# items), PLAT (default NVIDIA), STEPS_N, GRID.
set -u
root=$(pwd)
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
K=$root/build/gpu-kernels/app
A=${A:-$root/build/apps/gsync-app}
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
R=$OUT/app-raw.txt
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
G=${GROUPS_N:-1056}
echo "# $(date -u) bench/run-app.sh on $(hostname), platform $GSYNC_PLATFORM" >> "$R"
for v in ${APP_VARIANTS:-default}; do
  echo "VARIANT $v" | tee -a "$R"
  timeout 120 "$A" bfs --cl "$K/bfs.$v.cl" --constraints "$K/bfs.$v.json" \
    --relaunch-cl apps/app/bfs_level.cl --grid "${GRID:-1000x1000}" \
    --groups "$G" --local 256 --reps 5 2>&1 | tee -a "$R"
  timeout 200 "$A" heat --cl "$K/heat.$v.cl" --constraints "$K/heat.$v.json" \
    --relaunch-cl apps/app/heat_step.cl --n 262144 --steps "${STEPS_N:-100000}" \
    --groups "$G" --local 256 --reps 3 2>&1 | tee -a "$R"
done
echo "app done" | tee -a "$R"
