/* discovery-ticket: the occupancy discovery protocol of Sorensen et al.
 * ("Portable inter-workgroup barrier synchronisation for GPUs", OOPSLA
 * 2016), with a ticket lock.
 *
 * @summary OOPSLA'16 occupancy discovery under a ticket lock
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 *
 * Linear local id 0 of each work-group runs it; the verdict reaches the rest of
 * the group through local memory, so a group takes part or returns as a
 * whole.
 *   polling phase: under the lock, if the poll is open, take id count++;
 *                  otherwise do not take part
 *   closing phase: under the lock, close the poll
 * Every group that took an id was running while the poll was open, and the
 * poll is closed by a participant before it reaches any barrier, so all
 * participants are co-resident and a barrier among them cannot deadlock.
 * The last of all launched groups to finish discovery resets the words for
 * the next launch, after recording the participant count for the host.
 *
 * Its words, in the discovery's region: the next ticket, the ticket
 * served, the poll closed, the count, the groups done (GSYNC_TK_* below);
 * and it records the participants of the last launch in the state
 * table's word participants (read by libgsync).
 *
 * Memory model: every access to a shared word is an atomic, and the lock
 * is entered and left with a global mem_fence, so the count read under the
 * lock is current on devices with non-coherent L1 caches too.
 *
 * Bounded spin (prelude.cl): a group that gives up waiting for the lock
 * does not take part (the protocol's words are then left inconsistent, and
 * the host zeroes the state after an aborted launch); the next-ticket word
 * tells how many groups had come.
 */
#define GSYNC_TK_NEXT (gsync_word_discovery + 0u)
#define GSYNC_TK_SERVED (gsync_word_discovery + 1u)
#define GSYNC_TK_CLOSED (gsync_word_discovery + 2u)
#define GSYNC_TK_COUNT (gsync_word_discovery + 3u)
#define GSYNC_TK_DONE (gsync_word_discovery + 4u)

void gsync_lock(global uint *s, private struct gsync_ctx *c) {
  uint ticket = atomic_inc(&s[GSYNC_TK_NEXT]);
  gsync_spin_while(c, gsync_in_discovery, atomic_or(&s[GSYNC_TK_SERVED], 0u) != ticket,
                   atomic_or(&s[GSYNC_TK_NEXT], 0u));
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}

void gsync_unlock(global uint *s) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_inc(&s[GSYNC_TK_SERVED]);
}

int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    uint id = 0xffffffffu, count = 0;
    gsync_lock(s, c);
    if (atomic_or(&s[GSYNC_TK_CLOSED], 0u) == 0)
      id = atomic_inc(&s[GSYNC_TK_COUNT]);
    gsync_unlock(s);
    if (id != 0xffffffffu) {
      gsync_lock(s, c);
      atomic_xchg(&s[GSYNC_TK_CLOSED], 1u);
      count = atomic_or(&s[GSYNC_TK_COUNT], 0u);
      gsync_unlock(s);
    }
    if (gsync_aborted(c))
      id = 0xffffffffu;
    shared[0] = id;
    shared[1] = count;
    if (atomic_inc(&s[GSYNC_TK_DONE]) == gsync_launch_groups() - 1) {
      /* Every launched group is past discovery: reset for the next launch. */
      atomic_xchg(&s[gsync_word_participants], atomic_or(&s[GSYNC_TK_COUNT], 0u));
      atomic_xchg(&s[GSYNC_TK_NEXT], 0u);
      atomic_xchg(&s[GSYNC_TK_SERVED], 0u);
      atomic_xchg(&s[GSYNC_TK_CLOSED], 0u);
      atomic_xchg(&s[GSYNC_TK_COUNT], 0u);
      atomic_xchg(&s[GSYNC_TK_DONE], 0u);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  c->group = shared[0];
  c->groups = shared[1];
  return shared[0] != 0xffffffffu;
}
