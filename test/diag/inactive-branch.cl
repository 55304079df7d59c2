// global_barrier() (or a half of the split barrier) in a branch the
// preprocessor skips is a warning, once a branch: it is not rewritten for
// this configuration. The output is still written.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %gsync -DUSE_SYNC %s -o %t.sync.cl 2>&1 | FileCheck --allow-empty --check-prefix=ACTIVE %s
// RUN: FileCheck --match-full-lines --check-prefix=OUT %s < %t.sync.cl
kernel void k(global uint *a) {
  a[get_global_id(0)] = 1;
#ifdef USE_SYNC
  global_barrier();
  // CHECK: inactive-branch.cl:[[@LINE-1]]:3: warning: 'global_barrier' in a branch that the preprocessor skips with these options: it is not rewritten for this configuration
#endif
#ifdef USE_OTHER
  // Names that only contain a pseudo-intrinsic's say nothing.
  global_barrier_step(a);
  my_global_barrier();
#endif
#ifdef USE_SPLIT
  global_barrier_arrive();
  // CHECK: inactive-branch.cl:[[@LINE-1]]:3: warning: 'global_barrier_arrive' in a branch that the preprocessor skips with these options: it is not rewritten for this configuration
  global_barrier_wait();
#endif
}
// With USE_SYNC: the split branch is still skipped, and the kernel is not
// grid-stride (stride.c); nothing else is said.
// ACTIVE: inactive-branch.cl:19:3: warning: 'global_barrier_arrive' in a branch
// ACTIVE: inactive-branch.cl:8:3: warning: kernel 'k' indexes memory by get_global_id(0) outside a grid-stride loop
// ACTIVE-NOT: warning
// OUT: gsync_barrier(gsync_ctx, 1);
