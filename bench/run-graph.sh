#!/bin/bash
# bench/run-graph.sh: the graph applications of apps/graph/ (gsync-graph,
# apps/graph.c) on the GPU machine: per application and input, the
# persistent kernel (one launch, global_barrier() between phases) against
# the relaunch baseline (one launch per phase, a flag read back per round),
# same device, same run, both checked against the CPU. Self-checking and
# time-bounded: every case runs under `timeout`, cases past the budget are
# skipped and reported, and the exit status is 1 if any case failed.
#
# On your machine first:  sh test/gpu/prepare.sh   (rewrites apps/graph/
#                         into build/gpu-kernels/graph; needs libclang)
# On the GPU machine:     . .gpu/on-gpu.sh; bash bench/run-graph.sh
# Locally on PoCL:        PLAT=Portable GROUPS_N=2 LOCAL=64 REPS=1 \
#                         SIZES=small bash bench/run-graph.sh
#
# Writes $OUT/graph-raw.txt (gsync-graph's lines, appended) and
# $OUT/graph-table.md (this run's table), and prints the table.
# Environment:
#   PLAT=NVIDIA        platform (GSYNC_PLATFORM)
#   VARIANT=default    which rewrite of prepare.sh: default (the barrier and
#                      discovery a user gets) or a barrier's name
#   GROUPS_N=1056      work-groups launched for the persistent kernel (the
#                      H100's co-resident count at 256 items; discovery
#                      admits what really fits)
#   LOCAL=256          work-group size, both modes
#   REPS=5             timed runs per mode (after one checked run); medians
#   SIZES=full         full: two grids and two R-MAT graphs per application;
#                      small: tiny ones, to try the script on PoCL
#   CASES="..."        one case per line, "APP INPUT [OPTIONS]" (overrides
#                      SIZES)
#   BUDGET=270         seconds for all cases; CASE_LIMIT=60 for each
set -u
root=$(pwd)
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
K=${K:-$root/build/gpu-kernels/graph}
HOST=${HOST:-$root/build/apps/gsync-graph}
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
V=${VARIANT:-default}
G=${GROUPS_N:-1056}
L=${LOCAL:-256}
REPS=${REPS:-5}
BUDGET=${BUDGET:-270}
CASE_LIMIT=${CASE_LIMIT:-60}
R=$OUT/graph-raw.txt
T=$OUT/graph-table.md
RUNLOG=$(mktemp)
trap 'rm -f "$RUNLOG"' EXIT

# Road-network-like grids (diameter W + H - 2: many rounds) and R-MAT
# power-law graphs (few rounds, skewed degrees), a smaller and a larger
# of each. Betweenness centrality keeps its path counts in doubles, which
# a grid above about 500 x 500 overflows, and runs from 4 sources.
full_cases() {
  for app in bfs sssp color mis pagerank mst; do
    for in in grid:256x256 grid:1000x1000 rmat:14 rmat:18; do
      echo "$app $in"
    done
  done
  for in in grid:128x128 grid:400x400 rmat:14 rmat:18; do
    echo "bc $in --sources 4"
  done
}
small_cases() {
  for app in bfs sssp color mis bc pagerank mst; do
    for in in grid:16x12 grid:40x30 rmat:8 rmat:10; do
      echo "$app $in --sources 2"
    done
  done
}
if [ -n "${CASES:-}" ]; then
  cases=$CASES
elif [ "${SIZES:-full}" = small ]; then
  cases=$(small_cases)
else
  cases=$(full_cases)
fi

echo "# $(date -u) bench/run-graph.sh on $(hostname), platform $GSYNC_PLATFORM, variant $V, $G groups x $L, $REPS reps" | tee -a "$R"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | tee -a "$R"
[ -x "$HOST" ] || { echo "FAILED: $HOST missing (build first)" | tee -a "$R"; exit 1; }
start=$SECONDS
ncase=0 nfail=0 nskip=0
while read -r app input opts; do
  [ -z "$app" ] && continue
  ncase=$((ncase + 1))
  left=$((BUDGET - (SECONDS - start)))
  if [ "$left" -lt 10 ]; then
    echo "SKIPPED $app $input (budget of ${BUDGET}s spent)" | tee -a "$R" "$RUNLOG"
    nskip=$((nskip + 1))
    continue
  fi
  lim=$((left < CASE_LIMIT ? left : CASE_LIMIT))
  # opts is split on purpose: it holds options such as "--sources 4".
  # shellcheck disable=SC2086
  out=$(timeout -k 5 "$lim" "$HOST" "$app" --input "$input" \
    --cl "$K/$app.$V.cl" --constraints "$K/$app.$V.json" \
    --groups "$G" --local "$L" --reps "$REPS" $opts 2>&1)
  rc=$?
  printf '%s\n' "$out" | tee -a "$R" "$RUNLOG" | grep '^SPEEDUP'
  if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^SPEEDUP'; then
    echo "FAILED $app $input rc=$rc: $(printf '%s\n' "$out" | tail -1)" | tee -a "$R" "$RUNLOG"
    nfail=$((nfail + 1))
  fi
done <<< "$cases"

# The table of this run: one row per case, from the RESULT lines.
awk -v plat="$GSYNC_PLATFORM" -v variant="$V" -v groups="$G" -v local="$L" -v reps="$REPS" '
  $1 == "RESULT" {
    key = $2 " " $3
    if (!(key in seen)) { seen[key] = 1; order[n++] = key }
    ok = ($8 == "ok") ? "ok" : "MISMATCH"
    if ($4 == "persistent") { pt[key] = $5; pg[key] = $7; pok[key] = ok }
    else { rt[key] = $5; rl[key] = $7; rok[key] = ok }
  }
  $1 == "FAILED" { failed[$2 " " $3] = 1; if (!($2 " " $3 in seen)) { seen[$2 " " $3] = 1; order[n++] = $2 " " $3 } }
  $1 == "SKIPPED" { skipped[$2 " " $3] = 1; if (!($2 " " $3 in seen)) { seen[$2 " " $3] = 1; order[n++] = $2 " " $3 } }
  END {
    printf "Platform %s, rewrite \"%s\", persistent: %s groups x %s launched; medians of %s runs.\n\n", plat, variant, groups, local, reps
    print "| app | input | persistent ms | groups | relaunch ms | launches | speed-up | vs CPU |"
    print "|---|---|---|---|---|---|---|---|"
    for (i = 0; i < n; i++) {
      k = order[i]; split(k, f, " ")
      if (k in skipped) { printf "| %s | %s | | | | | | skipped (budget) |\n", f[1], f[2]; continue }
      if (!(k in pt) || !(k in rt)) { printf "| %s | %s | | | | | | FAILED |\n", f[1], f[2]; continue }
      sub(/groups=/, "", pg[k]); sub(/launches=/, "", rl[k])
      verdict = (pok[k] == "ok" && rok[k] == "ok" && !(k in failed)) ? "ok" : "persistent " pok[k] ", relaunch " rok[k]
      printf "| %s | %s | %.3f | %s | %.3f | %s | %.2fx | %s |\n", f[1], f[2], pt[k], pg[k], rt[k], rl[k], rt[k] / pt[k], verdict
    }
  }' "$RUNLOG" > "$T"
cat "$T"
echo "graph: $ncase cases, $nfail failed, $nskip skipped ($((SECONDS - start)) s); table in $T" | tee -a "$R"
[ $nfail -eq 0 ]
