#!/bin/bash
# bench/auto.sh: what --barrier=auto costs against naming the rule, in the
# same run. bench/kernels/loop.cl (a grid-stride increment and a barrier
# per phase) rewritten with --barrier=auto and with each rule it holds
# named (include/gsync-auto.def), all --no-discovery, timed by
# gsync-bench time (gsync_time_barrier: us per phase, the difference of
# two launches' medians, so launch cost cancels out), the variants
# interleaved round by round. The auto output is timed as libgsync builds
# it for the device (its choice, printed first) and with each rule forced
# (GSYNC_BARRIER); the builds differ only in the -DGSYNC_BARRIER_<NAME>
# that selects the same rule text, so each ratio should be 1 within noise.
#
#   bash bench/auto.sh prepare   on a machine with the tool (after a
#                                build): rewrites into build/auto-kernels
#   bash bench/auto.sh run       on the GPU machine (. .gpu/on-gpu.sh)
#
# Prints gsync-bench's RESULT lines, then one line per rule and config,
# the medians over ROUNDS (us per barrier phase):
#   AUTO rule GxL auto_us named_us auto/named how
# where how is "chosen" for libgsync's choice, "forced" for the others.
# Environment: CONFIGS (default the shapes of bench/floor.sh), ROUNDS
# (default 5), PLAT (GSYNC_PLATFORM, default NVIDIA), GSYNC_CHECK_CACHE
# (default empty: the choice is the table's, not a cached gsync-check
# result of that machine).
set -u
set -o pipefail
root=$(pwd)
K=$root/build/auto-kernels
B=${B:-$root/build/bench/gsync-bench}
RUN=$root/build/test/run/gsync-run
# The rules inside, from the one table of them.
rules=$(sed -n 's/^GSYNC_AUTO_RULE("\(.*\)")$/\1/p' "$root/include/gsync-auto.def")

if [ "${1:-}" = prepare ]; then
  tool=$root/build/tool/gsync-rewrite
  rm -rf "$K" && mkdir -p "$K"
  for v in auto $rules; do
    "$tool" --barrier="$v" --no-discovery --spin-limit=500ms "$root/bench/kernels/loop.cl" \
      -o "$K/loop.$v.cl" --constraints "$K/loop.$v.json" || exit 1
  done
  echo "auto.sh: kernels in $K for auto and $(echo $rules)"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: bash bench/auto.sh prepare|run" >&2; exit 2; }
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
export GSYNC_CHECK_CACHE=${GSYNC_CHECK_CACHE:-}
unset GSYNC_BARRIER
CONFIGS=${CONFIGS:-132x256,264x256,528x256,1056x256,132x1024,264x1024}
choice=$("$RUN" --load-only --constraints "$K/loop.auto.json") || {
  echo "auto.sh: libgsync chose no rule: $choice" >&2; exit 1; }
echo "$choice"
chosen=$(echo "$choice" | sed -n 's/^gsync-run: barrier \([^ ]*\) .*/\1/p')
# Each config on its own: one that does not fit this rule's kernel (no
# discovery here; atomic-or's fits 791 groups of 256 on an H100) aborts
# within the spin limit of the prepare step and leaves the others.
time_one() { # time_one RAWFILE CL-STEM [GSYNC_BARRIER]
  for cfg in $(echo "$CONFIGS" | tr ',' ' '); do
    env ${3:+GSYNC_BARRIER=$3} timeout 120 "$B" time --cl "$K/$2.cl" \
      --constraints "$K/$2.json" --configs "$cfg" --short 100 --long 2100 \
      --reps 7 2>&1 | tee -a "$1" || echo "FAILED time $2 ${3:-} $cfg rc=$?" | tee -a "$1"
  done
}
rm -f "$K"/raw.*
for r in $(seq "${ROUNDS:-5}"); do
  for c in $rules; do
    if [ "$c" = "$chosen" ]; then
      time_one "$K/raw.auto.$c" loop.auto
    else
      time_one "$K/raw.auto.$c" loop.auto "$c"
    fi
    time_one "$K/raw.named.$c" "loop.$c"
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "none" }'; }
for c in $rules; do
  how=forced
  [ "$c" = "$chosen" ] && how=chosen
  for cfg in $(echo "$CONFIGS" | tr ',' ' '); do
    g=${cfg%x*} l=${cfg#*x}
    a=$(awk -v g="$g" -v l="$l" '$1 == "RESULT" && $3 == g && $4 == l { print $5 }' \
      "$K/raw.auto.$c" | median)
    n=$(awk -v g="$g" -v l="$l" '$1 == "RESULT" && $3 == g && $4 == l { print $5 }' \
      "$K/raw.named.$c" | median)
    awk -v c="$c" -v k="$cfg" -v a="$a" -v n="$n" -v h="$how" 'BEGIN {
      printf "AUTO %s %s %s %s %s %s\n", c, k, a, n,
        (a + 0 > 0 && n + 0 > 0) ? sprintf("%.3f", a / n) : "none", h }'
  done
done
