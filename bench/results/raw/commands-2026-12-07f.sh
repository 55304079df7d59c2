# Device calls of the session of 2026-12-07 (f).
#
# Preparation (here): the candidate discovery-lfshard (its diff against
# discovery-lockfree.cl: raw/discovery-lfshard-2026-12-07f.patch; lsfloor is
# it with -DGSYNC_LS_FLOOR=1, every polled group taking part after its one
# shard increment, lfshard8 with -DGSYNC_LS_SHARDS=8u) in .gpu/ls; its shards
# sit at word 128 on, right after tree's 256 fixed bytes: a placement fit for
# tree only (atomic-or keeps its per-group flags there).
#   bash bench/disc.sh prepare
#   K=build/disc-kernels; cp .gpu/ls/discovery-*.cl $K/rules/
#   for v in lfshard lfshard8 lsfloor; do build/tool/gsync-rewrite --rules-dir=$K/rules \
#     --discovery=$v bench/kernels/loop.cl -o $K/loop.$v.cl --constraints $K/loop.$v.json; done
#   # ub: loop.cl with a prelude whose five grid-search barriers are on every
#   # launch's path (the search itself under its branch), not kept
#   build/tool/gsync-rewrite --rules-dir=UB bench/kernels/loop.cl -o $K/loop.ub.cl --constraints $K/loop.ub.json
#   echo "lockfree lffloor lfshard lfshard8 lsfloor ub" > $K/VARIANTS
#   # the run tests with lfshard as the discovery (a rules dir whose
#   # discovery-lockfree.cl is lfshard), tree and atomic-or:
#   RULES_DIR=build/ls-rules BARRIERS="tree atomic-or" sh test/gpu/prepare.sh
#   build-gpu = build/ less its lit Output dirs, objects and fuzz
# Call 1 (.gpu/call10.sh; two tries before it got no machine), an H100:
  set -u
  [ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
  . .gpu/on-gpu.sh >/dev/null 2>&1
  export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
  T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
  nvidia-smi -L
  ROUNDS=7 timeout -k 5 160 bash bench/disc.sh run > $OUT/disc.txt 2>&1; el "disc rc=$?"
  grep '^DISC\|FAILED' $OUT/disc.txt
  mkdir -p /tmp/gt; OUT=/tmp/gt PLATFORMS=NVIDIA SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=200 timeout -k 5 260 bash test/gpu/run.sh >/dev/null 2>&1; el "run.sh rc=$?"
  cp /tmp/gt/gpu-run-*.txt /tmp/gt/*.log $OUT/ 2>/dev/null; tail -30 /tmp/gt/gpu-run-*.txt
# Files: raw/disc-lfshard-2026-12-07f-call1.txt, raw/gpu-run-NVIDIA-lfshard-2026-12-07f-call1.txt.

# Call 2 (.gpu/call11.sh), an H200: the prelude with the PoCL grid search
# (a first form, the candidate loop in a function filling a private array;
# the GPU path of what was committed, a3ebef3, is the earlier code as it
# was), every barrier: sh test/gpu/prepare.sh; build/nd-ab/loopnd.old.cl
# rewritten with 084f21e's prelude (--rules-dir), loopnd.new.cl with it.
  set -u
  [ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
  . .gpu/on-gpu.sh >/dev/null 2>&1
  export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
  T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
  nvidia-smi -L
  cd build/nd-ab
  for r in 1 2 3; do for v in old new; do
    timeout 40 ../bench/gsync-bench time-nd --cl loopnd.$v.cl --constraints loopnd.$v.json \
      --configs 33x32:16x16,66x64:16x16,22x24x8:8x8x4,44x48x8:8x8x4 --short 1 --long 3 --reps 9 \
      | sed "s/^/$v r$r /" | tee -a $OUT/launch-nd.txt
  done; done
  cd ../..; el nd-done
  mkdir -p /tmp/gt; OUT=/tmp/gt PLATFORMS=NVIDIA SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=230 timeout -k 5 280 bash test/gpu/run.sh >/dev/null 2>&1; el "run.sh rc=$?"
  cp /tmp/gt/gpu-run-*.txt /tmp/gt/*.log $OUT/ 2>/dev/null; tail -40 /tmp/gt/gpu-run-*.txt
# Files: raw/launch-nd-2026-12-07f-call2.txt, raw/gpu-run-NVIDIA-2026-12-07f-call2.txt.

# Not run (no machine, then no device time left): the committed prelude
# (a3ebef3) on NVIDIA, as call 2 with the tool of a3ebef3 and 5 rounds of
# time-nd; and its PoCL search on PoCL 5.0 (the GPU machine's CPU), the N-D
# discovery cells that search a grid:
#   OUT=/tmp/gt PLATFORMS=Portable POCL_CORES=16 SCENARIOS="stencil jacobi2d stencil3d mirror" \
#     BARRIERS="tree atomic-or" BUDGET=110 timeout -k 5 140 bash test/gpu/run.sh
