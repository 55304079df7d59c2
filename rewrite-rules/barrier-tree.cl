/* barrier-tree: on NVIDIA (sm_70+) one word polled with relaxed loads once
 * the arrival has come back, and one acquire load after; elsewhere a flip word for up to 512 groups
 * and a two-level combining tree above.
 *
 * @summary NVIDIA: one word, release arrival, paced relaxed polls, one acquire; elsewhere flip word + 64-group leaves
 * @runs-on every OpenCL 1.1+ device
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-fixed 256
 * @state-per-group 2
 * @max-groups 1073741823
 * @split
 *
 * Both paths use the algorithm of CUDA's grid.sync() on a flip word: the
 * adds of one barrier sum to 0x80000000 (participant 0 adds
 * 0x80000000 - (n - 1), every other adder 1), so the top bit flips once
 * all are in and the low bits come back to where they were (no reset).
 *
 * NVIDIA's OpenCL, sm_70 or newer (its compiler's macros; GSYNC_NV_SM,
 * which libgsync passes, absent or >= 70): every group adds to one word
 * (rule word 0, a 128-byte line of its own) with PTX atom.release.gpu. The
 * group whose add completes the sum waits for nothing. Every other group
 * polls with ld.relaxed.gpu until the top bit differs from what its add
 * returned. Then every group reads the word once with ld.acquire.gpu, the
 * barrier's one acquire; its first poll goes
 * through an address computed from that value, so no
 * poll leaves before the add has come back (grid.sync() gets the same
 * effect from its warp-aggregated atomic; polls issued right behind the
 * adds queue among the arrivals at the word), and when 128 or more
 * arrivals are still due it naps (due / 2) ns, at most 512, before that
 * poll, which keeps polls off the word while the arrivals drain. Measured
 * on an H100 (bench/results/h100.md): 0.80-0.92x grid.sync()'s time at
 * 132-1056 groups of 256 items; the same word polled at once 0.96x at
 * 1056 groups, and the two-level form this path replaced (red.release
 * arrivals, relaxed polls, 64-group leaves) 0.95-1.19x.
 *
 * Why the polls are relaxed and the arrival only a release: an acquire on
 * sm_70+ (a load's, or an atomic's acquire half) invalidates the SM's
 * whole L1 (CCTL.IVALL), so waiting groups polling with acquire loads
 * empty the L1 of the groups still working on the same SM, every poll,
 * and an acq_rel arrival empties it once per group that arrives while
 * another works.
 * A barrier that costs nothing in a loop of equal shares then slows the
 * uneven phases users have: on the H100 (bench/results/h100.md, the
 * graph table of 2026-12-06) persistent bfs, sssp, color and mis on
 * R-MAT graphs ran 0.58-0.77x their relaunch baseline with acquire polls
 * and 1.02-1.18x with relaxed ones, the grid inputs and the barrier's own
 * time unchanged or better (bench/skew.sh measures the harm directly).
 * With release arrivals that harm went from 1.02-1.06 to 0.98-1.00 at
 * 264-1056 groups (bench/skew.sh; acq_rel arrivals before, 2026-12-06),
 * the barrier's time the same within 0.01 us.
 *
 * Everywhere else (AMD, Intel, PoCL, NVIDIA before sm_70): with up to
 * GSYNC_TREE_FLAT_MAX (512) participants every group adds to the top word
 * (rule word 0) itself; above, groups arrive at a leaf counter of
 * GSYNC_TREE_LEAF (64) groups, whose last arriver (the add returns
 * size - 1) resets the leaf and adds for the whole leaf to the top word.
 * Leaves sit in separate 128-byte lines (rule words 32 + 32 k). Each waiter
 * reads the top bit before it arrives (it cannot flip before this
 * arrival) and spins until it differs. Every access is an OpenCL 1.1
 * atomic (right with non-coherent L1 caches, AMD GCN) and
 * gsync_device_fence() gives release and acquire. GSYNC_TREE_FLAT_MAX and
 * GSYNC_TREE_LEAF may be defined smaller to run the tree with few groups
 * in tests; the state holds ceil(groups / GSYNC_TREE_LEAF) leaves only
 * while the leaf is 64 or more, or the groups are few (4 with leaves of
 * 2), and where they would not fit the groups stay on the top word
 * (gsync_tree_leaves).
 *
 * Shape: all of it in ONE if (gsync_leader()) block between two
 * work-group barriers (the only shape PoCL runs; docs/barriers.md).
 *
 * Memory model. NVIDIA: the opening work-group barrier makes the group's
 * writes visible to its leader, whose release add (one fence per group
 * and barrier) publishes them; the adds of one barrier form one chain of
 * read-modify-writes on the word, each group's release add heading a
 * release sequence that the later adds continue, so the acquire load
 * that reads the flipped value or a later one of the chain (after the
 * completing add, or after a relaxed poll saw the flip: same-word
 * coherence keeps it from reading older) synchronizes with every group's
 * release;
 * the closing work-group barrier passes that to the
 * whole group. Elsewhere: the device fence before each add is the release;
 * a leaf's last arriver fences again after its leaf add, so the leaf's
 * writes are released with its add to the top word; the fence after the
 * spin, which saw the flipped top word, is the acquire. A leaf's reset
 * happens before the top add, so the next barrier's arrivals (after the
 * flip) see it.
 *
 * Split (docs/split.md), on both paths: gsync_barrier_arrive() is the
 * opening work-group barrier and the arrival (gsync_tree_arrival: the
 * add, or the leaf's), and keeps in c->split what the wait needs (NVIDIA:
 * the value the add returned; elsewhere: the top bit read before
 * arriving); gsync_barrier_wait() is the wait (gsync_tree_await), its
 * acquire and the closing work-group barrier. The top bit cannot flip
 * twice in between: the next flip needs this group's next arrival. The
 * wait of a split barrier does not nap (its arrivals have had the work
 * between the halves to drain).
 *
 * Bounded spin (prelude.cl): a group that gives up has arrived and tells
 * no one anything more; the words are left mid-barrier, and the host
 * zeroes the state after an aborted launch.
 */
#ifndef GSYNC_TREE_FLAT_MAX
#define GSYNC_TREE_FLAT_MAX 512u
#endif
#ifndef GSYNC_TREE_LEAF
#define GSYNC_TREE_LEAF 64u
#endif
/* At most 2^30: with at most 2^30 - 1 groups (the discovery's counters),
 * groups + GSYNC_TREE_LEAF - 1 then stays below 2^32. */
#if !(GSYNC_TREE_LEAF >= 1 && GSYNC_TREE_LEAF <= 1073741824)
#error "GSYNC_TREE_LEAF must be from 1 to 1073741824"
#endif
/* Whether the launch's groups arrive at leaves: above GSYNC_TREE_FLAT_MAX,
 * and only where every leaf lies in the state this rule declares (its
 * state-fixed and state-per-group: 64 + groups / 2 words, leaf k at word
 * 32 + 32 k), whatever a build defines. Leaves of 64 always do; smaller
 * ones (tests run the tree with few groups) that would reach past the
 * state leave the groups on the top word. */
#if GSYNC_TREE_LEAF >= 64
#define gsync_tree_leaves(c) ((c)->groups > GSYNC_TREE_FLAT_MAX)
#else
#define gsync_tree_leaves(c)                                                   \
  ((c)->groups > GSYNC_TREE_FLAT_MAX &&                                        \
   32u * (((c)->groups + GSYNC_TREE_LEAF - 1u) / GSYNC_TREE_LEAF) <            \
       64u + (c)->groups / 2u)
#endif
/* How many of n adders have added to a flip word w mid-barrier: its low 31
 * bits start every barrier at 0; below n they count the adds of all but
 * the first adder, whose add of 2^31 - (n - 1) puts them near 2^31. */
uint gsync_tree_adds(uint w, uint n) {
  uint low = w & 0x7fffffffu;
  return low < n ? low : n - (0x80000000u - low);
}

#if (defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)) && \
    (!defined(GSYNC_NV_SM) || GSYNC_NV_SM >= 70)
uint gsync_tree_acquire(global uint *p) {
  uint v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
               : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
uint gsync_tree_add(global uint *p, uint x) {
  uint v;
  asm volatile("atom.release.gpu.global.add.u32 %0, [%1], %2;"
               : "=r"(v) : "l"((ulong)p), "r"(x) : "memory");
  return v;
}
void gsync_tree_nap(uint ns) {
  asm volatile("nanosleep.u32 %0;" :: "r"(ns) : "memory");
}

/* p, through an address the hardware knows only once v has come back, so
 * that a load through it is issued after the add that returned v. The
 * word's low bits never hold 2^30 while fewer than 2^30 groups add (its
 * max-groups). Only the first poll goes through it: the later ones follow
 * it in program order, and a second pointer live in the spin cost
 * registers (35 instead of 32 in test/run/kernels/xpx.cl on an H100, 6
 * groups per SM instead of 8). */
global uint *gsync_tree_after(global uint *p, uint v) {
  return (v & 0x7fffffffu) == 0x40000000u ? p + 1 : p;
}

/* The word p, read relaxed (no ordering, no L1). */
uint gsync_tree_relaxed(global uint *p) {
  uint v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];"
               : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}

/* Whether the word p still shows top bit t, read relaxed: a poll must not
 * touch the L1 that the SM's working groups use. */
int gsync_tree_waiting(global uint *p, uint t) {
  return (gsync_tree_relaxed(p) & 0x80000000u) == t;
}

/* What this participant adds to the word. */
uint gsync_tree_share(private struct gsync_ctx *c) {
  return c->group == 0 ? 0x80000000u - (c->groups - 1u) : 1u;
}

/* The leader's arrival (release): returns the word before its add. */
uint gsync_tree_arrival(private struct gsync_ctx *c) {
  return gsync_tree_add(gsync_rule_words(c), gsync_tree_share(c));
}

/* The leader's wait for the flip of the word that its add found at old:
 * relaxed polls (none if that add completed the sum), then one acquire
 * load. With nap, naps first while many arrivals are still due. */
void gsync_tree_await(private struct gsync_ctx *c, uint site, uint old,
                      int nap) {
  global uint *w = gsync_rule_words(c);
  if (((old + gsync_tree_share(c)) & 0x7fffffffu) != 0u) {
    uint t = old & 0x80000000u;
    uint due = c->groups - 1u - gsync_tree_adds(old, c->groups);
    global uint *first = gsync_tree_after(w, old);
    if (nap && due >= 128u)
      gsync_tree_nap(min(due / 2u, 512u));
    if (gsync_tree_waiting(first, t))
      gsync_spin_while(c, site, gsync_tree_waiting(w, t),
                       gsync_tree_adds(atomic_or(w, 0u), c->groups));
  }
  gsync_tree_acquire(w);
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    uint watch = gsync_watch_peek(c);
    gsync_tree_await(c, site, gsync_tree_arrival(c), 1);
    gsync_watch_tick(c, watch);
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
#else
uint gsync_tree_load(global uint *p) { return atomic_or(p, 0u); }
void gsync_tree_acquire(global uint *p) { gsync_device_fence(); }
void gsync_tree_pause(void) {}
void gsync_tree_arrive(global uint *p, uint x) {
  gsync_device_fence();
  atomic_add(p, x);
}
uint gsync_tree_leaf_add(global uint *p) {
  gsync_device_fence();
  uint v = atomic_inc(p);
  gsync_device_fence();
  return v;
}

/* Whether the top word's top bit still reads before; if so, pauses as
 * the spin does between polls. */
int gsync_tree_waiting(global uint *top, uint before) {
  if ((gsync_tree_load(top) & 0x80000000u) != before)
    return 0;
  gsync_tree_pause();
  return 1;
}

/* How many groups have arrived, as far as the words tell: with leaves, a
 * complete leaf counts as GSYNC_TREE_LEAF groups. */
uint gsync_tree_arrived(private struct gsync_ctx *c) {
  uint w = atomic_or(gsync_rule_words(c), 0u);
  if (!gsync_tree_leaves(c))
    return gsync_tree_adds(w, c->groups);
  uint leaves = (c->groups + GSYNC_TREE_LEAF - 1u) / GSYNC_TREE_LEAF;
  uint n = gsync_tree_adds(w, leaves) * GSYNC_TREE_LEAF;
  for (uint k = 0; k < leaves; k++)
    n += atomic_or(gsync_rule_words(c) + 32u + 32u * k, 0u);
  return min(n, c->groups);
}

/* The leader's arrival (release), at the top word or its leaf: returns
 * the top bit it read before arriving. */
uint gsync_tree_arrival(private struct gsync_ctx *c) {
  global uint *top = gsync_rule_words(c);
  uint before = gsync_tree_load(top) & 0x80000000u;
  if (!gsync_tree_leaves(c)) {
    gsync_tree_arrive(top, c->group == 0 ? 0x80000000u - (c->groups - 1u)
                                         : 1u);
  } else {
    uint leaf = c->group / GSYNC_TREE_LEAF;
    uint leaves = (c->groups + GSYNC_TREE_LEAF - 1u) / GSYNC_TREE_LEAF;
    uint size = min(GSYNC_TREE_LEAF, c->groups - leaf * GSYNC_TREE_LEAF);
    global uint *count = gsync_rule_words(c) + 32u + 32u * leaf;
    if (gsync_tree_leaf_add(count) == size - 1u) {
      atomic_xchg(count, 0u);
      gsync_tree_arrive(top, leaf == 0 ? 0x80000000u - (leaves - 1u) : 1u);
    }
  }
  return before;
}

/* The leader's wait until the top bit differs from before, then its
 * acquire (nap: the NVIDIA path's, unused here). */
void gsync_tree_await(private struct gsync_ctx *c, uint site, uint before,
                      int nap) {
  global uint *top = gsync_rule_words(c);
  gsync_spin_while(c, site, gsync_tree_waiting(top, before),
                   gsync_tree_arrived(c));
  gsync_tree_acquire(top);
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    gsync_tree_await(c, site, gsync_tree_arrival(c), 1);
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
#endif

void gsync_barrier_arrive(private struct gsync_ctx *c, uint site) {
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader())
    c->split = gsync_tree_arrival(c);
}

void gsync_barrier_wait(private struct gsync_ctx *c, uint site) {
  if (gsync_leader()) {
    gsync_tree_await(c, site, c->split, 0);
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
