// --barrier=volatile puts the volatile-flag rule in the prelude; an OpenCL
// C 1.1 input needs no more than 1.1, the rule's own minimum.
// RUN: %gsync --barrier=volatile -cl-std=CL1.1 %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: /* barrier-volatile: Xiao-Feng master/slave flags through volatile loads
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   volatile global uint *flag = gsync_rule_words(c);
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "volatile",
// JSON: "opencl_c_version": "1.1",
// The requirements and state sizes the rule header declares, as the
// constraints carry them (test/utils/rules-complete.py asks for these).
// RUN: FileCheck --check-prefix=REQ %s < %t.json
// REQ: "opencl_c_version": "1.1",
// REQ-NEXT: "extensions": [
// REQ-NEXT: "cl_khr_global_int32_base_atomics"
// REQ-NEXT: ],
// REQ-NEXT: "atomic_capabilities": [
// REQ-NEXT: ],
// REQ: "fixed": 256,
// REQ-NEXT: "per_group": 8
