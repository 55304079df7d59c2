// A call of a function that reaches a global barrier between the halves:
// the barrier in it would come between them.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
void sync_all(void) { global_barrier(); }

kernel void k(global uint *a, uint n) {
  global_barrier_arrive();
  if (n > 1) {
    sync_all();
    // CHECK: split-call-between.cl:[[@LINE-1]]:5: error: call of 'sync_all', which reaches a global barrier, between global_barrier_arrive() and its global_barrier_wait(); no global barrier may come between the two halves
    // CHECK-NEXT: split-call-between.cl:[[@LINE-4]]:3: note: the global_barrier_arrive() is here
  }
  global_barrier_wait();
}
