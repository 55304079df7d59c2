// --barrier=atomic-or puts the all-atomic Xiao-Feng rule in the prelude.
// RUN: %gsync --barrier=atomic-or %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: /* barrier-atomic-or: Xiao-Feng master/slave flags, every flag access an
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK:       for (uint g = 1; g < c->groups && !gsync_aborted(c); g++)
// CHECK-NEXT:         gsync_spin_while(c, site, atomic_or(&flag[2 * g], 0u) == 0,
// CHECK:       for (uint g = 1; g < c->groups && !gsync_aborted(c); g++) {
// CHECK-NEXT:         atomic_xchg(&flag[2 * g], 0u);
// CHECK: #line 1 "{{.*}}common.cl"
// CHECK-NEXT: // Shared input of the per-barrier tests: a two-phase grid-stride kernel.
// The requirements and state sizes the rule header declares, as the
// constraints carry them (test/utils/rules-complete.py asks for these).
// RUN: FileCheck --check-prefix=REQ %s < %t.json
// REQ: "opencl_c_version": "1.2",
// REQ-NEXT: "extensions": [
// REQ-NEXT: "cl_khr_global_int32_base_atomics"
// REQ-NEXT: ],
// REQ-NEXT: "atomic_capabilities": [
// REQ-NEXT: ],
// REQ: "fixed": 256,
// REQ-NEXT: "per_group": 8
