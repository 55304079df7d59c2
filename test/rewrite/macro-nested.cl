// Ids, helper calls and barriers spelled in macro bodies, macros inside
// macros: each body is rewritten once, where it is spelled.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
#define GID get_global_id(0)
#define SYNC() global_barrier()
#define STEP(a) do { a[GID] += 1; helper(a); SYNC(); } while (0)
void helper(global uint *a) { a[GID] = 0; SYNC(); }
kernel void k(global uint *a) {
  STEP(a);
}
// CHECK: #define GID gsync_get_global_id(gsync_ctx, 0)
// CHECK-NEXT: #define SYNC() gsync_barrier(gsync_ctx, 1)
// CHECK-NEXT: #define STEP(a) do { a[GID] += 1; helper(a, gsync_ctx); SYNC(); } while (0)
// CHECK-NEXT: void helper(global uint *a, private struct gsync_ctx *gsync_ctx) { a[GID] = 0; SYNC(); }
// CHECK-NEXT: kernel void k(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   STEP(a);
