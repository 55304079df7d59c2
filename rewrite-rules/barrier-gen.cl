/* barrier-gen: a generation-counter barrier. One arrival counter and one
 * generation word; every access atomic, so it is safe everywhere.
 *
 * @summary generation counter, all accesses atomic
 * @runs-on every OpenCL 1.1+ device
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-fixed 256
 * @split
 *
 * Algorithm: linear local id 0 of each participating group reads the generation
 * word, then atomic_inc's the arrival counter. The last to arrive (the
 * increment returns groups - 1) resets the counter to zero and bumps the
 * generation; the others spin until the generation differs from the value
 * they read before arriving. The generation cannot move between that read
 * and the arrival (it needs every arrival, this one included), so no wake-up
 * is missed; the counter is back at zero before the generation moves, so
 * the state needs no reset between barriers or launches (the generation
 * wraps harmlessly). Counter at rule word 0, generation at rule word 32: separate
 * 128-byte lines, so the spinners do not slow the arrivals down.
 * Cost per barrier: one atomic per group plus one round trip for the last
 * arriver, instead of Xiao-Feng's serial scan of every group's flag.
 *
 * Shape: all of it in ONE if (gsync_leader()) block between two
 * work-group barriers (the only shape PoCL runs; docs/barriers.md).
 *
 * Memory model: the opening barrier(CLK_GLOBAL_MEM_FENCE) makes the group's
 * writes visible to linear local id 0; its gsync_device_fence() before
 * the arrival orders them before the increment (release); the fence after
 * the read of the generation keeps that read before the arrival; the last
 * arriver's fence orders the counter reset before the bump; the fence after
 * the spin orders later reads after the new generation was seen (acquire),
 * and the closing work-group barrier passes it to the whole group. Every
 * access is an atomic, performed at the coherence point, so it works with
 * non-coherent L1 caches (AMD GCN) and cannot be hoisted out of the spin.
 *
 * Split (docs/split.md): gsync_barrier_arrive() is the opening work-group
 * barrier, the read of the generation and the arrival (the last arriver's
 * reset and bump included), and keeps the generation read in c->split;
 * gsync_barrier_wait() is the spin until the generation differs from it
 * (the last arriver's ends at its first poll), the acquire fence and the
 * closing work-group barrier. The generation cannot move twice in
 * between: the next move needs this group's next arrival.
 *
 * Bounded spin (prelude.cl): a group that gives up has counted itself and
 * tells no one anything more; the counter reads how many have arrived.
 * The host zeroes the state after an aborted launch.
 */
/* The leader's arrival (release): puts the generation it read before
 * arriving in *g; returns nonzero if it was the last to arrive and moved
 * the generation on itself. */
int gsync_gen_arrival(private struct gsync_ctx *c, private uint *g) {
  global uint *count = gsync_rule_words(c);
  global uint *gen = gsync_rule_words(c) + 32;
  *g = atomic_or(gen, 0u);
  gsync_device_fence();
  if (atomic_inc(count) != c->groups - 1)
    return 0;
  atomic_xchg(count, 0u);
  gsync_device_fence();
  atomic_inc(gen);
  return 1;
}

/* The leader's wait until the generation differs from g. */
void gsync_gen_await(private struct gsync_ctx *c, uint site, uint g) {
  global uint *gen = gsync_rule_words(c) + 32;
  gsync_spin_while(c, site, atomic_or(gen, 0u) == g,
                   atomic_or(gsync_rule_words(c), 0u));
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    uint g;
    if (!gsync_gen_arrival(c, &g))
      gsync_gen_await(c, site, g);
    gsync_device_fence();
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}

void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    uint g;
    gsync_gen_arrival(c, &g);
    c->split = g;
  }
}

void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
  if (gsync_leader()) {
    gsync_gen_await(c, site, c->split);
    gsync_device_fence();
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
