#!/bin/sh
# Writes a seed corpus for constraints-fuzzer into DIR: the constraints the
# tool writes for the run tests' kernels under every barrier and discovery
# rule, each followed by a NUL byte and its output (the program source),
# then each alone; and the run tests' hand-made variants of such files.
# Needs a built tool: TOOL, or build/tool/gsync-rewrite.
# usage: sh fuzz/seed-constraints.sh DIR [TOOL]
set -eu
cd "$(dirname "$0")/.."
dir=${1:?usage: seed-constraints.sh DIR [TOOL]}
tool=${2:-build/tool/gsync-rewrite}
mkdir -p "$dir"
work=$(mktemp -d)
i=0
for k in test/run/kernels/stencil.cl test/run/kernels/helper.cl \
         test/cli/Inputs/k.cl; do
  for b in $("$tool" --list-barriers | sed -n '/^barriers/,/^discovery/s/^  \([^ ]*\).*/\1/p'); do
    for d in lockfree ticket none; do
      "$tool" --barrier="$b" --discovery="$d" "$k" -o "$work/o.cl" \
        --constraints "$work/o.json" 2>/dev/null || continue
      { cat "$work/o.json"; printf '\000'; cat "$work/o.cl"; } > "$dir/seed-$i"
      cp "$work/o.json" "$dir/seed-$i-json"
      i=$((i + 1))
    done
  done
done
rm -rf "$work"
echo "seed-constraints.sh: $((i * 2)) seeds in $dir"
