// The address of global_barrier cannot be taken.
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a) {
  if (&global_barrier)
    a[0] = 1;
  // CHECK: barrier-address.cl:[[@LINE-2]]:8: error: the address of 'global_barrier' cannot be taken; it can only be called as 'global_barrier()'
}
