// Expected: f[0] == 9 after one work-group of 16 work-items with n = 10 and
// a[i] = (37 i) % 1000: halve() halves every a[i] and counts those still
// nonzero, and the loop goes round until none is (the largest, 333, takes
// 9 rounds). running() is always true: left is zeroed and never set.
// PoCL 3.1 (Debian 12, LLVM 15, pthread device): f[0] is 1 when built
// optimised, 9 with -cl-opt-disable. Right when built optimised: the same
// loop as `for (;;)`, with or without `if (!running(c)) break;` as the
// last statement of its body; and the same kernel with gbar()'s leader
// block removed, or reduced to the one atomic_add.
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
int running(private struct ctx *c) { return !*c->left; }
int halve(global int *a, global int *f, int n, private int *e,
          private struct ctx *c) {
  int i = get_global_id(0);
  if (i < n)
    a[i] = a[i] >> 1;
  if (i < n && a[i] != 0)
    atomic_add(&f[1 + *e % 2], 1);
  if (i == 0)
    f[1 + (*e + 1) % 2] = 0;
  gbar(c);
  int v = f[1 + *e % 2];
  (*e)++;
  return v;
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
  barrier(CLK_LOCAL_MEM_FENCE);
  int ev = 0;
  private int *e = &ev;
  for (; running(c);) {
    int g = halve(a, f, n, e, c);
    if (!g)
      break;
  }
  if (get_global_id(0) == 0)
    f[0] = ev;
}
