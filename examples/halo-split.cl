// examples/halo.cl with its barrier split (docs/split.md). Each work-group
// owns a contiguous block of the ring. The interior of a block (all but
// its two end elements) needs only what its own group wrote in the step
// before, which global_barrier_arrive() makes visible within the group:
// it is computed between the arrive and the wait, while the other groups
// arrive. The block's two ends need a neighbouring block's values: they
// wait for global_barrier_wait(), and after it the first work-item
// computes the block's first element and the last work-item its last; the
// others go straight on to the next step's arrival. The interior writes
// only elements that no other group reads, as the rule of docs/split.md
// asks. The same results as halo.cl.

/* The three-point sum of element i of src, on the ring of n. */
uint sum3(global const uint *src, uint i, uint n) {
  return src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
}

kernel void halo(global uint *a, global uint *b, uint n, uint steps) {
  uint block = (n + get_num_groups(0) - 1) / get_num_groups(0);
  uint lo = min(n, (uint)get_group_id(0) * block), hi = min(n, lo + block);
  uint l = get_local_id(0), last = get_local_size(0) - 1;
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2 ? b : a, *dst = t % 2 ? a : b;
    global_barrier_arrive();
    for (uint i = lo + 1 + l; i + 1 < hi; i += get_local_size(0))
      dst[i] = sum3(src, i, n);
    global_barrier_wait();
    if (l == 0 && lo < hi)
      dst[lo] = sum3(src, lo, n);
    if (l == last && lo + 1 < hi)
      dst[hi - 1] = sum3(src, hi - 1, n);
  }
}
