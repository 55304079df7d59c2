/* discovery-lockfree: occupancy discovery without a lock. One join word,
 * whose top bit closes the poll, and one word where the closer publishes
 * the count.
 *
 * @summary lock-free occupancy discovery: one atomic to join, one to close
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 *
 * Linear local id 0 of each work-group runs it; the verdict reaches the rest of
 * the group through local memory, so a group takes part or returns whole.
 *   join:   old = atomic_inc(&join). If old's top bit (CLOSED) is clear,
 *           the group takes part with id old; else it does not.
 *   close:  participant 0 polls the join word until every launched group
 *           has joined or the count has not moved for 64 polls (so groups
 *           that are running but a little late still get in), then sets
 *           CLOSED with atomic_or; the low bits it gets back are the count
 *           (every id handed out is below it: those increments came before
 *           the close in the word's modification order). It publishes
 *           count + 1 in the count word; the other participants spin on it.
 * Every participant was running while the poll was open, and participant 0
 * closes it before any barrier, without waiting for any other group, so
 * all participants are co-resident and nothing here can deadlock.
 * The last of all launched groups to finish resets the words for the next
 * launch, after recording the participant count for the host.
 *
 * State words: 0 join (+ CLOSED bit), 1 count + 1, 2 groups done,
 * 5 participants of the last launch (read by libgsync).
 *
 * Memory model: every access to a shared word is an atomic on one word
 * each; the verdict needs no other data, so no fences are needed for it.
 * The reset is ordered after every group's last access by the done counter.
 *
 * Bounded spin (prelude.cl): a participant that gives up waiting for the
 * count does not take part; the join word tells how many had joined.
 */
int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (gsync_leader()) {
    uint launched = gsync_launch_groups();
    uint id = 0xffffffffu, count = 0;
    uint old = atomic_inc(&s[0]);
    if ((old & 0x80000000u) == 0) {
      id = old;
      if (id == 0) {
        uint last = atomic_or(&s[0], 0u), still = 0;
        while (last < launched && still < 64) {
          uint now = atomic_or(&s[0], 0u);
          still = now == last ? still + 1 : 0;
          last = now;
        }
        count = atomic_or(&s[0], 0x80000000u) & 0x7fffffffu;
        atomic_xchg(&s[1], count + 1u);
      } else {
        uint v;
        c->group = id;
        gsync_spin_while(c, gsync_in_discovery, (v = atomic_or(&s[1], 0u)) == 0,
                         atomic_or(&s[0], 0u) & 0x7fffffffu);
        count = v - 1u;
        if (gsync_aborted(c))
          id = 0xffffffffu;
      }
    }
    shared[0] = id;
    shared[1] = count;
    if (atomic_inc(&s[2]) == launched - 1) {
      /* Every launched group is past discovery: reset for the next launch. */
      atomic_xchg(&s[5], atomic_or(&s[1], 0u) - 1u);
      atomic_xchg(&s[0], 0u);
      atomic_xchg(&s[1], 0u);
      atomic_xchg(&s[2], 0u);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  c->group = shared[0];
  c->groups = shared[1];
  return shared[0] != 0xffffffffu;
}
