/* discovery-lockfree: occupancy discovery without a lock. A polled group's
 * only access to the poll before its verdict is one atomic increment,
 * which both joins and says whether the poll had closed; the last polled
 * group resets the poll for the next launch. The host may cap how many
 * groups are polled; the others return at once.
 *
 * @summary lock-free occupancy discovery: one atomic increment per polled group, the last resets; the host caps the polled
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @poll-cap
 * @max-groups 1073741823
 *
 * Linear local id 0 of each work-group runs it; the verdict reaches the rest of
 * the group through local memory, so a group takes part or returns whole.
 * Its words, in the discovery's region: the poll (GSYNC_LF_POLL), bit 31
 * the launch's generation, bit 30 CLOSED, bits 0-29 how many launched
 * groups have come (COME); the count (GSYNC_LF_COUNT), with bit 31 the
 * generation and bit 30 set. The state table's word participants: the
 * participants of the last launch (read by libgsync). Every group:
 * old = atomic_inc(poll).
 *   COME(old) is launched - 1: this is the last launched group. If the
 *     poll was open, every launched group takes part, and it publishes
 *     that count; then it writes the poll back to none come with the other
 *     generation, which is what the next launch finds (the host's zeroed
 *     state reads so too).
 *   CLOSED clear: the group takes part with id COME(old) (0: participant 0).
 *   CLOSED set: it does not take part; its increment has counted it.
 * Participant 0 reads the poll until every launched group has come (COME is
 * launched, or the generation has flipped) or COME has not moved for
 * GSYNC_LF_STILL polls (so groups that are running but a little late still
 * get in); then it closes the poll with a compare-and-swap on the value it
 * last saw (the count is that value's COME; if the swap fails, it looks
 * again) and publishes the count. The other participants wait until the poll
 * shows every launched group come with the poll open, or (once it shows
 * the poll closed or reset) a count with their generation is published:
 * the count is read only then, so a poll at 1x is one load. (The last group
 * could take part without that wait; on an H100 that cost stencil with
 * atomic-or 8 registers, a quarter of its co-resident groups, for no
 * measurable gain: bench/results/h100.md.) Only participant 0 closes,
 * before any barrier and without waiting for any other group, so all
 * participants were running together and nothing here can deadlock. A
 * group that does not take part costs one atomic; COME never passes
 * launched, so it never reaches bit 30.
 *
 * The ids. When every polled group takes part (the count is the polled
 * count: always at or below the co-resident count, and with the poll cap
 * below), each takes its launch id as its id: the polled groups are the
 * launch ids 0..count-1, so that is a numbering of the participants too,
 * and the one the device's scheduler spread over its compute units. The
 * order of the increments is not: on an H100 the groups that came first
 * are packed onto few SMs (remapped ids 0-63 ran on 32-49 of the 132 SMs,
 * against 64 with launch ids; gsync-bench placement), so a phase with
 * fewer work-items than the grid, which the lowest ids run, had a third
 * of the device a relaunch gets. Otherwise (fewer took part than were
 * polled) the id is the order of the increments, COME(old), as above.
 *
 * The poll cap. Where state word poll_cap holds a cap N (the host
 * writes it between launches, libgsync as many groups as took part the
 * last time more were launched than fit: docs/constraints.md), only the
 * first N groups of the launch by launch id are polled: the others return
 * at once, reading nothing but that word and touching no other, and
 * everything above counts the polled groups, not the launched ones (the
 * last polled group resets). All groups read the same N, so they agree on
 * which are polled. With N as many as fit and groups started in launch-id
 * order, as GPUs start them, every polled group comes while the poll is
 * open and participant 0 closes it without waiting: a launch of 16 times
 * the groups that fit then costs what one of the groups that fit does. A
 * cap below what fits admits fewer groups, never a wrong set; 0 (the
 * zeroed state) caps nothing.
 *
 * Per device: on NVIDIA (sm_70+) the polls are PTX ld.relaxed.gpu,
 * participant 0 naps 100 ns between its polls and needs 4 still ones (on an
 * H100 that admits every co-resident group at 1x to 16x the co-resident
 * count; bench/results/h100.md), the others nap 200 ns between theirs
 * (-DGSYNC_LF_WAIT_NAP=N sets it), and every participant first naps half a
 * nanosecond for each polled group its increment found still to come, at
 * most 2048 ns (-DGSYNC_LF_FIRST_NAP=N sets the most, 0 none): a poll
 * right behind the increment queued among the others' increments at the
 * same word, and a launch at 1x cost 1.25x a plain one instead of 1.18x
 * (bench/disc.sh).
 * Elsewhere every access is an OpenCL 1.1 atomic and participant 0 needs
 * 64 still polls, but on a CPU device, whose threads pick up work-groups
 * tens of microseconds to milliseconds apart, 20 ms in which no
 * group came (by prelude.cl's clock): 64 polls there are over before the
 * second thread's group has started, and PoCL admitted one group however
 * many threads it had. A build option -DGSYNC_LF_STILL=N sets the still
 * polls (microseconds on a CPU device). With the poll cap libgsync writes
 * after the first oversubscribed launch, every later one polls only the
 * groups that fit and ends its poll when the last of them comes, without
 * that wait.
 *
 * Memory model: every access to a shared word is an atomic on one word
 * each, or a load at device scope, but for the cap, which the host wrote
 * before the launch and no group writes; the verdict needs no other data,
 * so no fences are needed for it. The last launched group's increment comes after
 * every other group's in the poll's order, so its reset is the word's last
 * write of the launch but for participant 0's compare-and-swap, which fails
 * on a reset word. Launches of a kernel are ordered (libgsync), so a
 * launch's groups find the words as the last launch left them.
 *
 * Bounded spin (prelude.cl): a participant that gives up waiting for the
 * count does not take part; the poll word tells how many had come.
 * At most 2^30 - 1 groups may be launched (its max-groups): the poll word
 * counts them in its low 30 bits.
 */
#if (defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)) && \
    (!defined(GSYNC_NV_SM) || GSYNC_NV_SM >= 70)
uint gsync_lf_load(global uint *p) {
  uint v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];"
               : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
void gsync_lf_nap(uint ns) {
  asm volatile("nanosleep.u32 %0;" :: "r"(ns) : "memory");
}
#ifndef GSYNC_LF_STILL
#define GSYNC_LF_STILL 4u
#endif
#define gsync_lf_mark() 0ul
#define gsync_lf_is_still(still, since) ((still) >= GSYNC_LF_STILL)
#else
uint gsync_lf_load(global uint *p) { return atomic_or(p, 0u); }
void gsync_lf_nap(uint ns) {}
#ifdef gsync_clock_tsc
/* A CPU device (prelude.cl's clock): its threads pick up work-groups tens
 * of microseconds to milliseconds apart, so stillness is a time, in
 * microseconds, since a group last came. */
#ifndef GSYNC_LF_STILL
#define GSYNC_LF_STILL 20000u
#endif
#define gsync_lf_mark() gsync_clock(0u)
#define gsync_lf_is_still(still, since)                                        \
  ((gsync_clock(0u) - (since)) * 1000ul >=                                    \
   (ulong)GSYNC_LF_STILL * gsync_clock_per_ms)
#else
#ifndef GSYNC_LF_STILL
#define GSYNC_LF_STILL 64u
#endif
#define gsync_lf_mark() 0ul
#define gsync_lf_is_still(still, since) ((still) >= GSYNC_LF_STILL)
#endif
#endif
/* Its words: the poll and the count (below), in the discovery's region. */
#define GSYNC_LF_POLL (gsync_word_discovery + 0u)
#define GSYNC_LF_COUNT (gsync_word_discovery + 1u)
#define GSYNC_LF_GEN 0x80000000u
#define GSYNC_LF_CLOSED 0x40000000u
#define GSYNC_LF_COME 0x3fffffffu

/* GSYNC_LF_FIRST_NAP (ns, 0 for none): a participant naps
 * min(due / 2, GSYNC_LF_FIRST_NAP) ns before its first poll, due being how
 * many polled groups its increment found still to come, so that its polls
 * do not queue among their increments at the poll (NVIDIA; elsewhere a
 * nap is nothing). */
#ifndef GSYNC_LF_FIRST_NAP
#define GSYNC_LF_FIRST_NAP 2048u
#endif
/* GSYNC_LF_WAIT_NAP (ns): a waiting participant's nap between its polls. */
#ifndef GSYNC_LF_WAIT_NAP
#define GSYNC_LF_WAIT_NAP 200u
#endif

/* Whether a participant of generation gen must still wait for the count;
 * if not, *count holds it. */
int gsync_lf_pending(global uint *s, uint gen, uint polled,
                     private uint *count) {
  uint w = gsync_lf_load(&s[GSYNC_LF_POLL]);
  if ((w & (GSYNC_LF_GEN | GSYNC_LF_CLOSED)) == gen) {
    if ((w & GSYNC_LF_COME) == polled) {
      *count = polled;
      return 0;
    }
  } else { /* closed, or reset by the last group: the count is published */
    uint p = gsync_lf_load(&s[GSYNC_LF_COUNT]);
    if ((p & (GSYNC_LF_GEN | GSYNC_LF_CLOSED)) == (gen | GSYNC_LF_CLOSED)) {
      *count = p & GSYNC_LF_COME;
      return 0;
    }
  }
  gsync_lf_nap(GSYNC_LF_WAIT_NAP);
  return 1;
}

/* How many launched groups take part in the poll: the first cap of them
 * by launch id where the host wrote a cap into word poll_cap, else all. Only
 * the host writes that word, between launches, and nothing else shares
 * its line: every group reads the same value, from a cache after the
 * first. */
uint gsync_lf_polled(global uint *s) {
  uint launched = gsync_launch_groups(), cap = s[gsync_word_poll_cap];
  return cap != 0u && cap < launched ? cap : launched;
}

int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  uint polled = gsync_lf_polled(s);
  if (gsync_launch_group() >= polled)
    return 0;
  gsync_anchor(c);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    global uint *poll = &s[GSYNC_LF_POLL];
    uint old = atomic_inc(poll);
    uint gen = old & GSYNC_LF_GEN, id = old & GSYNC_LF_COME, count = 0;
    if (old & GSYNC_LF_CLOSED)
      id = 0xffffffffu;
    if ((old & GSYNC_LF_COME) == polled - 1u) {
      if (!(old & GSYNC_LF_CLOSED)) {
        atomic_xchg(&s[gsync_word_participants], polled);
        atomic_xchg(&s[GSYNC_LF_COUNT], gen | GSYNC_LF_CLOSED | polled);
      }
      atomic_xchg(poll, gen ^ GSYNC_LF_GEN);
    }
    if (GSYNC_LF_FIRST_NAP != 0u && id != 0xffffffffu)
      gsync_lf_nap(min((polled - 1u - id) / 2u, GSYNC_LF_FIRST_NAP));
    if (id == 0u) {
      uint seen = old + 1u, still = 0;
      ulong since = gsync_lf_mark();
      for (;;) {
        if ((seen & GSYNC_LF_GEN) != gen ||
            (seen & GSYNC_LF_COME) == polled) {
          count = polled;
          break;
        }
        if (gsync_lf_is_still(still, since)) {
          uint was = atomic_cmpxchg(poll, seen, seen | GSYNC_LF_CLOSED);
          if (was == seen) {
            count = seen & GSYNC_LF_COME;
            break;
          }
          seen = was;
          still = 0;
          since = gsync_lf_mark();
          continue;
        }
        gsync_lf_nap(100u);
        uint now = gsync_lf_load(poll);
        still = now == seen ? still + 1u : 0u;
        if (now != seen)
          since = gsync_lf_mark();
        seen = now;
      }
      atomic_xchg(&s[gsync_word_participants], count);
      atomic_xchg(&s[GSYNC_LF_COUNT], gen | GSYNC_LF_CLOSED | count);
    } else if (id != 0xffffffffu) {
      c->group = id;
      gsync_spin_while(c, gsync_in_discovery,
                       gsync_lf_pending(s, gen, polled, &count),
                       atomic_or(poll, 0u) & GSYNC_LF_COME);
      if (gsync_aborted(c))
        id = 0xffffffffu;
    }
    shared[0] = id;
    shared[1] = count;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  gsync_anchor(c);
  c->group = shared[0];
  c->groups = shared[1];
  if (shared[1] == polled) /* every polled group takes part: its own id */
    c->group = gsync_launch_group();
  return shared[0] != 0xffffffffu;
}
