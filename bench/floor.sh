#!/bin/bash
# bench/floor.sh: the default barrier against its floors, in the same run.
# Two variants of rewrite-rules/barrier-tree.cl, NEITHER a correct barrier,
# made by replacing its NVIDIA path's ordered PTX:
#   floor-release  the arrival a release as in tree (atom.release.gpu, the
#                  one fence a group's writes need before others may read
#                  them), its acquire load relaxed (ld.relaxed.gpu);
#   floor-relaxed  arrival and polls relaxed: no ordering at all.
# What tree costs above floor-release is what its acquire and its shape
# cost; no correct barrier that arrives with one release can be faster than
# floor-release. The stress test must see stale reads with floor-relaxed,
# or it is blind to ordering on that device.
#
#   bash bench/floor.sh prepare   here (after a build): build/floor-kernels
#   bash bench/floor.sh run       on the GPU machine (. .gpu/on-gpu.sh)
#
# Prints gsync-bench's RESULT lines (us per barrier phase, --no-discovery
# builds) for tree, floor-release and floor-relaxed at CONFIGS, ROUNDS
# times interleaved, then STRESS lines, then one line per config:
#   FLOOR GxL tree_us release_us relaxed_us tree/release
# and one per other variant (EXTRA_VARIANTS, TREE_VARIANTS):
#   FLOOR+ GxL variant us variant/release
# with the medians over the rounds. Environment: CONFIGS (default the six
# shapes of bench/run-gpu.sh), ROUNDS (default 3), EPISODES (stress,
# default 100000), PLAT (default NVIDIA), EXTRA_VARIANTS (more rules of
# build/floor-kernels, rewritten there by hand, timed in the same rounds).
# At prepare, TREE_VARIANTS (bench/rule-variants.sh) adds candidate builds
# of tree, timed with the others (run reads the list prepare wrote), and
# FLOOR_KERNEL names the timed input in bench/kernels (default loop;
# loop-l2 reaches its elements through a volatile pointer, so that no
# variant's loop hits L1): its kernels go to build/floor-kernels-NAME, and
# run takes the same FLOOR_KERNEL.
set -u
# A failed gsync-bench shows: its message in the raw file, and a FAILED
# line (a config it refuses, such as a local size the kernel cannot
# have, ends its run; the shapes after it have no figures).
set -o pipefail
root=$(pwd)
fk=${FLOOR_KERNEL:-loop}
K=$root/build/floor-kernels${FLOOR_KERNEL:+-$FLOOR_KERNEL}
B=${B:-$root/build/bench/gsync-bench}
. "$root/bench/rule-variants.sh"
variants="tree floor-release floor-relaxed${EXTRA_VARIANTS:+ $EXTRA_VARIANTS}"

if [ "${1:-}" = prepare ]; then
  tool=$root/build/tool/gsync-rewrite
  rules=$K/rules
  rm -rf "$K" && mkdir -p "$rules"
  tree=$root/rewrite-rules/barrier-tree.cl
  for a in atom.release.gpu ld.acquire.gpu; do
    grep -q "$a" "$tree" || { echo "floor.sh: $a not in $tree" >&2; exit 1; }
  done
  sed -e '1s|barrier-tree:|barrier-floor-release: NOT a correct barrier (bench/floor.sh);|' \
      -e 's/ld\.acquire\.gpu/ld.relaxed.gpu/g' \
      "$tree" > "$rules/barrier-floor-release.cl"
  sed -e '1s|barrier-tree:|barrier-floor-relaxed: NOT a correct barrier (bench/floor.sh);|' \
      -e 's/atom\.release\.gpu/atom.relaxed.gpu/g' -e 's/ld\.acquire\.gpu/ld.relaxed.gpu/g' \
      "$tree" > "$rules/barrier-floor-relaxed.cl"
  rule_variants_write "$root" barrier-tree "$rules" "${TREE_VARIANTS:-}" || exit 1
  variants="$variants $(rule_variant_names tree "${TREE_VARIANTS:-}")"
  echo "$variants" > "$K/VARIANTS"
  for v in $variants; do
    for k in loop mp; do
      src=$k; [ $k = loop ] && src=$fk
      "$tool" --rules-dir="$rules" --barrier="$v" --no-discovery \
        "$root/bench/kernels/$src.cl" -o "$K/$k.$v.cl" --constraints "$K/$k.$v.json" || exit 1
    done
  done
  echo "floor.sh: kernels in $K"
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: bash bench/floor.sh prepare|run" >&2; exit 2; }
[ -f "$K/VARIANTS" ] && variants=$(cat "$K/VARIANTS")
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export GSYNC_PLATFORM=${PLAT:-NVIDIA}
CONFIGS=${CONFIGS:-132x256,264x256,528x256,1056x256,132x1024,264x1024}
R=$K/floor-raw.txt
: > "$R"
for r in $(seq "${ROUNDS:-3}"); do
  for v in $variants; do
    timeout 60 "$B" time --cl "$K/loop.$v.cl" --constraints "$K/loop.$v.json" \
      --configs "$CONFIGS" --short 100 --long 2100 --reps 7 2>&1 | tee -a "$R" ||
      echo "FAILED time $v rc=$?" | tee -a "$R"
  done
done
for v in $variants; do
  timeout 60 "$B" stress --cl "$K/mp.$v.cl" --constraints "$K/mp.$v.json" \
    --configs "$CONFIGS" --episodes "${EPISODES:-100000}" 2>&1 | tee -a "$R" ||
    echo "FAILED stress $v rc=$?" | tee -a "$R"
done
awk -v vlist="$variants" '
  BEGIN { m = split(vlist, all, " "); nv = 0
    for (i = 1; i <= m; i++) if (all[i] !~ /^(tree|floor-release|floor-relaxed)$/) vs[++nv] = all[i] }
  $1 == "RESULT" { split($2, p, "."); v = p[2]; k = $3 "x" $4
    n[v, k]++; t[v, k, n[v, k]] = $5; keys[k] = 1 }
  function med(v, k,   a, i, j, m, x) { m = n[v, k]
    for (i = 1; i <= m; i++) a[i] = t[v, k, i]
    for (i = 2; i <= m; i++) { x = a[i]; for (j = i - 1; j > 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return m ? a[int((m + 1) / 2)] : 0 }
  END { for (k in keys) { a = med("tree", k); b = med("floor-release", k); c = med("floor-relaxed", k)
    printf "FLOOR %s %.3f %.3f %.3f %s\n", k, a, b, c, (b > 0 ? sprintf("%.3f", a / b) : "nan")
    for (i = 1; i <= nv; i++) { x = med(vs[i], k)
      printf "FLOOR+ %s %s %.3f %s\n", k, vs[i], x, (b > 0 ? sprintf("%.3f", x / b) : "nan") } } }
' "$R" | sort -t x -k2,2n -k1.7n
