// examples/halo.cl with its barrier split (docs/split.md): an element whose
// two neighbours belong to the same work-group (the interior: all but the
// elements of the work-items at the ends of each group) needs only what its
// own group wrote in the step before, which global_barrier_arrive() makes
// visible within the group; it is computed between the arrive and the wait,
// while the other groups arrive. The halo, the elements whose neighbours
// another group wrote, waits for global_barrier_wait(), and only the two
// work-items at the ends of each group (and the seam's) work after it: the
// others go straight on to the next step's arrival. The interior writes
// only elements that no other group reads in the steps either side, as the
// rule of docs/split.md asks. The same results as halo.cl.
/* The three-point sum of element i of src, on the ring of n. */
uint sum3(global const uint *src, uint i, uint n) {
  return src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
}

kernel void halo(global uint *a, global uint *b, uint n, uint steps) {
  // The work-items at the ends of their group hold the halo: their
  // elements have a neighbour that another group's work-item writes. So
  // does the ring's seam: element 0 (work-item 0, an end) and n - 1 (its
  // work-item's neighbour is element 0). Every other work-item's elements
  // are interior, and only the ends work after the wait.
  size_t l = get_local_id(0);
  int end = l == 0 || l == get_local_size(0) - 1;
  int seam = (n - 1) % get_global_size(0) == get_global_id(0);
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2 ? b : a, *dst = t % 2 ? a : b;
    global_barrier_arrive();
    if (!end)
      for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        if (i != n - 1)
          dst[i] = sum3(src, i, n);
    global_barrier_wait();
    if (end)
      for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        dst[i] = sum3(src, i, n);
    else if (seam)
      dst[n - 1] = sum3(src, n - 1, n);
  }
}
