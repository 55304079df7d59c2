// --barrier=auto with the split barrier: atomic-or, inside, has no halves,
// so the tool refuses them, once, naming it; nothing is written.
// RUN: not %gsync --barrier=auto %s -o %t.cl --constraints %t.json 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
// RUN: not test -e %t.json
kernel void k(global uint *a, uint n) {
  global_barrier_arrive();
  // CHECK: split.cl:[[@LINE-1]]:3: error: --barrier=auto holds atomic-or, which does not split into global_barrier_arrive() and global_barrier_wait() (its rule has no '@split'); name a barrier that splits with --barrier=NAME
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier_wait();
  global_barrier_arrive();
  global_barrier_wait();
}
