// A global_barrier_arrive() with no global_barrier_wait() after it in its
// block: the rule's wait half never runs.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier_arrive();
  // CHECK: split-unpaired-arrive.cl:[[@LINE-1]]:3: error: global_barrier_arrive() without a global_barrier_wait() after it in the same block; every work-item must run the wait before it leaves the block
  if (n > 0) {
    global_barrier_wait();
    // CHECK: split-unpaired-arrive.cl:[[@LINE-1]]:5: error: global_barrier_wait() without a global_barrier_arrive() before it in the same block
  }
}
