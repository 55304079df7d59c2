#!/bin/sh
# Builds the libFuzzer harnesses in build-fuzz/ (clang-14, ASan + UBSan)
# and runs each for SECONDS (default 60) over its committed corpus:
#   rewrite-fuzzer      the engine            fuzz/corpus/
#   constraints-fuzzer  libgsync's loader     fuzz/corpus-constraints/
#   cli-fuzzer          the tool's options    fuzz/corpus-cli/
#                       and output files
# New inputs go to a temporary directory, not into the corpora. Any crash,
# sanitizer report, leak, timeout or out-of-memory fails: the input is left
# in the temporary directory, whose path is printed.
# usage: sh fuzz/check.sh [SECONDS]
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
cmake -S . -B build-fuzz -DLLVM_CONFIG=/usr/bin/llvm-config-14 \
  -DCMAKE_C_COMPILER=clang-14 -DGSYNC_FUZZ=ON -DGSYNC_WERROR=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
# run NAME CORPUS OPTIONS...: one harness for $seconds over CORPUS; what
# it says goes to $said/NAME, and $said/NAME.failed marks a finding.
said=$(mktemp -d)
run() {
  name=$1 corpus=$2
  shift 2
  work=$(mktemp -d)
  mkdir "$work/new" "$work/artifacts"
  # Absolute paths: cli-fuzzer works in a directory of its own.
  if "$root/build-fuzz/fuzz/$name" -max_total_time="$seconds" -timeout=30 \
      -rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=2 \
      -artifact_prefix="$work/artifacts/" "$@" "$work/new" "$root/$corpus" \
      >"$work/log" 2>&1 </dev/null; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
    rm -rf "$work"
    echo "fuzz: $name: no findings in $seconds s (${execs:-?} runs)" \
      >"$said/$name"
  else
    { tail -n 60 "$work/log"
      echo "fuzz: $name: FINDING; the input is in $work/artifacts/"
    } >"$said/$name"
    touch "$said/$name.failed"
  fi
}
# The three at once: each is one process, and a machine of two cores or
# more runs them side by side in the time of one.
run rewrite-fuzzer fuzz/corpus -max_len=8192 -dict="$root/fuzz/opencl.dict" &
run constraints-fuzzer fuzz/corpus-constraints -max_len=32768 \
  -dict="$root/fuzz/constraints.dict" &
run cli-fuzzer fuzz/corpus-cli -max_len=64 &
wait
failed=0
for name in rewrite-fuzzer constraints-fuzzer cli-fuzzer; do
  if [ -e "$said/$name.failed" ]; then
    cat "$said/$name" >&2
    failed=1
  else
    cat "$said/$name"
  fi
done
rm -rf "$said"
exit $failed
