// A global_barrier() between global_barrier_arrive() and its
// global_barrier_wait(): no global barrier may come between the halves.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  global_barrier_arrive();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier();
  // CHECK: split-barrier-between.cl:[[@LINE-1]]:3: error: global_barrier() between global_barrier_arrive() and its global_barrier_wait(); no global barrier may come between the two halves
  // CHECK-NEXT: split-barrier-between.cl:[[@LINE-5]]:3: note: the global_barrier_arrive() is here
  global_barrier_wait();
}
