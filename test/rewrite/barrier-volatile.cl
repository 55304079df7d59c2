// --barrier=volatile puts the volatile-flag rule in the prelude.
// RUN: %gsync --barrier=volatile %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: /* barrier-volatile: Xiao-Feng master/slave flags through volatile loads
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   volatile global uint *flag = c->state + 16;
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "volatile",
// JSON: "opencl_c_version": "1.1",
