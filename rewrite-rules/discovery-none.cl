/* discovery-none: every launched work-group takes part (--no-discovery).
 *
 * @summary no discovery: the host launches only co-resident work-groups
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @max-groups 1073741823
 *
 * Participant ids are the groups' linear ids in the launch (the virtual
 * grid is then the launch's shape, and the rewrite keeps the real ids).
 * The barrier deadlocks if the device cannot run all launched work-groups
 * at once: the constraints say so ("coresident_launch_required"), and the
 * host must respect it. Word participants of the state holds the
 * participant count for libgsync.
 *
 * How many fit is measured by this same kernel, so with its own registers
 * and local memory, in a build with -Dgsync_fit_probe (libgsync's build
 * options have it): a launch with word fit_on nonzero (libgsync's
 * gsync_max_groups writes it, and zeroes the discovery's words again
 * after) is a
 * probe, in which no work-group runs the kernel's code; gsync_join_all, at
 * the kernel's entry, returns for it (an exit at the entry, anchored as
 * discovery's is: docs/pocl.md, section 6). Without -Dgsync_fit_probe the
 * entry has no return.
 *
 * In the probe, linear local id 0 of each group counts itself in word
 * fit_count. The first (the count was 0) polls that word until it has not moved for
 * GSYNC_FIT_QUIET_MS by the clock of long waits (prelude.cl), then closes
 * it (bit 30) and publishes in word participants how many had come; the others stay
 * until it is closed, so every group counted was running while the first
 * closed it: the count is a number of groups the device ran at once.
 * Groups that come after the close count nothing and leave. Nothing here
 * waits on a group that is not running. At most 2^30 - 1 groups
 * (its max-groups): the probe's word counts them below its bit 30.
 */
#ifdef gsync_fit_probe
#define GSYNC_FIT_CLOSED 0x40000000u
#define GSYNC_FIT_QUIET_MS 5ul

void gsync_fit_count(global uint *s) {
  if (!gsync_leader())
    return;
  uint seen = atomic_inc(&s[gsync_word_fit_count]);
  if (seen & GSYNC_FIT_CLOSED)
    return;
  if (seen == 0u) {
    uint polls = 0;
    ulong since = gsync_clock(0u);
    seen = 1u;
    while (gsync_clock(++polls) - since <
           GSYNC_FIT_QUIET_MS * gsync_clock_per_ms) {
      uint now = atomic_or(&s[gsync_word_fit_count], 0u);
      if (now != seen)
        since = gsync_clock(polls);
      seen = now;
    }
    uint count = atomic_or(&s[gsync_word_fit_count], GSYNC_FIT_CLOSED) & ~GSYNC_FIT_CLOSED;
    atomic_xchg(&s[gsync_word_participants], count);
  } else {
    while ((atomic_or(&s[gsync_word_fit_count], 0u) & GSYNC_FIT_CLOSED) == 0u)
      ;
  }
}

#endif

int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
#ifdef gsync_fit_probe
  if (s[gsync_word_fit_on] != 0u) {
    gsync_fit_count(s);
    return 0;
  }
  gsync_anchor(c);
#endif
  c->group = gsync_launch_group();
  c->groups = gsync_launch_groups();
  if (c->group == 0 && gsync_leader())
    s[gsync_word_participants] = c->groups;
  return 1;
}

#ifdef gsync_fit_probe
#define gsync_join_all(s, shared, c)                                           \
  if (!gsync_join(s, shared, c))                                               \
    return;                                                                    \
  gsync_anchor(c)
#else
#define gsync_join_all(s, shared, c) gsync_join(s, shared, c)
#endif
