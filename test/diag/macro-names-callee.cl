// A macro of the input that names the function and leaves the call's
// parentheses outside it (an object-like alias) cannot be rewritten in
// either place: the error says the call is assembled by a macro, as for
// any call that a macro assembles. (It once said "spelled in an included
// file", with a note about --inline-includes that could not help.)
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not test -e %t.cl
#define SYNC global_barrier
#define global_barrierX global_barrier
#define GID get_global_id
kernel void k(global uint *a, uint n) {
  // CHECK: macro-names-callee.cl:[[@LINE+1]]:17: error: cannot remap this 'get_global_id': it is assembled by a macro
  for (uint i = GID(0); i < n; i += get_global_size(0))
    a[i] = 1u;
  SYNC();
  // CHECK: macro-names-callee.cl:[[@LINE-1]]:3: error: cannot rewrite this global_barrier(): it is assembled by a macro
  global_barrierX();
  // CHECK: macro-names-callee.cl:[[@LINE-1]]:3: error: cannot rewrite this global_barrier(): it is assembled by a macro
}
