// The #line directives around inlined text keep a driver's errors pointing
// at the header and line where the code is written, and, after the header,
// back at the input's own lines.
// RUN: cd %S && %gsync --inline-includes line-directive.cl -o %t.cl
// RUN: not %clang-cl -cl-std=CL1.2 -DBROKEN %t.cl 2>&1 | FileCheck %s
// CHECK: Inputs/broken.h:4:14: error: use of undeclared identifier 'undeclared_in_header'
#include "Inputs/broken.h"
kernel void k(global uint *a) {
  a[0] = twice(1u);
  global_barrier();
#ifdef BROKEN
  a[1] = undeclared_in_input;
  // CHECK: line-directive.cl:[[@LINE-1]]:10: error: use of undeclared identifier 'undeclared_in_input'
#endif
}
