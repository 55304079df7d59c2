// The two phases of examples/heat.cl as two kernels, for the relaunch
// baseline: one launch per phase, two per time step.
kernel void heat_compute(global const float *u, global float *tmp, uint n,
                         float alpha) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    float left = u[(i + n - 1) % n], right = u[(i + 1) % n];
    tmp[i] = u[i] + alpha * (left - 2.0f * u[i] + right);
  }
}

kernel void heat_copy(global float *u, global const float *tmp, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    u[i] = tmp[i];
}
