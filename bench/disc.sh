#!/bin/bash
# bench/disc.sh: what occupancy discovery adds to a launch, against a plain
# launch of the same work-groups in the same round (gsync-bench disc), for
# the shipped protocol, its candidate builds and its floor:
#   lockfree       the shipped discovery (rewrite-rules/discovery-lockfree.cl)
#   lockfree-NAME  candidates: DISC_VARIANTS (bench/rule-variants.sh), e.g.
#                  DISC_VARIANTS="nap512:GSYNC_LF_FIRST_NAP=512u"
#   lffloor        NOT a correct discovery: every polled group takes part
#                  right after its one atomic increment, waiting for no
#                  other; no protocol in which each group counts itself
#                  with one atomic can be faster.
# Each is bench/kernels/loop.cl rewritten with the default barrier, timed
# with ITERS = 0 (the launch and the discovery alone); each round also
# times the --no-discovery build through libgsync and raw.
#
#   bash bench/disc.sh prepare   here (after a build): build/disc-kernels
#   bash bench/disc.sh run       on the GPU machine (. .gpu/on-gpu.sh)
#
# Prints gsync-bench's DLAUNCH lines, then per variant and config the
# medians over ROUNDS interleaved rounds (each round's figures are
# medians of REPS launches):
#   DISC variant GxL disc_us plain_us disc/plain admitted_min nodisc/plain
# Environment: CONFIGS (default 1056x256,2112x256: one and two times what
# an H100 holds of loop.cl), ROUNDS (default 5), REPS (default 15), PLAT
# (default NVIDIA).
set -u
set -o pipefail
root=$(pwd)
K=$root/build/disc-kernels
B=${B:-$root/build/bench/gsync-bench}
. "$root/bench/rule-variants.sh"

if [ "${1:-}" = prepare ]; then
  tool=$root/build/tool/gsync-rewrite
  rules=$K/rules
  rm -rf "$K" && mkdir -p "$rules"
  lf=$root/rewrite-rules/discovery-lockfree.cl
  # lffloor: the waits of participant 0 and of the others taken out.
  perl -0pe '
    s|/\* discovery-lockfree:|/* discovery-lffloor: NOT a correct discovery (bench/disc.sh);| or die "name";
    s|if \(id == 0u\) \{\n      uint seen|if (0) {\n      uint seen| or die "participant 0";
    s|gsync_spin_while\(c, gsync_in_discovery,\s*gsync_lf_pending\(s, gen, polled, &count\),\s*atomic_or\(poll, 0u\) & GSYNC_LF_COME\);|count = polled;| or die "wait";
  ' "$lf" > "$rules/discovery-lffloor.cl" ||
    { echo "disc.sh: $lf no longer has the shape lffloor is cut from" >&2; exit 1; }
  rule_variants_write "$root" discovery-lockfree "$rules" "${DISC_VARIANTS:-}" || exit 1
  variants="lockfree $(rule_variant_names lockfree "${DISC_VARIANTS:-}")lffloor"
  for v in $variants; do
    "$tool" --rules-dir="$rules" --discovery="$v" "$root/bench/kernels/loop.cl" \
      -o "$K/loop.$v.cl" --constraints "$K/loop.$v.json" || exit 1
  done
  "$tool" --no-discovery "$root/bench/kernels/loop.cl" -o "$K/loop.nd.cl" \
    --constraints "$K/loop.nd.json" || exit 1
  echo "$variants" > "$K/VARIANTS"
  echo "disc.sh: kernels in $K"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: bash bench/disc.sh prepare|run" >&2; exit 2; }
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
CONFIGS=${CONFIGS:-1056x256,2112x256}
variants=$(cat "$K/VARIANTS")
R=$K/disc-raw.txt
: > "$R"
for r in $(seq "${ROUNDS:-5}"); do
  for v in $variants; do
    timeout 60 "$B" disc --cl "$K/loop.$v.cl" --constraints "$K/loop.$v.json" \
      --nd "$K/loop.nd.cl" --nd-constraints "$K/loop.nd.json" \
      --configs "$CONFIGS" --reps "${REPS:-15}" 2>&1 | grep -v '^#' | tee -a "$R" ||
      echo "FAILED disc $v rc=$?" | tee -a "$R"
  done
done
# DLAUNCH label G L disc_us plain_us ratio lo hi nodisc=US raw=US rawev=US
awk -v vlist="$variants" '
  BEGIN { nv = split(vlist, vs, " ") }
  $1 == "DLAUNCH" { split($2, p, "."); v = p[2]; k = $3 "x" $4; i = ++n[v, k]
    d[v, k, i] = $5; pl[v, k, i] = $6; q[v, k, i] = $7
    sub("nodisc=", "", $10); nd[v, k, i] = $10 / $6
    if (!((v, k) in lo) || $8 < lo[v, k]) lo[v, k] = $8
    if (!(k in seen)) { seen[k] = 1; ks[++nk] = k } }
  function med(a, v, k,   b, i, j, m, x) { m = n[v, k]
    for (i = 1; i <= m; i++) b[i] = a[v, k, i]
    for (i = 2; i <= m; i++) { x = b[i]; for (j = i - 1; j > 0 && b[j] > x; j--) b[j + 1] = b[j]; b[j + 1] = x }
    return m ? b[int((m + 1) / 2)] : 0 }
  END { for (a = 1; a <= nk; a++) for (b = 1; b <= nv; b++) { v = vs[b]; k = ks[a]
      if (!n[v, k]) continue
      printf "DISC %s %s %.1f %.1f %.2f %d %.2f\n", v, k, med(d, v, k), med(pl, v, k),
        med(q, v, k), lo[v, k], med(nd, v, k) } }
' "$R"
