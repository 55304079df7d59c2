/* barrier-no-wait: a split barrier whose wait waits for no one. For tests
 * only: its gsync_barrier_arrive() arrives as a real barrier does (a
 * release fence and an atomic add to a counter), and its
 * gsync_barrier_wait() keeps only the closing work-group barrier, so a
 * run test of global_barrier_arrive() and global_barrier_wait() that
 * still passes with it does not check the wait (test/run/split-teeth.test).
 *
 * @summary a split barrier without its wait (test suite only: proves the split run test can fail)
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-fixed 128
 * @split
 */
void gsync_barrier(private struct gsync_ctx *c, uint site) {
  (void)c;
  (void)site;
}

void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    gsync_device_fence();
    atomic_inc(gsync_rule_words(c));
  }
}

void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
