// get_global_linear_id() (OpenCL C 2.0) is remapped to the virtual grid
// like the other ids, in a kernel, a helper and a macro body; in a kernel
// that takes no part it stays as written. (OpenCL C has no
// get_group_linear_id: a group's linear id is written with get_group_id and
// get_num_groups, which are remapped.)
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL2.0 %t.cl
// RUN: %gsync-run --build-only %t.cl --options -cl-std=CL3.0

#define WHO get_global_linear_id()

size_t me(void) { return get_global_linear_id(); }

kernel void k(global size_t *a) {
  a[me()] = WHO + get_global_linear_id( );
  global_barrier();
}

kernel void plain(global size_t *a) { a[get_global_linear_id()] = 0; }

// CHECK: #define WHO gsync_get_global_linear_id(gsync_ctx)
// CHECK-EMPTY:
// CHECK-NEXT: size_t me(private struct gsync_ctx *gsync_ctx) { return gsync_get_global_linear_id(gsync_ctx); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void k(global size_t *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   a[me(gsync_ctx)] = WHO + gsync_get_global_linear_id(gsync_ctx );
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void plain(global size_t *a) { a[get_global_linear_id()] = 0; }
