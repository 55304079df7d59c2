// OpenCL C 3.0 with the C11 atomic functions, as a kernel written for a 3.0
// device with atomics has them: the default features (those PoCL declares)
// declare atomic_fetch_add and atomic_load, the rewrite keeps them, the
// constraints ask for OpenCL C 3.0 and name the features the output uses,
// and PoCL builds the output.
// RUN: %gsync -cl-std=CL3.0 %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL3.0 -D__opencl_c_atomic_scope_device=1 %t.cl
// RUN: %gsync-run --build-only %t.cl --options -cl-std=CL3.0 | FileCheck --check-prefix=BUILD %s
// BUILD: build ok
kernel void count(global atomic_uint *c, global uint *out, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_fetch_add(c, 1u);
  global_barrier();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    out[i] = atomic_load(c) + i;
}
// CHECK:  * Launch: 1-, 2- or 3-D {{.*}}
// CHECK-NEXT:  * of {{.*}}
// CHECK-NEXT:  * launch. Needs OpenCL C 3.0 with __opencl_c_atomic_order_seq_cst, __opencl_c_atomic_scope_device. libgsync does all this.
// CHECK: kernel void count(global atomic_uint *c, global uint *out, uint n, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     atomic_fetch_add(c, 1u);
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK: out[i] = atomic_load(c) + i;
// JSON:      "opencl_c_version": "3.0",
// JSON:      "opencl_c_features": [
// JSON-NEXT:   "__opencl_c_atomic_order_seq_cst",
// JSON-NEXT:   "__opencl_c_atomic_scope_device"
// JSON-NEXT: ]
