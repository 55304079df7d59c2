#!/bin/bash
# bench/skew.sh: what a barrier's waiting groups cost the groups still
# working. bench/kernels/skew.cl has work-group 0 alone chase dependent
# loads through an L1-sized table in each phase while every other group
# waits at the barrier (one hub vertex of a graph phase). Each barrier rule
# is timed, --no-discovery, with that work (SKEW_WORK 256) and without it
# (SKEW_WORK 0: the barrier alone) at BASE groups and at each of CONFIGS;
# the work's own time at G groups is work_us - zero_us, and
#   harm = that time at G / that time at BASE
# is 1 for a barrier whose waiters leave the working group alone. Polls
# that invalidate the SM's L1 (an acquire load on NVIDIA sm_70+), or that
# flood the memory path, raise it with the number of waiting groups.
# tree-acqpoll, tree with acquire polls (derived here from the shipped
# rule), is the control: it must show harm on NVIDIA, or the test is blind.
#
#   bash bench/skew.sh prepare   here (after a build): build/skew-kernels
#   bash bench/skew.sh run       where they run (the GPU machine after
#                                `. .gpu/on-gpu.sh`; PLAT=Portable for PoCL)
#
# Prints gsync-bench's RESULT lines, then per rule and config, medians
# over ROUNDS interleaved rounds:
#   SKEW rule groups work_us zero_us harm
# us are per phase. Environment: PLAT (default NVIDIA), BASE (default
# 32x256), CONFIGS (default 132x256,264x256,528x256,1056x256), ROUNDS
# (default 3), BARRIERS (default: those of test/gpu/barriers.sh that the
# device's OpenCL C builds, prepared here). At prepare, TREE_VARIANTS
# (bench/rule-variants.sh) adds candidate builds of tree.
set -u
root=$(pwd)
K=$root/build/skew-kernels
B=${B:-$root/build/bench/gsync-bench}
. "$root/test/gpu/barriers.sh"
. "$root/bench/rule-variants.sh"

if [ "${1:-}" = prepare ]; then
  tool=$root/build/tool/gsync-rewrite
  rm -rf "$K" && mkdir -p "$K"
  # The control: tree as it was before 2026-12-06, polling with acquire
  # loads. skew.sh is blind on a device where it shows no harm.
  rules=$K/rules
  mkdir -p "$rules"
  tree=$root/rewrite-rules/barrier-tree.cl
  grep -q 'return (gsync_tree_relaxed(p) & 0x80000000u) == t;' "$tree" ||
    { echo "skew.sh: the relaxed poll is not in $tree" >&2; exit 1; }
  sed -e '1s|barrier-tree:|barrier-tree-acqpoll: tree polling with acquire loads (bench/skew.sh control);|' \
      -e 's/return (gsync_tree_relaxed(p) \& 0x80000000u) == t;/return (gsync_tree_acquire(p) \& 0x80000000u) == t;/' \
      "$tree" > "$rules/barrier-tree-acqpoll.cl"
  rule_variants_write "$root" barrier-tree "$rules" "${TREE_VARIANTS:-}" || exit 1
  bs="$(gpu_list_barriers "$tool") tree-acqpoll $(rule_variant_names tree "${TREE_VARIANTS:-}")"
  for b in $bs; do
    std=
    gpu_rule_needs_cl2 "$b" && std=-cl-std=CL3.0
    for w in 256 0; do
      "$tool" --rules-dir="$rules" --barrier="$b" $std --no-discovery -DSKEW_WORK=$w \
        "$root/bench/kernels/skew.cl" -o "$K/skew.$b.w$w.cl" \
        --constraints "$K/skew.$b.w$w.json" || exit 1
    done
  done
  echo "$bs" > "$K/BARRIERS"
  echo "skew.sh: kernels in $K"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: bash bench/skew.sh prepare|run" >&2; exit 2; }
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
BASE=${BASE:-32x256}
CONFIGS=${CONFIGS:-132x256,264x256,528x256,1056x256}
BARRIERS=${BARRIERS:-$(cat "$K/BARRIERS")}
R=$K/skew-raw.txt
: > "$R"
for r in $(seq "${ROUNDS:-3}"); do
  for b in $BARRIERS; do
    for w in 256 0; do
      f=$K/skew.$b.w$w
      # A rule the device's OpenCL C cannot build fails here (its error
      # line stays in the raw file), and is left out of the table below.
      timeout 60 "$B" time --cl "$f.cl" --constraints "$f.json" \
        --configs "$BASE,$CONFIGS" --short 20 --long 220 --reps 5 2>&1 |
        grep -E '^RESULT|error' | tee -a "$R"
    done
  done
done
awk -v base="$BASE" '
  $1 == "RESULT" { n = split($2, p, "."); b = p[2]; w = p[3]; k = $3 "x" $4
    c[b, w, k]++; t[b, w, k, c[b, w, k]] = $5; if (!((b, k) in seen)) { seen[b, k] = 1; order[m++] = b SUBSEP k } }
  function med(b, w, k,   a, i, j, x, q) { q = c[b, w, k]
    for (i = 1; i <= q; i++) a[i] = t[b, w, k, i]
    for (i = 2; i <= q; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return q ? a[int((q + 1) / 2)] : "none" }
  END { for (i = 0; i < m; i++) { split(order[i], bk, SUBSEP); b = bk[1]; k = bk[2]
      wk = med(b, "w256", k); zk = med(b, "w0", k); wb = med(b, "w256", base); zb = med(b, "w0", base)
      if (wk == "none" || zk == "none" || wb == "none" || zb == "none") continue
      printf "SKEW %s %s %.3f %.3f %s\n", b, k, wk, zk, (wb - zb > 0) ? sprintf("%.2f", (wk - zk) / (wb - zb)) : "nan" } }
' "$R"
