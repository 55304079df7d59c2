// A break in 'for (;;)', a loop with no condition, still leaves the loop
// that holds the barrier.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
kernel void k(global uint *a) {
  for (;;) {
    global_barrier();
    // CHECK: break-forever.cl:[[@LINE-1]]:5: error: global_barrier() is not reached by every work-item: an earlier exit is taken by only some of them
    if (get_local_id(0) == 0)
      break;
    // CHECK-NEXT: break-forever.cl:[[@LINE-1]]:7: note: this 'break' depends on the work-item or group id
  }
}
