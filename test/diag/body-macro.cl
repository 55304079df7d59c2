// The rewrite inserts code on the line of a function's '{': a participating
// kernel's context and discovery, and, in a helper that code without a
// context calls, the context of the real ids it makes itself there. Where
// a macro writes the body, neither has a place: each is an error that
// names the function, and nothing is written.
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
#define BODY { global_barrier(); }
kernel void k(global uint *a) BODY
// CHECK: body-macro.cl:[[@LINE-1]]:13: error: cannot insert discovery into kernel 'k': its body is written by a macro

#define SLOT_BODY { return get_global_id(0); }
uint slot(void) SLOT_BODY
// CHECK: body-macro.cl:[[@LINE-1]]:6: error: cannot give the real ids, for its calls from code that does not take part, to 'slot': its body is written by a macro

kernel void with_barrier(global uint *a, uint n) {
  for (uint i = slot(); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier();
}

kernel void without(global uint *a) { a[slot()] = 2; }
