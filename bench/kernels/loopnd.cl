// Benchmark input: loop.cl in up to three dimensions. ITERS phases, each a
// grid-stride increment of every element of a w x h x d array, in every
// dimension, followed by a global barrier; each element is incremented by
// one work-item per phase, whatever the launch's dimensions (1-D and 2-D
// launches see get_global_size(2) == 1 and pass d == 1). gsync-bench
// time-nd times it against loop.cl over the same w * h * d elements
// launched 1-D, and against this loop without its barrier, in the same run:
// the differences are what the virtual N-D ids and the barrier cost.
kernel void loopnd(global uint *data, uint w, uint h, uint d, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint z = get_global_id(2); z < d; z += get_global_size(2))
      for (uint y = get_global_id(1); y < h; y += get_global_size(1))
        for (uint x = get_global_id(0); x < w; x += get_global_size(0))
          data[(z * h + y) * w + x] += 1u;
    global_barrier();
  }
}
