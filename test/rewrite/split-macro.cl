// The halves spelled in a macro body are rewritten there, once, each a
// barrier site of its own; a pair of macros is checked as a pair.
// RUN: %gsync --barrier=flip %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
#define ARRIVE() global_barrier_arrive()
#define WAIT() global_barrier_wait()
// CHECK: #define ARRIVE() gsync_barrier_arrive(gsync_ctx, 1)
// CHECK-NEXT: #define WAIT() gsync_barrier_wait(gsync_ctx, 2)

kernel void k(global uint *a, uint n) {
  ARRIVE();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  WAIT();
}
// CHECK:   ARRIVE();
// CHECK:   WAIT();
