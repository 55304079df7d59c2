// global_barrier() inside a macro body and as a macro argument: the text is
// rewritten where it is spelled, once, however often the macro expands.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

#define SYNC() global_barrier()
#define TWICE(x) do { x; x; } while (0)

kernel void k(global uint *a) {
  a[get_global_id(0)] = 1;
  SYNC();
  TWICE(global_barrier());
  SYNC();
}

// CHECK: #define SYNC() gsync_barrier(gsync_ctx, 1)
// CHECK: #define TWICE(x) do { x; x; } while (0)
// CHECK: kernel void k(global uint *a, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   a[gsync_get_global_id(gsync_ctx, 0)] = 1;
// CHECK-NEXT:   SYNC();
// CHECK-NEXT:   TWICE(gsync_barrier(gsync_ctx, 2));
// CHECK-NEXT:   SYNC();
