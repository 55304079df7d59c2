/* barrier-gen: a generation-counter barrier. One arrival counter and one
 * generation word; every access atomic, so it is safe everywhere.
 *
 * @summary generation counter, all accesses atomic
 * @runs-on every OpenCL 1.1+ device
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-fixed 256
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
 * Bounded spin (prelude.cl): a group that gives up has counted itself and
 * tells no one anything more; the counter reads how many have arrived.
 * The host zeroes the state after an aborted launch.
 */
void gsync_barrier(private struct gsync_ctx *c, uint site) {
  global uint *count = gsync_rule_words(c);
  global uint *gen = gsync_rule_words(c) + 32;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    uint g = atomic_or(gen, 0u);
    gsync_device_fence();
    if (atomic_inc(count) == c->groups - 1) {
      atomic_xchg(count, 0u);
      gsync_device_fence();
      atomic_inc(gen);
    } else {
      gsync_spin_while(c, site, atomic_or(gen, 0u) == g, atomic_or(count, 0u));
    }
    gsync_device_fence();
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
