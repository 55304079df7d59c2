# The commands behind the files *-2026-12-06b* (the second session of
# 2026-12-06; main at 3ccb5c1 plus the diagnostic rewrites below), on the
# GPU machine (NVIDIA H100 80GB HBM3, PoCL 5 on 16 cores). Here first:
#   sh ../shared/gpu/prepare.sh && sh test/gpu/prepare.sh &&
#   bash bench/body-cost.sh prepare && bash bench/floor.sh prepare
# and three diagnostic rewrites of apps/graph/*.cl into build/gpu-kernels/graph
# (APP.nodisc: --no-discovery; APP.nap and APP.rlx: --rules-dir with two
# variants of barrier-tree.cl, "treenap" = each poll of the NVIDIA spin
# preceded by gsync_tree_nap(256u), "treerlx" = the NVIDIA polls read with
# ld.relaxed.gpu and one ld.acquire.gpu after the spin, which is what
# barrier-tree.cl became); the same two rewritten from bench/kernels/loop.cl
# and mp.cl (--no-discovery) into build/floor-kernels as loop.treerlx.cl etc.
# Removed build/test/*/Output; carried: .gpu build.

# Call 1 (161 s): files nd-bench-*, floor-*, regs-graph-*, graph-diag-*, body-cost-*
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
STEPS=bench timeout -k 5 105 bash test/gpu/nd.sh
EXTRA_VARIANTS="treerlx treenap" timeout -k 5 150 bash bench/floor.sh run
for a in bfs sssp color mis pagerank mst bc; do for v in default nodisc; do
  f=build/gpu-kernels/graph/$a.$v
  build/bench/gsync-bench binary --cl $f.cl --constraints $f.json --kernel $a --out /tmp/r.bin &&
  tr -d '\000' < /tmp/r.bin > /tmp/r.ptx && echo "REGS $a.$v $(ptxas -arch=sm_90 -v /tmp/r.ptx -o /dev/null 2>&1 | grep -o 'Used [0-9]* registers')"
done; done
for cfg in "default 1056" "default 132" "nodisc 1056" "nap 1056" "rlx 1056"; do
  set -- $cfg
  OUT=$OUT/g-$1-$2 VARIANT=$1 GROUPS_N=$2 REPS=3 BUDGET=38 CASE_LIMIT=15 CASES="bfs rmat:14
mst rmat:14
color rmat:14
mis rmat:14
sssp rmat:14
bfs grid:256x256
mst grid:256x256" timeout -k 5 45 bash bench/run-graph.sh
done
PLAT=NVIDIA LAUNCHES=5 REPS=3 TMO=30 SHAPES="stencil=132:256 stencil=1056:256 xpx=132:256 mirror=528:256 helper=264:256 jacobi2d=33x32:16x16 stencil3d=11x12x8:8x8x4" EXTENT="jacobi2d=1024x1024 stencil3d=128x128x64" bash bench/body-cost.sh run
# (nodisc 1056 failed for bfs and mst: 1056 groups are not co-resident at
# their 36 and 40 registers; jacobi2d and stencil3d's --no-discovery
# builds gave no time at 1056 groups for the same reason.)

# Call 2 (180 s, warm): files run-tests-*, harden-*, graph-*-relaxed-polls.md
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
STEPS=tests TEST_BUDGET=140 timeout -k 5 400 bash test/gpu/all.sh
OUT=$OUT/g-rlx VARIANT=rlx REPS=3 BUDGET=170 CASE_LIMIT=30 timeout -k 5 180 bash bench/run-graph.sh

# Call 3 (108 s; main at 78e71c9 with the merges of the split barrier and
# gsync-check; here first: sh test/gpu/prepare.sh, bash bench/floor.sh
# prepare, bash bench/skew.sh prepare, bash bench/split.sh prepare,
# bash test/gpu/check.sh prepare, and bench/kernels/placement.cl rewritten
# with --discovery=lockfree and --no-discovery into build/placement/):
# files placement-*, floor-*-call3, graph-*-call3*, skew-*,
# docs/check/nvidia-h100-quick.*
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
for v in lockfree nd; do cf=132x256,528x256,1056x256; [ $v = nd ] || cf=$cf,4224x256
  build/bench/gsync-bench placement --cl build/placement/placement.$v.cl --constraints build/placement/placement.$v.json --configs $cf; done
timeout -k 5 50 bash bench/floor.sh run
CASES="mst rmat:14
mst rmat:18
color rmat:18
mis rmat:18
bfs rmat:18
sssp rmat:18
pagerank rmat:18
bfs grid:1000x1000" VARIANT=default REPS=3 BUDGET=85 CASE_LIMIT=25 timeout -k 5 95 bash bench/run-graph.sh
PLATFORMS=NVIDIA TMO=40 QUICK=1 timeout -k 5 45 bash test/gpu/check.sh run
ROUNDS=1 BARRIERS="tree tree-acqpoll atomic-or" timeout -k 5 30 bash bench/skew.sh run
# (bench/split.sh with BARRIERS=tree REPS=3 ran past its 50 s here.)

# Call 4 (46 s, warm): file split-*
BARRIERS=tree COUNTS="132 1056" REPS=1 LAUNCHES=3 TMO=20 timeout -k 3 90 bash bench/split.sh run
