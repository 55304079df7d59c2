#!/bin/bash
# test/gpu/placement.sh: where the participants' ids run. A persistent
# kernel whose phase has fewer work-items than its grid runs that phase on
# the lowest ids, so how many compute units the lowest ids span decides how
# much of the device the phase gets; a relaunch gets what the device's
# scheduler spreads. gsync-bench placement records each participant's SM
# (NVIDIA's %smid) at its remapped id; this checks that, with every launched
# group admitted, the default output's ids 0-7 and 0-63 span as many SMs as
# the --no-discovery output's, whose ids are the launch's own. Launches of
# more groups than fit are printed, not checked (their ids are in the order
# the groups joined: rewrite-rules/discovery-lockfree.cl).
#
# After test/gpu/prepare.sh on your machine, in the project root on the GPU
# machine:  . .gpu/on-gpu.sh; bash test/gpu/placement.sh
# Writes $OUT/placement.txt (default OUT: build/gpu-out). Exit status 0
# when every checked row spans as many SMs. NVIDIA only (elsewhere every SM
# reads 0). About 5 s.
set -u
root=$(pwd)
K=$root/build/gpu-kernels
BENCH=$root/build/bench/gsync-bench
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
FIT=${FIT:-132x256,528x256,1056x256}
TXT=$OUT/placement.txt
export GSYNC_PLATFORM=${GSYNC_PLATFORM:-NVIDIA}
run() { # label file configs
  timeout -k 3 60 "$BENCH" placement --cl "$K/$2.cl" --constraints "$K/$2.json" \
    --configs "$3" 2>&1 | sed "s/^PLACEMENT [^ ]*/PLACEMENT $1/"
}
{
  run disc "placement.$DEF" "$FIT,4224x256"
  run nodisc "placement.$DEF.nd" "$FIT"
} | tee "$TXT.raw"
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
for cfg in $(echo "$FIT" | tr , ' '); do
  g=${cfg%x*} l=${cfg#*x}
  d=$(grep "^PLACEMENT disc $g $l " "$TXT.raw")
  n=$(grep "^PLACEMENT nodisc $g $l " "$TXT.raw")
  for f in first8 first64; do
    a=$(echo "$d" | field "$f") b=$(echo "$n" | field "$f")
    if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -lt "$b" ]; then
      echo "FAIL placement ${g}x$l $f: discovery ${a:-none} SMs, --no-discovery ${b:-none}"
    else
      echo "ok placement ${g}x$l $f: discovery $a SMs, --no-discovery $b"
    fi
  done
done | tee "$TXT"
bad=$(grep -c '^FAIL' "$TXT")
echo "placement: $(grep -c '^ok' "$TXT") ok, $bad failed" | tee -a "$TXT"
[ "$bad" -eq 0 ]
