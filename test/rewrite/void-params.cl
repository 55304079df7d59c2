// A kernel and a helper with (void) parameter lists: 'void' is replaced by
// the hidden parameter.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl

void sync(void) { global_barrier(); }
kernel void k(void) { sync(); }
kernel void k2() { sync(); }

// CHECK: void sync(private struct gsync_ctx *gsync_ctx) { gsync_barrier(gsync_ctx, 1); }
// CHECK-NEXT: kernel void k(global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); sync(gsync_ctx); gsync_anchor(gsync_ctx); }
// CHECK-NEXT: kernel void k2(global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); sync(gsync_ctx); gsync_anchor(gsync_ctx); }
