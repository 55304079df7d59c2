// Benchmark input: bench/kernels/loop.cl with its element reached through
// a volatile pointer, so that every load and store goes to the device's
// coherent level (on NVIDIA: L2, never L1) whatever barrier is used.
// bench/floor.sh times it (FLOOR_KERNEL=loop-l2) to tell what a barrier's
// acquire costs itself from the L1 hits it takes away from the loop.
kernel void loop(global uint *data, uint n, uint iters) {
  volatile global uint *d = data;
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      d[i] += 1u;
    global_barrier();
  }
}
