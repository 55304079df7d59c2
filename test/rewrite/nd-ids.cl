// Every remapped work-item function in every dimension, with a constant or
// a run-time dimension, in a kernel, a helper and a macro body: each becomes
// its gsync_ counterpart on the context. get_global_offset and the local
// functions stay as written (a launch's offset is the same in the virtual
// grid), and so does everything in a kernel that takes no part. The
// constraints list the dimensions each kernel asks about.
// RUN: %gsync %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// Built optimised the queries are the prelude's functions; under
// -cl-opt-disable (no __OPTIMIZE__) they read the answers the context
// stored (prelude.cl, gsync_ids_stored).
// RUN: %clang-pp %t.cl | FileCheck --check-prefix=OPT %s
// OPT: a[2] = gsync_get_global_id(gsync_ctx, 0) + gsync_get_global_id(gsync_ctx, 1) + gsync_get_global_id(gsync_ctx, 2);
// RUN: %clang-pp -cl-opt-disable %t.cl | FileCheck --check-prefix=O0 %s
// O0: a[2] = ((gsync_ctx)->ids[2][min((uint)(0), 3u)]) + ((gsync_ctx)->ids[2][min((uint)(1), 3u)]) + ((gsync_ctx)->ids[2][min((uint)(2), 3u)]);
// O0: a[4] = ((gsync_ctx)->ids[0][min((uint)(d), 3u)]) + ((gsync_ctx)->ids[1][min((uint)(d + 1), 3u)]) + ((gsync_ctx)->ids[2][min((uint)(2 - d), 3u)]);
// RUN: %clang-cl -cl-std=CL1.2 -cl-opt-disable %t.cl

#define ROW get_global_id(1)
#define PLANES(d) get_num_groups(d)

size_t span(uint d) { return get_global_size(d) - get_global_offset(d); }

kernel void grid(global size_t *a, uint d) {
  a[0] = get_group_id(0) + get_group_id(1) + get_group_id(2);
  a[1] = get_num_groups(0) + get_num_groups(1) + get_num_groups(2);
  a[2] = get_global_id(0) + get_global_id(1) + get_global_id(2);
  a[3] = get_global_size(0) + get_global_size(1) + get_global_size(2);
  a[4] = get_group_id(d) + get_num_groups(d + 1) + get_global_id(2 - d);
  a[5] = ROW + PLANES(2) + PLANES(d) + span(1) + span(d);
  a[6] = get_global_offset(1) + get_local_id(2) + get_local_size(1);
  global_barrier();
}

kernel void plain(global size_t *a) {
  a[get_global_id(1)] = get_num_groups(2) + span(2);
}

// CHECK: #define ROW gsync_get_global_id(gsync_ctx, 1)
// CHECK-NEXT: #define PLANES(d) gsync_get_num_groups(gsync_ctx, d)
// CHECK-EMPTY:
// CHECK-NEXT: size_t span(uint d, private struct gsync_ctx *gsync_ctx) { struct gsync_ctx gsync_ctx_real; gsync_ctx = gsync_ctx_or_real(gsync_ctx, &gsync_ctx_real); return gsync_get_global_size(gsync_ctx, d) - get_global_offset(d); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void grid(global size_t *a, uint d, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   a[0] = gsync_get_group_id(gsync_ctx, 0) + gsync_get_group_id(gsync_ctx, 1) + gsync_get_group_id(gsync_ctx, 2);
// CHECK-NEXT:   a[1] = gsync_get_num_groups(gsync_ctx, 0) + gsync_get_num_groups(gsync_ctx, 1) + gsync_get_num_groups(gsync_ctx, 2);
// CHECK-NEXT:   a[2] = gsync_get_global_id(gsync_ctx, 0) + gsync_get_global_id(gsync_ctx, 1) + gsync_get_global_id(gsync_ctx, 2);
// CHECK-NEXT:   a[3] = gsync_get_global_size(gsync_ctx, 0) + gsync_get_global_size(gsync_ctx, 1) + gsync_get_global_size(gsync_ctx, 2);
// CHECK-NEXT:   a[4] = gsync_get_group_id(gsync_ctx, d) + gsync_get_num_groups(gsync_ctx, d + 1) + gsync_get_global_id(gsync_ctx, 2 - d);
// CHECK-NEXT:   a[5] = ROW + PLANES(2) + PLANES(d) + span(1, gsync_ctx) + span(d, gsync_ctx);
// CHECK-NEXT:   a[6] = get_global_offset(1) + get_local_id(2) + get_local_size(1);
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void plain(global size_t *a) {
// CHECK-NEXT:   a[get_global_id(1)] = get_num_groups(2) + span(2, 0);
// CHECK-NEXT: }

// JSON:      "name": "grid",
// JSON-NEXT: "global_barrier": true,
// JSON-NEXT: "work_dim": 3,
// JSON-NEXT: "dimensions": [
// JSON-NEXT:   0,
// JSON-NEXT:   1,
// JSON-NEXT:   2
// JSON-NEXT: ],
// JSON-NEXT: "run_time_dimension": true,
// JSON:      "grid_offset": 24,
// JSON:      "name": "plain",
// JSON-NEXT: "global_barrier": false
// JSON-NEXT: }
