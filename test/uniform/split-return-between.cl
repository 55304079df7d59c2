// A return between global_barrier_arrive() and its global_barrier_wait():
// a work-item that takes it never runs the wait, even where every
// work-item takes it (the group leaves with its arrival made and its wait
// not run).
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  global_barrier_arrive();
  if (n == 7)
    return;
  // CHECK: split-return-between.cl:[[@LINE-1]]:5: error: 'return' between global_barrier_arrive() and its global_barrier_wait(): a work-item that takes it skips the wait
  // CHECK-NEXT: split-return-between.cl:[[@LINE-4]]:3: note: the global_barrier_arrive() is here
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier_wait();
}
