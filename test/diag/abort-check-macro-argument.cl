// A statement that a macro argument holds whole, ';' included, leaves no
// place in the input after it for the check that leaves the kernel after
// an aborted barrier: an error, and without a spin limit it rewrites.
// RUN: rm -f %t.cl
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
// RUN: %gsync --spin-limit=0 %s -o %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
#define WRAP(s) s
kernel void k(global uint *a) {
  WRAP(global_barrier();)
  // CHECK: abort-check-macro-argument.cl:[[@LINE-1]]:3: error: cannot place the check that leaves the kernel after an aborted barrier after this statement: a macro argument holds the whole statement (--spin-limit=0 needs no check)
}
