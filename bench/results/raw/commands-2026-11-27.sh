# 2026-11-27: device tool, kind nvidia-h100-x1, four calls, all on an H100
# (NVIDIA H100 80GB HBM3, driver 580.159.04). Here, after cmake --build build.
#
# Call 1 (15 s): the poll cap with the cap fixed in the rule text
# (bench/candidates/make.py DISCOVERY6), against the rule of 24e46ec
# (lf4-k4) -> discovery-cap-candidates-h100-2026-11-27.txt. The rule's cap
# word then sat beside the poll word (state word 2); that "lockfree" row is
# the cost of reading a word on the poll word's line, which is why the cap
# moved to a line of its own (word 32).
VARIANTS="tree" DISCOVERY="lockfree lf4-k4 lf6-c1056 lf6-c1089 lf6-c1122" sh bench/candidates/prepare.sh
sh ../shared/gpu/prepare.sh
# there (carry .gpu and build/cand):
. .gpu/on-gpu.sh; cd build/cand && for round in 1 2; do NO_CUDA=1 VARIANTS=tree CONFIGS=132x256 SCONFIGS=132x256 EPISODES=1000 SASS=tree OUT=$OUT timeout 200 bash run-gpu.sh; done
#
# Calls 2-3: the shipped poll cap (9e54f16; call 2 before fill_state was
# factored out, the same behaviour) against the rule before it, renamed
# lockfree1. Here:
rm -rf build/final-rules && mkdir -p build/final-rules && cp rewrite-rules/*.cl build/final-rules/
git show 24e46ec:rewrite-rules/discovery-lockfree.cl | sed '1s/discovery-lockfree:/discovery-lockfree1 (the default before the poll cap):/' > build/final-rules/discovery-lockfree1.cl
RULES_DIR=$PWD/build/final-rules BARRIERS="tree atomic-or noop" sh test/gpu/prepare.sh          # call 2
RULES_DIR=$PWD/build/final-rules BARRIERS="tree atomic-or noop local" sh test/gpu/prepare.sh    # call 3
VARIANTS="tree floor-relaxed" DISCOVERY="lockfree" sh bench/candidates/prepare.sh                 # call 3
# Call 2 (115 s) -> bench-h100-2026-11-27.txt (first half), regs-h100-2026-11-27.txt,
# run-tests-h100-2026-11-27-call2-NVIDIA.txt (carry .gpu and build):
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; export OUT
VARIANTS="tree" DISC_VARIANTS="tree.d-lockfree tree.d-lockfree1 tree.d-lockfree tree.d-lockfree1 atomic-or.d-lockfree" STRESS_VARIANTS="tree noop" NO_POCL=1 EPISODES=100000 timeout 220 bash bench/run-gpu.sh
REGS_VARIANTS="tree tree.nd atomic-or tree.d-lockfree1" timeout 45 bash bench/regs-gpu.sh > $OUT/regs.txt 2>&1
PLATFORMS=NVIDIA BARRIERS="tree atomic-or" DISC_EXTRA=lockfree1 LF_BARRIERS="tree atomic-or" BUDGET=200 timeout -k 5 240 bash test/gpu/run.sh
# Call 3 (163 s) -> bench-h100-2026-11-27.txt (second half), floor-h100-2026-11-27.txt
# (first half), polled-h100-2026-11-27.txt, run-tests-h100-2026-11-27-call3-*.txt:
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; export OUT
(cd build/cand && OUT=$OUT DCONFIGS=1056x256 timeout 150 bash run-gpu.sh)
VARIANTS=tree DISC_VARIANTS="tree.d-lockfree tree.d-lockfree1 tree.d-lockfree tree.d-lockfree1 tree.d-lockfree tree.d-lockfree1 atomic-or.d-lockfree atomic-or.d-lockfree1" STRESS_VARIANTS="tree noop" NO_POCL=1 NO_CUDA=1 timeout 150 bash bench/run-gpu.sh
R=build/test/run/gsync-run; K=build/gpu-kernels; export GSYNC_PLATFORM=NVIDIA
for d in "" .d-lockfree1; do timeout 60 $R --scenario reuse --cl $K/stencil.tree$d.cl --constraints $K/stencil.tree$d.json --groups 16896 --local 256 --launches 40 --polled; timeout 60 $R --scenario jacobi2d --cl $K/jacobi2d.tree$d.cl --constraints $K/jacobi2d.tree$d.json --groups 128x132 --local 16x16 --extent 1024x1024 --launches 40 --polled; done
unset GSYNC_PLATFORM
(PLATFORMS=NVIDIA BARRIERS=tree SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" DISC_EXTRA=lockfree1 LF_BARRIERS="tree atomic-or" BUDGET=150 timeout -k 5 180 bash test/gpu/run.sh) &
PLATFORMS=Portable POCL_CORES=16 BARRIERS=tree SCENARIOS="stencil mirror xpx helper reuse" DISC_EXTRA=lockfree1 LF_BARRIERS=tree BUDGET=150 timeout -k 5 180 bash test/gpu/run.sh; wait
#
# Call 4 (40 s) -> floor-h100-2026-11-27.txt (second half), floor-sass-h100-2026-11-27.txt
# (the MEMBAR/CCTL/ATOM/LDG lines of bench/candidates/run-gpu.sh's SASS, first round),
# disc-ab-h100-2026-11-27.txt. Here:
VARIANTS="tree floor-relaxed floor-release" DISCOVERY="lockfree" sh bench/candidates/prepare.sh
# there:
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; export OUT
(cd build/cand && for r in 1 2; do OUT=$OUT DCONFIGS=1056x256 SASS="tree floor-relaxed floor-release" timeout 170 bash run-gpu.sh; done)
B=build/bench/gsync-bench; K=build/gpu-kernels; export GSYNC_PLATFORM=NVIDIA
for r in 1 2 3 4; do for d in lockfree lockfree1; do timeout 60 $B disc --cl $K/loop.tree.d-$d.cl --constraints $K/loop.tree.d-$d.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256 --reps 25; done; done
#
# Tables (here):
/usr/bin/python3 bench/candidates/table.py bench/results/raw/floor-h100-2026-11-27.txt
