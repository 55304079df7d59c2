// Expected: f[0] == the number of a[i] > 100, i < n, after one work-group
// of 4x4 work-items with n = 15. PoCL 3.1 (Debian 12, LLVM 15, pthread
// device): f[0] is 3 built optimised (lb[] holds a 1 only for the last
// work-item of each row), 6 with 2x8 work-items, right with 8x2 or 16
// along one dimension, right with -cl-opt-disable, with a plain store in
// place of the atomic, with the linear id computed in a variable before
// the first barrier, or with get_local_id() read through a volatile. The
// first block stands for a barrier across work-groups, whose work-group
// leader does atomics (every rule's); the rest is a user's reduction.
int leader(void) {
  volatile size_t id = get_local_id(0) | get_local_id(1);
  return id == 0;
}

kernel void k(global int *a, global int *b, global int *f, int n, int k,
              global uint *state) {
  local uint shared[1];
  local int lb[64];
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (leader())
    shared[0] = atomic_add(&state[0], 1u);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  lb[get_local_id(0) + get_local_size(0) * get_local_id(1)] = 0;
  int i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  if (i < n && a[i] > 100)
    lb[get_local_id(0) + get_local_size(0) * get_local_id(1)] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) + get_local_size(0) * get_local_id(1) == 0) {
    int s = 0;
    for (int j = 0; j < get_local_size(0) * get_local_size(1); j++)
      s += lb[j];
    atomic_add(&f[0], s);
  }
}
