// A macro whose name begins with the name of a call the tool rewrites
// (global_barrier_x, get_global_id_at, step_all) is an expansion like any
// other: the call is rewritten where the macro's body spells it, and the
// macro's name is left alone. (The name's spelling at the expansion once
// matched the call's by its first letters only, and such a call was
// refused as "assembled by a macro".)
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

#define global_barrier_x() global_barrier()
#define get_global_id_at(d) get_global_id(d)
#define step_all(a, n) step(a, n)

void step(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] += 1u;
  global_barrier();
}

kernel void k(global uint *a, uint n) {
  for (uint i = get_global_id_at(0); i < n; i += get_global_size(0))
    a[i] = 1u;
  global_barrier_x();
  step_all(a, n);
}

// CHECK: #define global_barrier_x() gsync_barrier(gsync_ctx, 1)
// CHECK-NEXT: #define get_global_id_at(d) gsync_get_global_id(gsync_ctx, d)
// CHECK-NEXT: #define step_all(a, n) step(a, n, gsync_ctx)
// CHECK: kernel void k(global uint *a, uint n, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   for (uint i = get_global_id_at(0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     a[i] = 1u;
// CHECK-NEXT:   global_barrier_x();
// CHECK-NEXT:   step_all(a, n);
