# The device call planned in the session of 2026-12-07 (a), as
# 'timeout -k 10 500 bash .gpu/call1.sh' from the repository root with .gpu
# and build carried, after sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh
# (the late jumps' tables with the reset 'gsync_jump *= gsync_jump != K;'),
# and build/diff-late.tgz made here with
#   python3 test/differential/replay.py prepare --tool build/tool/gsync-rewrite \
#     --out /tmp/dl/late $(seq 6000 6399); (cd /tmp/dl && tar czf build/diff-late.tgz late)
# (gen.py's late jumps, from seed 6000 on), and .gpu/routed.txt the 147 of
# those seeds whose default output routes a late jump:
#   for d in /tmp/dl/late/seed6*; do grep -q -E "goto gsync_(goto|break|return|continue)" \
#     $d/disc.cl && echo ${d##*seed}; done > .gpu/routed.txt
# Never combine 'exec > >(tee ...)' with background jobs and 'wait' (it hangs).

# ---- call 1 (.gpu/call1.sh): never ran; every try got no machine.
# NVIDIA's truth for these seeds is no longer needed here: test/differential/
# fibers.py gives the same reference on the CPU (docs/pocl.md, section 6).
set -u
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
nvidia-smi -L 2>&1 | head -1
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
mkdir -p /tmp/d && tar xzf build/diff-late.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
( timeout -k 5 170 python3 test/pocl/gen-late-jumps.py --all --host build/test/gsync-arrays --platform Portable --timeout 90 --work build/gpu-kernels/late-jumps > $OUT/late-jumps-Portable.txt 2>&1
  timeout -k 5 60 python3 test/pocl/gen-late-jumps.py --warned --host build/test/gsync-arrays --platform Portable --timeout 45 --work build/gpu-kernels/late-warned > $OUT/late-warned-Portable.txt 2>&1
  mkdir -p /tmp/d/routed; for s in $(cat .gpu/routed.txt); do ln -sfn /tmp/d/late/seed$s /tmp/d/routed/seed$s; done
  timeout -k 5 220 python3 test/differential/replay.py run --host "$H" --platform Portable --jobs 12 --timeout 200 /tmp/d/routed > $OUT/replay-late-portable.txt 2>&1 ) &
timeout -k 5 110 python3 test/pocl/gen-late-jumps.py --all --host build/test/gsync-arrays --platform NVIDIA --timeout 90 --work build/gpu-kernels/late-jumps > $OUT/late-jumps-NVIDIA.txt 2>&1
el "nvidia table rc=$?"
timeout -k 5 210 python3 test/differential/replay.py run --host "$H" --platform NVIDIA --jobs 12 --timeout 60 /tmp/d/late > $OUT/replay-late-nvidia.txt 2>&1
el "replay rc=$?"; pkill -f "gsync-diffhost.*--platform NVIDIA"
export OUT2=$OUT; export OUT=/tmp/gt; mkdir -p $OUT
PLATFORMS=NVIDIA BUDGET=100 timeout -k 5 130 bash test/gpu/run.sh >/dev/null 2>&1; el "run.sh rc=$?"
wait
el "portable done"
cp $OUT/gpu-run-*.txt $OUT2/ 2>/dev/null; OUT=$OUT2
for f in $OUT/late-*.txt; do echo "== $f"; tail -4 $f; done
tail -1 $OUT/replay-late-nvidia.txt; awk '{print $1}' $OUT/replay-late-portable.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $OUT/replay-late-portable.txt | head; grep -v "^OK\|^REFUSED" $OUT/replay-late-nvidia.txt | head; grep -h "passed\|failed" $OUT/gpu-run-*.txt | tail -3
