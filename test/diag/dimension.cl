// Discovery needs a 1-D launch: ids of dimension 1 or 2, or of a dimension
// that is not a constant, are errors in code that takes part.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
uint row(uint d) { return get_global_id(d); }
// CHECK: dimension.cl:[[@LINE-1]]:27: error: the dimension of 'get_global_id' must be the constant 0 in code that takes part in a global barrier
kernel void k(global uint *a) {
  a[get_global_id(1)] = row(0);
  // CHECK: dimension.cl:[[@LINE-1]]:5: error: 'get_global_id(1)' in code that takes part in a global barrier: discovery needs a 1-D launch, so only dimension 0 is supported
  a[get_group_id(2)] = get_local_id(1);
  // CHECK: dimension.cl:[[@LINE-1]]:5: error: 'get_group_id(2)' in code that takes part in a global barrier: discovery needs a 1-D launch, so only dimension 0 is supported
  global_barrier();
}
// A kernel that takes no part may use any dimension.
kernel void plain(global uint *a) { a[get_global_id(1)] = get_global_size(2); }
// CHECK-NOT: error
