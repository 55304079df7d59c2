/* discovery-none: every launched work-group takes part (--no-discovery).
 *
 * @summary no discovery: the host launches only co-resident work-groups
 * @opencl-c 1.1
 *
 * Participant ids are the groups' linear ids in the launch (the virtual
 * grid is then the launch's shape, and the rewrite keeps the real ids). The barrier deadlocks if the device
 * cannot run all launched work-groups at once: the constraints say so
 * ("coresident_launch_required"), and the host must respect it.
 * Word 5 of the state holds the participant count for libgsync.
 */
int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  c->group = gsync_launch_group();
  c->groups = gsync_launch_groups();
  if (c->group == 0 && gsync_leader())
    s[5] = c->groups;
  return 1;
}
