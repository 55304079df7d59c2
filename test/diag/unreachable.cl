// A helper that reaches global_barrier() but that no kernel calls is a
// warning; it still gets the hidden parameter, so the output builds.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
void orphan(void) { global_barrier(); }
// CHECK: unreachable.cl:[[@LINE-1]]:6: warning: 'orphan' reaches global_barrier() but no kernel calls it
kernel void k(global uint *a) { a[0] = 1; }
