/* discovery-stuck: a discovery protocol that never ends: every work-group
 * waits for a word that no one writes. For tests only: the spin limit must
 * end such a launch with a discovery timeout that libgsync reports.
 *
 * @summary waits forever (test suite only: proves discovery's wait is bounded)
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 *
 * State words: 0 groups that came, 1 never written.
 */
int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    atomic_inc(&s[0]);
    gsync_spin_while(c, gsync_in_discovery, atomic_or(&s[1], 0u) == 0,
                     atomic_or(&s[0], 0u));
    shared[0] = gsync_aborted(c) ? 0xffffffffu : gsync_launch_group();
    shared[1] = gsync_launch_groups();
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  c->group = shared[0];
  c->groups = shared[1];
  return shared[0] != 0xffffffffu;
}
