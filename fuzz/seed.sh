#!/bin/sh
# Writes a seed corpus for rewrite-fuzzer into DIR: every .cl file of test/
# and rewrite-rules/, each behind an options byte (see rewrite-fuzzer.c),
# the bytes cycling so that every barrier and discovery rule is seeded;
# then small versions of the generated scale inputs (deep macros, a deep
# expression, a long call chain) that fit the 8 KiB the fuzzer allows.
# usage: sh fuzz/seed.sh DIR
set -eu
cd "$(dirname "$0")/.."
dir=${1:?usage: seed.sh DIR}
mkdir -p "$dir"
i=0
for f in $(find test rewrite-rules -name '*.cl' | sort); do
  sel=$(( (i * 37) % 256 ))
  { printf "\\$(printf %03o "$sel")"; cat "$f"; } > "$dir/seed-$i"
  i=$((i + 1))
done
gen() { # NAME COMMAND...: one more seed from a generator's output
  name=$1
  shift
  { printf '\000'; "$@"; } > "$dir/seed-$name"
  i=$((i + 1))
}
gen macros python3 test/scale/gen-deep.py macros 150
gen calls python3 test/scale/gen-deep.py calls 120
gen expression python3 -c "print('kernel void k(global int *a) {\n  a[0] = 0' \
  + ' + 1' * 1900 + ';\n  global_barrier();\n}')"
echo "seed.sh: $i seeds in $dir"
