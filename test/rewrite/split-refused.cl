// A barrier rule without '@split' refuses global_barrier_arrive() and
// global_barrier_wait(), once, at the first half, naming itself and the
// barriers that split; nothing is written. Xiao-Feng's master (atomic-or,
// volatile, acq-rel) gathers the arrivals only when it waits, and the
// test-only rules have no halves. (test/run/split.test checks every
// built-in barrier without the key.)
// RUN: not %gsync --barrier=atomic-or %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
// RUN: not %gsync --rules-dir=%rules --barrier=noop %s -o %t.cl 2>&1 | FileCheck --check-prefix=NOOP %s --implicit-check-not=error:
kernel void k(global uint *a, uint n) {
  global_barrier_arrive();
  // CHECK: split-refused.cl:[[@LINE-1]]:3: error: barrier 'atomic-or' does not split into global_barrier_arrive() and global_barrier_wait() (its rule has no '@split'); barriers that do: flip, gen, tree
  // NOOP: split-refused.cl:[[@LINE-2]]:3: error: barrier 'noop' does not split into global_barrier_arrive() and global_barrier_wait() (its rule has no '@split'); barriers that do: flip, gen, {{(no-wait, )?}}tree
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier_wait();
}
