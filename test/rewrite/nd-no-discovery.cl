// --no-discovery: every launched work-group takes part, so the ids are the
// real ones in every dimension and stay as written; a helper that only uses
// ids needs no context. Only the barrier is rewritten, and the constraints
// say the whole launch (every group of every dimension) must be co-resident.
// RUN: %gsync --no-discovery %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

#define AT(x, y) ((y) * get_global_size(0) + (x))

uint row(void) { return get_global_id(1); }

kernel void k(global uint *a, uint d) {
  a[AT(get_global_id(0), row())] = get_num_groups(d) + get_group_id(2);
  global_barrier();
}

// CHECK: #define AT(x, y) ((y) * get_global_size(0) + (x))
// CHECK-EMPTY:
// CHECK-NEXT: uint row(void) { return get_global_id(1); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void k(global uint *a, uint d, global uint *gsync_state) { local uint gsync_shared[GSYNC_SHARED_WORDS]; struct gsync_ctx gsync_ctx_v; private struct gsync_ctx *gsync_ctx = &gsync_ctx_v; gsync_join_all(gsync_state, gsync_shared, gsync_ctx); gsync_ctx_launch(gsync_ctx);{{$}}
// CHECK-NEXT:   a[AT(get_global_id(0), row())] = get_num_groups(d) + get_group_id(2);
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT: }
// JSON: "discovery": false,
// JSON: "work_dim": 3,
// JSON: "run_time_dimension": true,
// JSON: "coresident_launch_required": true
