#!/bin/bash
# test/gpu/opencl-c.sh: OpenCL C 3.0 through the rewrite on the GPU machine.
# atomics.cl (C11 atomic_fetch_add and atomic_load, rewritten with
# -cl-std=CL3.0 by prepare.sh) must run correctly on PoCL, with discovery
# over 4x its threads and with every thread's group taking part; on NVIDIA,
# whose OpenCL C has no C11 atomics, libgsync must refuse it before
# building, naming what the device lacks. Prints a table and writes it to
# $OUT/opencl-c.txt; exits 1 if any line is not as expected.
#
# On your machine first:  sh test/gpu/prepare.sh
# On the GPU machine:     . .gpu/on-gpu.sh; bash test/gpu/opencl-c.sh
# Locally on PoCL:        PLATFORMS=Portable POCL_CORES=2 bash test/gpu/opencl-c.sh
set -u
root=$(pwd)
K=$root/build/gpu-kernels
. "$root/test/gpu/barriers.sh"
DEF=$(gpu_default_barrier) || exit 1
RUN=$root/build/test/run/gsync-run
OUT=${OUT:-$root/build/gpu-out}
mkdir -p "$OUT"
[ -d "$root/build/gpu-lib" ] && export LD_LIBRARY_PATH=$root/build/gpu-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PLATFORMS=${PLATFORMS:-NVIDIA Portable}
POCL_CORES=${POCL_CORES:-16}
TAB=$OUT/opencl-c.txt
: > "$TAB"
bad=0
# check PLATFORM WANT FILEBASE GROUPS [env...]: WANT is "ok" or "refused".
check() {
  local plat=$1 want=$2 fb=$3 g=$4; shift 4
  local line rc
  line=$(env GSYNC_PLATFORM="$plat" "$@" timeout -k 3 60 "$RUN" \
         --scenario atomics --cl "$K/$fb.cl" --constraints "$K/$fb.json" \
         --groups "$g" --local 64 2>&1)
  rc=$?
  local got=other
  if [ $rc -eq 0 ] && echo "$line" | grep -q "atomics: ok "; then
    got=ok
  elif echo "$line" | grep -q "gsync-run: error: device .* lacks OpenCL C"; then
    got=refused
  fi
  [ "$got" = "$want" ] || bad=1
  printf '%-9s %-22s groups=%-4s want=%-8s got=%-8s %s\n' "$plat" "$fb" "$g" \
    "$want" "$got" "$(echo "$line" | tail -1)" | tee -a "$TAB"
}
for plat in $PLATFORMS; do
  case $plat in
  NVIDIA)
    check NVIDIA refused atomics.$DEF 1056
    check NVIDIA refused atomics.$DEF.nd 132 ;;
  *)
    check "$plat" ok atomics.$DEF $((POCL_CORES * 4))
    check "$plat" ok atomics.$DEF.nd "$POCL_CORES" POCL_MAX_PTHREAD_COUNT="$POCL_CORES" ;;
  esac
done
echo "opencl-c.sh: $([ $bad -eq 0 ] && echo all as expected || echo SOME NOT AS EXPECTED)" | tee -a "$TAB"
exit $bad
