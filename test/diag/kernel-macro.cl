// A function written as a kernel that the parse sees as an ordinary one
// is an error: a macro called __kernel or kernel, or one of the input's
// macros that spells it (directly or through another), expands to no
// kernel qualifier there. The driver may well see a kernel (a build of its
// own need not define what hides it), and a kernel rewritten as a helper,
// with a private context parameter, does not build. Nothing is written.
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync -DHOST_EMULATION %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=note:
// RUN: not test -e %t.cl
// CHECK: kernel-macro.cl:[[@LINE+20]]:1: error: 'k' is written as a kernel, but '__kernel' is a macro here and the parse sees an ordinary function
// CHECK-NEXT: kernel-macro.cl:[[@LINE+6]]:9: note: '__kernel' is defined here
// CHECK-NEXT: kernel-macro.cl:[[@LINE+24]]:1: error: 'k2' is written as a kernel, but 'EXPORT' expands to no kernel qualifier here and the parse sees an ordinary function
// CHECK-NEXT: kernel-macro.cl:[[@LINE+9]]:9: note: 'EXPORT' is defined here
// CHECK-NEXT: kernel-macro.cl:[[@LINE+23]]:1: error: 'declared' is written as a kernel, but '__kernel' is a macro here and the parse sees an ordinary function
// CHECK-NEXT: kernel-macro.cl:[[@LINE+2]]:9: note: '__kernel' is defined here
#ifdef HOST_EMULATION
#define __kernel
#define KERNEL __kernel
#else
#define KERNEL __kernel
#endif
#define EXPORT KERNEL
//
// A -D on the command line hides it too; it has no place to note.
// RUN: %expect-exit 1 %gsync -D__kernel= %s -o %t.cl 2>&1 | FileCheck --check-prefix=CMDLINE %s
// CMDLINE: kernel-macro.cl:[[@LINE+4]]:1: error: 'k' is written as a kernel, but '__kernel' is a macro here and the parse sees an ordinary function
// CMDLINE-NEXT: kernel-macro.cl:[[@LINE+9]]:1: error: 'k2' is written as a kernel, but 'EXPORT' expands
// Where the qualifier is left alone, the same kernels are rewritten.
// RUN: %gsync %s -o %t.cl
__kernel void k(__global float *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1.0f;
  global_barrier();
}
void helper(__global float *a) { a[0] = 2.0f; }
EXPORT void k2(__global float *a) { helper(a); }
__kernel void declared(__global float *a);
