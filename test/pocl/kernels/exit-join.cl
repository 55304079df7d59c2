// Expected: f[0] == 1 after one work-group of 1x2x4 work-items with k = 2:
// only the work-item whose linear id is 0 adds. Neither `return` is taken.
// PoCL 3.1 (Debian 12, LLVM 15, pthread device): f[0] is 2 built optimised
// and with -cl-opt-disable alike, with any local size of 1 along dimension
// 0 (1x2x4, 1x8x1, 1x1x8, 1x4x1); right with 2x2x2 or 8x1x1, right without
// either return, and right with anything that cannot be moved (a volatile
// store) before the kernel's closing brace. The two returns and the end of
// the kernel meet in one block that the barrier does not dominate: the
// join tail replication copies once for every edge into it, and the
// `if (i == 0)` block runs twice. Seed 1157 of the differential test,
// reduced; with global_barrier() for the barrier, the tool's output is
// right (its anchor at the end of the kernel is such a store).
kernel void k(global int *a, global int *b, global int *f, int n, int k,
              global uint *state) {
  if (k == 0)
    return;
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (k == 1)
    return;
  size_t i = get_global_id(0) +
             get_global_size(0) *
                 (get_global_id(1) + get_global_size(1) * get_global_id(2));
  if (i == 0)
    f[0] += 1;
}
