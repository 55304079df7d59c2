// Prepended to a tree-barrier output by tree-leaves.test: the two-level
// path with leaves of two groups.
#define GSYNC_TREE_FLAT_MAX 1u
#define GSYNC_TREE_LEAF 2u
