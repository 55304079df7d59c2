// 1-D heat diffusion on a ring, many time steps in ONE kernel launch.
// global_barrier() separates the steps: every work-group must finish
// reading step t before any group overwrites the grid for step t+1.
// The loops are grid-stride, so the kernel is correct for any number of
// work-groups that take part.
kernel void heat(global float *u, global float *tmp, uint n, uint steps,
                 float alpha) {
  for (uint t = 0; t < steps; t++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
      float left = u[(i + n - 1) % n], right = u[(i + 1) % n];
      tmp[i] = u[i] + alpha * (left - 2.0f * u[i] + right);
    }
    global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      u[i] = tmp[i];
    global_barrier();
  }
}
