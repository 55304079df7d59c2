#!/bin/sh
# Builds the libFuzzer harness in build-fuzz/ (clang-14, ASan + UBSan) and
# runs it for SECONDS (default 60) over the committed corpus fuzz/corpus/.
# New inputs go to a temporary directory, not into the corpus. Any crash,
# sanitizer report, leak, timeout or out-of-memory fails: the input is left
# in the temporary directory, whose path is printed.
# usage: sh fuzz/check.sh [SECONDS]
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
cmake -S . -B build-fuzz -DLLVM_CONFIG=/usr/bin/llvm-config-14 \
  -DCMAKE_C_COMPILER=clang-14 -DGSYNC_FUZZ=ON -DGSYNC_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
work=$(mktemp -d)
mkdir "$work/new" "$work/artifacts"
if build-fuzz/fuzz/rewrite-fuzzer -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -dict=fuzz/opencl.dict -artifact_prefix="$work/artifacts/" \
    "$work/new" fuzz/corpus >"$work/log" 2>&1 </dev/null; then
  grep -E '^stat::number_of_executed_units|^#[0-9]+[[:space:]]+DONE' "$work/log" || true
  rm -rf "$work"
  echo "fuzz: no findings in $seconds s"
else
  tail -n 60 "$work/log"
  echo "fuzz: FINDING; the input is in $work/artifacts/" >&2
  exit 1
fi
