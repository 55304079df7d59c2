// global_barrier() in a loop and in nested blocks. A loop that can reach a
// barrier is guarded (it ends once the launch was aborted); while (0) is not.
// Each loop body that reaches a barrier starts and ends with an anchor
// (anchors.cl).
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

kernel void k(global uint *a, uint iters) {
  for (uint it = 0; it < iters; it++) {
    {
      a[get_global_id(0)] += it;
      global_barrier();
    }
    while (0) { global_barrier(); }
  }
}

// CHECK:   for (uint it = 0; it < iters; it++) { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     {
// CHECK-NEXT:       a[gsync_get_global_id(gsync_ctx, 0)] += it;
// CHECK-NEXT:       gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT:     }
// CHECK-NEXT:     while (0) { gsync_anchor(gsync_ctx); gsync_barrier(gsync_ctx, 2); gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
