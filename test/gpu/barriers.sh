# test/gpu/barriers.sh: sourced (bash) by the GPU scripts, so that none of
# them keeps a list of barriers of its own: a rule added to rewrite-rules/
# is measured and tested with the others, and the default runs first.
#
# Where the tool is (prepare steps, here):
#   gpu_list_barriers TOOL [RULES_DIR]  the barriers `TOOL --list-barriers`
#                        shows, the default first, then the others in its
#                        order
#   gpu_list_default TOOL [RULES_DIR]   the default barrier alone
#   gpu_rule_needs_cl2 B [RULES_DIR]    true if barrier B's rule asks for
#                        OpenCL C 2.0 or later (`@opencl-c`), which NVIDIA's
#                        OpenCL (C 1.2) cannot build
#   gpu_rule_fits KERNEL B [RULES_DIR]  false if KERNEL calls the split
#                        barrier's halves and barrier B's rule has no
#                        `@split` (the tool refuses that rewrite)
# On the GPU machine (no libclang, so no tool), from what test/gpu/prepare.sh
# wrote into $K (default build/gpu-kernels): BARRIERS (its barriers, in
# gpu_list_barriers' order unless BARRIERS named others, then noop and
# local, the test-only ones) and DEFAULT:
#   gpu_barriers         the barriers prepare.sh rewrote, without noop and
#                        local
#   gpu_default_barrier  the default barrier
#   gpu_needs_cl2 B      true if B's rewritten kernels require OpenCL C 2.0
#                        or later (their constraints file says so)
#   gpu_barriers_cl12    gpu_barriers less those
#   gpu_discoveries      the discovery protocols prepare.sh rewrote the
#                        default barrier's kernels with (NAME of
#                        KERNEL.DEFAULT.d-NAME)

gpu_list_barriers() {
  local rules=${2:+--rules-dir=$2} list
  list=$("$1" $rules --list-barriers | awk '/^discovery/{exit} NR>1')
  echo $(echo "$list" | awk '/\(default\)$/{print $1}') \
    $(echo "$list" | awk '!/\(default\)$/{print $1}')
}

gpu_list_default() {
  local rules=${2:+--rules-dir=$2}
  "$1" $rules --list-barriers | awk '/^discovery/{exit} NR>1 && /\(default\)$/{print $1}'
}

gpu_rule_needs_cl2() {
  local f=${2:-$(pwd)/rewrite-rules}/barrier-$1.cl
  [ -f "$f" ] && grep -qE '@opencl-c +([2-9]|[1-9][0-9])' "$f"
}

gpu_rule_fits() {
  local f=${3:-$(pwd)/rewrite-rules}/barrier-$2.cl
  ! grep -q 'global_barrier_arrive' "$1" || grep -q '@split' "$f"
}

gpu_kernels_dir() { echo "${K:-$(pwd)/build/gpu-kernels}"; }

gpu_barriers() {
  local k
  k=$(gpu_kernels_dir)
  [ -f "$k/BARRIERS" ] || { echo "test/gpu/barriers.sh: no $k/BARRIERS: run test/gpu/prepare.sh first" >&2; return 1; }
  echo $(tr ' ' '\n' < "$k/BARRIERS" | grep -vxE 'noop|local')
}

gpu_default_barrier() {
  local k
  k=$(gpu_kernels_dir)
  [ -f "$k/DEFAULT" ] || { echo "test/gpu/barriers.sh: no $k/DEFAULT: run test/gpu/prepare.sh first" >&2; return 1; }
  cat "$k/DEFAULT"
}

gpu_needs_cl2() {
  grep -qE '"opencl_c_version": "([2-9]|[1-9][0-9])' "$(gpu_kernels_dir)/stencil.$1.nd.json" 2>/dev/null
}

gpu_barriers_cl12() {
  local b out=""
  for b in $(gpu_barriers); do
    gpu_needs_cl2 "$b" || out="$out $b"
  done
  echo $out
}

gpu_discoveries() {
  local k d f out=""
  k=$(gpu_kernels_dir)
  d=$(gpu_default_barrier) || return 1
  for f in "$k"/loop."$d".d-*.cl; do
    [ -f "$f" ] || continue
    f=${f##*/loop."$d".d-}
    out="$out ${f%.cl}"
  done
  echo $out
}
