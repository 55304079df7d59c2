// A kernel that is not grid-stride (issue 24, item 5): launched with 64
// groups, with discovery only the co-resident ones take part and the ids
// are theirs, so elements past their ids are never touched. A warning at
// the first access, once for the kernel, with the grid-stride form; the
// output is still written.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
kernel void k(global float *a, global float *b, uint n) {
  uint i = get_global_id(0);
  if (i < n) a[i] = 2 * b[i];
  // CHECK: reported.cl:[[@LINE-1]]:14: warning: kernel 'k' indexes memory by get_global_id(0) outside a grid-stride loop: the data past the ids of the work-groups that take part is never reached
  // CHECK-NEXT: note: with discovery only the co-resident work-groups take part, however many are launched; write 'for (uint i = get_global_id(0); i < n; i += get_global_size(0))'
  global_barrier();
  if (i < n) b[i] = a[(i + 1) % n];
}
