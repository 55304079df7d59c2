#!/bin/bash
# test/gpu/watch.sh: watching a running launch (docs/watch.md) on the GPU
# machine. For each barrier in BARRIERS, on NVIDIA's OpenCL: what libgsync
# offers there and what its probe of a host-visible buffer measured (the
# channel chosen; whether the host saw the kernel's write and the kernel
# the host's while it ran, and after how long: the "figure: probe:"
# line), the time per global barrier of the stencil run-test kernel
# built with GSYNC_WATCH_BUILD_OPTION and watched as libgsync sets it up,
# and built as usual (the watch compiled out), alternately, then again
# with a deadline set that is never reached, in
# one process (with the state in the watch's channel: with a host-visible
# buffer, in host memory); how long a 500 ms deadline
# takes to stop a launch; and, where there is a channel, a cancel. Then
# the full checks (progress, cancel, races, deadline;
# test/run/watch.test) on NVIDIA, which fail at once where there is no
# channel; the same measurements on PoCL, and PoCL's full checks through
# SVM and through a host-visible buffer. Writes $OUT/watch.txt.
#
# On your machine first:  sh test/gpu/prepare.sh   (needs libclang)
# On the GPU machine:     . .gpu/on-gpu.sh; bash test/gpu/watch.sh
#
# Environment:
#   BARRIERS="tree flip"   rules to measure (prepare.sh rewrote stencil.B)
#   NV_GROUPS=1056 NV_LOCAL=256   the launch on NVIDIA (discovery admits
#                          what runs at once)
set -u
root=$(pwd)
K=$root/build/gpu-kernels
W=$root/build/test/run/libgsync-watch
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{
  for b in ${BARRIERS:-tree flip}; do
    echo "== NVIDIA, barrier $b, ${NV_GROUPS:-1056} groups of ${NV_LOCAL:-256}"
    GSYNC_PLATFORM=NVIDIA timeout -k 5 100 "$W" "$K/stencil.$b.cl" \
      "$K/stencil.$b.json" --groups "${NV_GROUPS:-1056}" \
      --local "${NV_LOCAL:-256}" --bench | tee "$OUT/watch-nv-$b.txt"
    echo "exit ${PIPESTATUS[0]}"
  done
  # The full checks need a channel; without one the bench's first line
  # said so, with the probe's finding.
  if grep -q "channel none" "$OUT"/watch-nv-*.txt; then
    echo "== NVIDIA checks skipped: no channel (see the probe line above)"
  else
    echo "== NVIDIA checks, barrier tree, ${NV_GROUPS:-1056} groups of ${NV_LOCAL:-256}"
    GSYNC_PLATFORM=NVIDIA timeout -k 5 100 "$W" "$K/stencil.tree.cl" \
      "$K/stencil.tree.json" --groups "${NV_GROUPS:-1056}" \
      --local "${NV_LOCAL:-256}"
    echo "exit $?"
  fi
  echo "== PoCL, barrier tree, 64 groups of 64"
  GSYNC_PLATFORM=Portable timeout -k 5 100 "$W" "$K/stencil.tree.cl" \
    "$K/stencil.tree.json" --groups 64 --bench
  echo "exit $?"
  echo "== PoCL checks, barrier tree, 200 groups of 64"
  GSYNC_PLATFORM=Portable timeout -k 5 100 "$W" "$K/stencil.tree.cl" \
    "$K/stencil.tree.json" --groups 200
  echo "exit $?"
  echo "== PoCL checks through a host-visible buffer, barrier tree, 200 groups of 64"
  GSYNC_PLATFORM=Portable GSYNC_WATCH_CHANNEL=mapped timeout -k 5 100 "$W" \
    "$K/stencil.tree.cl" "$K/stencil.tree.json" --groups 200
  echo "exit $?"
} 2>&1 | tee "$OUT/watch.txt"
