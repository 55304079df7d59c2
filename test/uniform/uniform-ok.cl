// Uniform barriers stay silent: grid-stride loops finished before the
// barrier, uniform loop counters, sizes in conditions, a loop on a flag read
// after the barrier that published it, ids used only for data.
// The one warning is about the last line, which is not grid-stride.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
kernel void k(global uint *a, global uint *flag, uint n, uint iters) {
  uint gid = get_global_id(0);
  for (uint it = 0; it < iters; it++) {
    for (uint i = gid; i < n; i += get_global_size(0))
      a[i] += it;
    global_barrier();
    if (get_num_groups(0) > 1 && n > 4)
      global_barrier();
  }
  uint done = 0;
  while (!done) {
    if (gid == 0)
      flag[0] += 1;
    global_barrier();
    done = flag[0] > 3;
    global_barrier();
  }
  if (gid < n)
    a[gid] = atomic_inc(&flag[1]);
  // CHECK: uniform-ok.cl:[[@LINE-1]]:5: warning: kernel 'k' indexes memory by get_global_id(0) outside a grid-stride loop
}
