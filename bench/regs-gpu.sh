#!/bin/bash
# bench/regs-gpu.sh: on the GPU machine, after test/gpu/prepare.sh here and
# `. .gpu/on-gpu.sh` there: the registers that ptxas gives the run-test
# kernels (from the PTX NVIDIA's OpenCL compiler makes of the rewritten
# files; 8 groups of 256 items fit an SM only at 32 or fewer), and the SASS
# of the default barrier in bench/kernels/loop.cl (its fences, atomics and
# polls). Prints REGS lines and the SASS; writes nothing else.
#   REGS_VARIANTS  kernel suffixes (default: the default barrier with and
#                  without discovery)
#   REGS_WATCH=1   also each built with -Dgsync_watch (the watch compiled
#                  in; GSYNC_WATCH_BUILD_OPTION): "REGS k.v+watch" lines
B=${B:-build/bench/gsync-bench}
K=build/gpu-kernels
root=$(pwd)
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
export LD_LIBRARY_PATH=$PWD/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GSYNC_PLATFORM=${GSYNC_PLATFORM:-NVIDIA}
command -v ptxas >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
for k in xpx stencil mirror; do
  for v in ${REGS_VARIANTS:-$DEF $DEF.nd}; do
    f=$K/$k.$v
    [ -f "$f.cl" ] || continue
    for w in "" ${REGS_WATCH:+-Dgsync_watch}; do
      timeout 30 "$B" binary --cl "$f.cl" --constraints "$f.json" \
        --kernel "$k" --build-options "$w" --out /tmp/regs.bin \
        >/dev/null 2>&1 &&
        tr -d '\000' < /tmp/regs.bin > /tmp/regs.ptx &&
        echo "REGS $k.$v${w:++watch} $(ptxas -arch=sm_90 -v /tmp/regs.ptx \
          -o /dev/null 2>&1 | grep -o 'Used [0-9]* registers')"
    done
  done
done
for v in $DEF.nd; do
  echo "=== SASS loop.$v"
  timeout 30 "$B" binary --cl "$K/loop.$v.cl" --constraints "$K/loop.$v.json" \
    --out /tmp/regs.bin >/dev/null &&
    tr -d '\000' < /tmp/regs.bin > /tmp/regs.ptx &&
    ptxas -arch=sm_90 /tmp/regs.ptx -o /tmp/regs.cubin &&
    cuobjdump -sass /tmp/regs.cubin |
    grep -E 'MEMBAR|ERRBAR|ATOM|RED|LDG|STG|CCTL|BAR|NANOSLEEP|SEL|BRA|EXIT'
done
