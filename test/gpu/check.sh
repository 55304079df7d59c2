#!/bin/bash
# test/gpu/check.sh: gsync-check (docs/check.md) on the GPU machine, on
# NVIDIA's OpenCL and on PoCL. That machine has no libclang, so no
# gsync-rewrite: the kernels are rewritten here first, and gsync-check
# runs them there with --kernels.
#
#   bash test/gpu/check.sh prepare here: build/check-kernels (and, where
#                                  build/gpu-lib lacks the libjson-c that
#                                  gsync-check needs, test/gpu/prepare.sh,
#                                  which copies it there)
#   device run, carry [".gpu", "build"]:
#     . .gpu/on-gpu.sh; bash test/gpu/check.sh run
#
# run writes, for each platform P of PLATFORMS (default "NVIDIA
# Portable"), $OUT/check-P.txt (the table), check-P.json and, where
# /usr/bin/python3 has matplotlib, check-P.png; each run under a timeout
# of TMO seconds (default 240). QUICK=1 adds --quick.
set -u
root=$(pwd)
K=$root/build/check-kernels
CHECK=$root/build/tool/gsync-check
case ${1:-} in
prepare)
  [ -f "$root/build/gpu-lib/libjson-c.so.5" ] || sh "$root/test/gpu/prepare.sh" || exit 1
  rm -rf "$K"
  exec "$CHECK" --save-kernels "$K" ;;
run) ;;
*) echo "usage: bash test/gpu/check.sh prepare|run" >&2; exit 2 ;;
esac
[ -f "$K/RULES" ] || { echo "check.sh: no $K/RULES: run 'bash test/gpu/check.sh prepare' here first" >&2; exit 1; }
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
plot=
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null && plot=1
for p in ${PLATFORMS:-NVIDIA Portable}; do
  tag=$(echo "$p" | tr 'A-Z' 'a-z')
  echo "== gsync-check on $p"
  timeout -k 5 "${TMO:-240}" "$CHECK" --kernels "$K" --platform "$p" \
    ${QUICK:+--quick} --json "$OUT/check-$tag.json" \
    ${plot:+--plot "$OUT/check-$tag.png"} 2>&1 | tee "$OUT/check-$tag.txt"
  echo "exit ${PIPESTATUS[0]}" | tee -a "$OUT/check-$tag.txt"
done
