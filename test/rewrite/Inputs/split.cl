// Shared input of the split-barrier golden tests: the own term of each
// element between global_barrier_arrive() and global_barrier_wait(), the
// neighbour's after.
kernel void halves(global uint *a, global uint *b, uint n) {
  global_barrier_arrive();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    b[i] = 3u * a[i];
  global_barrier_wait();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    b[i] += a[(i + 1) % n];
}
