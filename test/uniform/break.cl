// A break taken by some items leaves them out of the loop's later barriers.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
kernel void k(global uint *a, uint iters) {
  for (uint it = 0; it < iters; it++) {
    global_barrier();
    // CHECK: break.cl:[[@LINE-1]]:5: error: global_barrier() is not reached by every work-item: an earlier exit is taken by only some of them
    if (get_group_id(0) == it)
      break;
    // CHECK-NEXT: break.cl:[[@LINE-1]]:7: note: this 'break' depends on the work-item or group id
  }
}
