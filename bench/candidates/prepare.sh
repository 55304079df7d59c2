#!/bin/sh
# bench/candidates/prepare.sh [DEST]: on YOUR machine (it has libclang),
# after `cmake --build build`: writes the candidate rules (make.py), rewrites
# the benchmark and stress kernels for each, and gathers what
# bench/candidates/run-gpu.sh needs on the GPU machine into DEST (default
# build/cand): gsync-bench, the rewritten kernels, gridsync.cu, the shared
# libraries the GPU machine may lack, and the script itself.
#   VARIANTS="..."   barrier candidates (default: the round-3 list below)
#   DISCOVERY="..."  discovery candidates, rewritten with the tree barrier
#   NOLIMIT="..."    candidates also rewritten with --spin-limit=0 (as NAME-nl)
set -e
root=$(pwd)
dest=${1:-$root/build/cand}
tool=$root/build/tool/gsync-rewrite
[ -x "$tool" ] || { echo "prepare.sh: build first: $tool missing" >&2; exit 1; }
VARIANTS=${VARIANTS:-"tree flip flip-ar red-acq fence1 w w-s32 w-exp w-p50 w-p100 w-p200 w-rem1 w-rem2 w-auto pw pw-auto pw-auto-c f2 f2-p200 fa s32 s32-p200 s16 hyb-o"}
DISCOVERY=${DISCOVERY:-"lockfree lf2-k4 lf2-k8 lf2-k16 lf2-k32 lf2-k64n0"}
NOLIMIT=${NOLIMIT:-}
rules=$dest/rules
rm -rf "$dest" && mkdir -p "$rules" "$dest/k" "$dest/gpu-lib"
cp "$root"/rewrite-rules/*.cl "$root"/test/rules/*.cl "$rules"/
/usr/bin/python3 "$root/bench/candidates/make.py" "$rules" > /dev/null
for b in $VARIANTS noop; do
  for k in loop mp; do
    "$tool" --rules-dir="$rules" --barrier="$b" --no-discovery \
      "$root/bench/kernels/$k.cl" -o "$dest/k/$k.$b.nd.cl" \
      --constraints "$dest/k/$k.$b.nd.json"
  done
done
for b in $NOLIMIT; do
  for k in loop mp; do
    "$tool" --rules-dir="$rules" --barrier="$b" --no-discovery --spin-limit=0 \
      "$root/bench/kernels/$k.cl" -o "$dest/k/$k.$b-nl.nd.cl" \
      --constraints "$dest/k/$k.$b-nl.nd.json"
  done
  VARIANTS="$VARIANTS $b-nl"
done
# The kernel without discovery that DLAUNCH lines compare with.
"$tool" --rules-dir="$rules" --no-discovery "$root/bench/kernels/loop.cl" \
  -o "$dest/k/loop.base.nd.cl" --constraints "$dest/k/loop.base.nd.json"
for d in $DISCOVERY; do
  "$tool" --rules-dir="$rules" --discovery="$d" "$root/bench/kernels/loop.cl" \
    -o "$dest/k/loop.d-$d.cl" --constraints "$dest/k/loop.d-$d.json"
done
echo "$VARIANTS" > "$dest/k/VARIANTS"
echo "$DISCOVERY" > "$dest/k/DISCOVERY"
cp "$root/build/bench/gsync-bench" "$root/bench/gridsync.cu" \
  "$root/bench/candidates/run-gpu.sh" "$dest/"
for lib in libjson-c.so.5; do
  p=$(ldconfig -p | awk -v l="$lib" '$1==l && /x86-64/{print $NF; exit}')
  [ -n "$p" ] && cp -L "$p" "$dest/gpu-lib/"
done
rm -rf "$rules"
echo "prepare.sh: $(ls "$dest/k" | grep -c '\.cl$') kernels in $dest"
