/* prelude: what every rewritten kernel shares.
 *
 * @summary the context passed to rewritten functions, virtual ids, bounded spinning
 * @extension cl_khr_global_int32_base_atomics
 *
 * A kernel that reaches global_barrier() builds a gsync_ctx at entry (see
 * the discovery rules) and passes a pointer to it, as a hidden last
 * argument, to every function on the way to a barrier or a remapped id.
 * The context is private to the work-item, so after inlining it costs
 * nothing but the registers it holds.
 *
 * Virtual ids: in code that takes part, dimension 0 of get_group_id,
 * get_num_groups, get_global_id and get_global_size describe the
 * participating work-groups, numbered 0..groups-1. A helper shared with a
 * kernel that does not take part receives a null context there and answers
 * with the real ids.
 *
 * Bounded spinning (--spin-limit). No wait may hang the device: every
 * loop in which a rule waits for another work-group is written
 *
 *     gsync_spin_while(c, site, CONDITION, ARRIVED);
 *
 * With gsync_spin_limit 0 that is while (CONDITION); and nothing else.
 * Otherwise it counts its polls in a register; once a wait has lasted
 * gsync_spin_fast polls (a wait over sooner pays for the counter alone:
 * on a GPU a healthy barrier's is), every poll also reads the launch's
 * abort word, and a group that has polled gsync_spin_limit times aborts
 * the launch. The first group to give up
 * records the site, its group ids and ARRIVED (how many groups it sees
 * have arrived; evaluated only then) in the state, for libgsync to report.
 * A group that gives up, or sees that another one did, stops waiting, and
 * gsync_aborted(c) turns true for its local id 0. site is the number the
 * rewritten call passes (gsync_barrier(gsync_ctx, 3)), or
 * gsync_in_discovery. CONDITION keeps the atomics and fences the rule's
 * memory-model argument needs: the macro adds a counter and, in a long
 * wait, an atomic read of a word the rule does not use.
 *
 * A rule that adopts it (1) skips, once gsync_aborted(c), every step that
 * would tell other groups the barrier is complete (a master releasing the
 * others), and (2) ends with its closing work-group barrier as before:
 * local id 0 wrote the group's verdict to local memory, so after that
 * barrier gsync_aborted(c) holds for every work-item of the group, and the
 * rewritten code leaves the kernel:
 *
 *     gsync_barrier(gsync_ctx, 3); if (gsync_aborted(gsync_ctx)) return;
 *
 * A discovery rule calls gsync_ctx_begin() first and makes a group that
 * gave up not take part. A rule must not be left by a return between its
 * two work-group barriers.
 *
 * State words 10-15 hold the abort record (docs/constraints.md): 10 what
 * aborted (0 nothing, 1 a barrier, 2 discovery; the word a long wait
 * polls), 11 the site, 12 the virtual and 13 the real id of the first group
 * that gave up, 14 how many groups it saw arrive, 15 how many it waited for.
 */
/* A device-wide fence for global memory, used by the barrier rules before
 * announcing an arrival (release) and after seeing the others (acquire).
 * On NVIDIA's OpenCL, mem_fence(CLK_GLOBAL_MEM_FENCE) alone does not make
 * other groups' plain stores visible: measured on an H100, a barrier built
 * on it read stale data in 99.9% of message-passing episodes (stale L1
 * lines; see docs/gpu.md), and a PTX membar.gl beside it read none. The
 * NVIDIA compiler is recognised by macros only it defines; elsewhere this
 * is mem_fence alone. */
void gsync_device_fence(void) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)
  asm volatile("membar.gl;" ::: "memory");
#endif
}

struct gsync_ctx {
  global uint *state; /* the hidden state buffer */
  uint group;         /* this work-group's id among the participants */
  uint groups;        /* how many work-groups take part */
  local uint *left;   /* nonzero: the launch aborted, this group leaves */
};

/* Starts a context: discovery calls it first, from every work-item. */
void gsync_ctx_begin(private struct gsync_ctx *c, global uint *s,
                     local uint *shared) {
  c->state = s;
  c->group = 0xffffffffu;
  c->groups = 0;
  c->left = shared + 2;
  if (get_local_id(0) == 0)
    shared[2] = 0;
}

/* Whether the launch was aborted and this group must leave: for local id 0
 * as soon as its spin gave up, for the others after the next work-group
 * barrier. Always false without a spin limit. */
int gsync_aborted(private struct gsync_ctx *c) {
  return gsync_spin_limit != 0 && *c->left != 0;
}

#define gsync_in_discovery 0u
/* Polls before a wait counts as long. A wait that ends sooner (on a GPU, a
 * healthy barrier's: a few polls) pays for the counter and nothing else. */
#define gsync_spin_fast (gsync_spin_limit < 1024u ? gsync_spin_limit : 1024u)

/* Called on every poll of a long wait: returns 1 if the group must stop
 * waiting, because another group aborted the launch or because this one
 * has polled gsync_spin_limit times; then the first group to give up
 * records why (ARRIVED is arrived). The atomic read of the abort word also
 * puts a round trip to the coherence point into every poll of a long
 * wait, on a CPU as on a GPU, so that how long the limit lasts depends
 * less on how cheap a rule's own poll is (a volatile load that hits a
 * CPU's L1 costs a nanosecond). */
int gsync_spin_stop(private struct gsync_ctx *c, uint site, uint polls,
                    uint arrived) {
  global uint *rec = c->state + 10;
  if (atomic_or(rec, 0u) == 0u) {
    if (polls < gsync_spin_limit)
      return 0;
    if (atomic_cmpxchg(rec, 0u, site != gsync_in_discovery ? 1u : 2u) == 0u) {
      rec[1] = site;
      rec[2] = c->group;
      rec[3] = (uint)get_group_id(0);
      rec[4] = arrived;
      rec[5] = site != gsync_in_discovery ? c->groups
                                          : (uint)get_num_groups(0);
    }
  }
  *c->left = 1;
  return 1;
}

#if gsync_spin_limit
#define gsync_spin_while(c, site, cond, arrived)                               \
  do {                                                                         \
    for (uint gsync_polls = 1; (cond); gsync_polls++)                          \
      if (gsync_polls >= gsync_spin_fast &&                                    \
          gsync_spin_stop((c), (site), gsync_polls,                            \
                          gsync_polls >= gsync_spin_limit ? (arrived) : 0u))   \
        break;                                                                 \
  } while (0)
#else
#define gsync_spin_while(c, site, cond, arrived)                               \
  do {                                                                         \
    while (cond)                                                               \
      ;                                                                        \
  } while (0)
#endif

size_t gsync_get_group_id(private struct gsync_ctx *c, uint d) {
  return c && d == 0 ? (size_t)c->group : get_group_id(d);
}

size_t gsync_get_num_groups(private struct gsync_ctx *c, uint d) {
  return c && d == 0 ? (size_t)c->groups : get_num_groups(d);
}

size_t gsync_get_global_id(private struct gsync_ctx *c, uint d) {
  return c && d == 0 ? (size_t)c->group * get_local_size(0) +
                           get_local_id(0) + get_global_offset(0)
                     : get_global_id(d);
}

size_t gsync_get_global_size(private struct gsync_ctx *c, uint d) {
  return c && d == 0 ? (size_t)c->groups * get_local_size(0)
                     : get_global_size(d);
}
