# Device calls of the session of 2026-12-07 (h). Each ran from the
# repository root with .gpu and build (as build-gpu) carried, after
# sh ../shared/gpu/prepare.sh; sh test/gpu/prepare.sh; bash bench/disc.sh prepare;
# bash bench/floor.sh prepare; FLOOR_KERNEL=loop-l2 bash bench/floor.sh prepare;
# bash bench/body-cost.sh prepare, and the diagnostic rewrites below.
# build/body-kernels/xpxctx.cl, xpxsel.cl and xpxnat.cl are xpx.cl (the
# discovery output of test/run/kernels/xpx.cl) changed by this script and
# sealed with 'python3 test/utils/fingerprint.py --seal F.cl F.json' (each
# with a copy of xpx.json); right only where every launched group takes
# part with its launch id, as in these 1-D launches:
#   xpxctx  after the entry's 'gsync_anchor(gsync_ctx);' the context's ids
#           set to the built-ins: group, groups, id[0], n[0]
#   xpxsel  gsync_get_global_id/_size return get_global_id/_size(d) where
#           c->groups == gsync_launch_groups()
#   xpxnat  the two j loops on get_global_id(0) / get_global_size(0)
# Call 2's xpxnos.cl and stencilnos.cl: the discovery outputs with
# gsync_ctx_grid's 'int search = ...;' made 'int search = 0;' (the grid
# search's code dead; right for 1-D launches only), sealed the same way.

# ---- call 1 (call16.sh; H100, 46 s): the floor on loop.cl and loop-l2.cl,
# xpx and its diagnostic builds, discovery at 1x and 2x, the entry's parts.
set -u
[ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L
# 1. The floor: loop.cl and loop-l2.cl (its element through a volatile pointer: L2 in every variant).
for r in 1 2; do
  ROUNDS=2 EPISODES=20000 timeout -k 5 150 bash bench/floor.sh run > $OUT/floor-loop-r$r.txt 2>&1; el "floor loop r$r rc=$?"
  FLOOR_KERNEL=loop-l2 ROUNDS=2 EPISODES=2000 timeout -k 5 150 bash bench/floor.sh run > $OUT/floor-loopl2-r$r.txt 2>&1; el "floor loop-l2 r$r rc=$?"
done
grep -h "^FLOOR" $OUT/floor-*.txt
# 2. xpx: discovery, --no-discovery and three diagnostic builds, 132 x 256, fastest of 9 launches.
export GSYNC_PLATFORM=NVIDIA
K=build/body-kernels
one() { timeout -k 3 30 build/test/run/gsync-run --scenario xpx --cl $K/$1.cl --constraints $K/$1.json \
  --groups 132 --local 256 --time --min-participants 132 --launches 9 --rounds $2 2>&1 |
  sed -n 's/^time: .* fastest \([0-9]*\) us$/\1/p'; }
for v in xpx xpx.nd xpxnat xpxctx xpxsel; do echo "WARM $v $(one $v 200)"; done >> $OUT/xpx.txt
for r in 1 2 3; do for v in xpx xpx.nd xpxnat xpxctx xpxsel; do for n in 200 400; do
  echo "XPX $v $n $(one $v $n)"; done; done; done >> $OUT/xpx.txt
el xpx-done; cat $OUT/xpx.txt
# 3. Discovery at 1x and 2x, and what each part of an entry adds to a plain launch.
unset GSYNC_PLATFORM
ROUNDS=7 timeout -k 5 150 bash bench/disc.sh run > $OUT/disc.txt 2>&1; el "disc rc=$?"; grep -v DLAUNCH $OUT/disc.txt | tail -8
for i in 1 2 3; do timeout 60 build/bench/gsync-bench launch --configs 132x256,1056x256,2112x256 --reps 25; done > $OUT/launch-parts.txt 2>&1
el done; cat $OUT/launch-parts.txt

# ---- call 2 (call17.sh, and call18.sh: the same with two rounds and no
# body-cost step): xpx and stencil with the search's code dead (xpxnos,
# stencilnos) and with the GPU's search in a noinline function of its own
# (xpxnoinl, stencilnoinl: gsync_ctx_grid's '#else' block moved into
# '__attribute__((noinline)) void gsync_grid_search(local uint *shared,
# uint p, uint n0, uint n1, uint n2)', its no-op anchors dropped), and
# bench/body-cost.sh on the 1-D run tests at 132 x 256. NOT RUN: the tries
# got no machine until the session's device time was spent.
set -u
[ -d build-gpu ] && { rm -rf build; mv build-gpu build; }
. .gpu/on-gpu.sh >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH
T0=$(date +%s); el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
nvidia-smi -L
export GSYNC_PLATFORM=NVIDIA
K=build/body-kernels
one() { timeout -k 3 30 build/test/run/gsync-run --scenario $1 --cl $K/$2.cl --constraints $K/$2.json \
  --groups 132 --local 256 --time --min-participants 132 --launches 9 --rounds $3 2>&1 |
  sed -n 's/^time: .* fastest \([0-9]*\) us$/\1/p'; }
# 1. xpx and stencil: discovery, --no-discovery, and discovery with the search's code dead (search = 0).
for v in xpx xpx.nd xpxnos; do one xpx $v 200 >/dev/null; done
for v in stencil stencil.nd stencilnos; do one stencil $v 1000 >/dev/null; done
for r in 1 2 3; do
  for v in xpx xpx.nd xpxnos; do for n in 200 400; do echo "XPX $v $n $(one xpx $v $n)"; done; done
  for v in stencil stencil.nd stencilnos; do for n in 1000 2000; do echo "STENCIL $v $n $(one stencil $v $n)"; done; done
done > $OUT/nos.txt 2>&1
el nos-done; cat $OUT/nos.txt
# 2. body-cost on the run tests' 1-D kernels at 132 x 256.
SHAPES="stencil=132:256 mirror=132:256 xpx=132:256 helper=132:256" PLAT=NVIDIA LAUNCHES=5 REPS=5 timeout -k 5 200 bash bench/body-cost.sh run > $OUT/body-cost.txt 2>&1
el "body rc=$?"; cat $OUT/body-cost.txt
