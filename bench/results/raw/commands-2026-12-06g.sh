# Device calls of the seventh session of 2026-12-06 (g). Each ran as
# 'timeout 560 bash gpuN.sh' from the repository root with .gpu and build
# carried, after sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh, and
# build/diff.tgz made here by test/differential/replay.py prepare with the
# tool that routes late jumps (the 304 seeds of 5000-5999 with work-group
# code, as in raw/diff-replay-nvidia-h100-2026-12-06f.txt; 224 of their
# output files hold a gsync_return or gsync_continue label).

# ---- call 1 (gpu1.sh): replay on NVIDIA 266 OK, 38 REFUSED, 0 FAIL;
# test/gpu/run.sh on NVIDIA 251 passed, 0 failed.
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
mkdir -p /tmp/d && tar xzf build/diff.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
echo "=== replay on NVIDIA: the 304 seeds of 5000-5999 with work-group code, outputs with late jumps routed"
timeout -k 5 250 python3 test/differential/replay.py run --host "$H" --platform NVIDIA --jobs 15 --timeout 60 /tmp/d/diffg > $REAL/replay-nvidia.txt; echo rc=$?
pkill -f gsync-diffhost; tail -1 $REAL/replay-nvidia.txt; awk '{print $1}' $REAL/replay-nvidia.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $REAL/replay-nvidia.txt | head -20
date
echo "=== run tests on NVIDIA (head)"
export OUT=/tmp/gt; mkdir -p $OUT
PLATFORMS=NVIDIA BUDGET=200 timeout -k 5 230 bash test/gpu/run.sh >/dev/null 2>&1; echo rc=$?
for f in $OUT/gpu-run-*.txt; do cp $f $REAL/; tail -3 $f; grep -i "fail" $f | head; done
date
