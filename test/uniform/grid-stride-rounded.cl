// A grid-stride loop whose bound is rounded up to a multiple of the stride
// runs the same number of times in every work-item (ceil(n / T) times, for
// ids 0..T-1), so a barrier inside it is uniform. Proved for the global,
// local and group ids with their sizes, written out or through variables
// that nothing else assigns.
// RUN: %gsync %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// Variants that are not uniform stay errors: grid-stride-rounded-errors.cl.
kernel void direct(global uint *a, uint n) {
  for (uint i = get_global_id(0);
       i < (n + get_global_size(0) - 1) / get_global_size(0) * get_global_size(0);
       i += get_global_size(0)) {
    if (i < n)
      a[i] += 1;
    global_barrier();
    if (i < n)
      a[i] *= 2;
  }
}
kernel void variables(global uint *a, uint n) {
  uint T = get_global_size(0);
  uint tid = get_global_id(0);
  uint up = (n + T - 1) / T * T;
  for (uint i = tid; i < up; i += T) {
    if (i < n)
      a[i] += 1;
    global_barrier();
  }
}
kernel void assigned_index(global uint *a, uint n) {
  size_t T = get_global_size(0), up = T * ((n + T - 1) / T), i;
  for (i = get_global_id(0); i < up; i = i + T) {
    if (i < n)
      a[i] += 1;
    global_barrier();
  }
}
kernel void groups(global uint *a, uint n) {
  uint g = get_num_groups(0);
  uint rounds = (n + g - 1) / g;
  for (uint b = get_group_id(0); b < rounds * g; b += g) {
    if (b < n && get_local_id(0) == 0)
      a[b] += 1;
    global_barrier();
  }
}
