// A ring stencil with one global_barrier() per step: each step reads one
// buffer and writes the other (they swap roles), and the barrier keeps a
// step's reads behind the writes of the step before. Each work-group owns
// a contiguous block of the ring (its work-items stride through it), so
// only a block's two end elements need another group's values.
// examples/halo-split.cl is the same sweep with the barrier split;
// bench/split.sh times the two.

/* The three-point sum of element i of src, on the ring of n. */
uint sum3(global const uint *src, uint i, uint n) {
  return src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
}

kernel void halo(global uint *a, global uint *b, uint n, uint steps) {
  uint block = (n + get_num_groups(0) - 1) / get_num_groups(0);
  uint lo = min(n, (uint)get_group_id(0) * block), hi = min(n, lo + block);
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2 ? b : a, *dst = t % 2 ? a : b;
    for (uint i = lo + get_local_id(0); i < hi; i += get_local_size(0))
      dst[i] = sum3(src, i, n);
    global_barrier();
  }
}
