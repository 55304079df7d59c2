#!/bin/bash
# test/gpu/run.sh: the run tests (stencil, mirror, xpx, helper, reuse) on the
# GPU machine, for every barrier, on NVIDIA's OpenCL and on PoCL, with
# launches of 1x, 2x, 4x and 16x the co-resident group count (discovery) and
# with exactly 132, 264, 528 and the full co-resident count taking part
# (--no-discovery), each run under `timeout`. Prints a compact table and
# writes it (and a full log) to $OUT (default: build/gpu-out).
#
# On your machine first:  sh test/gpu/prepare.sh   (needs libclang)
# On the GPU machine:     . .gpu/on-gpu.sh; bash test/gpu/run.sh
# Locally on PoCL:        PLATFORMS=Portable POCL_CORES=2 bash test/gpu/run.sh
#
# Environment:
#   PLATFORMS="NVIDIA Portable"  platforms to test (GSYNC_PLATFORM values)
#   BARRIERS="..."               default: those prepare.sh rewrote (noop is
#                                used only for the teeth check)
#   SCENARIOS="stencil mirror xpx helper reuse"
#   NV_CORES=1056                co-resident groups of 256 items on the H100
#                                (132 SMs x 8); refined at run time to the
#                                most that discovery admitted, if fewer
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
ALL=$(cat "$K/BARRIERS")
BARRIERS=${BARRIERS:-$(echo $ALL | tr ' ' '\n' | grep -vx noop | tr '\n' ' ')}
NV_CORES=${NV_CORES:-1056}
POCL_CORES=${POCL_CORES:-16}
BUDGET=${BUDGET:-240}
LF_BARRIERS=${LF_BARRIERS:-tree atomic-or}
TAG=${TAG:-$(echo $PLATFORMS | tr ' ' '-')}
LOG=$OUT/gpu-run-$TAG.log
TAB=$OUT/gpu-run-$TAG.txt
: > "$LOG"; : > "$TAB"
start=$(date +%s)
say() { echo "$*" | tee -a "$TAB"; }

kernel_of() { case $1 in reuse) echo stencil ;; *) echo "$1" ;; esac; }

# one SCENARIO FILEBASE GROUPS LOCAL MINPART [env...]: prints a cell.
one() {
  local sc=$1 fb=$2 g=$3 l=$4 minp=$5; shift 5
  if [ $(( $(date +%s) - start )) -gt "$BUDGET" ]; then
    echo "skip"; return
  fi
  local t=$TMO
  local line rc
  line=$(env "$@" timeout -k 3 "$t" "$RUN" --scenario "$sc" --cl "$fb.cl" \
         --constraints "$fb.json" --groups "$g" --local "$l" \
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
teeth() {
  local fb=$1 sc=$2 g=$3 l=$4; shift 4
  local line rc
  line=$(env "$@" timeout -k 3 "$TMO" "$RUN" --scenario "$sc" --cl "$fb.cl" \
         --constraints "$fb.json" --groups "$g" --local "$l" \
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
disc_rows() {
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
            ndlist="132 264 528" ;;
    *)      C=$POCL_CORES; L=64; TMO=90; penv="POCL_MAX_PTHREAD_COUNT=$C"
            ndlist="2 4" ;;
  esac
  say ""
  say "== $plat: local size $L, co-resident groups assumed $C =="
  # Discovery's verdict: the most groups it admits on an oversubscribed
  # launch (stencil, atomic-or); the --no-discovery "full" count uses it.
  maxp=0
  for i in 1 2 3; do
    line=$(timeout -k 3 "$TMO" "$RUN" --scenario stencil --cl "$K/stencil.atomic-or.cl" \
      --constraints "$K/stencil.atomic-or.json" --groups $((4 * C)) --local $L \
      --rounds 2 2>>"$LOG")
    p=$(echo "$line" | sed -n 's/.*participants=\([0-9]*\).*/\1/p')
    [ -n "$p" ] && [ "$p" -gt "$maxp" ] && maxp=$p
  done
  say "discovery (ticket) admitted at most $maxp of $((4 * C)) launched groups (3 tries)"
  full=$C
  [ "$plat" = NVIDIA ] && [ "$maxp" -gt 0 ] && [ "$maxp" -lt "$C" ] && full=$maxp
  say "full co-resident count used for --no-discovery: $full"
  hdr=$(printf "%-13s %-6s %6s |" barrier mode groups)
  for sc in $SCENARIOS; do hdr="$hdr $(printf '%-9s' "$sc")"; done
  say "$hdr"
  for b in $BARRIERS; do
    if [ "$plat" = NVIDIA ] && [ "$b" = acq-rel ]; then
      msg=$(timeout -k 3 "$TMO" "$RUN" --build-only "$K/stencil.acq-rel.cl" 2>&1 |
            grep -m1 -i "error" | cut -c1-110)
      say "$(printf "%-13s %-6s %6s |" "$b" - -) does not build (expected: OpenCL C 1.2): $msg"
      continue
    fi
    disc_rows "$b" disc "$b"
    for g in $ndlist $full; do
      row=$(printf "%-13s %-6s %6s |" "$b" nodisc "$g")
      for sc in $SCENARIOS; do
        e=$penv
        [ "$plat" != NVIDIA ] && [ "$g" -gt "$C" ] && e="POCL_MAX_PTHREAD_COUNT=$g"
        row="$row $(printf '%-9s' "$(one "$sc" "$K/$(kernel_of "$sc").$b.nd" "$g" "$L" "$g" $e)")"
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
  if echo " $ALL " | grep -q " noop "; then
    g=$(echo $ndlist | awk '{print $NF}')
    row=$(printf "%-13s %-6s %6s |" "noop(teeth)" nodisc "$g")
    for sc in stencil mirror xpx; do
      row="$row $sc:$(teeth "$K/$sc.noop.nd" "$sc" "$g" "$L" $penv)"
    done
    say "$row"
  fi
done
say ""
say "cells: ok:P = checked against the CPU, P groups took part; MISMATCH/TIMEOUT (hung)/ABORTED (spin limit)/ERRn = failed; skip = over BUDGET"
# The cells were made in subshells: count them from the table.
cells=$(grep -E '^[^ ]+ +[^ ]+ +[0-9]+ \|' "$TAB" | cut -d'|' -f2- | tr ' ' '\n' | grep -v '^$')
pass=$(echo "$cells" | grep -cE '^ok:|sees-it$')
fail=$(echo "$cells" | grep -cE '^(MISMATCH|TIMEOUT|ABORTED|ERR)|BLIND$')
skip=$(echo "$cells" | grep -c '^skip$')
say "$pass passed, $fail failed, $skip skipped ($(( $(date +%s) - start )) s)"
[ "$fail" -eq 0 ]
