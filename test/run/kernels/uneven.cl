// Run-test input: the stencil of stencil.cl, except that only work-groups
// with an even id call global_barrier(). Rewritten with
// --no-uniformity-check, since the checker rightly refuses it. With one
// work-group taking part nothing is wrong and the result is the stencil's;
// with two or more, the even groups wait at the first barrier for the odd
// ones, which never come, until the spin limit aborts the launch.
kernel void uneven(global uint *a, global uint *b, uint n, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = a[i] + a[(i + 1) % n] + a[(i + 2) % n];
    if (get_group_id(0) % 2 == 0)
      global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      a[i] = b[i];
    if (get_group_id(0) % 2 == 0)
      global_barrier();
  }
}
