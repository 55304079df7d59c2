/* barrier-flip: one word, one atomic per group and barrier: the algorithm
 * of CUDA's grid.sync(), with every access atomic.
 *
 * @summary one word whose top bit flips (grid.sync's algorithm), all atomic
 * @runs-on every OpenCL 1.1+ device
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-fixed 128
 * @split
 *
 * Algorithm: linear local id 0 of participant 0 adds 0x80000000 - (groups - 1)
 * to the word, every other participant adds 1; the adds sum to 0x80000000, so
 * once all have arrived the top bit has flipped and the low 31 bits are back
 * where they were. Each waits until the word's top bit differs from the one
 * its own add returned. No reset, no last-arriver round trip, and the state
 * needs no reset between barriers or launches. Its word: rule word 16.
 *
 * Shape: all of it in ONE if (gsync_leader()) block between two
 * work-group barriers (the only shape PoCL runs; docs/barriers.md).
 *
 * Memory model: the opening barrier(CLK_GLOBAL_MEM_FENCE) makes the
 * group's writes visible to linear local id 0; gsync_device_fence()
 * before the add orders them before the arrival (release); the fence after
 * the spin orders later reads after the flip was seen (acquire); the
 * closing work-group barrier passes it to the whole group. The spin reads
 * with atomic_or(p, 0), performed at the coherence point (non-coherent L1
 * caches too), never hoisted.
 *
 * Split (docs/split.md): gsync_barrier_arrive() is the opening work-group
 * barrier and the add, and keeps what the add returned in c->split;
 * gsync_barrier_wait() is the spin on that value, the acquire fence and
 * the closing work-group barrier. The word cannot flip twice in between:
 * the next flip needs this group's next add, which comes after its wait.
 *
 * Bounded spin (prelude.cl): a group that gives up has added its arrival
 * and tells no one anything more; the word is left mid-barrier, and the
 * host zeroes the state after an aborted launch.
 */

/* How many groups have arrived, from the word w seen mid-barrier. The low
 * 31 bits start every barrier at 0 (they return to it after each one): a
 * value below groups counts the arrivals of participants other than 0;
 * once participant 0 has added 2^31 - (groups - 1) they read
 * 2^31 - (groups - 1) + arrivals of the others. */
uint gsync_flip_arrived(uint w, uint groups) {
  uint low = w & 0x7fffffffu;
  return low < groups ? low : groups - (0x80000000u - low);
}

/* The leader's arrival (release): returns the word before its add. */
uint gsync_flip_arrival(private struct gsync_ctx *c) {
  uint add = c->group == 0 ? 0x80000000u - (c->groups - 1u) : 1u;
  gsync_device_fence();
  return atomic_add(gsync_rule_words(c), add);
}

/* The leader's wait (then acquire) until the top bit differs from old's. */
void gsync_flip_await(private struct gsync_ctx *c, uint site, uint old) {
  global uint *word = gsync_rule_words(c);
  gsync_spin_while(c, site, ((old ^ atomic_or(word, 0u)) & 0x80000000u) == 0,
                   gsync_flip_arrived(atomic_or(word, 0u), c->groups));
  gsync_device_fence();
  gsync_watch_tick(c, gsync_watch_peek(c));
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader())
    gsync_flip_await(c, site, gsync_flip_arrival(c));
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}

void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader())
    c->split = gsync_flip_arrival(c);
}

void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
  if (gsync_leader())
    gsync_flip_await(c, site, c->split);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
