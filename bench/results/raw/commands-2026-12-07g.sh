set -u
[ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L
# 1. The committed grid search (GPU path as before a3ebef3) against the old prelude: launch time of N-D loops.
cd build/nd-ab
for r in 1 2 3; do for v in old new; do
  timeout 40 ../bench/gsync-bench time-nd --cl loopnd.$v.cl --constraints loopnd.$v.json \
    --configs 33x32:16x16,66x64:16x16,22x24x8:8x8x4,44x48x8:8x8x4 --short 1 --long 3 --reps 9 \
    | sed "s/^/$v r$r /" >> $OUT/launch-nd.txt
done; done
cd ../..; el nd-done; tail -8 $OUT/launch-nd.txt
# 2. The run tests on NVIDIA, every scenario, tree and atomic-or.
mkdir -p /tmp/gt; OUT2=$OUT; OUT=/tmp/gt PLATFORMS=NVIDIA SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BARRIERS="tree atomic-or" BUDGET=150 timeout -k 5 190 bash test/gpu/run.sh >/dev/null 2>&1; el "nvidia run.sh rc=$?"
cp /tmp/gt/gpu-run-*.txt $OUT2/ 2>/dev/null; for f in /tmp/gt/gpu-run-*.txt; do mv "$f" "$OUT2/nvidia-$(basename $f)"; done; tail -12 $OUT2/nvidia-gpu-run-*.txt
# 3. PoCL 5.0 on 16 cores: the new PoCL grid search.
rm -rf /tmp/gt; mkdir -p /tmp/gt; OUT=/tmp/gt PLATFORMS=Portable POCL_CORES=16 SCENARIOS="stencil jacobi2d stencil3d mirror" BARRIERS="tree atomic-or" BUDGET=110 timeout -k 5 140 bash test/gpu/run.sh >/dev/null 2>&1; el "pocl run.sh rc=$?"
for f in /tmp/gt/gpu-run-*.txt; do cp "$f" "$OUT2/pocl5-$(basename $f)"; done; tail -12 $OUT2/pocl5-gpu-run-*.txt
el done
