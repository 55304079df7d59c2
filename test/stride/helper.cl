// The indexing can be in a helper: the id reaches it as a parameter, or
// through a helper's result. The warning is at the access, with a note at
// each call on the way from the kernel. A helper called from a grid-stride
// loop with its variable is right.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
void scale(global float *a, uint i) { a[i] *= 2.0f; }
// CHECK: helper.cl:[[@LINE-1]]:39: warning: kernel 'direct' indexes memory by get_global_id(0) outside a grid-stride loop
uint slot(void) { return get_global_id(0); }
void step(global float *a, uint n) {
  if (slot() < n)
    scale(a, slot());
}

kernel void direct(global float *a, uint n) {
  step(a, n);
  // CHECK-NEXT: helper.cl:[[@LINE-1]]:3: note: 'direct' calls 'step' here
  // CHECK-NEXT: helper.cl:[[@LINE-6]]:5: note: 'step' calls 'scale' here
  // CHECK-NEXT: note: with discovery only the co-resident work-groups take part
  global_barrier();
}

kernel void strided(global float *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    scale(a, i);
  global_barrier();
}
