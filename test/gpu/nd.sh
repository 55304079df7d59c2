#!/bin/bash
# test/gpu/nd.sh: N-D launches on the GPU machine, in one device call of
# about four minutes, self-checking, figures under $OUT:
#   1. the 2-D and 3-D run tests (jacobi2d, stencil3d) for every barrier on
#      NVIDIA and, in parallel, on PoCL: with discovery at 1x, 2x, 4x and
#      16x the co-resident group count, without it at 132 ... full, and the
#      teeth (test/gpu/run.sh; $OUT/gpu-run-NVIDIA.txt, -Portable.txt);
#   2. how many admitted work-groups the virtual grid leaves out, on
#      NVIDIA, for 16x16 groups of 16x16, 64x8 of 32x8 and 8x8x8 of 8x8x4,
#      and the same shapes scaled to about 4x and 16x the co-resident
#      count, each checked item by item (gsync-run's ids scenario:
#      $OUT/nd-leftout.txt);
#   3. the cost of the virtual ids: a 2-D and a 3-D grid-stride loop
#      (bench/kernels/loopnd.cl) against the same work launched 1-D, us per
#      barrier phase, same run, with discovery and without, and the same
#      N-D loop without its barrier, relaunched per phase; and, without
#      discovery, bench/kernels/loopnd-block.cl (each group's elements in
#      one block) with the barrier and with only a work-group barrier
#      (rule local), which separates the cost of a row-wise loop's element
#      layout from that of the N-D launch ($OUT/nd-bench.txt,
#      $OUT/nd-bench-table.txt).
# Exit status 0 only if every check passed.
#
# On your machine first:   sh test/gpu/prepare.sh   (after a build)
# Device call (carry .gpu and build):
#   . .gpu/on-gpu.sh; OUT=$OUT timeout 330 bash test/gpu/nd.sh
# Environment: TEST_BUDGET (s, default 140; later cells are skipped),
# STEPS="tests leftout bench"; for a dry run elsewhere: ND_PLATFORM (default NVIDIA), SHAPES (step 2,
# GROUPS:LOCAL ...), ONE_D / TWO_D and their --no-discovery forms ONE_DN /
# TWO_DN (step 3, gsync-bench configs).
set -u
# A failed gsync-bench must fail the step: its status through the pipes
# into sed and tee (a bench kernel whose launch did not fit passed unseen).
set -o pipefail
root=$(pwd)
export OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
K=$root/build/gpu-kernels
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
RUN=$root/build/test/run/gsync-run
B=$root/build/bench/gsync-bench
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
STEPS=${STEPS:-tests leftout bench}
TB=${TEST_BUDGET:-140}
status=0
start=$(date +%s)

if echo "$STEPS" | grep -q tests; then
  for p in NVIDIA Portable; do
    (PLATFORMS=$p SCENARIOS="jacobi2d stencil3d" LF_BARRIERS=$DEF BUDGET=$TB \
       timeout -k 5 $((TB + 40)) bash test/gpu/run.sh >/dev/null 2>&1) &
  done
  wait
  for p in NVIDIA Portable; do
    f=$OUT/gpu-run-$p.txt
    echo "=== $f"
    cat "$f" 2>/dev/null
    tail -1 "$f" 2>/dev/null | grep -q ' 0 failed' || status=1
  done
fi

if echo "$STEPS" | grep -q leftout; then
  f=$OUT/nd-leftout.txt
  : > "$f"
  export GSYNC_PLATFORM=${ND_PLATFORM:-NVIDIA}
  echo "# launch (groups of items): admitted = participants + left out" | tee -a "$f"
  for spec in ${SHAPES:-16x16:16x16 64x64:16x16 128x128:16x16 64x8:32x8 \
              128x32:32x8 256x64:32x8 8x8x8:8x8x4 16x16x16:8x8x4 \
              32x32x16:8x8x4 33x32:16x16}; do
    g=${spec%%:*} l=${spec##*:}
    for try in 1 2; do
      line=$(timeout -k 3 60 "$RUN" --scenario ids --cl "$K/ids.$DEF.cl" \
               --constraints "$K/ids.$DEF.json" --groups "$g" --local "$l" 2>&1 | tail -1)
      echo "$g of $l (try $try): $line" | tee -a "$f"
      echo "$line" | grep -q ": ok " || status=1
    done
  done
fi

if echo "$STEPS" | grep -q bench; then
  f=$OUT/nd-bench.txt
  : > "$f"
  export GSYNC_PLATFORM=${ND_PLATFORM:-NVIDIA}
  # 1-D and 2-D (and one 3-D) launches of the same groups and items over
  # the same elements; with discovery (the ids are virtual) at 1/8, 1x and
  # 4x the co-resident count, and without it (real ids) where it fits;
  # without it also loopnd-block.cl, and both loops with only a
  # work-group barrier (rule local).
  for round in 1 2; do
    for v in $DEF $DEF.nd local.nd; do
      c1=${ONE_DN:-132x256,1056x256}
      c2=${TWO_DN:-12x11:16x16,33x32:16x16,11x12x8:8x8x4}
      kernels="loopnd loopnd-block"
      if [ $v = $DEF ]; then
        c1=${ONE_D:-132x256,1056x256,4224x256}
        c2=${TWO_D:-12x11:16x16,33x32:16x16,66x64:16x16,11x12x8:8x8x4}
        kernels=loopnd
      fi
      timeout 60 "$B" time --cl "$K/loop.$v.cl" --constraints "$K/loop.$v.json" \
        --configs "$c1" | sed "s/^/$v r$round /" | tee -a "$f" || status=1
      for k in $kernels; do
        timeout 60 "$B" time-nd --cl "$K/$k.$v.cl" --constraints "$K/$k.$v.json" \
          --configs "$c2" | sed "s/^/$v r$round /" | tee -a "$f" || status=1
      done
    done
  done
  # us per phase and launch+discovery us, N-D against 1-D with as many
  # groups and items, each round; for N-D also us per phase of the loop
  # without its barrier (plain kernel, relaunched).
  awk '
    function prod(s,  a, n, i, r) { n = split(s, a, "x"); r = 1
      for (i = 1; i <= n; i++) r *= a[i]; return r }
    $3 == "RESULT" { k = $1 " " $5 " " $6; one[k] = one[k] " " $7 "/" $8 }
    $3 == "RESULT_ND" { split($4, file, ".")
      k = $1 " " prod($5) " " prod($6) " " $5 ":" $6 " " file[1]
      two[k] = two[k] " " $7 "/" $8 "/" $12
      base[k] = $1 " " prod($5) " " prod($6)
      what[k] = $5 " of " $6 ": grid " $10 ", " $11 " left out" }
    END {
      print "# variant groups items N-D-shape kernel | 1-D us/phase/launch-us per round | N-D us/phase/launch-us/no-barrier-us | N-D grid"
      for (k in two) print k, "|", one[base[k]], "|", two[k], "|", what[k] }
  ' "$f" | sort | tee "$OUT/nd-bench-table.txt"
fi
echo "nd.sh: $( [ $status -eq 0 ] && echo all passed || echo FAILED ) ($(( $(date +%s) - start )) s)"
exit $status
