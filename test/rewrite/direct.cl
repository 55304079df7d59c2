// A global_barrier() called directly in a kernel: the kernel gets the hidden
// state argument last and discovery at entry; the call becomes the barrier.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

kernel void step(global uint *a, global uint *b, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    b[i] = a[i] + 1;
  global_barrier();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = b[(i + 1) % n];
}

// CHECK: #line 1 "{{.*}}direct.cl"
// CHECK: kernel void step(global uint *a, global uint *b, uint n, global uint *gsync_state) { local uint gsync_shared[GSYNC_SHARED_WORDS]; struct gsync_ctx gsync_ctx_v; private struct gsync_ctx *gsync_ctx = &gsync_ctx_v; if (!gsync_join(gsync_state, gsync_shared, gsync_ctx) || !gsync_ctx_grid(gsync_ctx, gsync_shared)) return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     b[i] = a[i] + 1;
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     a[i] = b[(i + 1) % n];
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
