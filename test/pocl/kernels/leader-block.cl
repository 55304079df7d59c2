// Expected: f[0] == the number of a[i] > 100 (counted once, by local id 0).
// PoCL 3.1 (Debian, LLVM 15, pthread device, default kernel compiler
// options) with one work-group of 8: f[0] is 8 times that; with
// -cl-opt-disable it is right.
static void wait_all(global uint *w, uint n) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    uint before = atomic_or(w, 0u);
    if (atomic_or(w, 0u) == before)
      for (uint j = 0; j < n; j++)
        atomic_or(w, 0u);
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

static int count(global const int *a, global int *f, local int *lb, int n,
                 global uint *w) {
  lb[get_local_id(0)] = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    if (a[i] > 100)
      lb[get_local_id(0)] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    int s = 0;
    for (int j = 0; j < get_local_size(0); j++)
      s += lb[j];
    atomic_add(&f[0], s);
  }
  if (get_global_id(0) == 0)
    f[1] = 0;
  wait_all(w, get_num_groups(0));
  return f[0];
}

kernel void k(global const int *a, global int *b, global int *f, int n,
              int k, global uint *w) {
  local int lb[64];
  if (get_group_id(0) == 0 && get_local_id(0) == 0)
    w[5] = get_num_groups(0);
  if (k % 2 == 0) {
    int v = count(a, f, lb, n, w + 16);
    if (v > 28)
      b[0] = v;
  }
}
