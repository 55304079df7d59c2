// The checks that leave a function after an aborted barrier go after its
// statements; a function whose whole body a macro writes has none to
// follow, so that is an error.
// RUN: rm -f %t.cl
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
#define BODY { global_barrier(); }
void helper(void) BODY
// CHECK: abort-check-macro-body.cl:[[@LINE-1]]:6: error: cannot place the checks that leave 'helper' after an aborted barrier: its body is written by a macro
kernel void k(global uint *a) { helper(); }
