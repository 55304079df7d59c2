#!/bin/sh
# Sets up and runs the whole test suite twice: a normal build with warnings
# as errors, then a build under AddressSanitizer + UndefinedBehaviorSanitizer;
# then each of the three fuzzers for a minute. Ends with one line
# "N passed, N failed" counting both runs and the fuzzers as one test.
set -u
cd "$(dirname "$0")/.."
lit=/usr/lib/llvm-14/build/utils/lit/lit.py
sh scripts/setup.sh build -DGSYNC_WERROR=ON || exit 1
sh scripts/setup.sh build-asan -DGSYNC_WERROR=ON -DGSYNC_SANITIZE=ON || exit 1

passed=0
failed=0
for dir in build build-asan; do
  echo "== tests: $dir"
  out=$(mktemp)
  UBSAN_OPTIONS=print_stacktrace=1 \
    /usr/bin/python3 "$lit" -sv --timeout 300 "$dir/test" 2>&1 | tee "$out"
  p=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$out")
  f=$(grep -E '^ *(Failed|Unresolved|Timed Out) *:' "$out" |
      sed 's/.*: *\([0-9]*\).*/\1/' | awk '{s += $1} END {print s + 0}')
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  [ -n "$p" ] || failed=$((failed + 1))
  rm -f "$out"
done
# The fuzzers, 60 seconds each over their committed corpora (fuzz/README.md).
echo "== fuzz: 60 s each over fuzz/corpus*"
if sh fuzz/check.sh 60; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
