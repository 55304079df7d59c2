/* barrier-noop: a barrier that does nothing. For tests only: the run tests
 * use it to prove that they fail when the barrier is broken.
 *
 * @summary does nothing (test suite only: proves the run tests can fail)
 * @opencl-c 1.1
 * @state-per-group 8
 */
void gsync_barrier(private struct gsync_ctx *c, uint site) {
  (void)c;
  (void)site;
}
