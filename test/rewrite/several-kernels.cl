// Several kernels in one file: only those that reach a barrier change; the
// others keep their exact signature and their real ids.
// RUN: %gsync %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

kernel void first(global uint *a) { a[get_global_id(0)] = 0; global_barrier(); }
kernel void copy(global uint *a, global const uint *b) { a[get_global_id(0)] = b[get_global_id(0)]; }
__kernel void second(global uint *a) { global_barrier(); a[get_group_id(0)] = get_num_groups(0); }

// CHECK: kernel void first(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); a[gsync_get_global_id(gsync_ctx, 0)] = 0; gsync_barrier(gsync_ctx, 1); gsync_anchor(gsync_ctx); }
// CHECK-NEXT: kernel void copy(global uint *a, global const uint *b) { a[get_global_id(0)] = b[get_global_id(0)]; }
// CHECK-NEXT: __kernel void second(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); gsync_barrier(gsync_ctx, 2); a[gsync_get_group_id(gsync_ctx, 0)] = gsync_get_num_groups(gsync_ctx, 0); gsync_anchor(gsync_ctx); }

// JSON:      "name": "first",
// JSON-NEXT: "global_barrier": true,
// JSON:      "name": "copy",
// JSON-NEXT: "global_barrier": false
// JSON:      "name": "second",
// JSON-NEXT: "global_barrier": true,
