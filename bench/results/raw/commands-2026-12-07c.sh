# The device calls of the session of 2026-12-07 (c), each run as
#   timeout -k 10 585 bash .gpu/callN.sh   (carry .gpu and build)
# after, here: sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh;
# rm -rf build/test/*/Output; and as each call says.
#
# Call 1 (.gpu/call3.sh; files raw/*-2026-12-07c-call1.txt), an H100:
#   the candidates of tree with acquire polls near the end, made with
#   bench/results/raw/tree-acq-polls-2026-12-07c.patch applied to
#   rewrite-rules/barrier-tree.cl (not shipped), then
#     export TREE_VARIANTS="acq4:GSYNC_TREE_ACQ_POLLS=4u acq8d2:GSYNC_TREE_ACQ_POLLS=8u,GSYNC_TREE_ACQ_DUE=2u acq1k:GSYNC_TREE_ACQ_POLLS=1000u"
#     bash bench/floor.sh prepare; bash bench/skew.sh prepare
#   and discovery's first nap (rewrite-rules/discovery-lockfree.cl with
#   GSYNC_LF_FIRST_NAP, default 0 then):
#     DISC_VARIANTS="nap512:GSYNC_LF_FIRST_NAP=512u nap2k:GSYNC_LF_FIRST_NAP=2048u" bash bench/disc.sh prepare
#   then raw/commands-2026-12-07b.sh's call 2 (.gpu/call2.sh, its replays'
#   timeouts 250 / 140 s), with the lists its head says how to make.
set -u
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L
ROUNDS=3 EPISODES=30000 timeout -k 5 130 bash bench/floor.sh run > $OUT/floor.txt 2>&1; el "floor rc=$?"
grep '^FLOOR\|FAILED\|STRESS' $OUT/floor.txt
BARRIERS="tree tree-acqpoll tree-acq4 tree-acq8d2 tree-acq1k" ROUNDS=3 timeout -k 5 90 bash bench/skew.sh run > $OUT/skew.txt 2>&1; el "skew rc=$?"
grep '^SKEW\|rror' $OUT/skew.txt
ROUNDS=5 timeout -k 5 70 bash bench/disc.sh run > $OUT/disc.txt 2>&1; el "disc rc=$?"
grep '^DISC\|FAILED' $OUT/disc.txt
timeout -k 10 270 bash .gpu/call2.sh > $OUT/call2.txt 2>&1; el "call2 rc=$?"
tail -30 $OUT/call2.txt

# ---- Call 2 (.gpu/call4.sh; files raw/*-2026-12-07c-call2.txt), an H100.
# The tree candidates' patch reverted; discovery-lockfree.cl with
# GSYNC_LF_FIRST_NAP 2048u as its default and GSYNC_LF_WAIT_NAP; then
#   DISC_VARIANTS="nonap:GSYNC_LF_FIRST_NAP=0u n512:GSYNC_LF_FIRST_NAP=512u w50:GSYNC_LF_WAIT_NAP=50u w100:GSYNC_LF_WAIT_NAP=100u" bash bench/disc.sh prepare
#   sh test/gpu/prepare.sh
# the truth of the routed late seeds, made here (no OpenCL):
#   python3 test/differential/fibers.py --jobs 2 $(cat .gpu/routed.txt) > .gpu/truth-late.txt
#   (kept as raw/truth-fibers-late-2026-12-07c.txt)
# .gpu/portable-failed.txt: the seeds with a FAIL line in the earlier
# PoCL 5.0 replays; .gpu/portable-rest.txt: the routed seeds with no OK or
# INPUT line in them. build copied to build-gpu without its test Output
# folders (carried as build-gpu; the call moves it to build):
#   mkdir build-gpu && (cd build && tar cf - --exclude=Output .) | (cd build-gpu && tar xf -)
set -u
[ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L
ROUNDS=7 timeout -k 5 80 bash bench/disc.sh run > $OUT/disc.txt 2>&1; el "disc rc=$?"
grep '^DISC\|FAILED' $OUT/disc.txt
mkdir -p /tmp/gt; OUT=/tmp/gt PLATFORMS=NVIDIA BUDGET=100 timeout -k 5 130 bash test/gpu/run.sh >/dev/null 2>&1; el "run.sh rc=$?"
cp /tmp/gt/gpu-run-*.txt $OUT/ 2>/dev/null; tail -4 /tmp/gt/gpu-run-*.txt
mkdir -p /tmp/d && tar xzf build/diff-late.tgz -C /tmp/d
H="$PWD/build/test/gsync-diffhost"
mkdir -p /tmp/d/po
for s in $(cat .gpu/portable-failed.txt); do ln -sfn /tmp/d/late/seed$s /tmp/d/po/a$s; done
for s in $(cat .gpu/portable-rest.txt); do ln -sfn /tmp/d/late/seed$s /tmp/d/po/b$s; done
left=$(( 560 - ($(date +%s) - T0) ))
timeout -k 5 $left python3 test/differential/replay.py run --truth .gpu/truth-late.txt --host "$H" --platform Portable --jobs 12 --timeout 150 /tmp/d/po > $OUT/replay-late-portable.txt 2>&1
el "portable rc=$?"
awk '{print $1}' $OUT/replay-late-portable.txt | sort | uniq -c; grep -v "^OK\|^REFUSED" $OUT/replay-late-portable.txt | head -30
# (the failed seeds were also in the rest list, so they ran twice)

# ---- Call 3 (.gpu/call5.sh; raw/pocl5-crash-2026-12-07c-call3.txt), an H100.
# Seeds 6178 and 6213 (their src.cl, input.bin, meta.json from
# build/diff-late.tgz) rewritten here into build-gpu/crash/sSEED:
#   disc (default), nd (--no-discovery), b-B (--barrier=B for flip
#   atomic-or volatile gen; acq-rel with -cl-std=CL3.0), noanchor (disc
#   with 'defined(POCL_DEVICE_ADDRESS_BITS) ||' made '0 ||'), noroute
#   (disc with 'goto gsync_goto;' made 'goto L4;'), discraw (disc);
# raw/pocl5-run-2026-12-07c.sh as build-gpu/crash/run.sh. The last three
# run without libgsync and so never reach PoCL's work-group compiler (see
# docs/pocl.md): their lines tell nothing.
set -u
[ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
cd build/crash && timeout -k 5 130 bash run.sh $PWD/../test/gsync-diffhost 2>&1 | sort | tee $OUT/crash.txt

# ---- Not run (no device time left): the next cut of the PoCL 5.0 abort.
# build-gpu/crash/sSEED/{disc,nd,noanchor,noroute,spin0}.cl as above
# (spin0: --spin-limit=0), raw/pocl5-wgc-2026-12-07c.c built here as
# build-gpu/crash/wgc (gcc -O1 -o wgc wgc.c -lOpenCL), raw/pocl5-wrun-2026-12-07c.sh
# as build-gpu/crash/wrun.sh:
#   set -u; [ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
#   . .gpu/on-gpu.sh >/dev/null 2>&1
#   cd build/crash && timeout -k 5 90 bash wrun.sh 2>&1 | sort | tee $OUT/crash2.txt
