#!/bin/sh
# Installs what gsync-rewrite needs on Debian 12 (when run as root with
# apt), then configures and builds it in build/ (or $1, with any further
# arguments passed to cmake). Safe to run again.
set -eu
cd "$(dirname "$0")/.."
packages="cmake make gcc pkg-config python3 python3-psutil python3-numpy
  python3-pyopencl python3-pytest clang-14 clang-format-14
  libclang-14-dev libclang-rt-14-dev llvm-14-dev llvm-14-tools libjson-c-dev
  ninja-build ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
  groff-base ufo-filters-data"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends $missing >/dev/null
  else
    echo "setup: please install:$missing" >&2
    exit 1
  fi
fi
dir=${1:-build}
[ $# -gt 0 ] && shift
cmake -S . -B "$dir" -DLLVM_CONFIG=/usr/bin/llvm-config-14 "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)" >/dev/null
echo "setup: built $dir/tool/gsync-rewrite and $dir/runtime/libgsync.a"
