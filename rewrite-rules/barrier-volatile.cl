/* barrier-volatile: Xiao-Feng master/slave flags through volatile loads
 * and stores with global memory fences.
 *
 * @summary Xiao-Feng flags, volatile accesses
 * @runs-on NVIDIA and CPUs, not AMD GCN (non-coherent L1)
 * @opencl-c 1.1
 * @state-per-group 8
 *
 * Algorithm and shape as barrier-atomic-or: participant g > 0 raises
 * arrive[g] and waits for release[g]; participant 0 waits for every arrival,
 * clears them and raises every release. Flags at rule words 2g and 2g + 1,
 * back at zero after each barrier. Linear local id 0 does all flag
 * traffic, inside one if-block between two work-group barriers.
 *
 * Memory model: volatile alone orders nothing; the ordering comes from the
 * gsync_device_fence() before raising a flag (release) and after
 * seeing one (acquire), and from the work-group barriers around the block.
 * volatile keeps the compiler from hoisting the spin loads. It relies on a
 * volatile load reaching the coherence point: true on NVIDIA (volatile
 * global loads bypass L1) and on CPUs, NOT on AMD GCN, whose per-CU L1 is
 * not coherent, so a spin there may never see the other group's store. Use
 * atomic-or there.
 *
 * Bounded spin (prelude.cl): a master that gives up releases no one, so
 * no group leaves the barrier as if it were complete. The abort word is
 * read with an atomic (the prelude's), which is stronger than the volatile
 * load plus fence the flags use and leaves their accesses as they were.
 * The host zeroes the state after an aborted launch.
 */
/* How many groups have raised their arrival flag (the master counted when
 * it is the one asking: its own arrival sets no flag). */
uint gsync_xf_arrived(volatile global uint *flag,
                      private struct gsync_ctx *c) {
  uint n = c->group == 0;
  for (uint g = 1; g < c->groups; g++)
    n += flag[2 * g] != 0;
  return n;
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  volatile global uint *flag = gsync_rule_words(c);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    if (c->group == 0) {
      for (uint g = 1; g < c->groups && !gsync_aborted(c); g++)
        gsync_spin_while(c, site, flag[2 * g] == 0, gsync_xf_arrived(flag, c));
      gsync_device_fence();
      for (uint g = 1; g < c->groups && !gsync_aborted(c); g++) {
        flag[2 * g] = 0;
        gsync_device_fence();
        flag[2 * g + 1] = 1;
      }
    } else {
      gsync_device_fence();
      flag[2 * c->group] = 1;
      gsync_spin_while(c, site, flag[2 * c->group + 1] == 0,
                       gsync_xf_arrived(flag, c));
      flag[2 * c->group + 1] = 0;
      gsync_device_fence();
    }
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
