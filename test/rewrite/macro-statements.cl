// A barrier in code that a macro writes: a helper whose whole body is a
// macro, and a statement that a macro argument holds whole. Both rewrite
// (the macro's body gets the barrier call), build, and need no guard, as
// neither is a loop.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// RUN: %gsync --spin-limit=0 %s -o %t.0.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.0.cl
#define BODY { global_barrier(); }
#define WRAP(s) s
void helper(void) BODY
kernel void k(global uint *a) {
  helper();
  WRAP(global_barrier();)
}
// CHECK: #define BODY { gsync_barrier(gsync_ctx, 1); }
// CHECK-NEXT: #define WRAP(s) s
// CHECK-NEXT: void helper(private struct gsync_ctx *gsync_ctx) BODY
// CHECK-NEXT: kernel void k(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   helper(gsync_ctx);
// CHECK-NEXT:   WRAP(gsync_barrier(gsync_ctx, 2);)
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
