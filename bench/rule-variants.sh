# bench/rule-variants.sh: sourced (bash) by the bench scripts that time
# candidate builds of a shipped rule beside it (bench/floor.sh,
# bench/skew.sh, bench/disc.sh). A variant is the rule with macros defined
# ahead of its code, so the rule's own #ifndef defaults leave them alone:
#   VARIANTS="NAME:MACRO=VALUE[,MACRO=VALUE...] ..."
# e.g. for rewrite-rules/barrier-tree.cl
#   TREE_VARIANTS="acq4:GSYNC_TREE_ACQ_POLLS=4u"
# makes the barrier rule tree-acq4.
#
#   rule_variant_names BASE "$VARIANTS"          BASE-NAME ... (rule names)
#   rule_variants_write ROOT FILE DIR "$VARIANTS" writes DIR/FILE-NAME.cl for
#       each, FILE a rule file's stem in ROOT/rewrite-rules
#       (barrier-tree, discovery-lockfree)
rule_variant_names() {
  local v
  for v in $2; do printf '%s-%s ' "$1" "${v%%:*}"; done
}
rule_variants_write() {
  local rule=$1/rewrite-rules/$2.cl stem=$2 dir=$3 v name defs d
  grep -q '^ \*/$' "$rule" ||
    { echo "rule-variants.sh: no end of the header comment in $rule" >&2; return 1; }
  for v in $4; do
    name=${v%%:*} defs=
    for d in $(echo "${v#*:}" | tr , ' '); do
      defs="$defs\\n#define ${d%%=*} ${d#*=}"
    done
    # The header's first line names the rule; the defines go right after
    # the header comment (its first line that is " */").
    sed -e "1s|^/\* $stem:|/* $stem-$name: $stem with ${v#*:} (bench/rule-variants.sh);|" \
        -e "0,/^ \*\/\$/s|^ \*/\$| */$defs|" \
        "$rule" > "$dir/$stem-$name.cl" || return 1
  done
}
