#!/bin/bash
# test/gpu/harden.sh: libgsync's misuse table and its refusal of mismatched
# constraints, on each platform of the GPU machine (NVIDIA's OpenCL keeps a
# program's source, CL_PROGRAM_SOURCE, as PoCL does: the fingerprint check
# of gsync_kernel_create reads it). After test/gpu/prepare.sh on your
# machine, in the project root on the GPU machine:
#   . .gpu/on-gpu.sh; bash test/gpu/harden.sh
# Writes $OUT/harden.txt (default OUT: build/gpu-out): per platform, the
# misuse program's summary line and any FAIL lines, then one line per
# mismatch case. Exit status 0 when every check passed. About 30 s.
set -u
root=$(pwd)
K=$root/build/gpu-kernels
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
# Another barrier's constraints, for the mismatch: the next one listed
# that NVIDIA builds, so that only the mismatch refuses them.
OTHER=$(gpu_barriers_cl12 | tr ' ' '\n' | grep -vx "$DEF" | head -1)
RUN=$root/build/test/run/gsync-run
MISUSE=$root/build/test/run/libgsync-misuse
OUT=${OUT:-$root/build/gpu-out}
PLATFORMS=${PLATFORMS:-NVIDIA Portable}
mkdir -p "$OUT"
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
TXT=$OUT/harden.txt
: > "$TXT"
say() { echo "$*" | tee -a "$TXT"; }
bad=0
work=$(mktemp -d)
# libgsync-misuse's inputs, made by test/run/misuse-inputs.sh in
# test/gpu/prepare.sh as test/run/misuse.test makes them.
[ -f "$K/misuse/out.json" ] || { echo "harden.sh: no $K/misuse: run test/gpu/prepare.sh" >&2; exit 1; }
cp "$K"/misuse/* "$work"/
mkfifo "$work/fifo"
for plat in $PLATFORMS; do
  export GSYNC_PLATFORM=$plat
  say "== $plat"
  out=$(timeout -k 5 120 "$MISUSE" "$work" 2>&1)
  echo "$out" | grep -E '^FAIL|failed$' | tee -a "$TXT"
  # No summary line: the program stopped early; its last words say why.
  echo "$out" | grep -qx '0 failed' ||
    { bad=$((bad + 1)); echo "$out" | grep -q 'failed$' ||
      echo "$out" | tail -3 | sed 's/^/  stopped: /' | tee -a "$TXT"; }
  # The pair as written launches; the discovery output with the
  # --no-discovery constraints, and with another barrier's, is refused.
  check() { # NAME WANT CL JSON: WANT "ok" or "refused"
    line=$(timeout -k 5 60 "$RUN" --scenario stencil --cl "$3" --constraints "$4" \
      --groups 2 --local 64 --rounds 2 2>&1 | tail -1)
    case $line in
      *": ok "*) got=ok ;;
      *"the constraints belong to output"*) got=refused ;;
      *) got="other: $line" ;;
    esac
    [ "$got" = "$2" ] || bad=$((bad + 1))
    say "$1: $got (want $2)"
  }
  check "own constraints" ok "$K/stencil.$DEF.cl" "$K/stencil.$DEF.json"
  check "--no-discovery constraints" refused "$K/stencil.$DEF.cl" "$K/stencil.$DEF.nd.json"
  check "$OTHER's constraints" refused "$K/stencil.$DEF.cl" "$K/stencil.$OTHER.json"
done
rm -rf "$work"
say "harden: $bad failed"
[ "$bad" -eq 0 ]
