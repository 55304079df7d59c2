// libclang's parse errors come through with file:line:col, and nothing is
// written: an existing output file keeps its content.
// RUN: echo previous > %t.cl
// RUN: echo previous > %t.json
// RUN: %expect-exit 1 %gsync %s -o %t.cl --constraints %t.json 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: echo previous | cmp - %t.cl
// RUN: echo previous | cmp - %t.json
// RUN: %expect-exit 1 %gsync %s -o %t.cl
kernel void k(global uint *a) {
  a[0] = 1
  // CHECK: parse-error.cl:[[@LINE-1]]:11: error: expected ';' after expression
  global_barrier();
}
