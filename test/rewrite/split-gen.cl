// The split barrier with --barrier=gen: global_barrier_arrive() and
// global_barrier_wait() become the rule's two halves, the arrival at the
// counter, then the spin on the generation, and the output builds
// (test/rewrite/split-sites.cl: the calls and their sites, whatever the rule).
// RUN: %gsync --barrier=gen %S/Inputs/split.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT:   if (gsync_leader()) {
// CHECK-NEXT:     uint g;
// CHECK-NEXT:     gsync_gen_arrival(c, &g);
// CHECK-NEXT:     c->split = g;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK: void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   if (gsync_leader()) {
// CHECK-NEXT:     gsync_gen_await(c, site, c->split);
// CHECK-NEXT:     gsync_device_fence();
// CHECK-NEXT:     gsync_watch_tick(c, gsync_watch_peek(c));
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT: }
