/* barrier-local: a work-group barrier only, what a global barrier written
 * with barrier(CLK_GLOBAL_MEM_FENCE) gives. For tests only: with one
 * work-group it is a correct barrier, so a run test that fails with it and
 * several groups proves that it checks the synchronisation between
 * work-groups, not within one.
 *
 * @summary a work-group barrier only (test suite only: proves the run tests see other groups)
 * @opencl-c 1.1
 */
void gsync_barrier(private struct gsync_ctx *c, uint site) {
  (void)c;
  (void)site;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
