// local sizes: 16 64 256
// A breadth-first search written the way work-list graph codes write it
// (Chai's BFS and SSSP, made persistent, have this shape): each work-group
// takes chunks of the frontier through a shared head counter that
// work-item 0 bumps into local memory, pushes the nodes it discovers into
// a local bin (straight to the global queue once the bin is full), then
// appends the bin to the next frontier; static helpers, the frontier's
// size read after global_barrier() drives the level loop.
//
// a[i]: the node's edges in its low 16 bits (from the input), its level
// in the high 16 bits (0xffff: not reached yet). b: the two frontiers,
// the current one from one end, the next one written from the other (a
// node is in one frontier only, so they never meet); zeroed at the end,
// as the order of a frontier differs from run to run. f[0]: levels,
// f[1]: nodes reached, f[2]: sum of their levels; f[3..5]: frontier sizes
// and f[6..8]: head counters, rotating by level.
//
// The barrier before work-item 0 takes the next chunk is the one Chai's
// kernels lack: without it, work-item 0 may overwrite *base before the
// others have read it (docs/pocl.md, section 6).
#define BIN 32
#define UNSEEN 0xffff

static int next_of(int node, int e, int word, int n) {
  int g = word & 0xffff;
  return e == 0 ? (node + 1) % n : e == 1 ? (g * 7 + 1) % n : (g + node) % n;
}

static void put(global int *q, int n, int level, int j, int node) {
  if (level % 2 == 0)
    q[j] = node;
  else
    q[n - 1 - j] = node;
}

static int expand(global int *a, global int *q, global int *f, int n,
                  int level, int size, local int *bin, local int *bin_len,
                  local int *base, local int *shift) {
  const int tid = get_local_id(0), wg = get_local_size(0);
  global int *head = &f[6 + level % 3];
  global int *tail = &f[3 + (level + 1) % 3];
  if (tid == 0) {
    *bin_len = 0;
    *base = atomic_add(head, wg);
  }
  if (get_global_id(0) == 0) {
    f[3 + (level + 2) % 3] = 0;
    f[6 + (level + 1) % 3] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int my_base = *base;
  while (my_base < size) {
    int j = my_base + tid;
    if (j < size) {
      int node = level % 2 == 0 ? q[j] : q[n - 1 - j];
      for (int e = 0; e < 3; e++) {
        int next = next_of(node, e, a[node], n);
        int old = a[next];
        if (((old >> 16) & 0xffff) == UNSEEN &&
            atomic_cmpxchg(&a[next], old, (old & 0xffff) | ((level + 1) << 16)) == old) {
          int slot = atomic_inc(bin_len);
          if (slot < BIN)
            bin[slot] = next;
          else
            put(q, n, level + 1, atomic_inc(tail), next);
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid == 0)
      *base = atomic_add(head, wg);
    barrier(CLK_LOCAL_MEM_FENCE);
    my_base = *base;
  }
  if (tid == 0)
    *shift = atomic_add(tail, min(*bin_len, BIN));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = tid; s < min(*bin_len, BIN); s += wg)
    put(q, n, level + 1, *shift + s, bin[s]);
  global_barrier();
  return f[3 + (level + 1) % 3];
}

kernel void k(global int *a, global int *b, global int *f, int n, int k) {
  local int bin[BIN];
  local int bin_len, base, shift;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    a[i] = (a[i] & 0xffff) | (i == 0 ? 0 : (int)((uint)UNSEEN << 16));
    b[i] = 0;
  }
  if (get_global_id(0) == 0) {
    f[3] = 1;
    f[4] = f[5] = f[6] = f[7] = f[8] = 0;
  }
  global_barrier();
  int level = 0, size = 1;
  while (size > 0 && level < n) {
    size = expand(a, b, f, n, level, size, bin, &bin_len, &base, &shift);
    level++;
  }
  int reached = 0, sum = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    int l = (a[i] >> 16) & 0xffff;
    if (l != UNSEEN) {
      reached++;
      sum += l;
    }
    b[i] = 0;
  }
  atomic_add(&f[1], reached);
  atomic_add(&f[2], sum);
  if (get_global_id(0) == 0)
    f[0] = level;
}
