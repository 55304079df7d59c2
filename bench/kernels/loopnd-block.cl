// Benchmark input: loopnd.cl's launch and work with each work-group's
// elements in one block. The same ITERS phases of one increment per
// element of w x h x d elements, each followed by a global barrier, but
// work-item l of group g (linear ids, dimension 0 fastest) takes elements
// g * items + l, then a whole grid further on: a warp's items touch
// consecutive words, as in a 1-D launch, whatever the group's shape.
// gsync-bench time-nd times it like loopnd.cl (test/gpu/nd.sh): against
// loopnd.cl with the same launch, it separates what the element layout of
// a row-wise N-D loop costs from what the N-D launch and its virtual ids
// cost (docs/nd.md).
kernel void loopnd(global uint *data, uint w, uint h, uint d, uint iters) {
  uint items = get_local_size(0) * get_local_size(1) * get_local_size(2);
  uint l = (get_local_id(2) * get_local_size(1) + get_local_id(1)) *
               get_local_size(0) +
           get_local_id(0);
  uint g = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) *
               get_num_groups(0) +
           get_group_id(0);
  uint groups = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
  uint n = w * h * d;
  for (uint it = 0; it < iters; it++) {
    for (uint i = g * items + l; i < n; i += groups * items)
      data[i] += 1u;
    global_barrier();
  }
}
