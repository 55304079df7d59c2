# Device calls of the session of 2026-12-07 (d). Call 1 (.gpu/call7.sh):
# .gpu/c7/crash = the crash dirs of 2026-12-07c (raw/pocl5-wgc-2026-12-07c.c as wgc.c,
# raw/pocl5-wrun-2026-12-07c.sh as wrun.sh); .gpu/c7/late = replay.py prepare of the 28
# routed seeds not run before; gsync-diffhost and gpu-lib from build/.
  set -u
  . .gpu/on-gpu.sh >/dev/null 2>&1
  export LD_LIBRARY_PATH=$PWD/.gpu/c7/gpu-lib:$LD_LIBRARY_PATH
  T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
  R=$PWD
  ( cd .gpu/c7/crash && gcc -O1 -o wgc wgc.c -lOpenCL && timeout -k 5 100 bash wrun.sh 2>&1 | sort > $OUT/crash2.txt ) &
  timeout -k 5 430 python3 test/differential/replay.py run --truth .gpu/truth-late.txt --host $R/.gpu/c7/gsync-diffhost --platform Portable --jobs 12 --timeout 150 .gpu/c7/late > $OUT/replay-late28-portable.txt 2>&1
  el "portable rc=$?"
  wait; el crash-done
  cat $OUT/crash2.txt
  awk '{print $1}' $OUT/replay-late28-portable.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $OUT/replay-late28-portable.txt | cut -c1-300 | head -30

# Call 2 (.gpu/call8.sh), after the virtual-grid change (bf4a447): build-gpu = build/
# less the lit Output dirs after sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh;
# bash bench/disc.sh prepare; .gpu/c8/late = replay.py prepare of 40 seeds with that
# build (the six outputs PoCL 5.0 aborted on, the slow ones, the five not reached,
# and 24 seeds that were OK before).
  set -u
  [ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
  . .gpu/on-gpu.sh >/dev/null 2>&1
  export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
  T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
  nvidia-smi -L
  ROUNDS=5 timeout -k 5 70 bash bench/disc.sh run > $OUT/disc.txt 2>&1; el "disc rc=$?"
  grep '^DISC\|FAILED' $OUT/disc.txt
  ( timeout -k 5 370 python3 test/differential/replay.py run --truth .gpu/truth-late.txt --host $PWD/build/test/gsync-diffhost --platform Portable --jobs 10 --timeout 150 .gpu/c8/late > $OUT/replay-c8-portable.txt 2>&1; echo "portable rc=$?" >> $OUT/replay-c8-portable.txt ) &
  mkdir -p /tmp/gt; OUT=/tmp/gt PLATFORMS=NVIDIA SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=180 timeout -k 5 230 bash test/gpu/run.sh >/dev/null 2>&1; el "run.sh rc=$?"
  cp /tmp/gt/gpu-run-*.txt $OUT/ 2>/dev/null; tail -8 /tmp/gt/gpu-run-*.txt
  wait; el done
  tail -1 $OUT/replay-c8-portable.txt
  awk '{print $1}' $OUT/replay-c8-portable.txt | sort | uniq -c; grep -v "^OK\|^REFUSED\|^portable" $OUT/replay-c8-portable.txt | cut -c1-300 | head -20

# Call 3 (.gpu/call9.sh; one try got no machine, the next ran it with rounds 1-3): loopnd.cl rewritten by the tool before
# (6469944, built from a worktree) and after bf4a447 (the slot search), gsync-bench from build/bench.
  set -u
  . .gpu/on-gpu.sh >/dev/null 2>&1
  export LD_LIBRARY_PATH=$PWD/.gpu/c7/gpu-lib:$LD_LIBRARY_PATH
  cd .gpu/c9
  nvidia-smi -L
  for r in 1 2 3; do
    for v in old new; do
      timeout 40 ./gsync-bench time-nd --cl loopnd.$v.cl --constraints loopnd.$v.json \
        --configs 33x32:16x16,66x64:16x16,22x24x8:8x8x4,44x48x8:8x8x4 --short 1 --long 3 --reps 9 \
        | sed "s/^/$v r$r /" | tee -a $OUT/launch-nd.txt
    done
  done
