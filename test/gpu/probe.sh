#!/bin/bash
# test/gpu/probe.sh: what NVIDIA's OpenCL C compiler defines and what its
# fences become in PTX. Writes $OUT/probe.txt.
K=build/gpu-kernels; B=build/gpu-bin/gsync-bench
[ -d build/gpu-lib ] && export LD_LIBRARY_PATH=$(pwd)/build/gpu-lib:${LD_LIBRARY_PATH:-}
export GSYNC_PLATFORM=${GSYNC_PLATFORM:-NVIDIA}
{
  timeout 30 $B probe
  for v in ${PROBE_VARIANTS:-gen gen-nv}; do
    timeout 30 $B binary --cl $K/loop.$v.nd.cl --constraints $K/loop.$v.nd.json --out /tmp/loop.$v.ptx
    echo "--- loop.$v.nd PTX: fences, barriers, atomics, loads (first 60)"
    grep -nE 'membar|fence|bar\.sync|barrier|atom|ld\.|\.version|\.target' /tmp/loop.$v.ptx | head -60
  done
} > "$OUT/probe.txt" 2>&1
cat "$OUT/probe.txt" | head -40
