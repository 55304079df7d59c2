// The flip barrier (grid.sync's one-word algorithm), with the device fence
// that NVIDIA needs, and the lock-free discovery.
// RUN: %gsync --barrier=flip --discovery=lockfree %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: void gsync_device_fence(void) {
// CHECK-NEXT:   mem_fence(CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT: #if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)
// CHECK-NEXT:   asm volatile("membar.gl;" ::: "memory");
// CHECK: /* barrier-flip: one word, one atomic per group and barrier: the algorithm
// CHECK: uint gsync_flip_arrival(private struct gsync_ctx *c) {
// CHECK:   return atomic_add(gsync_rule_words(c), add);
// CHECK: void gsync_flip_await(private struct gsync_ctx *c, uint site, uint old) {
// CHECK-NEXT:   global uint *word = gsync_rule_words(c);
// CHECK-NEXT:   gsync_spin_while(c, site, ((old ^ atomic_or(word, 0u)) & 0x80000000u) == 0,
// CHECK-NEXT:                    gsync_flip_arrived(atomic_or(word, 0u), c->groups));
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK:     gsync_flip_await(c, site, gsync_flip_arrival(c));
// CHECK: /* discovery-lockfree: occupancy discovery without a lock. A polled group's
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "flip",
// JSON: "discovery": true,
// JSON: "fixed": 384,
// JSON-NEXT: "per_group": 0
// The requirements and state sizes the rule header declares, as the
// constraints carry them (test/utils/rules-complete.py asks for these).
// RUN: FileCheck --check-prefix=REQ %s < %t.json
// REQ: "opencl_c_version": "1.2",
// REQ-NEXT: "extensions": [
// REQ-NEXT: "cl_khr_global_int32_base_atomics"
// REQ-NEXT: ],
// REQ-NEXT: "atomic_capabilities": [
// REQ-NEXT: ],
// REQ: "fixed": 384,
// REQ-NEXT: "per_group": 0
