// An atomic that modifies returns each work-item's own value: a loop or an
// exit on it is not uniform, unlike a read (atomic-load.cl).
// RUN: not %gsync -cl-std=CL3.0 %s -o %t.cl 2>&1 | FileCheck %s
kernel void count(global atomic_uint *done) {
  for (;;) {
    global_barrier();
    if (atomic_fetch_add(done, 1u) == 0)
      break;
    // CHECK: atomic-fetch.cl:[[@LINE-3]]:5: error: global_barrier() is not reached by every work-item: an earlier exit is taken by only some of them
    // CHECK-NEXT: atomic-fetch.cl:[[@LINE-2]]:7: note: this 'break' depends on the work-item or group id
  }
}
