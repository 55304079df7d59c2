/* discovery-lockfree: occupancy discovery without a lock. A group that does
 * not take part reads one word and leaves with a reduction that returns
 * nothing; no word is reset.
 *
 * @summary lock-free occupancy discovery: join with one atomic, late groups read once and leave
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 *
 * Linear local id 0 of each work-group runs it; the verdict reaches the rest of
 * the group through local memory, so a group takes part or returns whole.
 * Word 0, the poll: bit 31 the launch's generation, bit 30 CLOSED, bits
 * 0-29 how many launched groups have yet to come (DUE). Word 1: the count
 * participant 0 publishes, with bit 31 the generation and bit 30 set.
 * Word 5: the participants of the last launch (read by libgsync).
 * Every group first reads word 0:
 *   DUE 0 (the last launch is over; the host zeroed state reads so too):
 *     it opens the poll for this launch with atomic_cmpxchg (generation
 *     flipped, DUE launched - 1) and is participant 0; if another group
 *     opened it first, it reads again;
 *   open: it joins with atomic_dec; it takes part with id launched - DUE
 *     as its decrement found it, unless that found CLOSED;
 *   CLOSED: it counts itself with a decrement that returns nothing, and
 *     does not take part.
 * Participant 0 polls DUE until it is 0 or has not moved for
 * GSYNC_LF_STILL polls (so groups that are running but a little late
 * still get in), then closes the poll (atomic_or; the DUE it gets back
 * gives the count: every id handed out is below it) and publishes the
 * count. The others wait until DUE is 0 with the poll open (every launched
 * group took part) or a count with their generation is published. Every
 * participant was running while the poll was open, and participant 0
 * closes it before any barrier, without waiting for any other group, so
 * all participants are co-resident and nothing here can deadlock. When
 * the last launched group has come, DUE reads 0 again: that is what the
 * next launch finds, so nothing needs a reset, and a group that does not
 * take part costs one load and one reduction that it does not wait for.
 *
 * Per device: on NVIDIA (sm_70+) the reads are PTX ld.relaxed.gpu,
 * participant 0 naps 100 ns between its polls and needs 4 still ones
 * (on an H100 that admits every co-resident group; bench/results/h100.md),
 * the others nap 200 ns between theirs, and a late group leaves with
 * red.relaxed.gpu. Elsewhere every access is an OpenCL 1.1 atomic and
 * participant 0 needs 64 still polls.
 *
 * Memory model: every access to a shared word is an atomic on one word
 * each, or a load at device scope; the verdict needs no other data, so no
 * fences are needed for it. Launches of a kernel are ordered (libgsync), so
 * a launch's groups find word 0 as the last launch's left it.
 *
 * Bounded spin (prelude.cl): a participant that gives up waiting for the
 * count does not take part; the poll word tells how many had joined.
 * At most 2^30 - 1 groups may be launched.
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
void gsync_lf_leave(global uint *p) {
  asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;"
               :: "l"((ulong)p), "r"(0xffffffffu) : "memory");
}
#define GSYNC_LF_STILL 4u
#else
uint gsync_lf_load(global uint *p) { return atomic_or(p, 0u); }
void gsync_lf_nap(uint ns) {}
void gsync_lf_leave(global uint *p) { atomic_dec(p); }
#define GSYNC_LF_STILL 64u
#endif
#define GSYNC_LF_GEN 0x80000000u
#define GSYNC_LF_CLOSED 0x40000000u
#define GSYNC_LF_DUE 0x3fffffffu

/* Whether a participant of generation gen must still wait for the count;
 * if not, *count holds it. */
int gsync_lf_pending(global uint *s, uint gen, uint launched,
                     private uint *count) {
  uint w = gsync_lf_load(&s[0]);
  if ((w & (GSYNC_LF_CLOSED | GSYNC_LF_DUE)) == 0u) {
    *count = launched;
    return 0;
  }
  if (w & GSYNC_LF_CLOSED) {
    uint p = gsync_lf_load(&s[1]);
    if ((p & (GSYNC_LF_GEN | GSYNC_LF_CLOSED)) == (gen | GSYNC_LF_CLOSED)) {
      *count = p & GSYNC_LF_DUE;
      return 0;
    }
  }
  gsync_lf_nap(200u);
  return 1;
}

int gsync_join(global uint *s, local uint *shared,
               private struct gsync_ctx *c) {
  gsync_ctx_begin(c, s, shared);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (gsync_leader()) {
    uint launched = gsync_launch_groups();
    uint id = 0xffffffffu, count = 0, gen = 0;
    global uint *poll = &s[0];
    uint v = gsync_lf_load(poll);
    for (;;) {
      if ((v & GSYNC_LF_DUE) == 0u) {
        uint open = ((v & GSYNC_LF_GEN) ^ GSYNC_LF_GEN) | (launched - 1u);
        uint old = atomic_cmpxchg(poll, v, open);
        if (old != v) {
          v = old;
          continue;
        }
        id = 0;
        gen = open & GSYNC_LF_GEN;
      } else if (v & GSYNC_LF_CLOSED) {
        gsync_lf_leave(poll);
      } else {
        uint old = atomic_dec(poll);
        if ((old & GSYNC_LF_CLOSED) == 0u) {
          id = launched - (old & GSYNC_LF_DUE);
          gen = old & GSYNC_LF_GEN;
        }
      }
      break;
    }
    if (id == 0) {
      uint due = launched - 1u, still = 0;
      while (due != 0u && still < GSYNC_LF_STILL) {
        gsync_lf_nap(100u);
        uint now = gsync_lf_load(poll) & GSYNC_LF_DUE;
        still = now == due ? still + 1u : 0u;
        due = now;
      }
      if (due != 0u)
        due = atomic_or(poll, GSYNC_LF_CLOSED) & GSYNC_LF_DUE;
      count = launched - due;
      atomic_xchg(&s[5], count);
      atomic_xchg(&s[1], gen | GSYNC_LF_CLOSED | count);
    } else if (id != 0xffffffffu) {
      c->group = id;
      gsync_spin_while(c, gsync_in_discovery,
                       gsync_lf_pending(s, gen, launched, &count),
                       launched - (atomic_or(poll, 0u) & GSYNC_LF_DUE));
      if (gsync_aborted(c))
        id = 0xffffffffu;
    }
    shared[0] = id;
    shared[1] = count;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  c->group = shared[0];
  c->groups = shared[1];
  return shared[0] != 0xffffffffu;
}
