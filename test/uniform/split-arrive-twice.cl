// Two global_barrier_arrive() before a global_barrier_wait(): pairs do not
// nest (the rule keeps one arrival's value for its wait).
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  global_barrier_arrive();
  // CHECK: split-arrive-twice.cl:[[@LINE+3]]:3: error: global_barrier_arrive() again before the global_barrier_wait() of the one before it; each arrive needs its wait first, and pairs do not nest
  // CHECK-NEXT: split-arrive-twice.cl:[[@LINE-2]]:3: note: the global_barrier_arrive() is here
  a[0] = n;
  global_barrier_arrive();
  global_barrier_wait();
  global_barrier_wait();
}
