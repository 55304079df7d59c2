// -include files are written in first, each behind its own #line, so the
// output needs no -include either.
// RUN: cd %S && %gsync --inline-includes -include Inputs/pre.h include-option.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
kernel void k(global uint *a) { a[0] = PRE; global_barrier(); }
// CHECK: #line 1 "include-option.cl"
// CHECK-NEXT: #line 1 "{{.*}}Inputs/pre.h"
// CHECK-NEXT: #define PRE 4u
// CHECK-NEXT: #line 1 "include-option.cl"
// CHECK-NEXT: // -include files are written in first, each behind its own #line, so the
