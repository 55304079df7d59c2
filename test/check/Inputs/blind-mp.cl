// A stress kernel that cannot see a broken barrier: each work-item reads
// back its own slot, which it wrote itself, so no read is ever stale
// whatever the barrier does. gsync-check --stress-kernel with it must call
// the stress test blind and recommend nothing (test/check/control.test).
kernel void mp(global uint *slots, global uint *stale, uint episodes) {
  uint g = (uint)get_group_id(0);
  uint l = (uint)get_local_id(0), ls = (uint)get_local_size(0);
  uint bad = 0;
  for (uint e = 1; e <= episodes; e++) {
    slots[g * ls + l] = e;
    global_barrier();
    if (slots[g * ls + l] != e)
      bad++;
    global_barrier();
  }
  stale[g * ls + l] = bad;
}
