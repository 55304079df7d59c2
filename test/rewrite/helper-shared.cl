// A helper that uses ids, called from a kernel that takes part and from one
// that does not: it takes the context, and the ordinary kernel passes 0;
// the helper starts by making itself a context of the real ids there, so
// the id queries never see a null one. The ordinary kernel keeps its
// signature.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

uint slot(void) { return get_global_id(0); }

kernel void with_barrier(global uint *a) {
  a[slot()] = 1;
  global_barrier();
}

kernel void without(global uint *a) { a[slot()] = 2; }

// CHECK: uint slot(private struct gsync_ctx *gsync_ctx) { struct gsync_ctx gsync_ctx_real; gsync_ctx = gsync_ctx_or_real(gsync_ctx, &gsync_ctx_real); return gsync_get_global_id(gsync_ctx, 0); }
// CHECK: kernel void with_barrier(global uint *a, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   a[slot(gsync_ctx)] = 1;
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK: kernel void without(global uint *a) { a[slot(0)] = 2; }
