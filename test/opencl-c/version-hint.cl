// A name that a later OpenCL C version or an optional 3.0 feature declares,
// met in an input parsed without it, gets a note saying which option
// declares it, after clang's errors: OpenCL C 2.0 code rewritten without
// -cl-std= (parsed as 1.2), or as 1.1; 3.0 code that needs a feature the
// parse has off, or several of them together (atomic_load needs both the
// seq_cst order and the device scope). A name no OpenCL C declares gets no
// note, nor hides one that comes after it; the note stands at the first
// name it is about, and names four at most. Nothing is written, and the
// notes cost a parse of a few lines each.
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl -DC11 2>&1 | FileCheck %s --check-prefix=C11
// RUN: %expect-exit 1 %gsync -cl-std=CL1.1 %s -o %t.cl -DC11 2>&1 | FileCheck %s --check-prefix=C11-11
// RUN: %expect-exit 1 %gsync -cl-std=CL3.0 %s -o %t.cl -DFEATURES 2>&1 | FileCheck %s --check-prefix=F30
// RUN: %expect-exit 1 %gsync %s -o %t.cl -DTYPO 2>&1 | FileCheck %s --check-prefix=TYPO --implicit-check-not=note:
// RUN: %expect-exit 1 %gsync %s -o %t.cl -DTYPOS_FIRST 2>&1 | FileCheck %s --check-prefix=TYPOS-FIRST
// RUN: %expect-exit 1 %gsync %s -o %t.cl -DMANY 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: %expect-exit 1 %gsync -cl-std=CL3.0 -cl-ext=-__opencl_c_atomic_order_seq_cst,-__opencl_c_atomic_scope_device %s -o %t.cl -DPAIR 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: test ! -e %t.cl
// With the option the note names, the same code is rewritten.
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl -DC11
// RUN: %gsync -cl-std=CL3.0 -cl-ext=+__opencl_c_generic_address_space,+__opencl_c_work_group_collective_functions %s -o %t.cl -DFEATURES
// RUN: %gsync -cl-std=CL3.0 -cl-ext=-__opencl_c_atomic_order_seq_cst,-__opencl_c_atomic_scope_device -cl-ext=+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device %s -o %t.cl -DPAIR
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
#ifdef TYPOS_FIRST
kernel void typos(global uint *c) {
  typo1 a; typo2 b; typo3 d; typo4 e; typo5 f;
  atomic_uint u;
  global_barrier();
}
// TYPOS-FIRST: error: use of undeclared identifier 'typo5'
// TYPOS-FIRST: version-hint.cl:[[@LINE-4]]:3: note: 'atomic_uint' is OpenCL C 2.0, and the input is parsed as OpenCL C 1.2
#endif
#ifdef MANY
kernel void many(global atomic_int *a) {
  memory_order o = memory_order_acquire;
  memory_scope s = memory_scope_device;
  atomic_store_explicit(a, 1, o, s);
  atomic_init(a, 0);
  global_barrier();
}
// MANY: version-hint.cl:[[@LINE-7]]:25: note: 'atomic_int', 'memory_order', 'memory_scope', 'atomic_store_explicit' and 1 more are OpenCL C 2.0, and the input is parsed as OpenCL C 1.2
#endif
#ifdef PAIR
kernel void pair(global atomic_int *a, global uint *out) {
  out[get_global_id(0)] = atomic_load(a);
  global_barrier();
}
// PAIR: version-hint.cl:[[@LINE-3]]:27: error: implicit declaration of function 'atomic_load'
// PAIR: version-hint.cl:[[@LINE-4]]:27: note: 'atomic_load' needs the OpenCL C 3.0 features __opencl_c_atomic_order_seq_cst and __opencl_c_atomic_scope_device, which the input is parsed without: -cl-ext=+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device, if the device declares them
#endif
