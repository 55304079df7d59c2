#!/bin/bash
# test/gpu/run.sh: the run tests (stencil, mirror, xpx, helper, reuse; and
# the N-D ones, jacobi2d and stencil3d, when SCENARIOS names them) on the
# GPU machine, for every barrier, on NVIDIA's OpenCL and on PoCL, with
# launches of 1x, 2x, 4x and 16x the co-resident group count (discovery) and
# with exactly 132, 264, 528 and the full co-resident count taking part
# (--no-discovery), each run under `timeout`. "Full" is what
# gsync_groups_that_fit measures for each build (gsync-run --fit, at most
# twice the co-resident count). Prints a compact table and writes it (and
# a full log) to $OUT (default: build/gpu-out).
#
# On your machine first:  sh test/gpu/prepare.sh   (needs libclang)
# On the GPU machine:     . .gpu/on-gpu.sh; bash test/gpu/run.sh
# Locally on PoCL:        PLATFORMS=Portable POCL_CORES=2 bash test/gpu/run.sh
#
# Environment:
#   PLATFORMS="NVIDIA Portable"  platforms to test (GSYNC_PLATFORM values)
#   BARRIERS="..."               default: those prepare.sh rewrote (noop is
#                                used only for the teeth check)
#   SCENARIOS="stencil mirror xpx helper reuse"   (jacobi2d and stencil3d
#                                launch G groups as a 2-D or 3-D shape of
#                                16x16 or 8x8x4 items, 8x8 or 4x4x4 on PoCL,
#                                over the grid ND_EXTENT2 / ND_EXTENT3)
#   NV_CORES=1056                co-resident groups of 256 items on the H100
#                                (132 SMs x 8): the discovery launches are
#                                1x-16x it, "full" probes up to 2x it
#   POCL_CORES=16                co-resident groups on PoCL (its threads)
#   BUDGET=240                   seconds; later runs are skipped, not hung
#   DISC_EXTRA="..."             more discovery rules (prepare.sh made
#                                NAME.BARRIER.d-RULE for them): rows for
#                                each of LF_BARRIERS
set -u
root=$(pwd)
K=$root/build/gpu-kernels
RUN=$root/build/test/run/gsync-run
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PLATFORMS=${PLATFORMS:-NVIDIA Portable}
SCENARIOS=${SCENARIOS:-stencil mirror xpx helper reuse}
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
ALL=$(cat "$K/BARRIERS") # with the test-only noop and local, for the teeth
BARRIERS=${BARRIERS:-$(gpu_barriers)}
NV_CORES=${NV_CORES:-1056}
POCL_CORES=${POCL_CORES:-16}
BUDGET=${BUDGET:-240}
# The default and atomic-or (all accesses atomic: any OpenCL 1.1 device).
LF_BARRIERS=${LF_BARRIERS:-$(echo $DEF atomic-or | tr ' ' '\n' | awk '!seen[$0]++')}
TAG=${TAG:-$(echo $PLATFORMS | tr ' ' '-')}
LOG=$OUT/gpu-run-$TAG.log
TAB=$OUT/gpu-run-$TAG.txt
: > "$LOG"; : > "$TAB"
start=$(date +%s)
say() { echo "$*" | tee -a "$TAB"; }

kernel_of() { case $1 in reuse) echo stencil ;; *) echo "$1" ;; esac; }

# shape2 G / shape3 G: G work-groups as a 2-D (3-D) shape, as square as
# G's factors allow: 1056 -> 33x32, 12x11x8.
shape2() {
  local g=$1 d
  d=$(awk -v g="$g" 'BEGIN { print int(sqrt(g)) }')
  while [ $((g % d)) -ne 0 ]; do d=$((d - 1)); done
  echo "$((g / d))x$d"
}
shape3() {
  local g=$1 c
  c=$(awk -v g="$g" 'BEGIN { c = int(exp(log(g) / 3) + 0.5); while (c * c * c > g) c--; print c }')
  while [ $((g % c)) -ne 0 ]; do c=$((c - 1)); done
  echo "$(shape2 $((g / c)))x$c"
}

# launch_args SCENARIO G: the launch of G work-groups of L items: 1-D for
# the 1-D scenarios, a 2-D or 3-D shape for jacobi2d and stencil3d; G =
# fitMAX: as many as gsync_groups_that_fit says fit, at most MAX (in
# N-D, the squarest shape of at most that many).
launch_args() {
  case $1.$2 in
    jacobi2d.fit*) echo "--fit ${2#fit} --local $L2 --extent $ND_EXTENT2" ;;
    stencil3d.fit*) echo "--fit ${2#fit} --local $L3 --extent $ND_EXTENT3" ;;
    *.fit*) echo "--fit ${2#fit} --local $L" ;;
    jacobi2d.*) echo "--groups $(shape2 "$2") --local $L2 --extent $ND_EXTENT2" ;;
    stencil3d.*) echo "--groups $(shape3 "$2") --local $L3 --extent $ND_EXTENT3" ;;
    reuse.*) echo "--groups $2 --local $L${VARY:+ --vary $VARY}" ;;
    *) echo "--groups $2 --local $L" ;;
  esac
}

# one SCENARIO FILEBASE GROUPS LOCAL MINPART [env...]: prints a cell.
one() {
  local sc=$1 fb=$2 g=$3 l=$4 minp=$5; shift 5
  if [ $(( $(date +%s) - start )) -gt "$BUDGET" ]; then
    echo "skip"; return
  fi
  local t=$TMO
  local line rc
  line=$(env "$@" timeout -k 3 "$t" "$RUN" --scenario "$sc" --cl "$fb.cl" \
         --constraints "$fb.json" $(L=$l launch_args "$sc" "$g") \
         --min-participants "$minp" 2>>"$LOG")
  rc=$?
  echo "[$GSYNC_PLATFORM $(basename "$fb") $sc g=$g l=$l min=$minp] rc=$rc $line" >>"$LOG"
  if [ $rc -eq 0 ] && echo "$line" | grep -q ": ok "; then
    echo "ok:$(echo "$line" | sed -n 's/.*participants=\([0-9]*\).*/\1/p')"
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    echo "TIMEOUT"
  elif echo "$line" | grep -q "timed out"; then
    echo "ABORTED"
  elif echo "$line" | grep -q MISMATCH; then
    echo "MISMATCH"
  else
    echo "ERR$rc"
  fi
}

# teeth FILEBASE SCENARIO GROUPS LOCAL [env]: the noop barrier must mismatch.
# xpx exchanges 16 groups' elements there, not its default 256 (one
# group's, whose warps alone raced: on the H100 that once went unseen).
teeth() {
  local fb=$1 sc=$2 g=$3 l=$4; shift 4
  local line rc more=
  [ "$sc" = xpx ] && more="--size $((16 * l))"
  line=$(env "$@" timeout -k 3 "$TMO" "$RUN" --scenario "$sc" --cl "$fb.cl" \
         --constraints "$fb.json" $(L=$l launch_args "$sc" "$g") $more \
         --min-participants "$g" --expect-fail 2>>"$LOG")
  rc=$?
  echo "[$GSYNC_PLATFORM teeth $(basename "$fb") $sc g=$g] rc=$rc $line" >>"$LOG"
  if [ $rc -eq 0 ] && echo "$line" | grep -q MISMATCH; then
    echo "sees-it"
  else
    echo "BLIND"
  fi
}

# One table row per launch of 1x, 2x, 4x and 16x the co-resident count with
# discovery: disc_rows BARRIER MODE KERNEL-SUFFIX (kernels NAME.SUFFIX.cl).
# There every second reuse launch has a 16th of the groups (gsync-run
# --vary): a launch that read a count or a verdict the one before left
# would go wrong there.
disc_rows() {
  local VARY=16
  for g in $C $((2 * C)) $((4 * C)) $((16 * C)); do
    row=$(printf "%-13s %-6s %6s |" "$1" "$2" "$g")
    for sc in $SCENARIOS; do
      row="$row $(printf '%-9s' "$(one "$sc" "$K/$(kernel_of "$sc").$3" "$g" "$L" 1 $penv)")"
    done
    say "$row"
  done
}

for plat in $PLATFORMS; do
  export GSYNC_PLATFORM=$plat
  case $plat in
    NVIDIA) C=$NV_CORES; L=256; TMO=30; penv="X=1"
            L2=16x16; L3=8x8x4
            ND_EXTENT2=${ND_EXTENT2:-1024x1024}; ND_EXTENT3=${ND_EXTENT3:-128x128x128}
            ndlist="132 264 528" ;;
    *)      C=$POCL_CORES; L=64; TMO=90; penv="POCL_MAX_PTHREAD_COUNT=$C"
            L2=8x8; L3=4x4x4
            ND_EXTENT2=${ND_EXTENT2:-256x256}; ND_EXTENT3=${ND_EXTENT3:-64x64x32}
            ndlist="2 4" ;;
  esac
  say ""
  say "== $plat: local size $L, co-resident groups assumed $C =="
  say "--no-discovery \"full\": as many as fit each build, at most $((2 * C)) (gsync-run --fit)"
  hdr=$(printf "%-13s %-6s %6s |" barrier mode groups)
  for sc in $SCENARIOS; do hdr="$hdr $(printf '%-9s' "$sc")"; done
  say "$hdr"
  for b in $BARRIERS; do
    if [ "$plat" = NVIDIA ] && gpu_needs_cl2 "$b"; then
      msg=$(timeout -k 3 "$TMO" "$RUN" --build-only "$K/stencil.$b.cl" 2>&1 |
            grep -m1 -i "error" | cut -c1-110)
      say "$(printf "%-13s %-6s %6s |" "$b" - -) does not build (expected: OpenCL C 1.2): $msg"
      continue
    fi
    disc_rows "$b" disc "$b"
    for g in $ndlist full; do
      row=$(printf "%-13s %-6s %6s |" "$b" nodisc "$g")
      for sc in $SCENARIOS; do
        gg=$g
        minp=$g
        e=$penv
        if [ "$g" = full ]; then
          gg=fit$((2 * C))
          minp=1
        fi
        case $gg in
          fit*) ;;
          *) [ "$plat" != NVIDIA ] && [ "$gg" -gt "$C" ] && e="POCL_MAX_PTHREAD_COUNT=$gg" ;;
        esac
        row="$row $(printf '%-9s' "$(one "$sc" "$K/$(kernel_of "$sc").$b.nd" "$gg" "$L" "$minp" $e)")"
      done
      say "$row"
    done
  done
  # The ticket-lock discovery (rewrite-rules/discovery-ticket.cl) where
  # prepare.sh made it: same launches as "disc".
  for b in $LF_BARRIERS; do
    [ -f "$K/stencil.$b.d-ticket.cl" ] || continue
    disc_rows "$b" ticket "$b.d-ticket"
  done
  for d in ${DISC_EXTRA:-}; do
    for b in $LF_BARRIERS; do
      [ -f "$K/stencil.$b.d-$d.cl" ] && disc_rows "$b" "$d" "$b.d-$d"
    done
  done
  # The largest work-group NVIDIA's H100 takes, 1024 items, with the
  # default barrier: its driver reports a CL_KERNEL_WORK_GROUP_SIZE of 256
  # for every kernel and launches 1024 (docs/misuse.md), so libgsync leaves
  # that limit to the driver.
  if [ "$plat" = NVIDIA ]; then
    b=${BARRIERS%% *}
    for m in disc nodisc; do
      suf=$b
      [ $m = nodisc ] && suf=$b.nd
      row=$(printf "%-13s %-6s %6s |" "$b/1024" "$m" 132)
      for sc in $SCENARIOS; do
        case $sc in stencil|mirror|xpx|helper) ;; *) continue ;; esac
        row="$row $(printf '%-9s' "$(one "$sc" "$K/$(kernel_of "$sc").$suf" 132 1024 1 $penv)")"
      done
      say "$row"
    done
  fi
  # Teeth: the test-only barriers that do not synchronise work-groups must
  # be seen: noop (nothing at all) by stencil, mirror and xpx, and by the
  # N-D scenarios when asked for, local (the work-group only) by those.
  g=$(echo $ndlist | awk '{print $NF}')
  for tb in noop local; do
    echo " $ALL " | grep -q " $tb " || continue
    row=$(printf "%-13s %-6s %6s |" "$tb(teeth)" nodisc "$g")
    for sc in stencil mirror xpx jacobi2d stencil3d; do
      case $tb.$sc in
        noop.stencil|noop.mirror|noop.xpx) ;;
        local.stencil|local.mirror|local.xpx) continue ;;
        *) echo " $SCENARIOS " | grep -q " $sc " || continue ;;
      esac
      [ -f "$K/$sc.$tb.nd.cl" ] || continue
      row="$row $sc:$(teeth "$K/$sc.$tb.nd" "$sc" "$g" "$L" $penv)"
    done
    echo "$row" | grep -q : && say "$row"
  done
done
say ""
say "cells: ok:P = checked against the CPU, P groups took part; MISMATCH/TIMEOUT (hung)/ABORTED (spin limit)/ERRn = failed; skip = over BUDGET"
# The cells were made in subshells: count them from the table.
cells=$(grep -E '^[^ ]+ +[^ ]+ +([0-9]+|full) \|' "$TAB" | cut -d'|' -f2- | tr ' ' '\n' | grep -v '^$')
pass=$(echo "$cells" | grep -cE '^ok:|sees-it$')
fail=$(echo "$cells" | grep -cE '^(MISMATCH|TIMEOUT|ABORTED|ERR)|BLIND$')
skip=$(echo "$cells" | grep -c '^skip$')
say "$pass passed, $fail failed, $skip skipped ($(( $(date +%s) - start )) s)"
[ "$fail" -eq 0 ]
