# Device calls of 2026-12-06 (fourth session, "d"), each the script below run as
#   timeout 580 bash gpuN.sh   (carry .gpu and build), after, here:
#   sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh; bash bench/floor.sh prepare;
#   bash bench/skew.sh prepare; bash bench/body-cost.sh prepare
# Every call ran on an H100 (nvidia-smi -L at the top of each report).
# Diagnostic rewrites made by hand (not shipped):
#   treefence: barrier-tree.cl whose gsync_tree_acquire() is `fence.acq_rel.gpu`
#     (no load) after the relaxed poll, in build/floor-kernels and build/skew-kernels;
#   build/ndexp/loopnd-lin.cl: the shape bench/kernels/loopnd-block.cl now has;
#   build/probe/probe.c: builds a kernel with and without -cl-opt-disable on each
#     platform and reports __OPTIMIZE__ and __clang__;
#   build/discexp: discovery-lockfree.cl variants, rules dir build/discexp/rules,
#     bench/kernels/loop.cl rewritten with --barrier=tree --discovery=NAME:
#     lf64 (the waiters read poll and count in one ld.relaxed.gpu.v2.u32),
#     lffloor (NOT a correct discovery: every polled group takes part at once
#     after its one atomic_inc; the floor of any protocol with one atomic a
#     group), lfnap50 / lfnap0 (the waiters nap 50 / 0 ns instead of 200);
#   build/gpu-kernels/graph/color.noinl.*: apps/graph/color.cl with
#     __attribute__((noinline)) on select_vertex and assign_vertex.
# Calls 1-4 ran at the commits before "mst finds the lightest edges
# edge-parallel" (call 4 with it, uncommitted then); calls 5-7 at it and after.

# ---- call 1 (gpu1.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
K=build/gpu-kernels B=build/bench/gsync-bench
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L; date
echo "=== floor"; EXTRA_VARIANTS=treefence ROUNDS=3 EPISODES=100000 timeout -k 3 200 bash bench/floor.sh run 2>&1 | grep "^FLOOR\|^STRESS\|FAIL\|rror"
grep "^RESULT" build/floor-kernels/floor-raw.txt > $REAL/floor-raw.txt
date
echo "=== skew"; BARRIERS="tree treefence tree-acqpoll" ROUNDS=3 timeout -k 3 120 bash bench/skew.sh run 2>&1 | grep "^SKEW\|FAIL\|rror"
date
echo "=== nd"; for r in 1 2; do
  for v in tree.nd local.nd; do
    timeout 30 $B time --cl $K/loop.$v.cl --constraints $K/loop.$v.json --configs 1056x256 | sed "s/^/$v r$r /"
    timeout 30 $B time-nd --cl $K/loopnd.$v.cl --constraints $K/loopnd.$v.json --configs 11x12x8:8x8x4,11x12x8:32x4x2 | sed "s/^/$v r$r /"
  done
  for v in tree local; do
    timeout 30 $B time-nd --cl build/ndexp/loopnd-lin.$v.nd.cl --constraints build/ndexp/loopnd-lin.$v.nd.json --configs 11x12x8:8x8x4,11x12x8:32x4x2 | sed "s/^/lin.$v r$r /"
  done
done 2>&1 | grep -v "^.* #"
date
echo "=== body"; PLAT=NVIDIA LAUNCHES=9 REPS=7 TMO=30 SHAPES="stencil=132:256 stencil=1056:256 xpx=132:256 mirror=528:256 helper=264:256" timeout -k 3 200 bash bench/body-cost.sh run 2>&1 | grep "^BODY\|rror"
date
echo "=== sass"; for k in xpx helper stencil; do for v in "" .nd; do
  f=build/body-kernels/$k$v
  timeout 30 $B binary --cl $f.cl --constraints $f.json --out /tmp/r.bin >/dev/null 2>&1 && tr -d '\000' </tmp/r.bin >/tmp/r.ptx &&
  ptxas -arch=sm_90 -v /tmp/r.ptx -o /tmp/r.cubin 2>&1 | grep -i "used" | sed "s|^|$k$v: |" && cuobjdump -sass /tmp/r.cubin > $REAL/$k$v.sass 2>/dev/null; cp /tmp/r.ptx $REAL/$k$v.ptx
done; done
echo "=== disc"; for r in 1 2 3; do timeout 60 $B disc --cl $K/loop.tree.d-lockfree.cl --constraints $K/loop.tree.d-lockfree.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256 --reps 15 2>&1 | grep -v "^#"; done
date

# ---- call 2 (gpu2.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
R=$OUT/report.txt; exec > >(tee $R) 2>&1
B=build/bench/gsync-bench
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
timeout 60 build/probe/probe
for k in xpx helper; do for v in "" .nd; do
  f=build/body-kernels/$k$v
  timeout 30 $B binary --cl $f.cl --constraints $f.json --kernel $k --out /tmp/r.bin 2>&1 | tail -1
  tr -d '\000' </tmp/r.bin >/tmp/r.ptx && ptxas -arch=sm_90 -v /tmp/r.ptx -o /tmp/r.cubin 2>&1 | grep -i "used" | sed "s|^|$k$v: |" && cuobjdump -sass /tmp/r.cubin > $OUT/$k$v.sass 2>/dev/null; cp /tmp/r.ptx $OUT/$k$v.ptx
done; done

# ---- call 3 (gpu3.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
B=build/bench/gsync-bench X=build/discexp
date
echo "=== disc variants"; for r in 1 2 3 4 5; do for d in lockfree lf64 lffloor; do
  timeout 60 $B disc --cl $X/loop.$d.cl --constraints $X/loop.$d.json --nd $X/loop.nd.cl --nd-constraints $X/loop.nd.json --configs 1056x256,2112x256,16896x256 --reps 15 2>&1 | grep -v "^#"; done; done
date
echo "=== run tests, tree"; PLATFORMS=NVIDIA BARRIERS=tree BUDGET=100 timeout -k 5 130 bash test/gpu/run.sh > /tmp/run.txt 2>&1; tail -4 /tmp/run.txt; grep -i "fail\|mismatch" /tmp/run.txt | head
date
echo "=== body"; PLAT=NVIDIA LAUNCHES=9 REPS=5 TMO=30 SHAPES="stencil=132:256 stencil=1056:256 xpx=132:256 mirror=528:256 helper=264:256" timeout -k 3 150 bash bench/body-cost.sh run 2>&1 | grep "^BODY\|rror"
date

# ---- call 4 (gpu4.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
B=build/bench/gsync-bench X=build/discexp
date
echo "=== graph"; export OUT=/tmp/gout; mkdir -p $OUT
CASES="mst rmat:14
mst rmat:18
mst grid:1000x1000
color rmat:18" VARIANT=default REPS=3 BUDGET=100 CASE_LIMIT=40 timeout -k 5 110 bash bench/run-graph.sh 2>&1 | grep "^| \|^graph:\|FAIL\|rror"
export OUT=$REAL
date
echo "=== disc variants"; for r in 1 2 3 4 5; do for d in lockfree lfnap50 lfnap0 lffloor; do
  timeout 60 $B disc --cl $X/loop.$d.cl --constraints $X/loop.$d.json --nd $X/loop.nd.cl --nd-constraints $X/loop.nd.json --configs 1056x256,2112x256 --reps 15 2>&1 | grep -v "^#"; done; done
date

# ---- call 5 (gpu5.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
K=build/gpu-kernels B=build/bench/gsync-bench
nvidia-smi -L; date
echo "=== tests"; STEPS=tests TEST_BUDGET=130 timeout -k 5 300 bash test/gpu/all.sh > /tmp/all.txt 2>&1
grep -E "passed|failed|FAIL|MISMATCH|TIMEOUT|ok placement|placement:" /tmp/all.txt | head -30
cp $OUT/gpu-run-NVIDIA.txt $REAL/ 2>/dev/null; rm -f $OUT/gpu-run-*.log
date
echo "=== floor"; ROUNDS=3 timeout -k 3 120 bash bench/floor.sh run 2>&1 | grep "^FLOOR\|^STRESS.*tree\|FAIL\|rror"
date
echo "=== skew"; BARRIERS="tree tree-acqpoll" ROUNDS=3 timeout -k 3 90 bash bench/skew.sh run 2>&1 | grep "^SKEW\|FAIL\|rror"
echo "=== nd"; STEPS=bench timeout -k 3 150 bash test/gpu/nd.sh > /tmp/nd.txt 2>&1; tail -1 /tmp/nd.txt; grep -v "^#" $OUT/nd-bench-table.txt | grep "tree.nd\|local.nd"; rm -f $OUT/nd-bench.txt
date
echo "=== body"; PLAT=NVIDIA LAUNCHES=9 REPS=5 TMO=30 SHAPES="stencil=132:256 stencil=1056:256 xpx=132:256 mirror=528:256 helper=264:256" timeout -k 3 150 bash bench/body-cost.sh run 2>&1 | grep "^BODY\|rror"
echo "=== disc"; for r in 1 2 3; do timeout 60 $B disc --cl $K/loop.tree.d-lockfree.cl --constraints $K/loop.tree.d-lockfree.json --nd $K/loop.tree.nd.cl --nd-constraints $K/loop.tree.nd.json --configs 1056x256,2112x256 --reps 15 2>&1 | grep -v "^#"; done
echo "=== color noinline"; export OUT=/tmp/gout; mkdir -p $OUT
for v in default noinl; do CASES="color rmat:18" VARIANT=$v REPS=3 BUDGET=40 CASE_LIMIT=35 timeout -k 5 45 bash bench/run-graph.sh 2>&1 | grep "^| color"; done
date

# ---- call 6 (gpu6.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
echo "=== graph suite"; export OUT=/tmp/gout; mkdir -p $OUT
REPS=3 BUDGET=280 CASE_LIMIT=40 timeout -k 5 300 bash bench/run-graph.sh 2>&1 | grep "^| \|^graph:\|FAIL\|rror"
cp $OUT/graph-table.md $REAL/ 2>/dev/null
date
echo "=== nd block"; K=build/gpu-kernels B=build/bench/gsync-bench
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
for k in loopnd loopnd-block; do f=$K/$k.tree.nd
  timeout 30 $B binary --cl $f.cl --constraints $f.json --kernel loopnd --out /tmp/r.bin 2>&1 | tail -1
  tr -d '\000' </tmp/r.bin >/tmp/r.ptx && ptxas -arch=sm_90 -v /tmp/r.ptx -o /dev/null 2>&1 | grep -i "used" | sed "s|^|$k: |"
done
for r in 1 2; do
  timeout 30 $B time --cl $K/loop.tree.nd.cl --constraints $K/loop.tree.nd.json --configs 1056x256 2>&1 | grep -v "^#" | sed "s/^/r$r /"
  for k in loopnd loopnd-block; do for v in tree.nd local.nd; do
    timeout 30 $B time-nd --cl $K/$k.$v.cl --constraints $K/$k.$v.json --configs 11x12x8:8x8x4,33x32:16x16,11x12x8:32x4x2 2>&1 | grep -v "^#" | sed "s/^/r$r $v /"
  done; done
done
date

# ---- call 7 (gpu7.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
K=build/gpu-kernels B=build/bench/gsync-bench
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
for k in loopnd loopnd-block; do f=$K/$k.tree.nd
  timeout 30 $B binary --cl $f.cl --constraints $f.json --kernel loopnd --out /tmp/r.bin 2>&1 | tail -1
  tr -d '\000' </tmp/r.bin >/tmp/r.ptx && ptxas -arch=sm_90 -v /tmp/r.ptx -o /dev/null 2>&1 | grep -i "used" | sed "s|^|$k: |"
done
echo "=== nd"; STEPS=bench timeout -k 3 150 bash test/gpu/nd.sh > /tmp/nd.txt 2>&1; tail -1 /tmp/nd.txt; grep -i "error" /tmp/nd.txt | head -3; grep -v "^#" $OUT/nd-bench-table.txt | grep "nd "; rm -f $OUT/nd-bench.txt
date

# ---- call 8 (gpu8.sh)
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
export GSYNC_PLATFORM=NVIDIA
R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
B=build/bench/gsync-bench
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
for v in "" .nd; do f=build/body-kernels/xpx$v
  timeout 30 $B binary --cl $f.cl --constraints $f.json --kernel xpx --out /tmp/r.bin 2>&1 | tail -1
  tr -d '\000' </tmp/r.bin >/tmp/r.ptx && ptxas -arch=sm_90 -v /tmp/r.ptx -o /tmp/r.cubin 2>&1 | grep -i used && cuobjdump -sass /tmp/r.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" > $OUT/xpx$v.sass
done
echo "=== body xpx"; PLAT=NVIDIA LAUNCHES=9 REPS=5 TMO=30 SHAPES="xpx=132:256 xpx=264:256 xpx=1056:256 xpx=132:1024" timeout -k 3 150 bash bench/body-cost.sh run 2>&1 | grep "^BODY\|rror"
date
