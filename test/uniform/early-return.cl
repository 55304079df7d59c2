// The classic 'if (gid >= n) return;' before a barrier.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
kernel void k(global uint *a, uint n) {
  uint gid = get_global_id(0);
  if (gid >= n)
    return;
  // CHECK: early-return.cl:[[@LINE+3]]:3: error: global_barrier() is not reached by every work-item: an earlier exit is taken by only some of them
  // CHECK-NEXT: early-return.cl:[[@LINE-2]]:5: note: this 'return' depends on the work-item or group id
  // CHECK-NEXT: note: instead of 'if (id >= n) return;', loop in grid-stride style: for (i = get_global_id(0); i < n; i += get_global_size(0))
  global_barrier();
  a[gid] = 1;
}
