// Diagnostics on a CRLF file give the same lines and columns as on the LF
// one: the CR is no column, and every CRLF ends one line.
// RUN: %python %S/../utils/crlf.py to %s > %t.cl
// RUN: not %gsync %t.cl -o %t.out.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.out.cl
// RUN: not %gsync -DCLANG_ERROR %t.cl -o %t.out.cl 2>&1 | FileCheck %s --check-prefix=CLANG
kernel void k(global uint *a) {
  a[get_global_id(0)] = 1;
  global_barrier();
  if (get_group_id(1) == 2) global_barrier();
  // CHECK-DAG: crlf-diag.cl.tmp.cl:[[@LINE-1]]:29: error: global_barrier() under a condition that depends on the work-item or group id{{.*}}
  if (get_local_id(0) == 0)
    global_barrier();
  // CHECK-DAG: crlf-diag.cl.tmp.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id{{.*}}
#ifdef CLANG_ERROR
  a[0] = nothing;
  // CLANG: crlf-diag.cl.tmp.cl:[[@LINE-1]]:10: error: use of undeclared identifier 'nothing'
#endif
}
