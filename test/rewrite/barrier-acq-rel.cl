// --barrier=acq-rel needs OpenCL C 2.0; the output builds as 2.0 and, on
// PoCL, as 3.0 with the atomic features; the constraints say what it needs.
// RUN: %gsync --barrier=acq-rel -cl-std=CL2.0 %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL2.0 %t.cl
// RUN: %gsync-run --build-only %t.cl --options -cl-std=CL3.0
// An OpenCL C 1.2 build stops at the rule's own #error, not somewhere deep.
// RUN: not %clang-cl -cl-std=CL1.2 %t.cl 2>&1 | FileCheck --check-prefix=OLD %s
// CHECK: /* barrier-acq-rel: Xiao-Feng master/slave flags with OpenCL 2.0 atomics,
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK:   atomic_store_explicit(&flag[2 * c->group], 1u, memory_order_release,
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "acq-rel",
// JSON: "opencl_c_version": "2.0",
// JSON: "atomic_capabilities": [
// JSON-NEXT: "acq_rel",
// JSON-NEXT: "device_scope"
// OLD: {{.*}}error: "barrier acq-rel needs OpenCL C 2.0 or later (build with -cl-std=CL2.0 or CL3.0)"
// The requirements and state sizes the rule header declares, as the
// constraints carry them (test/utils/rules-complete.py asks for these).
// RUN: FileCheck --check-prefix=REQ %s < %t.json
// REQ: "opencl_c_version": "2.0",
// REQ-NEXT: "extensions": [
// REQ-NEXT: "cl_khr_global_int32_base_atomics"
// REQ-NEXT: ],
// REQ-NEXT: "atomic_capabilities": [
// REQ-NEXT: "acq_rel",
// REQ-NEXT: "device_scope"
// REQ-NEXT: ],
// REQ: "fixed": 256,
// REQ-NEXT: "per_group": 8
