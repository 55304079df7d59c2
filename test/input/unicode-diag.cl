// Columns count bytes, as clang's own diagnostics do: after multi-byte
// UTF-8 characters the tool's errors and clang's point at the same place.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
// RUN: not %gsync -DCLANG_ERROR %s -o %t.cl 2>&1 | FileCheck %s --check-prefix=CLANG
kernel void k(global uint *données) {
  /* é */ données[0] = 1; if (get_local_id(0)) global_barrier();
  // CHECK: unicode-diag.cl:[[@LINE-1]]:50: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  // CHECK: unicode-diag.cl:[[@LINE-2]]:33: note: the condition depends on the work-item or group id here
  /* 数据 */ if (données[0] < get_global_size(0) + get_group_id(0)) global_barrier();
  // CHECK: unicode-diag.cl:[[@LINE-1]]:72: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  // CHECK: unicode-diag.cl:[[@LINE-2]]:55: note: the condition depends on the work-item or group id here
#ifdef CLANG_ERROR
  /* é */ données[nothing] = 1;
  // CLANG: unicode-diag.cl:[[@LINE-1]]:21: error: use of undeclared identifier 'nothing'
#endif
}
