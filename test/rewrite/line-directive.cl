// After the prelude, #line makes a driver's build errors point at the
// user's own file and line.
// RUN: cd %S && %gsync line-directive.cl -o %t.cl
// RUN: not %clang-cl -cl-std=CL1.2 -DBROKEN %t.cl 2>&1 | FileCheck %s

kernel void k(global uint *a) {
  global_barrier();
#ifdef BROKEN
  a[0] = undeclared_name;
  // CHECK: line-directive.cl:[[@LINE-1]]:10: error: use of undeclared identifier 'undeclared_name'
#endif
}
