// Columns count bytes, as clang's own diagnostics do: after multi-byte
// UTF-8 characters the tool's errors and clang's point at the same place.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
// RUN: not %gsync -DCLANG_ERROR %s -o %t.cl 2>&1 | FileCheck %s --check-prefix=CLANG
kernel void k(global uint *données) {
  /* é */ données[get_global_id(1)] = 1; global_barrier();
  // CHECK: unicode-diag.cl:[[@LINE-1]]:21: error: 'get_global_id(1)' in code that takes part in a global barrier: discovery needs a 1-D launch, so only dimension 0 is supported
  /* 数据 */ données[0] = get_global_size(2);
  // CHECK: unicode-diag.cl:[[@LINE-1]]:30: error: 'get_global_size(2)' in code that takes part in a global barrier: discovery needs a 1-D launch, so only dimension 0 is supported
#ifdef CLANG_ERROR
  /* é */ données[nothing] = 1;
  // CLANG: unicode-diag.cl:[[@LINE-1]]:21: error: use of undeclared identifier 'nothing'
#endif
}
