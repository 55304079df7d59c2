#!/bin/sh
# Sets up and runs the whole test suite: a plain build with warnings as
# errors, then a build under AddressSanitizer + UndefinedBehaviorSanitizer
# (a test that runs no OpenCL runs in only one of them; see below);
# then the three fuzzers side by side for 20 seconds (fuzz/check.sh
# SECONDS runs them longer). lit starts the tests that took longest first, from
# test/.lit_test_times.txt (a run's own times once it has one), so that the
# long ones overlap with the rest on a machine of two cores. Ends with one line
# "N passed, N failed" counting the four steps (the two suites, the check
# that they ran every test between them, and the fuzzers), each judged by
# its exit status.
set -u
cd "$(dirname "$0")/.."
lit=/usr/lib/llvm-14/build/utils/lit/lit.py
sh scripts/setup.sh build -DGSYNC_WERROR=ON || exit 1
# The sanitizer build leaves out the benchmarks: no test runs them, and
# the plain build compiles them with warnings as errors.
sh scripts/setup.sh build-asan -DGSYNC_WERROR=ON -DGSYNC_SANITIZE=ON -DGSYNC_BENCH=OFF || exit 1

# Each step passes or fails by its exit status (lit's is nonzero when any
# test failed, timed out or was unresolved); lit prints its own counts.
passed=0
failed=0
step() {
  if "$@"; then
    passed=$((passed + 1))
  else
    echo "== failed: $*"
    failed=$((failed + 1))
  fi
}
# A test may take up to 600 s (PoCL compiling the differential tests'
# kernels optimised, under the sanitizers, beside another test); a hang
# still fails.
# The plain build runs first, less the tests that run no OpenCL and that
# the sanitizer build runs alike (test/lit.cfg.py, sanitizer-build-follows):
# those check the same in both builds, both optimised, and run once, under
# the sanitizers. The tests that run OpenCL run in both: PoCL compiles
# their kernels here, about twice as fast as under the sanitizer's
# allocator, and the sanitizer build finds them in PoCL's kernel cache.
# test/utils/suites-cover.py then checks that every test ran in one of them.
echo "== tests: build (less what build-asan runs alike without OpenCL)"
step /usr/bin/python3 "$lit" -sv --timeout 600 -o build/test/check.json \
  --param sanitizer-build-follows=1 build/test
echo "== tests: build-asan"
step env UBSAN_OPTIONS=print_stacktrace=1 /usr/bin/python3 "$lit" -sv \
  --timeout 600 -o build-asan/test/check.json build-asan/test
echo "== every test in one of the two"
/usr/bin/python3 "$lit" --show-tests build/test > build/test/all-tests.txt
step /usr/bin/python3 test/utils/suites-cover.py build/test/all-tests.txt \
  build/test/check.json build-asan/test/check.json
# The fuzzers, 20 seconds side by side over their committed corpora (each
# has a share of the two cores, some 13 s of one; fuzz/README.md):
# a smoke run; campaigns of hours are fuzz/check.sh with a longer time.
echo "== fuzz: 20 s, side by side, over fuzz/corpus*"
step sh fuzz/check.sh 20
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
