# 2026-11-26, evening: device tool, five calls (calls 1-4 on an H100,
# call 5 on an H200 that the tool gave when the H100 had gone back).
#
# Calls 1-2: the watch compiled in only with -Dgsync_watch
# (GSYNC_WATCH_BUILD_OPTION), before the N-D set-up change (the watch's
# local words still shared the grid search's, with b595faa's barrier).
BARRIERS="tree flip gen atomic-or volatile acq-rel noop local" sh test/gpu/prepare.sh; sh ../shared/gpu/prepare.sh
# Call 1 (carry .gpu and build):
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; W=build/test/run/libgsync-watch; K=build/gpu-kernels
REGS_WATCH=1 REGS_VARIANTS="tree tree.nd flip flip.nd gen gen.nd atomic-or atomic-or.nd volatile volatile.nd" timeout 100 bash bench/regs-gpu.sh > $OUT/regs.txt 2>&1   # -> regs-h100-2026-11-26-watch-build.txt
for g in 1056 132; do for v in tree flip gen atomic-or; do echo "== NVIDIA, barrier $v, $g groups of 256"; GSYNC_PLATFORM=NVIDIA timeout -k 5 50 $W $K/stencil.$v.cl $K/stencil.$v.json --groups $g --local 256 --bench 2>&1; echo "exit $?"; done; done > $OUT/watch.txt 2>&1   # -> watch-h100-2026-11-26-watch-build.txt
VARIANTS=tree NO_POCL=1 DISC_VARIANTS=" " STRESS_VARIANTS="tree noop" STRESS_LIMIT=40 timeout 200 bash bench/run-gpu.sh   # -> bench-h100-2026-11-26-watch-out.txt
# Call 2:
T="tree flip gen atomic-or volatile"
(PLATFORMS=NVIDIA BARRIERS="$T" SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=300 OUT=$OUT/nv timeout -k 5 330 bash test/gpu/run.sh) &   # -> run-tests-h100-2026-11-26-fit-full.txt
PLATFORMS=Portable POCL_CORES=16 BARRIERS="tree flip" SCENARIOS="stencil mirror xpx helper reuse" BUDGET=300 OUT=$OUT/pocl timeout -k 5 330 bash test/gpu/run.sh; wait   # -> run-tests-pocl5-2026-11-26-before-apart.txt
# Call 3: PoCL 5.0's fault (-> pocl5-segv-2026-11-26.txt): gsync-run on
# stencil.tree.nd with 2 groups, 16 and 1 threads, POCL_DEBUG=all.
# Call 4: bisect (-> pocl5-bisect-2026-11-26.txt). Here, for each commit C
# of 02e3b83 4fff64d b595faa c74c6aa HEAD, its rule files into /tmp/rules-C, then
build/tool/gsync-rewrite --rules-dir=/tmp/rules-C --no-discovery test/run/kernels/stencil.cl -o build/gpu-kernels/bisect/stencil.C.cl --constraints build/gpu-kernels/bisect/stencil.C.json
# there:
GSYNC_PLATFORM=Portable timeout 60 build/test/run/gsync-run --scenario stencil --cl build/gpu-kernels/bisect/stencil.C.cl --constraints build/gpu-kernels/bisect/stencil.C.json --groups 2 --local 64 --min-participants 2
#
# Call 5, after the N-D set-up change (the watch's words at gsync_shared
# 8-10, no barrier), prepared as above:
(PLATFORMS=NVIDIA BARRIERS="tree" SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=150 OUT=$OUT/nv timeout -k 5 170 bash test/gpu/run.sh) &   # -> run-tests-h200-2026-11-26-tree-apart.txt
PLATFORMS=Portable POCL_CORES=16 BARRIERS="tree flip gen atomic-or volatile" SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=300 OUT=$OUT/pocl timeout -k 5 330 bash test/gpu/run.sh; wait   # -> run-tests-pocl5-2026-11-26-apart.txt
# (with it, the CBS probe and the N-D watch builds on NVIDIA:
#  POCL_WORK_GROUP_METHOD=cbs gsync-run ... --groups 2; gsync-run --scenario jacobi2d --local 16x16 --groups 33x32 --options -Dgsync_watch)
#
# Call 6 (H200 machine, PoCL 5.0 on its CPU), watch builds at commit
# 25494c7 (-> pocl5-watch-builds-2026-11-26.txt): for b in tree flip gen
# atomic-or, jacobi2d (12x8 groups of 8x8) and stencil3d (6x4x4 of 4x4x4)
# with discovery, built with --options -Dgsync_watch; the same 96 groups
# without discovery on 4 threads (more than run at once: each must abort
# with the spin limit's message, and did); then the full watch checks:
GSYNC_PLATFORM=Portable timeout -k 5 100 build/test/run/libgsync-watch $K/stencil.tree.cl $K/stencil.tree.json --groups 200
GSYNC_PLATFORM=Portable timeout -k 5 100 build/test/run/libgsync-watch $K/stencil.flip.nd.cl $K/stencil.flip.nd.json --groups 16
