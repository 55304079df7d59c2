// examples/halo.cl with its barrier split (docs/split.md): an element whose
// two neighbours belong to the same work-group (the interior: all but the
// elements at the ends of each group's stride) needs only what its own
// group wrote in the step before, which global_barrier_arrive() makes
// visible within the group; it is computed between the arrive and the wait,
// while the other groups arrive. The halo, the elements whose neighbours
// another group wrote, waits for global_barrier_wait(). The interior writes
// only elements that no other group reads in the steps either side, as the
// rule of docs/split.md asks. The same results as halo.cl.
/* Whether element i, one this work-item owns (the grid-stride loop gives
 * it the elements i with i % get_global_size(0) its global id), has both
 * neighbours in its own work-group: it is at neither end of the group's
 * run of ids, nor at the ring's seam. */
int interior(uint i, uint n) {
  size_t l = get_local_id(0);
  return l != 0 && l != get_local_size(0) - 1 && i != 0 && i != n - 1;
}

kernel void halo(global uint *a, global uint *b, uint n, uint steps) {
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2 ? b : a, *dst = t % 2 ? a : b;
    global_barrier_arrive();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      if (interior(i, n))
        dst[i] = src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
    global_barrier_wait();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      if (!interior(i, n))
        dst[i] = src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
  }
}
