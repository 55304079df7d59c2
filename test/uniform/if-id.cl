// A barrier under a condition on the work-item id: only some items reach it.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
kernel void k(global uint *a) {
  if (get_global_id(0) < 10)
    global_barrier();
  // CHECK: if-id.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  // CHECK-NEXT: if-id.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
}
