/* discovery-first: admits the first GSYNC_TEST_ADMIT work-groups to
 * arrive (3 unless the build defines it), or every launched one if fewer,
 * without waiting for any. For tests only: with the no-op barrier, whose
 * work-groups never wait for each other, it gives the virtual grid an
 * admitted count the test chooses, however many groups really run at once.
 *
 * @summary admits a fixed count without waiting (test suite only: virtual grids of a chosen size)
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 *
 * State words: 0 tickets taken, 2 groups done, 5 participants of the last
 * launch (read by libgsync).
 */
#ifndef GSYNC_TEST_ADMIT
#define GSYNC_TEST_ADMIT 3
#endif
int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    uint launched = gsync_launch_groups();
    uint count = min((uint)GSYNC_TEST_ADMIT, launched);
    uint ticket = atomic_inc(&s[0]);
    shared[0] = ticket < count ? ticket : 0xffffffffu;
    shared[1] = count;
    if (atomic_inc(&s[2]) == launched - 1) {
      /* Every launched group has its ticket: reset for the next launch. */
      atomic_xchg(&s[5], count);
      atomic_xchg(&s[0], 0u);
      atomic_xchg(&s[2], 0u);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  c->group = shared[0];
  c->groups = shared[1];
  return shared[0] != 0xffffffffu;
}
