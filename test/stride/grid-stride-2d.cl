// A 2-D grid-stride kernel gets no warning: each index is the variable of
// a loop that steps by the size of its dimension, also through a variable
// computed from both.
// RUN: %gsync %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
kernel void heat2d(global float *u, global float *v, uint w, uint h,
                   uint steps) {
  for (uint t = 0; t < steps; t++) {
    for (uint y = get_global_id(1); y < h; y += get_global_size(1))
      for (uint x = get_global_id(0); x < w; x += get_global_size(0)) {
        uint i = y * w + x;
        v[i] = x == 0 || y == 0 || x == w - 1 || y == h - 1
                   ? u[i]
                   : u[i] + 0.2f * (u[i - 1] + u[i + 1] + u[i - w] +
                                    u[i + w] - 4.0f * u[i]);
      }
    global_barrier();
    global float *swap = u;
    u = v;
    v = swap;
  }
}
