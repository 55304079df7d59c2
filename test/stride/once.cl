// One warning per kernel, at the first access that is not grid-stride,
// however many follow; each kernel gets its own. A pointer moved by the
// id counts as an index, and so does a dereference of one.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
kernel void first(global float *a, global float *b) {
  a[get_global_id(0)] = 1.0f;
  // CHECK: once.cl:[[@LINE-1]]:3: warning: kernel 'first' indexes memory by get_global_id(0) outside a grid-stride loop
  // CHECK-NEXT: note: with discovery
  b[get_global_id(0)] = 2.0f;
  global_barrier();
  a[get_global_id(0)] += b[get_global_id(0)];
}

kernel void second(global float *a) {
  global float *mine = a + get_global_id(0);
  global_barrier();
  *mine = 1.0f;
  // CHECK: once.cl:[[@LINE-1]]:3: warning: kernel 'second' indexes memory by get_global_id(0) outside a grid-stride loop
  // CHECK-NEXT: note: with discovery
}
