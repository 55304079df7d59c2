#!/bin/bash
# test/gpu/fit.sh: how many work-groups fit, measured by
# gsync_groups_that_fit() (the --no-discovery output's own probe launch), on
# the GPU machine, for every barrier, scenario and local size: each row runs
# the --no-discovery output with that many groups (gsync-run --fit, checked
# against the CPU reference) and, beside it, the output with discovery on
# as many groups as the probe could launch, whose admitted count is what
# discovery finds for the same kernel. Prints a table and writes it (and a
# full log) to $OUT (default: build/gpu-out).
#
# On your machine first:  sh test/gpu/prepare.sh
# On the GPU machine:     . .gpu/on-gpu.sh; bash test/gpu/fit.sh
# Locally on PoCL:        PLATFORMS=Portable LOCALS=64 MAX=64 bash test/gpu/fit.sh
#
# Environment:
#   PLATFORMS="NVIDIA Portable"   GSYNC_PLATFORM values
#   BARRIERS="..."                default: those prepare.sh rewrote
#   SCENARIOS="stencil xpx helper"
#   LOCALS="64 256 1024"          local sizes (PoCL: 64 only)
#   MAX=8448                      groups the probe launches (64 per SM)
#   BUDGET=200                    seconds; later rows are skipped
set -u
root=$(pwd)
K=$root/build/gpu-kernels
RUN=$root/build/test/run/gsync-run
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
. "$root/test/gpu/barriers.sh"
PLATFORMS=${PLATFORMS:-NVIDIA Portable}
BARRIERS=${BARRIERS:-$(gpu_barriers)}
SCENARIOS=${SCENARIOS:-stencil xpx helper}
LOCALS=${LOCALS:-64 256 1024}
MAX=${MAX:-8448}
BUDGET=${BUDGET:-200}
LOG=$OUT/gpu-fit.log
TAB=$OUT/gpu-fit.txt
: >"$LOG"
start=$(date +%s)
printf '%-8s %-10s %-8s %5s %6s %6s %9s %s\n' platform barrier scenario local fit disc probe_ms result | tee "$TAB"
fails=0 rows=0 skipped=0
for plat in $PLATFORMS; do
  export GSYNC_PLATFORM=$plat
  locals=$LOCALS max=$MAX
  case $plat in Portable*) locals=64 max=${POCL_MAX:-256} ;; esac
  for b in $BARRIERS; do
    [ "$plat" = NVIDIA ] && gpu_needs_cl2 "$b" && continue
    for sc in $SCENARIOS; do
      for l in $locals; do
        if [ $(($(date +%s) - start)) -ge "$BUDGET" ]; then
          skipped=$((skipped + 1))
          continue
        fi
        rows=$((rows + 1))
        nd=$(timeout -k 3 60 "$RUN" --scenario "$sc" --cl "$K/$sc.$b.nd.cl" \
          --constraints "$K/$sc.$b.nd.json" --fit "$max" --local "$l" 2>&1)
        rc=$?
        echo "[$plat $b $sc l=$l fit] rc=$rc $nd" >>"$LOG"
        fit=$(echo "$nd" | sed -n 's/.*: fit=\([0-9]*\) of.*/\1/p' | head -1)
        ms=$(echo "$nd" | sed -n 's/.* probe=\([0-9.]*\) ms.*/\1/p' | head -1)
        disc=$(timeout -k 3 60 "$RUN" --scenario "$sc" --cl "$K/$sc.$b.cl" \
          --constraints "$K/$sc.$b.json" --groups "$max" --local "$l" 2>&1)
        echo "[$plat $b $sc l=$l disc] $disc" >>"$LOG"
        parts=$(echo "$disc" | sed -n 's/.* ok participants=\([0-9]*\).*/\1/p' | head -1)
        # Right: the fitted launch passed its check. Discovery's count is
        # shown beside it, not required to be equal.
        if [ "$rc" -eq 0 ] && echo "$nd" | grep -q ": ok participants=$fit groups=$fit "; then
          res=ok
        else
          res=FAILED fails=$((fails + 1))
        fi
        printf '%-8s %-10s %-8s %5s %6s %6s %9s %s\n' "${plat%% *}" "$b" "$sc" "$l" \
          "${fit:--}" "${parts:--}" "${ms:--}" "$res" | tee -a "$TAB"
      done
    done
  done
done
echo "fit: $rows rows, $fails failed, $skipped skipped for time" | tee -a "$TAB"
[ "$fails" -eq 0 ]
