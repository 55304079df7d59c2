// Benchmark input: loop.cl in two dimensions. ITERS phases, each a
// grid-stride increment of every element of a w x h array, in both
// dimensions, followed by a global barrier. gsync-bench time-nd times it
// against loop.cl over the same w * h elements launched 1-D, in the same
// run: the difference is what the virtual 2-D ids cost.
kernel void loop2d(global uint *data, uint w, uint h, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint y = get_global_id(1); y < h; y += get_global_size(1))
      for (uint x = get_global_id(0); x < w; x += get_global_size(0))
        data[y * w + x] += 1u;
    global_barrier();
  }
}
