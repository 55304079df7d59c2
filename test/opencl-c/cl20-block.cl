// OpenCL C 2.0 device-side enqueue: a block that enqueue_kernel runs is a
// launch of its own. Inside one, in a kernel that takes part in the
// barrier, the ids are the child launch's and no barrier of this launch can
// be reached, so what the rewrite would give this launch's state is an
// error rather than a silently wrong id.
// RUN: not %gsync -cl-std=CL2.0 %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
// A kernel whose blocks use none of it is rewritten, the block as written.
// RUN: %gsync -cl-std=CL2.0 -DFINE_ONLY %s -o %t.fine.cl
// RUN: FileCheck --check-prefix=FINE %s < %t.fine.cl
// RUN: %clang-cl -cl-std=CL2.0 -DFINE_ONLY %t.fine.cl
uint twice(uint x) { return 2 * x + (uint)get_global_id(0); }
kernel void fine(global uint *a) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
                 ^{ a[0] = 1; });
  global_barrier();
}
// FINE: {{.*}}^{ a[0] = 1; });
#ifndef FINE_ONLY
kernel void ids(global uint *a) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
                 ^{ a[get_global_id(0)] = 1; });
  // CHECK: cl20-block.cl:[[@LINE-1]]:23: error: 'get_global_id' in a block: a block that enqueue_kernel runs is a launch of its own, and the rewrite cannot give it this launch's work-groups
  global_barrier();
}
kernel void helper(global uint *a) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
                 ^{ a[0] = twice(3); });
  // CHECK: cl20-block.cl:[[@LINE-1]]:28: error: 'twice' in a block: a block that enqueue_kernel runs is a launch of its own, and the rewrite cannot give it this launch's state
  global_barrier();
  a[1] = twice(1);
}
kernel void barrier(global uint *a) {
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
                 ^{ global_barrier(); });
  // CHECK: cl20-block.cl:[[@LINE-1]]:21: error: 'global_barrier' in a block: a block that enqueue_kernel runs is a launch of its own, and the rewrite cannot give it this launch's barrier
}
#endif
