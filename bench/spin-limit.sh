#!/bin/bash
# bench/spin-limit.sh: the measurements behind the default --spin-limit,
# a time (docs/barriers.md, "Bounded spinning").
#
#   bash bench/spin-limit.sh prepare   on a machine with the tool (after a
#                                      build): rewrites the kernels into
#                                      build/spin-kernels
#   bash bench/spin-limit.sh run       where they run (PoCL here, or the GPU
#                                      machine after `. .gpu/on-gpu.sh`);
#                                      prints one line per measurement
#
# What it measures, with build/test/run/gsync-run:
#   ABORT    B L G secs base late  a --no-discovery stencil launch of G
#            work-groups, more than the device runs at once, with barrier B
#            and spin limit L: the wall time of a gsync-run that reports
#            the timeout (run twice; the second, timed, finds the program
#            build in the driver's cache), the wall time of the same run
#            with one group (base: start-up, build, a launch that
#            completes), and late = secs - base - L: how long after the
#            limit passed the launch was reported aborted.
#   UNEVEN   L G secs base late   the same for uneven.cl (only even
#            work-groups call the barrier) with G co-resident groups.
#   COST     gsync-bench's RESULT lines (µs per barrier) for loop.cl with
#            the default barrier at the default limit and at
#            --spin-limit=0: what the bounded spin costs a healthy barrier.
#   HEALTHY  S L G ok|timed-out   scenario S with G co-resident groups
#            (--no-discovery: all of them meet at every barrier; the first
#            barrier waits for the slowest group to start) and a short
#            spin limit L: the shortest L that never times out bounds how
#            long a healthy barrier waits.
#   DISC     S L G ok|timed-out   the same with discovery and 4 x G launched.
# Environment: PLAT (GSYNC_PLATFORM; default: the first platform), CORES
# (co-resident groups; default 2, as PoCL on 2 cores), ABORT_GROUPS (work-
# groups of the ABORT launches; default 4 x CORES), LOCAL (default 64),
# REPS (default 3), ABORT_BARRIERS, ABORT_LIMITS, HEALTHY_LIMITS,
# COST_CONFIGS (gsync-bench --configs, e.g. 132x256,1056x256 on a GPU; no
# COST lines without it: on 2 busy CPU cores they are noise), TMO (seconds
# a gsync-run may take, default 300), SKIP (words: abort, uneven, healthy).
set -u
root=$(pwd)
K=$root/build/spin-kernels
RUN=$root/build/test/run/gsync-run
TOOL=$root/build/tool/gsync-rewrite
# ABORT_BARRIERS by default: every barrier --list-barriers shows that
# builds as OpenCL C 1.2, the default first (test/gpu/barriers.sh); prepare
# writes the list to $K/ABORT_BARRIERS, where run finds it.
ABORT_BARRIERS=${ABORT_BARRIERS:-}
. "$root/test/gpu/barriers.sh"
ABORT_LIMITS=${ABORT_LIMITS:-500ms 5s}
HEALTHY_LIMITS=${HEALTHY_LIMITS:-10ms 50ms 200ms 1s}
COST_CONFIGS=${COST_CONFIGS:-}
SKIP=${SKIP:-}
[ -d "$root/build/gpu-lib" ] &&
  export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# rewrite INPUT OUTBASE OPTIONS...: one kernel and its constraints.
rewrite() {
  local in=$1 out=$2
  shift 2
  "$TOOL" "$@" "$in" -o "$K/$out.cl" --constraints "$K/$out.json"
}

prepare() {
  local k=$root/test/run/kernels
  [ -x "$TOOL" ] || { echo "spin-limit.sh: build first" >&2; exit 1; }
  rm -rf "$K" && mkdir -p "$K"
  if [ -z "$ABORT_BARRIERS" ]; then
    for b in $(gpu_list_barriers "$TOOL"); do
      gpu_rule_needs_cl2 "$b" || ABORT_BARRIERS="$ABORT_BARRIERS $b"
    done
  fi
  echo $ABORT_BARRIERS > "$K/ABORT_BARRIERS"
  for l in $ABORT_LIMITS; do
    for b in $ABORT_BARRIERS; do
      rewrite "$k/stencil.cl" "stencil.$b.nd.$l" --barrier="$b" \
        --no-discovery --spin-limit="$l"
    done
    rewrite "$k/uneven.cl" "uneven.nd.$l" --no-discovery \
      --no-uniformity-check --spin-limit="$l"
  done
  for l in $HEALTHY_LIMITS; do
    for s in stencil xpx mirror; do
      rewrite "$k/$s.cl" "$s.nd.$l" --no-discovery --spin-limit="$l"
      rewrite "$k/$s.cl" "$s.d.$l" --spin-limit="$l"
    done
  done
  rewrite "$root/bench/kernels/loop.cl" loop.default --no-discovery
  rewrite "$root/bench/kernels/loop.cl" loop.0 --no-discovery --spin-limit=0
  echo "spin-limit.sh: $(ls "$K"/*.cl | wc -l) kernels in $K"
}

# timed SCENARIO BASE GROUPS: runs gsync-run; prints "SECONDS RESULT".
timed() {
  local s0 s1 line r
  s0=$(date +%s.%N)
  line=$(timeout -k 5 "${TMO:-300}" "$RUN" --scenario "$1" --cl "$K/$2.cl" \
    --constraints "$K/$2.json" --groups "$3" --local "$LOCAL" 2>&1)
  s1=$(date +%s.%N)
  case $line in
  *": ok "*) r=ok ;;
  *"timed out"*) r=timed-out ;;
  *) r="ERROR:$(echo "$line" | head -1 | cut -c1-80)" ;;
  esac
  echo "$(awk -v a="$s1" -v b="$s0" 'BEGIN { printf "%.3f", a - b }') $r"
}

# seconds LIMIT: a --spin-limit value ("500ms", "5s") in seconds.
seconds() {
  case $1 in
  *ms) awk -v m="${1%ms}" 'BEGIN { printf "%.3f", m / 1000 }' ;;
  *s) echo "${1%s}" ;;
  esac
}

# abort_line LABEL SCENARIO BASE GROUPS LIMIT: the ABORT/UNEVEN line.
abort_line() {
  local t base
  timed "$2" "$3" "$4" >/dev/null
  t=$(timed "$2" "$3" "$4")
  base=$(timed "$2" "$3" 1 | cut -d' ' -f1)
  echo "$1 $4 $t $base late=$(awk -v t="${t%% *}" -v b="$base" -v l="$(seconds "$5")" 'BEGIN { printf "%.3f", t - b - l }')"
}

run() {
  CORES=${CORES:-2}
  LOCAL=${LOCAL:-64}
  REPS=${REPS:-3}
  ABORT_GROUPS=${ABORT_GROUPS:-$((4 * CORES))}
  ABORT_BARRIERS=${ABORT_BARRIERS:-$(cat "$K/ABORT_BARRIERS")}
  export GSYNC_PLATFORM=${PLAT:-}
  echo "# $(date -u) bench/spin-limit.sh on $(hostname), platform '${PLAT:-first}'," \
    "CORES=$CORES LOCAL=$LOCAL, load $(cut -d' ' -f1-3 /proc/loadavg)"
  for l in $ABORT_LIMITS; do
    case $SKIP in *abort*) ;; *)
      for b in $ABORT_BARRIERS; do
        for g in $ABORT_GROUPS; do
          abort_line "ABORT $b $l" stencil "stencil.$b.nd.$l" "$g" "$l"
        done
      done ;;
    esac
    case $SKIP in *uneven*) ;; *)
      abort_line "UNEVEN $l" uneven "uneven.nd.$l" "$CORES" "$l" ;;
    esac
  done
  for v in ${COST_CONFIGS:+default 0 default 0}; do
    timeout 120 "$root/build/bench/gsync-bench" time --cl "$K/loop.$v.cl" \
      --constraints "$K/loop.$v.json" --configs "$COST_CONFIGS" |
      sed "s/^RESULT/COST spin-limit=$v/"
  done
  case $SKIP in *healthy*) return ;; esac
  for l in $HEALTHY_LIMITS; do
    for s in stencil xpx mirror; do
      for i in $(seq "$REPS"); do
        echo "HEALTHY $s $l $CORES $(timed "$s" "$s.nd.$l" "$CORES" | cut -d' ' -f2)"
        echo "DISC $s $l $((4 * CORES)) $(timed "$s" "$s.d.$l" $((4 * CORES)) | cut -d' ' -f2)"
      done
    done
  done
}

case ${1:-} in
prepare) prepare ;;
run) run ;;
*) echo "usage: bash bench/spin-limit.sh prepare|run" >&2; exit 2 ;;
esac
