// A name that a later OpenCL C version or an optional 3.0 feature declares,
// met in an input parsed without it, gets a note saying which option
// declares it, after clang's errors: OpenCL C 2.0 code rewritten without
// -cl-std= (parsed as 1.2), or as 1.1; 3.0 code that needs a feature the
// parse has off. A name no OpenCL C declares gets no note. Nothing is
// written, and the notes cost a parse of a few lines each.
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl -DC11 2>&1 | FileCheck %s --check-prefix=C11
// RUN: %expect-exit 1 %gsync -cl-std=CL1.1 %s -o %t.cl -DC11 2>&1 | FileCheck %s --check-prefix=C11-11
// RUN: %expect-exit 1 %gsync -cl-std=CL3.0 %s -o %t.cl -DFEATURES 2>&1 | FileCheck %s --check-prefix=F30
// RUN: %expect-exit 1 %gsync %s -o %t.cl -DTYPO 2>&1 | FileCheck %s --check-prefix=TYPO --implicit-check-not=note:
// RUN: test ! -e %t.cl
// With the option the note names, the same code is rewritten.
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl -DC11
// RUN: %gsync -cl-std=CL3.0 -cl-ext=+__opencl_c_generic_address_space,+__opencl_c_work_group_collective_functions %s -o %t.cl -DFEATURES
#ifdef C11
kernel void count(global atomic_uint *c, global uint *out) {
  atomic_fetch_add_explicit(c, 1u, memory_order_relaxed);
  global_barrier();
  out[get_global_id(0)] = atomic_load(c);
}
// C11: version-hint.cl:[[@LINE-5]]:26: error: unknown type name 'atomic_uint'
// C11: version-hint.cl:[[@LINE-6]]:26: note: 'atomic_uint', 'atomic_fetch_add_explicit', 'memory_order_relaxed' and 'atomic_load' are OpenCL C 2.0, and the input is parsed as OpenCL C 1.2 (no -cl-std= given): give gsync-rewrite the -cl-std= the program is built with (-cl-std=CL2.0, or -cl-std=CL3.0 for a 3.0 device)
// C11-11: note: 'atomic_uint', {{.*}} are OpenCL C 2.0, and the input is parsed as OpenCL C 1.1: give
#endif
#ifdef FEATURES
kernel void sum(global int *p) {
  global int *q = to_global((void *)p);
  global_barrier();
  *q = work_group_reduce_add(1);
}
// F30: version-hint.cl:[[@LINE-4]]:19: error: implicit declaration of function 'to_global'
// F30: version-hint.cl:[[@LINE-5]]:19: note: 'to_global' needs the OpenCL C 3.0 feature __opencl_c_generic_address_space, which the input is parsed without: -cl-ext=+__opencl_c_generic_address_space, if the device declares it; 'work_group_reduce_add' needs the OpenCL C 3.0 feature __opencl_c_work_group_collective_functions, which the input is parsed without: -cl-ext=+__opencl_c_work_group_collective_functions, if the device declares it
#endif
#ifdef TYPO
kernel void typo(global uint *c) {
  atomic_uintt x;
  global_barrier();
}
// TYPO: error: use of undeclared identifier 'atomic_uintt'
#endif
