// global_barrier_wait() before its global_barrier_arrive(): the halves in
// the wrong order.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  global_barrier_wait();
  // CHECK: split-wait-first.cl:[[@LINE-1]]:3: error: global_barrier_wait() without a global_barrier_arrive() before it in the same block
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier_arrive();
}
