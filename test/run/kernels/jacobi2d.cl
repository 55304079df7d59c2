// Run-test input: a 2-D Jacobi sweep of the 5-point heat stencil over a
// w x h grid, written in grid-stride style in both dimensions, with one
// global barrier per step (the sweep reads one buffer and writes the other,
// which swap roles every step). The edge stays fixed. The arithmetic wraps
// (unsigned, coefficient 1), so a stale read of any neighbour changes the
// result instead of being smoothed away, and the CPU reference is exact.
// Ids are counted from the launch's global offset, so any offset works.

// The new value of interior point (x, y) of src.
uint heat(global const uint *src, size_t x, size_t y, uint w) {
  size_t i = y * w + x;
  return src[i] + src[i - 1] + src[i + 1] + src[i - w] + src[i + w] -
         4u * src[i];
}

kernel void jacobi2d(global uint *a, global uint *b, uint w, uint h,
                     uint steps) {
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2u ? b : a, *dst = t % 2u ? a : b;
    for (size_t y = get_global_id(1) - get_global_offset(1); y < h;
         y += get_global_size(1))
      for (size_t x = get_global_id(0) - get_global_offset(0); x < w;
           x += get_global_size(0))
        dst[y * w + x] = x == 0 || y == 0 || x == w - 1 || y == h - 1
                             ? src[y * w + x]
                             : heat(src, x, y, w);
    global_barrier();
  }
}
