// A kernel that keeps "am I the group's first work-item" in a variable
// above its barriers, as people write to test it once: count() is a static
// helper that counts the nonzero elements into local memory, has the first
// work-item add the group's sum to f[r % 3] and clears the next slot
// before the barrier (gen.py's scheme); the kernel does the same with the
// odd elements after it. Built optimised by PoCL 3.1, the rewritten kernel
// with discovery lost the second sum (docs/pocl.md, section 6:
// entry-exit.cl).
static int count(global int *a, global int *b, global int *f, local int *lb,
                 int n, int first, int r) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    a[i] = a[i] >> 1;
    b[i] = a[i];
  }
  lb[get_local_id(0)] = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    if (a[i] != 0)
      lb[get_local_id(0)] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (first) {
    int s = 0;
    for (int j = 0; j < get_local_size(0); j++)
      s += lb[j];
    atomic_add(&f[r % 3], s);
  }
  if (get_global_id(0) == 0)
    f[(r + 1) % 3] = 0;
  global_barrier();
  return f[r % 3];
}

kernel void k(global int *a, global int *b, global int *f, int n, int k) {
  local int lb[64];
  int first = get_local_id(0) == 0;
  count(a, b, f, lb, n, first, 0);
  lb[get_local_id(0)] = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    if (a[i] & 1)
      lb[get_local_id(0)] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (first) {
    int s = 0;
    for (int j = 0; j < get_local_size(0); j++)
      s += lb[j];
    atomic_add(&f[1], s);
  }
  if (get_global_id(0) == 0)
    f[2] = 0;
  global_barrier();
}
