#!/bin/sh
# test/run/misuse-inputs.sh TOOL DIR: writes into DIR the files that
# libgsync-misuse reads (test/run/misuse.c says what each is), the one way
# they are made: test/run/misuse.test runs it, and test/gpu/prepare.sh for
# test/gpu/harden.sh on the GPU machine, which has no tool. A FIFO does not
# travel, so the caller makes DIR/fifo. PYTHON: the Python that edits
# nd.json into nd-old.json (default python3).
set -eu
tool=$1 dir=$2
here=$(dirname "$0")
mkdir -p "$dir"
"$tool" "$here/kernels/stencil.cl" -o "$dir/out.cl" --constraints "$dir/out.json"
"$tool" --no-discovery "$here/kernels/stencil.cl" -o "$dir/nd.cl" --constraints "$dir/nd.json"
# Constraints edited after the rewrite: nd.json without "params".
"${PYTHON:-python3}" -c "import json, sys; d = json.load(open(sys.argv[1])); [k.pop('params') for k in d['kernels']]; json.dump(d, open(sys.argv[2], 'w'))" "$dir/nd.json" "$dir/nd-old.json"
"$tool" --no-discovery "$here/Inputs/image.cl" -o "$dir/image.cl" --constraints "$dir/image.json"
"$tool" "$here/Inputs/reqd.cl" -o "$dir/reqd.cl" --constraints "$dir/reqd.json"
"$tool" --no-discovery "$here/Inputs/reqd.cl" -o "$dir/reqd-nd.cl" --constraints "$dir/reqd-nd.json"
