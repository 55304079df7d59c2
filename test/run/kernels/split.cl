// Run-test input for the split barrier: a 3-point ring stencil over
// m = n / 2 elements whose own term is worked out between
// global_barrier_arrive() and global_barrier_wait() (the interior: it reads
// only what this work-item wrote) and its neighbours' terms after the wait
// (the halo: what other work-groups wrote before they arrived). a holds two
// generations, a[0..m) and a[m..2m), read and written in turn; b[0..m) holds
// each element's own term, which only its own work-item touches. A wait
// that lets a group past before every group has arrived lets it read a
// neighbour that has not been written yet.
kernel void split(global uint *a, global uint *b, uint n, uint iters) {
  uint m = n / 2;
  for (uint it = 0; it < iters; it++) {
    global uint *src = a + (it % 2) * m, *dst = a + (1 - it % 2) * m;
    global_barrier_arrive();
    for (uint i = get_global_id(0); i < m; i += get_global_size(0))
      b[i] = 3u * src[i];
    global_barrier_wait();
    for (uint i = get_global_id(0); i < m; i += get_global_size(0))
      dst[i] = b[i] + src[(i + 1) % m] + src[(i + 2) % m];
  }
}
