# 2026-11-26, night: device tool, kind nvidia-h100-x1, four calls, all on an
# H100 (NVIDIA H100 80GB HBM3, driver 580.159.04).
#
# Calls 1-2: discovery candidates (bench/candidates: discovery-lf4.cl.in,
# make.py's DISCOVERY4) -> discovery-candidates-h100-2026-11-26-night.txt
# Here, at 31c377f (call 1; the old lock-free rule) and with the lf4 rule as
# lockfree (call 2):
cmake --build build
mkdir -p /tmp/rules && cp rewrite-rules/*.cl test/rules/*.cl /tmp/rules/ && /usr/bin/python3 bench/candidates/make.py /tmp/rules
VARIANTS="tree" DISCOVERY="lockfree lf4-k4 lf4-k2 lf4-k4-w50" sh bench/candidates/prepare.sh   # call 1
VARIANTS="tree" DISCOVERY="lockfree lf4-k2 lf5-k4-p1 lf5-k4-p0" sh bench/candidates/prepare.sh  # call 2
# the run tests with a candidate as DISC_EXTRA (a rules dir of rewrite-rules
# plus the candidate's file):
RULES_DIR=/tmp/rules4 BARRIERS="tree noop" sh test/gpu/prepare.sh               # call 1 (+ lf4-k4)
RULES_DIR=/tmp/rules4 BARRIERS="tree atomic-or noop" sh test/gpu/prepare.sh     # call 2 (+ lf5-k4-p0, lf5-k4-p1)
# libgsync before 31c377f, for the same-run comparison of the host path:
git show a2d9db0:runtime/libgsync.c > /tmp/oldlib/libgsync.c; git show a2d9db0:runtime/libgsync.h > /tmp/oldlib/libgsync.h
gcc -O2 -std=c11 -D_GNU_SOURCE -DCL_TARGET_OPENCL_VERSION=300 -DCLHOST_PROG='"gsync-bench"' -I/tmp/oldlib bench/bench.c bench/clhost.c /tmp/oldlib/libgsync.c -o /tmp/oldlib/gsync-bench-old -lOpenCL -ljson-c -lpthread
sh ../shared/gpu/prepare.sh
# there (carry .gpu and build):
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
(cd build/cand && OUT=$OUT SASS=tree timeout 240 bash run-gpu.sh)
PLATFORMS=NVIDIA BARRIERS=tree DISC_EXTRA=lf4-k4 LF_BARRIERS=tree BUDGET=150 timeout -k 5 170 bash test/gpu/run.sh        # -> run-tests-h100-2026-11-26-night-lf4-candidate.txt
PLATFORMS=NVIDIA BARRIERS="tree atomic-or" DISC_EXTRA="lf5-k4-p0 lf5-k4-p1" LF_BARRIERS="tree atomic-or" BUDGET=150 timeout -k 5 170 bash test/gpu/run.sh   # -> run-tests-h100-2026-11-26-night-lf5-candidates.txt
#
# Calls 3-4: the current results (h100.md), at 27fd808. Here:
mkdir -p /tmp/final-rules && cp rewrite-rules/*.cl /tmp/final-rules/
git show a2d9db0:rewrite-rules/discovery-lockfree.cl | sed '1s/discovery-lockfree:/discovery-lockfree0 (the default before 2026-11-26, night):/' > /tmp/final-rules/discovery-lockfree0.cl
sed -e '1s/discovery-lockfree:/discovery-lockfree-noflip (a broken copy for the teeth of gsync-run --vary: the reset keeps the generation):/' -e 's/atomic_xchg(poll, gen ^ GSYNC_LF_GEN);/atomic_xchg(poll, gen);/' rewrite-rules/discovery-lockfree.cl > /tmp/final-rules/discovery-lockfree-noflip.cl
RULES_DIR=/tmp/final-rules sh test/gpu/prepare.sh
mkdir -p build/old && cp /tmp/oldlib/gsync-bench-old build/old/
sh ../shared/gpu/prepare.sh
# Call 3 (119 s) -> bench-h100-2026-11-26-night.txt, disc-before-after-h100-2026-11-26-night.txt,
# regs-h100-2026-11-26-night.txt, app-h100-2026-11-26-night.txt:
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; export OUT EPISODES=100000 POCL_EPISODES=100000
DISC_VARIANTS="tree.d-lockfree tree.d-lockfree0 tree.d-ticket" STRESS_VARIANTS="tree flip gen atomic-or noop" POCL_VARIANTS="tree flip gen acq-rel noop" timeout 330 bash bench/run-gpu.sh
K=build/gpu-kernels
for i in 1 2; do for b in build/old/gsync-bench-old build/bench/gsync-bench; do
  for d in lockfree0 lockfree; do
    GSYNC_PLATFORM=NVIDIA timeout 60 $b disc --cl $K/loop.tree.d-$d.cl --constraints $K/loop.tree.d-$d.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256,4224x256,8448x256,16896x256 --reps 15
  done; done; done
timeout 45 bash bench/regs-gpu.sh
APP_VARIANTS=default timeout 60 bash bench/run-app.sh
# Call 4 (375 s) -> run-tests-h100-2026-11-26-night-NVIDIA.txt, run-tests-h100-2026-11-26-night-pocl5.txt,
# graph-h100-2026-11-26-night.md:
T="tree flip gen atomic-or volatile acq-rel"; S="stencil mirror xpx helper reuse jacobi2d stencil3d"
(PLATFORMS=NVIDIA BARRIERS="$T" SCENARIOS="$S" DISC_EXTRA="lockfree0 lockfree-noflip" LF_BARRIERS="tree atomic-or" BUDGET=330 OUT=$OUT/nv timeout -k 5 360 bash test/gpu/run.sh) &
PLATFORMS=Portable POCL_CORES=16 BARRIERS="$T" SCENARIOS="$S" DISC_EXTRA="lockfree0" LF_BARRIERS="tree atomic-or" BUDGET=330 OUT=$OUT/pocl timeout -k 5 360 bash test/gpu/run.sh; wait
timeout 150 bash bench/run-graph.sh
# And here again:
/usr/bin/python3 bench/table.py bench/results/raw/bench-h100-2026-11-26-night.txt OUT.md bench/results/h100.png
#
# Call 5 (4 s; gsync-bench with its `launch` mode, commit after ca90643)
# -> launch-parts-h100-2026-11-26-night.txt:
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; export GSYNC_PLATFORM=NVIDIA; K=build/gpu-kernels
for i in 1 2 3; do timeout 60 build/bench/gsync-bench launch --configs 132x256,1056x256,2112x256,16896x256 --reps 25; done
timeout 60 build/bench/gsync-bench disc --cl $K/loop.tree.d-lockfree.cl --constraints $K/loop.tree.d-lockfree.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256,16896x256 --reps 25
#
# Calls 6-9: the discovery rule's wait (rewrite-rules/discovery-lockfree.cl
# with two changes: F both, A word 1 read only once word 0 shows the poll
# closed or reset (shipped), B the last group taking part without waiting;
# N the rule of 27fd808) -> discovery-wait-h100-2026-11-26-night.txt and the
# run-tests-h100-2026-11-26-night-{wait-both,shipped-NVIDIA,shipped-pocl5}.txt.
# Call 6 only tried to compare loop.atomic-or's registers with the rules of
# a09db15 (they no longer build with this tool; not used).
# Call 7: VARIANTS=tree DISCOVERY="lockfree lf4-k4" sh bench/candidates/prepare.sh (lockfree = F);
#   BARRIERS="tree atomic-or noop" sh test/gpu/prepare.sh; there:
for r in 1 2 3; do for d in lockfree lf4-k4; do timeout 60 build/cand/gsync-bench disc --cl build/cand/k/loop.d-$d.cl --constraints build/cand/k/loop.d-$d.json --nd build/cand/k/loop.base.nd.cl --nd-constraints build/cand/k/loop.base.nd.json --configs 1056x256,2112x256,4224x256,8448x256,16896x256 --reps 15; done; done
PLATFORMS=NVIDIA BARRIERS="tree atomic-or" LF_BARRIERS="tree atomic-or" BUDGET=150 timeout -k 5 170 bash test/gpu/run.sh
# Call 8: stencil, mirror, xpx (tree, atomic-or) and loop (tree) rewritten
# with each of N A B F (--rules-dir); there, for each: gsync-bench binary
# --kernel NAME, ptxas -arch=sm_90 -v; and gsync-bench disc of loop.tree.X
# at 1056x256,2112x256, --reps 21, three rounds.
# Call 9 (A in rewrite-rules): BARRIERS="tree atomic-or noop" sh test/gpu/prepare.sh; there:
S="stencil mirror xpx helper reuse jacobi2d stencil3d"
(PLATFORMS=NVIDIA BARRIERS="tree atomic-or" SCENARIOS="$S" LF_BARRIERS="tree atomic-or" BUDGET=200 OUT=$OUT/nv timeout -k 5 220 bash test/gpu/run.sh) &
PLATFORMS=Portable POCL_CORES=16 BARRIERS="tree atomic-or" SCENARIOS="stencil mirror xpx helper reuse" LF_BARRIERS="tree" BUDGET=200 OUT=$OUT/pocl timeout -k 5 220 bash test/gpu/run.sh; wait
for r in 1 2 3; do timeout 60 build/bench/gsync-bench disc --cl $K/loop.tree.d-lockfree.cl --constraints $K/loop.tree.d-lockfree.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256,4224x256,8448x256,16896x256 --reps 15; done
#
# Call 10 (c4bcfcb: the rule with -DGSYNC_LF_STILL settable, same code by
# default): BARRIERS="tree noop" sh test/gpu/prepare.sh; there
# -> run-tests-h100-2026-11-26-night-final-tree.txt:
PLATFORMS=NVIDIA BARRIERS="tree" SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=120 OUT=$OUT/nv timeout -k 5 140 bash test/gpu/run.sh
