// --barrier=gen: the generation-counter rule.
// RUN: %gsync --barrier=gen %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: /* barrier-gen: {{.*}}
// CHECK: void gsync_gen_await(private struct gsync_ctx *c, uint site, uint g) {
// CHECK-NEXT:   global uint *gen = gsync_rule_words(c) + 32;
// CHECK-NEXT:   gsync_spin_while(c, site, atomic_or(gen, 0u) == g,
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK:     if (!gsync_gen_arrival(c, &g))
// CHECK-NEXT:       gsync_gen_await(c, site, g);
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "gen",
// The requirements and state sizes the rule header declares, as the
// constraints carry them (test/utils/rules-complete.py asks for these).
// RUN: FileCheck --check-prefix=REQ %s < %t.json
// REQ: "opencl_c_version": "1.2",
// REQ-NEXT: "extensions": [
// REQ-NEXT: "cl_khr_global_int32_base_atomics"
// REQ-NEXT: ],
// REQ-NEXT: "atomic_capabilities": [
// REQ-NEXT: ],
// REQ: "fixed": 512,
// REQ-NEXT: "per_group": 0
