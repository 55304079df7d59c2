#!/bin/bash
# bench/split.sh: what splitting a global barrier saves, in the same run.
# examples/halo.cl (a ring stencil, one global_barrier() per step) against
# examples/halo-split.cl (the same sweep, its interior worked out between
# global_barrier_arrive() and global_barrier_wait(), its halo after;
# docs/split.md), each rewritten with --no-discovery for every barrier that
# splits, launched through build/test/run/gsync-run --time (each launch
# checked against the CPU) at every work-group count of COUNTS with LOCAL
# work-items, the two kernels interleaved.
#
#   bash bench/split.sh prepare   on a machine with the tool (after a
#                                 build): rewrites into build/split-kernels
#   bash bench/split.sh run       on the GPU machine (. .gpu/on-gpu.sh)
#
# Prints gsync-run's time lines, then one line per barrier and count, the
# medians over REPS rounds of the fastest of LAUNCHES launches (us):
#   SPLIT barrier groups:local whole_us split_us split/whole
# Environment: BARRIERS (default: those whose rule has @split), COUNTS
# (default 132 264 528 1056, an H100's 132 SMs times 1 to 8), LOCAL
# (default 256), SIZE (elements, default 1048576), STEPS (default 200),
# LAUNCHES (default 5), REPS (default 5), TMO (seconds a gsync-run may
# take, default 120), PLAT (GSYNC_PLATFORM, default NVIDIA).
set -u
root=$(pwd)
K=$root/build/split-kernels
RUN=$root/build/test/run/gsync-run
if [ -z "${BARRIERS:-}" ]; then
  BARRIERS=$(cd "$root/rewrite-rules" && grep -l '^ \* @split$' barrier-*.cl |
    sed 's/^barrier-\(.*\)\.cl$/\1/' | tr '\n' ' ')
fi

if [ "${1:-}" = prepare ]; then
  tool=$root/build/tool/gsync-rewrite
  rm -rf "$K" && mkdir -p "$K"
  for b in $BARRIERS; do
    for v in halo halo-split; do
      "$tool" --barrier="$b" --no-discovery "$root/examples/$v.cl" \
        -o "$K/$v.$b.cl" --constraints "$K/$v.$b.json" || exit 1
    done
  done
  echo "split.sh: kernels in $K for $BARRIERS"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: bash bench/split.sh prepare|run" >&2; exit 2; }
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
COUNTS=${COUNTS:-"132 264 528 1056"}
LOCAL=${LOCAL:-256}
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "nan" }'; }
one() { # one VARIANT BARRIER GROUPS -> fastest us, or nothing
  timeout -k 5 "${TMO:-120}" "$RUN" --scenario halo --cl "$K/$1.$2.cl" \
    --constraints "$K/$1.$2.json" --groups "$3" --local "$LOCAL" \
    --min-participants "$3" --size "${SIZE:-1048576}" \
    --rounds "${STEPS:-200}" --launches "${LAUNCHES:-5}" --time 2>&1 |
    tee -a "$K/split-raw.txt" |
    sed -n 's/^time: .* fastest \([0-9]*\) us$/\1/p'
}
: > "$K/split-raw.txt"
for b in $BARRIERS; do
  for g in $COUNTS; do
    one halo "$b" "$g" >/dev/null # warm-up: the builds land in the cache
    one halo-split "$b" "$g" >/dev/null
    : > "$K/w.txt"; : > "$K/s.txt"
    for i in $(seq "${REPS:-5}"); do
      one halo "$b" "$g" >> "$K/w.txt"
      one halo-split "$b" "$g" >> "$K/s.txt"
    done
    w=$(median < "$K/w.txt") s=$(median < "$K/s.txt")
    awk -v b="$b" -v g="$g" -v l="$LOCAL" -v w="$w" -v s="$s" 'BEGIN {
      printf "SPLIT %s %s:%s %s %s %s\n", b, g, l, w, s,
        (w + 0 > 0 && s + 0 > 0) ? sprintf("%.3f", s / w) : "nan" }'
  done
done
