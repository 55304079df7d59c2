// OpenCL C 2.0 has every feature: the generic address space (a helper that
// takes an unqualified pointer is called with global and local ones),
// program-scope global variables, C11 atomics with explicit orders and
// scopes, work-group collective functions. The rewrite keeps them, the
// constraints ask for OpenCL C 2.0 and name the features the output uses
// (so that a host can tell whether a 3.0 device can stand in), and clang
// accepts the output as OpenCL C 2.0.
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL2.0 %t.cl
global atomic_uint total = ATOMIC_VAR_INIT(0);
global uint phases;
void add(uint *p, uint v) { *p += v; }
uint sum(global uint *a, uint n, local uint *part) {
  if (get_local_id(0) == 0)
    *part = 0;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    add(&a[i], 1u);
    atomic_fetch_add_explicit(&total, a[i], memory_order_relaxed,
                              memory_scope_device);
  }
  add(part, work_group_reduce_add(1u));
  global_barrier();
  return atomic_load_explicit(&total, memory_order_acquire, memory_scope_device) + *part;
}
kernel void k(global uint *a, global uint *out, uint n) {
  local uint part;
  uint s = sum(a, n, &part);
  if (get_global_id(0) == 0) {
    phases++;
    out[0] = s;
  }
}
// CHECK: uint sum(global uint *a, uint n, local uint *part, private struct gsync_ctx *gsync_ctx) {
// CHECK:   gsync_barrier(gsync_ctx, 1);
// CHECK: kernel void k(global uint *a, global uint *out, uint n, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   local uint part;
// CHECK-NEXT:   uint s = sum(a, n, &part, gsync_ctx);
// JSON:      "opencl_c_version": "2.0",
// JSON:      "opencl_c_features": [
// JSON-NEXT:   "__opencl_c_atomic_order_acq_rel",
// JSON-NEXT:   "__opencl_c_atomic_scope_device",
// JSON-NEXT:   "__opencl_c_generic_address_space",
// JSON-NEXT:   "__opencl_c_program_scope_global_variables",
// JSON-NEXT:   "__opencl_c_work_group_collective_functions"
// JSON-NEXT: ]
