// Run-test input: a 3-D 7-point stencil over a w x h x d grid, in
// grid-stride style in all three dimensions, one global barrier per step
// between two buffers that swap roles; the faces stay fixed. As in
// jacobi2d.cl the arithmetic wraps, so a stale read changes the result,
// and ids are counted from the launch's global offset.
#define AT(x, y, z) (((z) * h + (y)) * w + (x))

kernel void stencil3d(global uint *a, global uint *b, uint w, uint h, uint d,
                      uint steps) {
  for (uint t = 0; t < steps; t++) {
    global uint *src = t % 2u ? b : a, *dst = t % 2u ? a : b;
    for (size_t z = get_global_id(2) - get_global_offset(2); z < d;
         z += get_global_size(2))
      for (size_t y = get_global_id(1) - get_global_offset(1); y < h;
           y += get_global_size(1))
        for (size_t x = get_global_id(0) - get_global_offset(0); x < w;
             x += get_global_size(0)) {
          uint c = src[AT(x, y, z)];
          if (x == 0 || y == 0 || z == 0 || x == w - 1 || y == h - 1 ||
              z == d - 1)
            dst[AT(x, y, z)] = c;
          else
            dst[AT(x, y, z)] = c + src[AT(x - 1, y, z)] + src[AT(x + 1, y, z)] +
                               src[AT(x, y - 1, z)] + src[AT(x, y + 1, z)] +
                               src[AT(x, y, z - 1)] + src[AT(x, y, z + 1)] -
                               6u * c;
        }
    global_barrier();
  }
}
