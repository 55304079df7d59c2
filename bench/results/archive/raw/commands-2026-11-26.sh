# 2026-11-26, H100 (device tool, kind nvidia-h100-x1), three device calls.
# Where the watch's mode is read in a barrier: after the wait (as at
# commit 4fff64d) or before the arrival.
#
# Here, at commit 4fff64d, the variants as rule files (treeP: the mode read
# before the add; treeX: no tick at all, a control that cannot stop at a
# deadline, so its bench runs were killed by their timeout and printed
# nothing):
sh scripts/setup.sh build -DGSYNC_WERROR=ON
R=/work/var/rules; mkdir -p $R && cp rewrite-rules/*.cl $R/
sed '1s/barrier-tree:/barrier-treeP (mode read before the arrival):/' rewrite-rules/barrier-tree.cl > $R/barrier-treeP.cl
sed '1s/barrier-tree:/barrier-treeX (no tick):/' rewrite-rules/barrier-tree.cl > $R/barrier-treeX.cl
sed -i '120i\    uint wm = c->group == 0u ? *gsync_watch_mode(c) : 0u;' $R/barrier-treeP.cl
sed -i '132s/gsync_watch_tick(c);/if (wm != 0u)\n      gsync_watch_tick(c);/' $R/barrier-treeP.cl
sed -i '131d' $R/barrier-treeX.cl
RULES_DIR=$R BARRIERS="tree treeP treeX" sh test/gpu/prepare.sh; sh ../shared/gpu/prepare.sh
# Device calls 1 and 2 (carry .gpu and build):
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; W=build/test/run/libgsync-watch; K=build/gpu-kernels; export GSYNC_PLATFORM=NVIDIA
for rep in 1 2; do for g in 1056 132; do for v in tree treeX treeP; do echo "== $v $g rep $rep"; timeout -k 5 60 $W $K/stencil.$v.cl $K/stencil.$v.json --groups $g --local 256 --bench 2>&1 | grep -E "median|us/barrier without|error|deadline 500" ; done; done; done > $OUT/watch-var.txt 2>&1   # -> watch-h100-2026-11-26-peek-variants.txt
REGS_VARIANTS="tree treeP treeX tree.nd treeP.nd treeX.nd" timeout 60 bash bench/regs-gpu.sh > $OUT/regs.txt 2>&1   # -> regs-h100-2026-11-26-peek-variants.txt
PLATFORMS=NVIDIA BARRIERS="treeP" BUDGET=150 timeout -k 5 180 bash test/gpu/run.sh   # -> run-tests-h100-2026-11-26-treeP.txt
PLATFORMS=NVIDIA BARRIERS="tree" BUDGET=150 timeout -k 5 180 bash test/gpu/run.sh    # -> run-tests-h100-2026-11-26-tree-before-peek.txt
#
# Then every rule changed to peek before its arrival (uint watch =
# gsync_watch_peek(c) first in the leader block, gsync_watch_tick(c, watch)
# last), and the N-D grid search's closing local barrier added; here:
BARRIERS="tree flip gen atomic-or volatile acq-rel noop local" sh test/gpu/prepare.sh
# Device call 3:
. .gpu/on-gpu.sh; export LD_LIBRARY_PATH=$PWD/build/gpu-lib:$LD_LIBRARY_PATH; W=build/test/run/libgsync-watch; K=build/gpu-kernels
for g in 1056 132; do for v in tree flip; do echo "== NVIDIA, barrier $v, $g groups of 256"; GSYNC_PLATFORM=NVIDIA timeout -k 5 60 $W $K/stencil.$v.cl $K/stencil.$v.json --groups $g --local 256 --bench 2>&1; echo "exit $?"; done; done > $OUT/watch-peek.txt 2>&1   # -> watch-h100-2026-11-26-peek-all-rules.txt
REGS_VARIANTS="tree tree.nd flip flip.nd" timeout 60 bash bench/regs-gpu.sh > $OUT/regs.txt 2>&1   # -> regs-h100-2026-11-26-peek-all-rules.txt
T="tree flip gen atomic-or volatile acq-rel"
(PLATFORMS=NVIDIA BARRIERS="$T" SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=210 timeout -k 5 240 bash test/gpu/run.sh) &   # -> run-tests-h100-2026-11-26-peek-all-rules-NVIDIA.txt
PLATFORMS=Portable POCL_CORES=16 BARRIERS="$T" SCENARIOS="stencil mirror xpx helper reuse jacobi2d stencil3d" BUDGET=210 timeout -k 5 240 bash test/gpu/run.sh; wait   # -> run-tests-h100-2026-11-26-peek-all-rules-pocl5.{txt,log}
