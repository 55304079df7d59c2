// The split barrier with --barrier=tree: global_barrier_arrive() and
// global_barrier_wait() become the rule's two halves, the arrival at the top
// word or a leaf, then the spin on the top bit (both paths: NVIDIA and
// elsewhere), and the output builds (test/rewrite/split-sites.cl: the calls
// and their sites, whatever the rule).
// RUN: %gsync --barrier=tree %S/Inputs/split.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// CHECK: void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT:   if (gsync_leader())
// CHECK-NEXT:     c->split = gsync_tree_arrival(c);
// CHECK-NEXT: }
// CHECK: void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
// CHECK-NEXT:   if (gsync_leader()) {
// CHECK-NEXT:     gsync_tree_await(c, site, c->split, 0);
// CHECK-NEXT:     gsync_watch_tick(c, gsync_watch_peek(c));
// CHECK-NEXT:   }
// CHECK-NEXT:   barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT: }
// NVIDIA's path of the rule, whose arrival and wait the halves share,
// compiles for nvptx64 as barrier-tree.cl's does: the halves arrive with
// the release add, poll with relaxed loads and acquire with one load.
// RUN: %gsync --barrier=tree --no-discovery %S/Inputs/split.cl -o %t.nd.cl
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -Dasm=__asm__ -O2 -S %t.nd.cl -o - | FileCheck --check-prefix=PTX %s
// PTX-LABEL: .entry halves(
// PTX: atom.release.gpu.global.add.u32
// PTX: ld.acquire.gpu.global.u32
