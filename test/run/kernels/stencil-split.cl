// Run-test input: stencil.cl's kernel with its first barrier split into
// global_barrier_arrive() and global_barrier_wait(), and nothing between
// them. Same name, arguments and results as stencil.cl, and as many
// barriers (a pair completes one), so that the hosts written for stencil
// (gsync-run's stencil scenario, the watch test) check the pair as they
// check global_barrier(): its spin limit, its abort and its watch.
kernel void stencil(global uint *a, global uint *b, uint n, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = a[i] + a[(i + 1) % n] + a[(i + 2) % n];
    global_barrier_arrive();
    global_barrier_wait();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      a[i] = b[i];
    global_barrier();
  }
}
