#!/bin/sh
# Sets up, then rewrites the bundled example (examples/heat.cl) and runs it
# on the first OpenCL device (PoCL on a machine without a GPU).
set -eu
cd "$(dirname "$0")/.."
sh scripts/setup.sh
echo
echo "$ build/tool/gsync-rewrite examples/heat.cl -o build/heat.out.cl --constraints build/heat.json"
build/tool/gsync-rewrite examples/heat.cl -o build/heat.out.cl --constraints build/heat.json
sed -n '1,6p' build/heat.out.cl
echo
echo "$ build/examples/heat_host build/heat.out.cl build/heat.json 256 64"
timeout 300 build/examples/heat_host build/heat.out.cl build/heat.json 256 64
