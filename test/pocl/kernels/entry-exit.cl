// Expected: f[0] == the number of odd a[i], i < n, after one work-group of
// 16 work-items with n = 100. The `return` after join() is never taken:
// join() admits every group below 1000. PoCL 3.1 (Debian 12, LLVM 15,
// pthread device): f[0] is 0 when built optimised, right with
// -cl-opt-disable, right without the return (join() called on its own),
// and right with count() not `static`. In PoCL's input module, clang has
// inlined the static count() and tests get_local_id(0) == 0 once, before
// gbar()'s barriers, for count()'s block and the kernel's; in the
// work-group function that comparison, alone of the values live across
// a barrier, gets no per-work-item context array, so the kernel's block
// runs in no work-item. join() stands for occupancy discovery, gbar() for
// a barrier across work-groups whose work-group leader does atomics.
struct ctx {
  global uint *state;
  uint group, groups;
};

int leader(void) {
  volatile size_t id = get_local_id(0);
  return id == 0;
}

int join(global uint *s, local uint *shared, private struct ctx *c) {
  c->state = s;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (leader()) {
    uint v = atomic_add(&s[0], 1u);
    shared[0] = v < 1000u ? v : 0xffffffffu;
    shared[1] = 1u;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  c->group = shared[0];
  c->groups = shared[1];
  return shared[0] != 0xffffffffu;
}

void gbar(private struct ctx *c) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (leader())
    atomic_add(c->state + 1, 1u);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

size_t gid(private struct ctx *c) {
  return c->group * get_local_size(0) + get_local_id(0);
}

// Counts the nonzero a[i] into f[1]; clears f[0] for the kernel's count.
static void count(global int *a, global int *f, local int *lb, int n,
                  private struct ctx *c) {
  lb[get_local_id(0)] = 0;
  for (int i = gid(c); i < n; i += c->groups * get_local_size(0))
    if (a[i] != 0)
      lb[get_local_id(0)] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    int s = 0;
    for (int j = 0; j < get_local_size(0); j++)
      s += lb[j];
    atomic_add(&f[1], s);
  }
  if (gid(c) == 0)
    f[0] = 0;
  gbar(c);
}

kernel void k(global int *a, global int *b, global int *f, int n, int k,
              global uint *state) {
  local uint shared[2];
  local int lb[64];
  struct ctx cv;
  if (!join(state, shared, &cv))
    return;
  count(a, f, lb, n, &cv);
  lb[get_local_id(0)] = 0;
  for (int i = gid(&cv); i < n; i += cv.groups * get_local_size(0))
    if (a[i] & 1)
      lb[get_local_id(0)] += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    int s = 0;
    for (int j = 0; j < get_local_size(0); j++)
      s += lb[j];
    atomic_add(&f[0], s);
  }
  if (gid(&cv) == 0)
    f[2] = 0;
  gbar(&cv);
}
