// Grid-stride kernels get no warning: a for loop stepping by the global
// size, written out or held in a variable; a while loop that steps; tiles
// of the global size (base += T, then base + id); a share of the data per
// work-item computed from the size; a slot per group read back by
// get_num_groups; ids used only in conditions; local memory.
// RUN: %gsync %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
kernel void k(global float *a, global float *b, global float *partial,
              local float *scratch, uint n, uint steps) {
  uint gid = get_global_id(0), gsz = get_global_size(0);
  if (get_global_id(0) == 0)
    a[0] = 1.0f;
  for (uint t = 0; t < steps; t++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = 0.5f * (a[(i + n - 1) % n] + a[(i + 1) % n]);
    global_barrier();
    for (uint i = gid; i < n; i += gsz)
      a[i] = b[i];
    global_barrier();
  }
  uint i = gid;
  while (i < n) {
    b[i] += 1.0f;
    i = i + gsz;
  }
  for (uint base = 0; base < n; base += gsz) {
    uint v = base + gid;
    if (v < n)
      a[v] *= 2.0f;
  }
  uint share = (n + gsz - 1) / gsz;
  for (uint e = gid * share; e < gid * share + share && e < n; e++)
    b[e] -= 1.0f;
  scratch[get_local_id(0)] = 0.0f;
  float sum = 0.0f;
  for (uint j = gid; j < n; j += gsz)
    sum += a[j];
  if (get_local_id(0) == 0)
    partial[get_group_id(0)] = sum;
  global_barrier();
  if (gid == 0) {
    float total = 0.0f;
    for (uint g = 0; g < get_num_groups(0); g++)
      total += partial[g];
    b[0] = total;
  }
}
