// The features OpenCL C 3.0 is parsed with by default: those PoCL 3.1
// declares. Each is defined as a macro, as a driver does; the generic
// address space and program-scope global variables are off, so code that
// needs them fails as it does on such a device, until -cl-ext names them.
// RUN: %gsync -cl-std=CL3.0 %s -o %t.cl --constraints %t.json
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// JSON:      "opencl_c_features": [
// JSON-NEXT: ]
// RUN: not %gsync -cl-std=CL3.0 -DUSE_GENERIC %s -o %t.generic.cl 2>&1 | FileCheck --check-prefix=GENERIC %s
// GENERIC: cl30-default.cl:{{[0-9]+}}:7: error: passing '__global uint *__private'{{.*}} to parameter of type '__private uint *'{{.*}} changes address space of pointer
// RUN: not %gsync -cl-std=CL3.0 -DUSE_PROGRAM_SCOPE %s -o %t.scope.cl 2>&1 | FileCheck --check-prefix=SCOPE %s
// SCOPE: cl30-default.cl:{{[0-9]+}}:13: error: program scope variable must reside in constant address space
// With the features named, the same code is accepted, and the constraints
// say that the output needs them.
// RUN: %gsync -cl-std=CL3.0 -cl-ext=+__opencl_c_generic_address_space -DUSE_GENERIC %s -o %t.g.cl --constraints %t.g.json
// RUN: FileCheck --check-prefix=GJSON %s < %t.g.json
// GJSON:      "opencl_c_features": [
// GJSON-NEXT:   "__opencl_c_generic_address_space"
// GJSON-NEXT: ]
// RUN: %gsync -cl-std=CL3.0 -cl-ext=+__opencl_c_program_scope_global_variables -DUSE_PROGRAM_SCOPE %s -o %t.p.cl --constraints %t.p.json
// RUN: FileCheck --check-prefix=PJSON %s < %t.p.json
// PJSON:      "opencl_c_features": [
// PJSON-NEXT:   "__opencl_c_program_scope_global_variables"
// PJSON-NEXT: ]
#if !defined(__opencl_c_atomic_order_acq_rel) || !defined(__opencl_c_atomic_order_seq_cst) || !defined(__opencl_c_atomic_scope_device) || !defined(__opencl_c_images) || !defined(__opencl_c_3d_image_writes) || !defined(__opencl_c_read_write_images) || !defined(__opencl_c_int64) || !defined(__opencl_c_fp64)
#error a feature of the default set is missing
#endif
#if !defined(USE_GENERIC) && !defined(USE_PROGRAM_SCOPE) && (defined(__opencl_c_generic_address_space) || defined(__opencl_c_program_scope_global_variables) || defined(__opencl_c_pipes) || defined(__opencl_c_device_enqueue) || defined(__opencl_c_subgroups) || defined(__opencl_c_atomic_scope_all_devices) || defined(__opencl_c_work_group_collective_functions))
#error a feature outside the default set is on
#endif
void set(uint *p, uint v) { *p = v; }
kernel void k(global uint *a) {
#ifdef USE_GENERIC
  set(a, 1u);
#endif
  global_barrier();
  a[get_global_id(0)] = 2u;
}
#ifdef USE_PROGRAM_SCOPE
global uint rounds = 0;
kernel void g(global uint *a) {
  rounds++;
  global_barrier();
  a[0] = rounds;
}
#endif
