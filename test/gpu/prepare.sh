#!/bin/sh
# test/gpu/prepare.sh: run on YOUR machine (it has libclang), in the project
# root, after `cmake --build build`. The GPU machine has no libclang, so this
# rewrites every run-test kernel (and the benchmark and stress kernels) for
# every barrier, with and without discovery, into build/gpu-kernels/, and
# copies the shared libraries the GPU machine may lack into build/gpu-lib/.
# Then carry ".gpu" and "build" to the device and run test/gpu/run.sh there.
#
#   RULES_DIR=DIR   extra rule files (default: rewrite-rules, so rules added
#                   since the last build are used too)
#   BARRIERS="..."  barriers to rewrite for (default: all that --list-barriers
#                   shows, the default first, plus the test-only noop and
#                   local, for the teeth); written to build/gpu-kernels/
#                   BARRIERS, the default to DEFAULT, for the GPU scripts
set -e
root=$(pwd)
tool=$root/build/tool/gsync-rewrite
out=$root/build/gpu-kernels
rules=${RULES_DIR:-$root/rewrite-rules}
[ -x "$tool" ] || { echo "prepare.sh: build first: $tool missing" >&2; exit 1; }
# noop comes from test/rules; the others from rewrite-rules (+ built-ins).
# The default first: the GPU scripts take this order (test/gpu/barriers.sh).
. "$root/test/gpu/barriers.sh"
all=$(gpu_list_barriers "$tool" "$rules")
default=$(gpu_list_default "$tool" "$rules")
barriers=${BARRIERS:-$all noop local}
rm -rf "$out" && mkdir -p "$out" "$root/build/gpu-lib"
# A rules dir that holds both the project's rules and the test-only noop.
tmp_rules=$root/build/gpu-rules
rm -rf "$tmp_rules" && mkdir -p "$tmp_rules"
cp "$rules"/*.cl "$tmp_rules"/
cp "$root"/test/rules/*.cl "$tmp_rules"/
# uneven.cl calls global_barrier() where not every group does, on purpose
# (the spin-limit tests on PoCL); the tool rightly refuses it here. slow.cl
# needs -DSLOW_MS (test/run/spin-time.test).
inputs=$(ls "$root"/test/run/kernels/*.cl | grep -v -e '/uneven\.cl$' -e '/slow\.cl$')
for extra in "$root"/bench/kernels/*.cl; do
  [ -f "$extra" ] && inputs="$inputs $extra"
done
n=0
for b in $barriers; do
  for k in $inputs; do
    gpu_rule_fits "$k" "$b" "$tmp_rules" || continue
    base=$(basename "$k" .cl)
    std=
    # A rule that asks for OpenCL C 2.0 or later is built as 3.0 (NVIDIA
    # offers 3.0 without 2.0's optional features; PoCL both).
    if gpu_rule_needs_cl2 "$b" "$tmp_rules"; then std=-cl-std=CL3.0; fi
    # atomics.cl is OpenCL C 3.0 (C11 atomics; test/gpu/opencl-c.sh).
    case $base in atomics) std=-cl-std=CL3.0 ;; esac
    "$tool" --rules-dir="$tmp_rules" --barrier="$b" $std "$k" \
      -o "$out/$base.$b.cl" --constraints "$out/$base.$b.json"
    "$tool" --rules-dir="$tmp_rules" --barrier="$b" $std --no-discovery "$k" \
      -o "$out/$base.$b.nd.cl" --constraints "$out/$base.$b.nd.json"
    n=$((n + 2))
  done
done
# Every discovery protocol by name, for the kernels the bench uses too.
for d in "$rules"/discovery-*.cl; do
  name=$(basename "$d" .cl | sed 's/^discovery-//')
  [ "$name" = none ] && continue
  for b in $barriers; do
    case $b in noop|local) continue ;; esac
    if gpu_rule_needs_cl2 "$b" "$tmp_rules"; then continue; fi
    for k in $inputs; do
      gpu_rule_fits "$k" "$b" "$tmp_rules" || continue
      base=$(basename "$k" .cl)
      std=
      case $base in atomics) std=-cl-std=CL3.0 ;; esac
      "$tool" --rules-dir="$tmp_rules" --barrier="$b" --discovery="$name" $std "$k" \
        -o "$out/$base.$b.d-$name.cl" --constraints "$out/$base.$b.d-$name.json"
      n=$((n + 1))
    done
  done
done
# The applications (apps/app.c): BFS and heat, with discovery, for the
# default barrier ("default") and each named one.
mkdir -p "$out/app"
for b in default $barriers; do
  case $b in noop|local) continue ;; esac
  opt=--barrier=$b
  [ "$b" = default ] && opt=
  if gpu_rule_needs_cl2 "$b" "$tmp_rules"; then opt="$opt -cl-std=CL3.0"; fi
  for k in "$root/apps/app/bfs.cl" "$root/examples/heat.cl"; do
    base=$(basename "$k" .cl)
    "$tool" --rules-dir="$tmp_rules" $opt "$k" \
      -o "$out/app/$base.$b.cl" --constraints "$out/app/$base.$b.json"
    n=$((n + 1))
  done
done
# The graph applications (apps/graph.c, bench/run-graph.sh): every kernel
# of apps/graph/ with discovery, for the default barrier and each named one.
mkdir -p "$out/graph"
for b in default $barriers; do
  [ "$b" = noop ] && continue
  opt=--barrier=$b
  [ "$b" = default ] && opt=
  if gpu_rule_needs_cl2 "$b" "$tmp_rules"; then opt="$opt -cl-std=CL3.0"; fi
  for k in "$root"/apps/graph/*.cl; do
    base=$(basename "$k" .cl)
    "$tool" --rules-dir="$tmp_rules" $opt "$k" \
      -o "$out/graph/$base.$b.cl" --constraints "$out/graph/$base.$b.json"
    n=$((n + 1))
  done
done
# libgsync-misuse's inputs for test/gpu/harden.sh, made as
# test/run/misuse.test makes them.
rm -rf "$out/misuse"
sh "$root/test/run/misuse-inputs.sh" "$tool" "$out/misuse" || exit 1
# The late jumps' table and the shapes the tool warns about, rewritten
# (test/pocl/gen-late-jumps.py; test/gpu/all.sh runs them).
for w in late-jumps late-warned; do
  rm -rf "$out/$w"
  python3 "$root/test/pocl/gen-late-jumps.py" --tool "$tool" --prepare \
    --host none --work "$out/$w" $([ $w = late-warned ] && echo --warned) ||
    exit 1
done
echo $barriers > "$out/BARRIERS"
echo "$default" > "$out/DEFAULT"
for lib in libjson-c.so.5; do
  p=$(ldconfig -p | awk -v l="$lib" '$1==l && /x86-64/{print $NF; exit}')
  [ -n "$p" ] && cp -L "$p" "$root/build/gpu-lib/"
done
echo "prepare.sh: $n rewritten kernels in build/gpu-kernels (barriers: $(cat "$out/BARRIERS"))"
