#!/bin/bash
# bench/body-cost.sh: what discovery costs a kernel's own work. The run
# tests' kernels (test/run/kernels) rewritten with the default barrier,
# with discovery and with --no-discovery, launched with the same work-
# groups through build/test/run/gsync-run --time (each launch checked
# against the CPU); discovery admits every group here, so both builds do
# the same work with the same ids, and any difference is what the
# discovery build's entry, remapped ids and context cost the body.
#
#   bash bench/body-cost.sh prepare   on a machine with the tool (after a
#                                     build): rewrites into build/body-kernels
#   bash bench/body-cost.sh run       where they run (PoCL here, or the GPU
#                                     machine after `. .gpu/on-gpu.sh`)
#
# Prints, per scenario and launch shape, the median over REPS interleaved
# rounds of the fastest of LAUNCHES launches (us), and the ratio:
#   BODY scenario groups:local disc_us nodisc_us ratio [few=K]
# A discovery run in which some launch admitted fewer groups than were
# launched (on a CPU, a thread that started late; the poll cap then keeps
# the next launches at that count) would do more work per group: it is
# left out of the median, and few=K says how many were.
# Environment: PLAT (GSYNC_PLATFORM), SHAPES (scenario=GROUPS:LOCAL ...;
# default: each scenario with 1 group, the single-group case, and 2, the
# co-resident count of PoCL on 2 cores), ROUNDS (scenario=R: the
# iterations in a launch), EXTENT (scenario=WxH[xD]), LAUNCHES (default
# 5), REPS (default 5), TMO (seconds a gsync-run may take, default 120),
# OPTIONS (build options after libgsync's, e.g. -cl-opt-disable).
set -u
root=$(pwd)
K=$root/build/body-kernels
RUN=$root/build/test/run/gsync-run
scenarios="stencil mirror xpx helper jacobi2d stencil3d"

if [ "${1:-}" = prepare ]; then
  tool=$root/build/tool/gsync-rewrite
  rm -rf "$K" && mkdir -p "$K"
  for s in $scenarios; do
    "$tool" "$root/test/run/kernels/$s.cl" -o "$K/$s.cl" --constraints "$K/$s.json" &&
      "$tool" --no-discovery "$root/test/run/kernels/$s.cl" -o "$K/$s.nd.cl" \
        --constraints "$K/$s.nd.json" || exit 1
  done
  echo "body-cost.sh: kernels in $K"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: bash bench/body-cost.sh prepare|run" >&2; exit 2; }
[ -n "${PLAT:-}" ] && export GSYNC_PLATFORM=$PLAT
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
SHAPES=${SHAPES:-"stencil=1:64 stencil=2:64 mirror=1:64 mirror=2:64 xpx=1:64 xpx=2:64
  helper=1:64 helper=2:64 jacobi2d=1x1:8x8 jacobi2d=2x1:8x8 stencil3d=1x1x1:4x4x4
  stencil3d=2x1x1:4x4x4"}
ROUNDS=${ROUNDS:-"stencil=2000 mirror=2000 xpx=200 helper=1000 jacobi2d=200 stencil3d=100"}
EXTENT=${EXTENT:-"jacobi2d=256x256 stencil3d=64x64x32"}
LAUNCHES=${LAUNCHES:-5}
REPS=${REPS:-5}
TMO=${TMO:-120}
lookup() { # lookup KEY "k=v ..." -> v
  local kv
  for kv in $2; do [ "${kv%%=*}" = "$1" ] && { echo "${kv#*=}"; return; }; done
}
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "nan" }'; }
one() { # one SCENARIO VARIANT GROUPS LOCAL -> fastest us, or nothing
  local s=$1 v=$2 r e
  r=$(lookup "$s" "$ROUNDS")
  e=$(lookup "$s" "$EXTENT")
  timeout -k 5 "$TMO" "$RUN" --scenario "$s" --cl "$K/$s$v.cl" \
    --constraints "$K/$s$v.json" --groups "$3" --local "$4" --time \
    --min-participants $(( ${3//x/*} )) \
    --launches "$LAUNCHES" ${r:+--rounds $r} ${e:+--extent $e} \
    ${OPTIONS:+--options "$OPTIONS"} 2>&1 |
    sed -n 's/^time: .* fastest \([0-9]*\) us$/\1/p'
}
for spec in $SHAPES; do
  s=${spec%%=*} shape=${spec#*=}
  g=${shape%%:*} l=${shape#*:}
  one "$s" "" "$g" "$l" >/dev/null   # warm-up: the build lands in the cache
  one "$s" .nd "$g" "$l" >/dev/null
  : > "$K/d.txt"; : > "$K/n.txt"
  for i in $(seq "$REPS"); do
    one "$s" "" "$g" "$l" >> "$K/d.txt"
    one "$s" .nd "$g" "$l" >> "$K/n.txt"
  done
  d=$(median < "$K/d.txt") n=$(median < "$K/n.txt")
  few=$(( REPS - $(wc -l < "$K/d.txt") ))
  awk -v s="$s" -v sh="$shape" -v d="$d" -v n="$n" -v few="$few" 'BEGIN {
    printf "BODY %s %s %s %s %s%s\n", s, sh, d, n,
      (d + 0 > 0 && n + 0 > 0) ? sprintf("%.2f", d / n) : "nan",
      (few > 0 ? " few=" few : "") }'
done
