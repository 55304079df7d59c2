/* barrier-atomic-or: Xiao-Feng master/slave flags, every flag access an
 * atomic. Safe on every OpenCL 1.1+ device, AMD GCN included.
 *
 * @summary Xiao-Feng flags, all accesses atomic
 * @runs-on every OpenCL 1.1+ device
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-per-group 8
 *
 * Algorithm (Xiao and Feng, IPDPS 2010): participant g > 0 raises its
 * arrival flag and waits for its release flag; participant 0 (the master)
 * waits for every arrival flag, clears them and raises every release flag.
 * Flags sit at rule words 2g (arrive) and 2g + 1 (release);
 * each is back at zero after the barrier, so the state needs no reset.
 *
 * Shape: one work-item per group (linear local id 0) does all flag traffic,
 * inside one if-block between two work-group barriers. That is the shape
 * CUDA's grid.sync() uses, and the only one PoCL's CPU kernel compiler runs
 * correctly (see docs/pocl.md).
 *
 * Memory model: the first barrier(CLK_GLOBAL_MEM_FENCE) makes the group's
 * writes visible to linear local id 0; its gsync_device_fence() before
 * raising a flag orders them before the flag (release); the fence after
 * seeing the flag orders later reads after it (acquire); the closing
 * work-group barrier passes that on to the whole group. Reads are
 * atomic_or(p, 0) and writes atomic_xchg, which are performed at the
 * device's coherence point: they see other groups' stores even where the
 * L1 cache is not coherent (AMD GCN), and a compiler cannot hoist them out
 * of the spin loop.
 *
 * Bounded spin (prelude.cl): a master that gives up releases no one, so
 * no group leaves the barrier as if it were complete; the others give up
 * in turn. The host zeroes the state after an aborted launch.
 */

/* How many groups have raised their arrival flag (the master counted when
 * it is the one asking: its own arrival sets no flag). */
uint gsync_xf_arrived(global uint *flag, private struct gsync_ctx *c) {
  uint n = c->group == 0;
  for (uint g = 1; g < c->groups; g++)
    n += atomic_or(&flag[2 * g], 0u) != 0;
  return n;
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  global uint *flag = gsync_rule_words(c);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    if (c->group == 0) {
      for (uint g = 1; g < c->groups && !gsync_aborted(c); g++)
        gsync_spin_while(c, site, atomic_or(&flag[2 * g], 0u) == 0,
                         gsync_xf_arrived(flag, c));
      gsync_device_fence();
      for (uint g = 1; g < c->groups && !gsync_aborted(c); g++) {
        atomic_xchg(&flag[2 * g], 0u);
        atomic_xchg(&flag[2 * g + 1], 1u);
      }
    } else {
      gsync_device_fence();
      atomic_xchg(&flag[2 * c->group], 1u);
      gsync_spin_while(c, site, atomic_or(&flag[2 * c->group + 1], 0u) == 0,
                       gsync_xf_arrived(flag, c));
      atomic_xchg(&flag[2 * c->group + 1], 0u);
      gsync_device_fence();
    }
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
