# Device calls of 2026-12-06 (third session), each the script below run as
#   timeout 580 bash gpuN.sh   (carry .gpu and build), after, here:
#   sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh; bash bench/floor.sh prepare;
#   bash bench/split.sh prepare; bash test/gpu/check.sh prepare; bash bench/body-cost.sh prepare;
#   bash bench/auto.sh prepare; bash bench/skew.sh prepare
# Diagnostic rewrites made by hand (not shipped):
#   pace variants: barrier-tree.cl with gsync_tree_waiting_p (nap NS before a poll after AFTER polls):
#     tree-p500 (64, 500), tree-p2000 (64, 2000), tree-p2000f (1, 2000), tree-p200f (1, 200); loops in build/pace, graphs as VARIANT
#   unroll: apps/graph/{mst,color,mis}.cl with '#pragma unroll 4' before each 'for (uint e = row[v]' loop
#   noinline: apps/graph/mst.cl with __attribute__((noinline)) on find_vertex
#   tree-acq2 / tree-acq4: gsync_tree_await polls with ld.acquire.gpu for its first 2 / 4 polls, then relaxed
#   auto-kernels/stencil.auto.cl: gsync-rewrite --barrier=auto test/run/kernels/stencil.cl

# ---- call 1 (gpu1.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export OUT GSYNC_PLATFORM=NVIDIA
K=build/gpu-kernels B=build/bench/gsync-bench
nvidia-smi -L; date
echo "=== placement"; timeout -k 3 40 bash test/gpu/placement.sh > $OUT/placement.log 2>&1; cat $OUT/placement.log
echo "=== regs 1024"; command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
for f in build/floor-kernels/loop.tree build/floor-kernels/loop.floor-release $K/loop.tree.nd; do
  timeout 30 $B binary --cl $f.cl --constraints $f.json --out /tmp/r.bin >/dev/null 2>&1 && tr -d '\000' </tmp/r.bin >/tmp/r.ptx &&
  { echo "$f: $(ptxas -arch=sm_90 -v /tmp/r.ptx -o /dev/null 2>&1 | tr '\n' ' ')"; grep -n "maxntid\|reqntid\|minnctapersm\|maxnreg" /tmp/r.ptx | head -5; cp /tmp/r.ptx $OUT/$(basename $f).ptx; }
done
echo "=== graph"; CASES="mst rmat:14
mst rmat:18
color rmat:18
mis rmat:18
sssp rmat:18
bfs rmat:14
bfs grid:1000x1000" VARIANT=default REPS=3 BUDGET=105 CASE_LIMIT=30 timeout -k 5 115 bash bench/run-graph.sh > $OUT/graph.log 2>&1; tail -14 $OUT/graph.log
echo "=== nd"; for r in 1 2; do for v in tree tree.nd local.nd; do
  timeout 30 $B time --cl $K/loop.$v.cl --constraints $K/loop.$v.json --configs 1056x256 | sed "s/^/$v r$r /"
  timeout 30 $B time-nd --cl $K/loopnd.$v.cl --constraints $K/loopnd.$v.json --configs 11x12x8:8x8x4,11x12x8:32x4x2,33x32:16x16 | sed "s/^/$v r$r /"
done; done 2>&1 | tee $OUT/nd-bench.txt | grep -v "^#"
echo "=== split"; BARRIERS=tree COUNTS="132 528 1056" REPS=2 LAUNCHES=3 TMO=25 timeout -k 3 90 bash bench/split.sh run > $OUT/split.log 2>&1; grep "^SPLIT\|rror\|FAIL" $OUT/split.log
echo "=== tests"; date
(PLATFORMS=NVIDIA BUDGET=140 timeout -k 5 175 bash test/gpu/run.sh >/dev/null 2>&1) &
(PLATFORMS=Portable BUDGET=140 timeout -k 5 175 bash test/gpu/run.sh >/dev/null 2>&1) &
wait
for f in $OUT/gpu-run-*.txt; do echo "== $f"; grep -i "fail" $f | head -10; tail -2 $f; done; date

# ---- call 2 (gpu2.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
K=build/gpu-kernels B=build/bench/gsync-bench
date
echo "=== wgprobe"; gcc -o /tmp/wgp scratch/wgprobe.c -lOpenCL && for o in "" "-DGSYNC_NV_SM=90 -cl-nv-verbose"; do
  timeout 60 /tmp/wgp "$o" scratch/trivial.cl build/floor-kernels/loop.tree.cl build/floor-kernels/loop.floor-release.cl $K/loop.tree.nd.cl $K/loop.tree.cl; done 2>&1 | grep -v "^$" | head -80
echo "=== pace floor"; for r in 1 2 3; do for v in tree tree-p500 tree-p2000 tree-p2000f tree-p200f; do
  timeout 30 $B time --cl build/pace/loop.$v.cl --constraints build/pace/loop.$v.json --configs 132x256,528x256,1056x256 2>&1 | grep -v "^#" | sed "s/^/$v r$r /"; done; done
export OUT=/tmp/gout; mkdir -p $OUT
CASES="mst rmat:14
mst rmat:18
color rmat:18
mis rmat:18
sssp rmat:18
bfs grid:1000x1000"
for v in default tree-p2000 tree-p500 tree-p2000f tree-p200f; do
  echo "=== graph $v"; CASES="$CASES" VARIANT=$v REPS=3 BUDGET=60 CASE_LIMIT=25 timeout -k 5 70 bash bench/run-graph.sh 2>&1 | grep "^| \|^graph:\|FAIL\|rror"
done
echo "=== graph default 132 groups"; CASES="$CASES" GROUPS_N=132 VARIANT=default REPS=3 BUDGET=60 CASE_LIMIT=25 timeout -k 5 70 bash bench/run-graph.sh 2>&1 | grep "^| \|^graph:\|FAIL\|rror"
date
echo "=== check PoCL"
PLATFORMS=Portable TMO=150 timeout -k 5 160 bash test/gpu/check.sh run
date
cp /tmp/gout/check-portable.* $REAL/ 2>/dev/null; true

# ---- call 3 (gpu3.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
K=build/gpu-kernels B=build/bench/gsync-bench
date
echo "=== ptx mst"; timeout 30 $B binary --cl $K/graph/mst.default.cl --constraints $K/graph/mst.default.json --out /tmp/m.bin >/dev/null 2>&1 && tr -d '\000' </tmp/m.bin > $REAL/mst.default.ptx; ls -la $REAL
export OUT=/tmp/gout; mkdir -p $OUT
echo "=== floor"; timeout -k 5 80 bash bench/floor.sh run 2>&1 | grep -v "^#" | tail -30
echo "=== run.sh tree + 1024 row"; PLATFORMS=NVIDIA BARRIERS=tree BUDGET=60 timeout -k 5 90 bash test/gpu/run.sh >/dev/null 2>&1; cat $OUT/gpu-run-NVIDIA.txt | tail -12
echo "=== graph unroll"
for v in default unroll; do CASES="mst rmat:14
mst rmat:18
color rmat:18
mis rmat:18" VARIANT=$v REPS=3 BUDGET=60 CASE_LIMIT=25 timeout -k 5 70 bash bench/run-graph.sh 2>&1 | grep "^| \|^graph:\|FAIL\|rror"; done
echo "=== split"; date; BARRIERS=tree COUNTS="132 264 528 1056" REPS=2 LAUNCHES=3 TMO=25 timeout -k 3 150 bash bench/split.sh run 2>&1 | grep "^SPLIT\|rror\|FAIL"
echo "=== body"; date; PLAT=NVIDIA LAUNCHES=5 REPS=3 TMO=30 SHAPES="stencil=132:256 stencil=1056:256 xpx=132:256 mirror=528:256 helper=264:256" timeout -k 3 120 bash bench/body-cost.sh run 2>&1 | grep "^BODY\|rror"
date

# ---- call 4 (gpu4.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
K=build/gpu-kernels B=build/bench/gsync-bench A=build/auto-kernels
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
date
echo "=== auto bench"; timeout -k 5 150 bash bench/auto.sh run 2>&1 | grep -v "^RESULT"
echo "=== auto run tests"
for g in 132 1056 4224; do for f in "" tree atomic-or; do
  echo "g=$g forced=${f:-none}: $(GSYNC_BARRIER=$f timeout -k 3 40 build/test/run/gsync-run --scenario stencil --cl $A/stencil.auto.cl --constraints $A/stencil.auto.json --groups $g --local 256 2>&1 | tr '\n' ' ')"
done; done
echo "=== mst sass"
timeout 30 $B binary --cl $K/graph/mst.default.cl --constraints $K/graph/mst.default.json --kernel mst --out /tmp/m.bin 2>&1 | tail -2
tr -d '\000' </tmp/m.bin > /tmp/m.ptx && ptxas -arch=sm_90 -v /tmp/m.ptx -o /tmp/m.cubin 2>&1 | grep -E "Compiling|Used" && cuobjdump -sass /tmp/m.cubin > $REAL/mst.sass 2>&1; cp /tmp/m.ptx $REAL/mst.ptx; ls -la $REAL
date

# ---- call 5 (gpu5.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
K=build/gpu-kernels B=build/bench/gsync-bench
date
echo "=== floor"; EXTRA_VARIANTS="tree-acq2 tree-acq4" timeout -k 5 130 bash bench/floor.sh run 2>&1 | grep "^FLOOR\|FAILED\|^STRESS.*tree\|^#"
grep "^RESULT" build/floor-kernels/floor-raw.txt > $REAL/floor-raw.txt 2>/dev/null
echo "=== skew"; BARRIERS="tree tree-acqpoll tree-acq2 tree-acq4" ROUNDS=2 timeout -k 5 90 bash bench/skew.sh run 2>&1 | grep -v "^RESULT"
export OUT=/tmp/gout; mkdir -p $OUT
echo "=== graph"
for v in default noinline; do CASES="mst rmat:14
mst rmat:18" VARIANT=$v REPS=3 BUDGET=40 CASE_LIMIT=25 timeout -k 5 50 bash bench/run-graph.sh 2>&1 | grep "^| mst\|^graph:\|FAIL\|rror"; done
for v in default tree-acq4; do CASES="bfs rmat:14
color rmat:18
mis rmat:18
sssp rmat:18" VARIANT=$v REPS=3 BUDGET=50 CASE_LIMIT=25 timeout -k 5 60 bash bench/run-graph.sh 2>&1 | grep "^| [a-z]\|^graph:\|FAIL\|rror"; done
echo "=== disc 1x"; for r in 1 2 3; do timeout 60 $B disc --cl $K/loop.tree.d-lockfree.cl --constraints $K/loop.tree.d-lockfree.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256 --reps 15 2>&1 | grep -v "^#"; done
echo "=== tests"; date
export OUT=$REAL/t; mkdir -p $OUT
STEPS=tests TEST_BUDGET=120 timeout -k 5 260 bash test/gpu/all.sh > /tmp/all.txt 2>&1; grep -E "passed|failed|FAIL|ok placement|placement:" /tmp/all.txt | head -30
rm -f $OUT/*.log
date

# ---- call 6: PLATFORMS=NVIDIA TMO=100 QUICK=1 bash test/gpu/check.sh run  (docs/check/nvidia-h100-quick.*)
# ---- call 7 (gpu6.sh): tree-relarr = barrier-tree.cl with atom.release.gpu arrivals and the
#      ld.acquire.gpu after the polls made unconditional (what the shipped rule became)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
EXTRA_VARIANTS="tree-relarr" timeout -k 5 100 bash bench/floor.sh run
BARRIERS="tree tree-acqpoll tree-relarr" ROUNDS=2 timeout -k 5 80 bash bench/skew.sh run

# ---- call 8 (gpu8.sh): the shipped tree with release arrivals
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
date
echo "=== floor"; ROUNDS=2 timeout -k 5 60 bash bench/floor.sh run 2>&1 | grep "^FLOOR\|FAILED\|^STRESS.*tree"
echo "=== skew"; BARRIERS="tree tree-acqpoll" ROUNDS=1 timeout -k 5 40 bash bench/skew.sh run 2>&1 | grep "^SKEW"
export OUT=/tmp/gout; mkdir -p $OUT
echo "=== graph"; CASES="mst rmat:14
color rmat:18
mis rmat:18
sssp rmat:18
bfs rmat:14
bc rmat:14
bfs grid:1000x1000" VARIANT=default REPS=3 BUDGET=60 CASE_LIMIT=25 timeout -k 5 70 bash bench/run-graph.sh 2>&1 | grep "^| [a-z]\|^graph:\|FAIL\|rror"
echo "=== tests"; export OUT=$REAL/t; mkdir -p $OUT
PLATFORMS=NVIDIA BARRIERS=tree BUDGET=70 timeout -k 5 100 bash test/gpu/run.sh >/dev/null 2>&1; tail -3 $OUT/gpu-run-NVIDIA.txt; grep -c "ok:" $OUT/gpu-run-NVIDIA.txt
timeout -k 5 60 bash test/gpu/harden.sh 2>&1 | tail -3
rm -f $OUT/*.log
date
