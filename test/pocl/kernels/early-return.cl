// Expected: f[0] == n after one work-group of 16 work-items with n = 14
// (each i < n counts itself once). The `return` is never taken: left is
// zeroed and never set. PoCL 3.1 (Debian 12, LLVM 15, pthread device):
// f[0] is 0 when built optimised, 14 with -cl-opt-disable; removing the
// two lines of the return makes it right. gbar() stands for a barrier
// whose work-group leader does atomics on a global word between two
// work-group barriers.
struct ctx {
  global uint *state;
  local uint *left;
};
void gbar(private struct ctx *c) {
  global uint *top = c->state + 32;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    uint before = atomic_or(top, 0u) & 0x80000000u;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_add(top, 1u);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
kernel void k(global int *a, global int *b, global int *f, int n, int k,
              global uint *state) {
  local uint shared[3];
  struct ctx cv;
  private struct ctx *c = &cv;
  c->state = state;
  c->left = shared + 2;
  if (get_local_id(0) == 0)
    shared[2] = 0;
  int i = get_global_id(0);
  if (i < n)
    b[i] = a[(i + 7) % n];
  gbar(c);
  if (*c->left)
    return;
  if (i < n)
    atomic_add(&f[0], 1);
  if (i == 0)
    f[1] = 0;
  gbar(c);
}
