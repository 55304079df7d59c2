// A pair under a condition on the work-item id: each half is checked as a
// global_barrier() is, and not every work-item reaches them.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  if (get_global_id(0) < n) {
    global_barrier_arrive();
    // CHECK: split-divergent.cl:[[@LINE-1]]:5: error: global_barrier_arrive() under a condition that depends on the work-item or group id; not every work-item reaches it
    // CHECK-NEXT: split-divergent.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
    a[get_global_id(0)] = 1;
    global_barrier_wait();
    // CHECK: split-divergent.cl:[[@LINE-1]]:5: error: global_barrier_wait() under a condition that depends on the work-item or group id; not every work-item reaches it
    // CHECK-NEXT: split-divergent.cl:[[@LINE-7]]:7: note: the condition depends on the work-item or group id here
  }
}
