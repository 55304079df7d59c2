// Message-passing stress test (issue 3, item 2). In episode e every
// work-item writes e to its own slot with a plain store; after a global
// barrier it reads the slot of the same local id in another group (a
// different partner each episode) and counts a stale read if it is not e;
// a second barrier keeps the partner from writing episode e+1 too early.
// Zero stale reads is the only pass; with a no-op barrier it must see some.
kernel void mp(global uint *slots, global uint *stale, uint episodes) {
  uint g = (uint)get_group_id(0), groups = (uint)get_num_groups(0);
  uint l = (uint)get_local_id(0), ls = (uint)get_local_size(0);
  uint bad = 0;
  for (uint e = 1; e <= episodes; e++) {
    slots[g * ls + l] = e;
    global_barrier();
    uint partner = groups > 1 ? (g + 1u + e % (groups - 1u)) % groups : g;
    if (slots[partner * ls + l] != e)
      bad++;
    global_barrier();
  }
  stale[g * ls + l] = bad;
}
