// Through variables computed from an id, and variables assigned under a
// condition on one.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
kernel void k(global uint *a) {
  uint lid = get_local_id(0);
  uint h = lid / 2;
  uint flag = 0;
  if (h > 3)
    flag = 1;
  if (flag)
    global_barrier();
  // CHECK: derived.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  // CHECK: derived.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
}
