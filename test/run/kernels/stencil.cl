// Run-test input: a 3-point stencil over a ring, iterated with a global
// barrier between the read phase and the write phase of every iteration.
// Started from all ones, every element equals 3^iters (mod 2^32) at the end;
// a missing or broken barrier lets a work-group read a neighbour that another
// group has already advanced, and the elements stop being equal.
kernel void stencil(global uint *a, global uint *b, uint n, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = a[i] + a[(i + 1) % n] + a[(i + 2) % n];
    global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      a[i] = b[i];
    global_barrier();
  }
}
