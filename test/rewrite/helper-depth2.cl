// A barrier two calls deep: every function on the way takes the hidden
// context, its prototype too, and every call on the way passes it on.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

void sync_step(void);
void phase(global uint *a, uint n);

kernel void run(global uint *a, uint n) {
  phase(a, n);
}

void phase(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] += 1;
  sync_step();
}

void sync_step(void) { global_barrier(); }

// CHECK: void sync_step(private struct gsync_ctx *gsync_ctx);
// CHECK-NEXT: void phase(global uint *a, uint n, private struct gsync_ctx *gsync_ctx);
// CHECK: kernel void run(global uint *a, uint n, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   phase(a, n, gsync_ctx);
// CHECK: void phase(global uint *a, uint n, private struct gsync_ctx *gsync_ctx) {
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     a[i] += 1;
// CHECK-NEXT:   sync_step(gsync_ctx);
// CHECK: void sync_step(private struct gsync_ctx *gsync_ctx) { gsync_barrier(gsync_ctx, 1); }
