# Device calls of the sixth session of 2026-12-06 (f), in order. Each ran
# as 'timeout N bash gpuN.sh' from the repository root with .gpu and build
# carried, after sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh, and
# with build/diff.tgz made here by test/differential/replay.py prepare
# (the seeds named in each call; --ref-only for the truth folders).
# Call 1 used gen.py before its last two changes (a barrier before a
# count's chunks, and from seed 5000 before the tail); its replay's FAILs
# were those races, and its truth lines were not kept. Call 3 asked for an
# H100 first and got no machine; the retry (kind nvidia-h200) ran on an
# H100 too.

# ---- call 1 (gpu1.sh): truth 5000-5999 (631 done in 120 s), replay of the
# seeds with work-group code on NVIDIA (250 done in 200 s; 22 FAIL from the
# generator's races), the graph suite at 806fa64, PoCL 5 replay (90 s).
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
mkdir -p /tmp/d && tar xzf build/diff.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
echo "=== truth: seeds 5000-5999, the input on NVIDIA"
timeout -k 5 120 python3 test/differential/replay.py run --ref-only --host "$H" --platform NVIDIA --jobs 14 --timeout 60 /tmp/d/truth5k > $REAL/truth-5000.txt; echo rc=$?
wc -l < $REAL/truth-5000.txt; grep -vc " [0-9a-f]\{16\}$" $REAL/truth-5000.txt
date
echo "=== replay on NVIDIA: the 304 seeds of 5000-5999 with work-group code"
timeout -k 5 200 python3 test/differential/replay.py run --host "$H" --platform NVIDIA --jobs 14 --timeout 60 /tmp/d/diff5k > $REAL/replay-nvidia.txt; echo rc=$?
tail -1 $REAL/replay-nvidia.txt; grep -v "^OK\|^REFUSED" $REAL/replay-nvidia.txt | head -20
date
echo "=== graph suite (head)"; export GSYNC_PLATFORM=NVIDIA; export OUT=/tmp/gout; mkdir -p $OUT
REPS=5 BUDGET=190 CASE_LIMIT=40 timeout -k 5 210 bash bench/run-graph.sh 2>&1 | grep "^| \|^graph:\|FAIL\|rror"
cp $OUT/graph-table.md $OUT/graph-raw.txt $REAL/ 2>/dev/null
unset GSYNC_PLATFORM
date
echo "=== replay on PoCL 5 (budget 90 s): the same seeds"
timeout -k 5 90 python3 test/differential/replay.py run --host "$H" --platform Portable --jobs 15 --timeout 80 /tmp/d/diff5k > $REAL/replay-pocl5.txt; echo rc=$?
pkill -f gsync-diffhost; grep -c . $REAL/replay-pocl5.txt; grep -v "^OK\|^REFUSED" $REAL/replay-pocl5.txt | head -20
date

# ---- call 2 (gpu2.sh): truth and NVIDIA replay of the 304 seeds with
# work-group code (one FAIL, 5347: the tail's race), the run tests on NVIDIA.
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
mkdir -p /tmp/d && tar xzf build/diff.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
echo "=== truth: the 304 seeds of 5000-5999 with work-group code, the input on NVIDIA"
timeout -k 5 100 python3 test/differential/replay.py run --ref-only --host "$H" --platform NVIDIA --jobs 15 --timeout 60 /tmp/d/truthg > $REAL/truth-grouped.txt; echo rc=$?
wc -l < $REAL/truth-grouped.txt; grep -vc " [0-9a-f]\{16\}$" $REAL/truth-grouped.txt
date
echo "=== replay on NVIDIA: the same seeds"
timeout -k 5 250 python3 test/differential/replay.py run --host "$H" --platform NVIDIA --jobs 15 --timeout 60 /tmp/d/diffg > $REAL/replay-nvidia.txt; echo rc=$?
pkill -f gsync-diffhost; tail -1 $REAL/replay-nvidia.txt; awk '{print $1}' $REAL/replay-nvidia.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $REAL/replay-nvidia.txt | head -20
date
echo "=== run tests on NVIDIA (head)"
export OUT=/tmp/gt; mkdir -p $OUT
PLATFORMS=NVIDIA BUDGET=140 timeout -k 5 170 bash test/gpu/run.sh >/dev/null 2>&1; echo rc=$?
for f in $OUT/gpu-run-*.txt; do cp $f $REAL/; tail -3 $f; grep -i "fail" $f | head; done
date

# ---- call 3 (gpu3.sh): truth 5000-5499 (appended to truth-nvidia.txt) and
# the NVIDIA replay of the 304 seeds after both generator fixes.
set -u
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
REAL=$OUT; R=$OUT/report.txt; exec > >(tee $R) 2>&1
nvidia-smi -L; date
mkdir -p /tmp/d && tar xzf build/diff.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
echo "=== truth: seeds 5000-5499, the input on NVIDIA"
timeout -k 5 130 python3 test/differential/replay.py run --ref-only --host "$H" --platform NVIDIA --jobs 15 --timeout 60 /tmp/d/truth > $REAL/truth-5000-5499.txt; echo rc=$?
wc -l < $REAL/truth-5000-5499.txt; grep -vc " [0-9a-f]\{16\}$" $REAL/truth-5000-5499.txt
date
echo "=== replay on NVIDIA: the 304 seeds of 5000-5999 with work-group code"
timeout -k 5 250 python3 test/differential/replay.py run --host "$H" --platform NVIDIA --jobs 15 --timeout 60 /tmp/d/diffg > $REAL/replay-nvidia.txt; echo rc=$?
pkill -f gsync-diffhost; tail -1 $REAL/replay-nvidia.txt; awk '{print $1}' $REAL/replay-nvidia.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $REAL/replay-nvidia.txt | head -20
date
date
