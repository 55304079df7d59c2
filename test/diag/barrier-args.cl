// global_barrier() takes no arguments.
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a) {
  global_barrier(1);
  // CHECK: barrier-args.cl:[[@LINE-1]]:18: error: 'global_barrier' takes no arguments
  // CHECK-NOT: global_barrier.h
}
