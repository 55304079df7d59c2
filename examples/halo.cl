// A ring stencil with one global_barrier() per step: each step reads one
// buffer and writes the other (they swap roles), and the barrier keeps a
// step's reads behind the writes of the step before. examples/halo-split.cl
// is the same sweep with the barrier split; bench/split.sh times the two.
kernel void halo(global uint *a, global uint *b, uint n, uint steps) {
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2 ? b : a, *dst = t % 2 ? a : b;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      dst[i] = src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
    global_barrier();
  }
}
