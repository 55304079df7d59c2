// The split barrier with --barrier=flip: global_barrier_arrive() and
// global_barrier_wait() become the rule's two halves, the add to the flip
// word, then the spin on its top bit, and the output builds
// (test/rewrite/split-sites.cl: the calls and their sites, whatever the rule).
// RUN: %gsync --barrier=flip %S/Inputs/split.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT:   if (gsync_leader())
// CHECK-NEXT:     c->split = gsync_flip_arrival(c);
// CHECK-NEXT: }
// CHECK: void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   if (gsync_leader())
// CHECK-NEXT:     gsync_flip_await(c, site, c->split);
// CHECK-NEXT:   barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT: }
