/* prelude: what every rewritten kernel shares.
 *
 * @summary the context passed to rewritten functions, virtual ids, bounded spinning
 * @extension cl_khr_global_int32_base_atomics
 *
 * A kernel that reaches global_barrier() builds a gsync_ctx at entry (the
 * discovery rule's gsync_join(), then gsync_ctx_grid() below, which shapes
 * the admitted groups into the virtual grid) and passes a pointer to it,
 * as a hidden last argument, to every function on the way to a barrier or
 * a remapped id. The context is private to the work-item, so after
 * inlining it costs nothing but the registers it holds.
 *
 * Virtual ids: in code that takes part, get_group_id, get_num_groups,
 * get_global_id and get_global_size (every dimension) and, from OpenCL C
 * 2.0 on, get_global_linear_id describe a virtual grid of the
 * participating work-groups (gsync_ctx_grid() below says how it is
 * shaped). A helper shared with a kernel that does not take part is
 * called with a null context there, and starts by making itself a
 * context of the real ids (gsync_ctx_or_real() below), so the virtual-id
 * functions always have one.
 *
 * Every rule picks the work-group's representative with gsync_leader()
 * (linear local id 0: get_local_id(0) == 0 alone holds for a whole column
 * of a 2-D group) and names work-groups of the launch by their linear id,
 * gsync_launch_group() of gsync_launch_groups().
 *
 * Bounded spinning (--spin-limit). No wait may hang the device: every
 * loop in which a rule waits for another work-group is written
 *
 *     gsync_spin_while(c, site, CONDITION, ARRIVED);
 *
 * With gsync_spin_limit_ms 0 that is while (CONDITION); and nothing else.
 * Otherwise it counts its polls in a register; once a wait has lasted
 * gsync_spin_fast polls (a wait over sooner pays for the counter alone:
 * on a GPU a healthy barrier's is), every poll also reads the launch's
 * abort word and a clock, and a group that has waited gsync_spin_limit_ms
 * milliseconds by that clock aborts the launch. The clock is the device's
 * own where one can be read: %globaltimer (ns) on NVIDIA, the time-stamp
 * counter on an x86 CPU device (PoCL), at gsync_clock_hz ticks a second,
 * which libgsync measures and passes; elsewhere it is the poll count at an
 * assumed gsync_polls_per_ms. So the limit is a time, however slow a poll
 * is (thousands of groups polling one word) or fast (a CPU's L1 hit).
 * The first group to give up records the site, its group ids, ARRIVED (how
 * many groups it sees have arrived; evaluated only then), how long it
 * waited and how many groups were launched in the state, for libgsync to
 * report. A group that gives up, or sees that another one did, stops
 * waiting, and gsync_aborted(c) turns true for its local id 0. site is the
 * number the rewritten call passes (gsync_barrier(gsync_ctx, 3)), or
 * gsync_in_discovery. CONDITION keeps the atomics and fences the rule's
 * memory-model argument needs: the macro adds a counter and, in a long
 * wait, an atomic read of a word the rule does not use and a clock read.
 *
 * A rule that adopts it (1) skips, once gsync_aborted(c), every step that
 * would tell other groups the barrier is complete (a master releasing the
 * others), and (2) ends with its closing work-group barrier as before:
 * local id 0 wrote the group's verdict to local memory, so after that
 * barrier gsync_aborted(c) holds for every work-item of the group. From
 * then on no wait of the group waits (gsync_spin_while tests the verdict
 * first), and every loop of the kernel that can reach a barrier ends at
 * the guard the rewrite put at the end of its body (a do loop's, in its
 * condition):
 *
 *     while (more) { ... if (!gsync_running(gsync_ctx)) break; }
 *
 * so the group runs to the kernel's end (lib/abort.c says why there is no
 * early return). A discovery rule calls gsync_ctx_begin() first and makes
 * a group that gave up not take part. A rule must not be left by a return
 * between its two work-group barriers.
 *
 * The state words the prelude uses are named in the state table
 * (include/gsync-state.def, docs/constraints.md), which the output
 * defines before this file as gsync_word_NAME: the abort record
 * (gsync_word_abort_kind on), watching a launch (gsync_word_watch_*),
 * the virtual grid (gsync_word_grid) and the host's words
 * (gsync_word_poll_cap). From gsync_word_rules on, the words are the
 * barrier rule's (gsync_rule_words).
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

/* Whether this work-item is its work-group's leader, the one that runs
 * discovery and the barrier's flag traffic: linear local id 0 (local id 0
 * in dimension 0 alone holds for a whole column of a 2-D group). Every
 * rule tests it with this function, never with get_local_id(0) == 0 in
 * place: PoCL 3.1's kernel compiler, given a kernel where several such
 * tests of its own and of the user's sit around work-group barriers in
 * inlined functions, runs one of the user's if-blocks for every work-item
 * (docs/pocl.md has the reduced kernel). Read through a volatile variable,
 * the test cannot be merged with the user's, and PoCL compiles both right.
 * NVIDIA's compiler needs no such care, and gets the plain test. */
int gsync_leader(void) {
#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)
  return (get_local_id(0) | get_local_id(1) | get_local_id(2)) == 0;
#else
  volatile size_t id = get_local_id(0) | get_local_id(1) | get_local_id(2);
  return id == 0;
#endif
}

/* This work-group's linear id in the launch (dimension 0 fastest, as
 * get_group_linear_id counts), and how many work-groups were launched. */
uint gsync_launch_group(void) {
  return (uint)((get_group_id(2) * get_num_groups(1) + get_group_id(1)) *
                    get_num_groups(0) +
                get_group_id(0));
}

uint gsync_launch_groups(void) {
  return (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
}

/* Where the compiler does not optimise (no __OPTIMIZE__: PoCL under
 * -cl-opt-disable; NVIDIA's OpenCL defines it even then), every remapped
 * id query would run the virtual-id functions below call by call, and a
 * grid-stride loop asks for its stride each time round: on PoCL that made
 * the run tests' kernels 2-2.8x slower than their --no-discovery builds
 * (bench/body-cost.sh). There the context stores the answers once
 * (gsync_ids_store) and a query is one read; optimised builds compute
 * them from the context's ids as before, which keeps them out of
 * registers the kernel would hold throughout. */
#if !defined(__OPTIMIZE__)
#define gsync_ids_stored 1
#endif

struct gsync_ctx {
  global uint *state; /* the hidden state buffer */
  uint group;         /* this work-group's id among the participants */
  uint groups;        /* how many work-groups take part */
  local uint *left;   /* nonzero: the launch aborted, this group leaves */
  uint id[3];         /* its id in the virtual grid, per dimension */
  uint n[3];          /* the virtual grid: work-groups per dimension */
#ifdef gsync_ids_stored
  size_t ids[4][4];   /* the four id queries' answers (gsync_ids_store) */
#endif
  uint split;         /* what a split barrier's gsync_barrier_arrive()
                         leaves for its gsync_barrier_wait() (leader only;
                         after inlining, a register between the two) */
};

/* The kernel's local words, gsync_shared[GSYNC_SHARED_WORDS], declared at
 * the entry of every kernel that takes part:
 *   0-1  discovery's answer to its group (place, how many take part);
 *   2    the abort verdict (c->left);
 *   3    participant 0's count of the barriers it completed (gsync_ticks);
 *   4-6  participant 0's copy of the watch (gsync_watch_mode, _end);
 *   7-10 the grid search's (gsync_ctx_grid).
 * Words 3-6 only participant 0's leader uses, apart from the words that
 * the other work-items read during the set-up, so it writes them without
 * waiting for the others. Barrier count and watch live here, not in the
 * context, where they would hold registers for the whole kernel (on an
 * H100 a kernel at 32 registers lost a quarter of its co-resident groups
 * to one). */
#define GSYNC_SHARED_LEFT 2u
#define GSYNC_SHARED_GRID 7u
#define GSYNC_SHARED_WORDS (GSYNC_SHARED_GRID + 4u)
#define gsync_ticks(c) ((c)->left + 1)

/* An anchor: a statement that a work-group compiler cannot move, merge or
 * delete, written where a work-group barrier could otherwise be the only
 * instruction of its basic block before a branch. PoCL's kernel compiler
 * (docs/pocl.md, section 6) adds a work-group barrier before every
 * barrier that not every path reaches, at the top of the chain of blocks
 * that lead only to it; the chain ends early at a block that holds nothing
 * but a barrier, and if that block ends in a branch that not every
 * work-item takes, the new barrier lands inside that branch, or inside a
 * loop whose trip count differs between work-items. From then on PoCL runs
 * the branch (or the loop's exit) as work-item 0 decides, for every
 * work-item: a silent wrong result. The tool writes
 * gsync_anchor(gsync_ctx); after every work-group barrier (the rules after
 * theirs, the rewrite after the user's), at the top of every loop body and
 * branch that reaches a global barrier, and after every statement that
 * can jump past one, so that no such block can form, whatever clang and
 * PoCL make of the code around it. On PoCL it is a volatile read of the
 * group's local words; elsewhere nothing. -Dgsync_anchors turns them on
 * for any device, -Dgsync_no_anchors off (the tests use both). */
#if (defined(POCL_DEVICE_ADDRESS_BITS) || defined(gsync_anchors)) &&            \
    !defined(gsync_no_anchors)
void gsync_anchor(private struct gsync_ctx *c) {
  (void)*(volatile local uint *)c->left;
}
/* The anchor of a helper without a context, one that reaches only
 * work-group barriers from a kernel with a global one: a volatile store,
 * as test/pocl/check.py proves the anchors with. */
void gsync_anchor_here(void) {
  volatile uint a;
  a = 0u;
}
#else
#define gsync_anchor(c) ((void)0)
#define gsync_anchor_here() ((void)0)
#endif

/* Work-item ids read afresh at every use, where the anchors are on.
 * After a work-group barrier whose leader block does an atomic (every
 * rule's), PoCL 3.1 built optimised can give an id query another
 * work-item's value: in a 4x4 group, a count into local memory indexed by
 * the linear local id keeps only the last work-item of each row
 * (test/pocl/kernels/leader-ids.cl, differential seed 1051; docs/pocl.md,
 * section 6). No anchor reaches that. Read through a volatile, the ids
 * are right; these macros hold for the rules after this point and for
 * the user's code. */
#if (defined(POCL_DEVICE_ADDRESS_BITS) || defined(gsync_anchors)) &&            \
    !defined(gsync_no_anchors)
size_t gsync_fresh_local_id(uint d) {
  volatile size_t id = get_local_id(d);
  return id;
}
size_t gsync_fresh_global_id(uint d) {
  volatile size_t id = get_global_id(d);
  return id;
}
#define get_local_id(d) gsync_fresh_local_id(d)
#define get_global_id(d) gsync_fresh_global_id(d)
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
size_t gsync_fresh_local_linear_id(void) {
  volatile size_t id = get_local_linear_id();
  return id;
}
size_t gsync_fresh_global_linear_id(void) {
  volatile size_t id = get_global_linear_id();
  return id;
}
#define get_local_linear_id() gsync_fresh_local_linear_id()
#define get_global_linear_id() gsync_fresh_global_linear_id()
#endif
#endif

/* Starts a context: discovery calls it first, from every work-item. */
void gsync_ctx_begin(private struct gsync_ctx *c, global uint *s,
                     local uint *shared) {
  c->state = s;
  c->group = 0xffffffffu;
  c->groups = 0;
  c->left = shared + GSYNC_SHARED_LEFT;
  if (gsync_leader()) {
    *c->left = 0;
    *gsync_ticks(c) = 0;
  }
}

/* Whether the launch was aborted and this group must leave: for local id 0
 * as soon as its spin gave up, for the others after the next work-group
 * barrier. Always false without a spin limit. */
int gsync_aborted(private struct gsync_ctx *c) {
  return gsync_spin_limit_ms != 0 && *c->left != 0;
}

/* Whether the group goes on: the guard of every loop that can reach a
 * barrier. */
int gsync_running(private struct gsync_ctx *c) { return !gsync_aborted(c); }

/* The first of the barrier rule's state words. */
#define gsync_rule_words(c) ((c)->state + gsync_word_rules)

#define gsync_in_discovery 0u
/* Polls before a wait counts as long. A wait that ends sooner (on a GPU, a
 * healthy barrier's: a few polls) pays for the counter and nothing else. */
#define gsync_spin_fast 1024u

/* The clock of long waits: gsync_clock(polls) reads it, gsync_clock_per_ms
 * is its rate. */
#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)
ulong gsync_clock(uint polls) {
  ulong t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#define gsync_clock_per_ms 1000000ul
#else
#if defined(__has_builtin) && (defined(__x86_64__) || defined(__i386__))
#if __has_builtin(__builtin_readcyclecounter)
#define gsync_clock_tsc 1
#endif
#endif
#ifdef gsync_clock_tsc
/* A CPU device: the time-stamp counter, at gsync_clock_hz (libgsync passes
 * the measured rate, to 50 MHz; without it, 4 GHz: the limit is then at most that many
 * times too long on a slower counter, never too short on any counter up to
 * 4 GHz). */
#ifndef gsync_clock_hz
#define gsync_clock_hz 4000000000ul
#endif
/* Fewer than 1000 ticks a second would make gsync_clock_per_ms 0, which
 * every wait's limit is a multiple of and an abort's time divides by. */
#if !(gsync_clock_hz >= 1000)
#error "gsync_clock_hz must be at least 1000 (the counter's ticks a second)"
#endif
ulong gsync_clock(uint polls) { return __builtin_readcyclecounter(); }
#define gsync_clock_per_ms ((ulong)(gsync_clock_hz) / 1000ul)
#else
/* No clock: the polls themselves, at an assumed rate (docs/barriers.md). */
#ifndef gsync_polls_per_ms
#define gsync_polls_per_ms 10000ul
#endif
#if !(gsync_polls_per_ms >= 1)
#error "gsync_polls_per_ms must be at least 1"
#endif
ulong gsync_clock(uint polls) { return polls; }
#define gsync_clock_per_ms ((ulong)(gsync_polls_per_ms))
#endif
#endif

/* Called on every poll of a long wait: returns 0 to go on waiting, 1 if
 * another group aborted the launch, 2 if this group has waited
 * gsync_spin_limit_ms since *start (its first long poll, set here while
 * *start is 0; no clock reads 0 after its first poll). The
 * atomic read of the abort word also puts a round trip to the coherence
 * point into every poll of a long wait. */
int gsync_spin_check(private struct gsync_ctx *c, uint polls,
                     private ulong *start) {
  if (atomic_or(c->state + gsync_word_abort_kind, 0u) != 0u) {
    *c->left = 1;
    return 1;
  }
  ulong now = gsync_clock(polls);
  if (*start == 0)
    *start = now;
  else if (now - *start >= (ulong)gsync_spin_limit_ms * gsync_clock_per_ms)
    return 2;
  return 0;
}

/* Gives up a wait that began at start: the first group to give up records
 * why (ARRIVED is arrived) in the state; this group leaves. */
void gsync_spin_give_up(private struct gsync_ctx *c, uint site, uint arrived,
                        ulong start, uint polls) {
  global uint *s = c->state;
  if (atomic_cmpxchg(s + gsync_word_abort_kind, 0u,
                     site != gsync_in_discovery ? gsync_aborted_in_barrier
                                                : gsync_aborted_in_discovery) ==
      0u) {
    ulong waited = (gsync_clock(polls) - start) / gsync_clock_per_ms;
    s[gsync_word_abort_site] = site;
    s[gsync_word_abort_group] = c->group;
    s[gsync_word_abort_real_group] = gsync_launch_group();
    s[gsync_word_abort_arrived] = arrived;
    s[gsync_word_abort_expected] = site != gsync_in_discovery
                                       ? c->groups
                                       : gsync_launch_groups();
    s[gsync_word_abort_waited_ms] = (uint)min(waited, (ulong)0xffffffffu);
    s[gsync_word_abort_launched] = gsync_launch_groups();
  }
  *c->left = 1;
}

#if gsync_spin_limit_ms
#define gsync_spin_while(c, site, cond, arrived)                               \
  do {                                                                         \
    ulong gsync_start = 0;                                                     \
    for (uint gsync_polls = 1; !*(c)->left && (cond); gsync_polls++) {         \
      int gsync_stop = gsync_polls >= gsync_spin_fast                          \
                           ? gsync_spin_check((c), gsync_polls, &gsync_start)  \
                           : 0;                                                \
      if (gsync_stop == 2)                                                     \
        gsync_spin_give_up((c), (site), (arrived), gsync_start, gsync_polls);  \
      if (gsync_stop)                                                          \
        break;                                                                 \
    }                                                                          \
  } while (0)
#else
#define gsync_spin_while(c, site, cond, arrived)                               \
  do {                                                                         \
    while (cond)                                                               \
      ;                                                                        \
  } while (0)
#endif

/* Watching (docs/watch.md). Every rule ends its leader block with
 * gsync_watch_tick(c, gsync_watch_peek(c)), once per completed barrier
 * (tree's NVIDIA path peeks first in the block, before its arrival, so
 * that the local load's latency hides behind the arrival's round trip;
 * elsewhere the value held across the wait cost registers). It does
 * something only in participant 0, and only in a launch the host
 * watches: libgsync writes word watch_mode before each launch of a watched
 * kernel (gsync_watch_progress: the host reads the progress while the
 * kernel runs, gsync_watch_cancel: it may cancel), and word
 * watch_deadline_ms where a deadline is set;
 * gsync_watch_start copies what applies into participant 0's local
 * memory once, so a launch of a watch build that the host does not
 * watch (or watches on a device where it can neither read nor write while
 * the kernel runs, with no deadline) costs one local load per barrier in
 * one work-item.
 * Otherwise it (1) counts the barrier in local memory and, for progress,
 * stores the count in word watch_barriers, which the host reads while the
 * kernel runs; and after every barrier (every gsync_watch_every-th, where a
 * build sets it) (2) stops the launch as gsync_cancelled if the host wrote
 * this launch's tag (word watch_tag, which libgsync writes before the
 * launch) into word watch_cancel; (3) with a deadline, stops it as
 * gsync_deadline once the device clock has passed the end
 * gsync_watch_start worked out. To stop, it stores the count in word
 * watch_barriers, sets the abort word as a group that gave up
 * does, and leaves: it stops arriving, and every other group finds the
 * abort word set in its next long wait (gsync_spin_check) and leaves too.
 * A tag rather than a flag: a cancel that comes after its launch ended
 * cannot stop the next one. Volatile, not atomic (a GPU's volatile access
 * goes to L2, where the host's write arrives; a CPU device shares the
 * memory). All of it is compiled in only where the program is built with
 * -Dgsync_watch (GSYNC_WATCH_BUILD_OPTION in libgsync.h, which
 * gsync_watch_enable requires): a build without it, the default, has no
 * trace of the watch, so a kernel nobody watches pays nothing for it.
 * Without a spin limit nothing could leave a wait, and it is empty too. */
#ifndef gsync_watch_every
#define gsync_watch_every 1u
#endif
/* A count of barriers the watch divides by (0 crashed PoCL's host). */
#if !(gsync_watch_every >= 1)
#error "gsync_watch_every must be at least 1"
#endif
/* The bit of participant 0's mode (beside the state's gsync_watch_progress
 * and gsync_watch_cancel) that says a deadline is set. */
#define gsync_watch_deadline 4u
/* Participant 0's copy of the watch (local memory its leader alone uses):
 * the mode bits above, and the deadline's end by the device clock (low,
 * high word), in the kernel's local words (see GSYNC_SHARED_WORDS). */
#define gsync_watch_mode(c) ((c)->left + 2)
#define gsync_watch_end(c) ((c)->left + 3)
#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll) ||              \
    defined(gsync_clock_tsc)
#define gsync_watch_clock 1
#endif

/* What participant 0's leader is to watch at this barrier (0 elsewhere,
 * and 0 where the watch is compiled out, which removes it all). */
uint gsync_watch_peek(private struct gsync_ctx *c) {
#if gsync_spin_limit_ms && defined(gsync_watch)
  return c->group == 0u ? *gsync_watch_mode(c) : 0u;
#else
  return 0u;
#endif
}

void gsync_watch_tick(private struct gsync_ctx *c, uint mode) {
#if gsync_spin_limit_ms && defined(gsync_watch)
  if (mode != 0u && !*c->left) {
    volatile global uint *w = c->state;
    uint ticks = ++*gsync_ticks(c);
    if (mode & gsync_watch_progress)
      w[gsync_word_watch_barriers] = ticks;
    uint stop = 0u;
    if (ticks % gsync_watch_every == 0u) {
      if ((mode & gsync_watch_cancel) && w[gsync_word_watch_cancel] != 0u &&
          w[gsync_word_watch_cancel] == w[gsync_word_watch_tag])
        stop = gsync_cancelled;
#ifdef gsync_watch_clock
      local uint *end = gsync_watch_end(c);
      if (stop == 0u && (mode & gsync_watch_deadline) &&
          gsync_clock(0u) >= ((ulong)end[0] | (ulong)end[1] << 32))
        stop = gsync_deadline;
#endif
    }
    if (stop != 0u) {
      w[gsync_word_watch_barriers] = ticks;
      atomic_cmpxchg(c->state + gsync_word_abort_kind, 0u, stop);
      *c->left = 1;
    }
  }
#endif
}

/* Participant 0 sets up the grid: where the deadline counts from (words
 * 20-21), and its copy of what the host watches. */
void gsync_watch_start(private struct gsync_ctx *c) {
#if gsync_spin_limit_ms && defined(gsync_watch)
  uint mode = c->state[gsync_word_watch_mode] &
              (gsync_watch_progress | gsync_watch_cancel);
#ifdef gsync_watch_clock
  ulong now = gsync_clock(0u);
  c->state[gsync_word_watch_start_lo] = (uint)now;
  c->state[gsync_word_watch_start_hi] = (uint)(now >> 32);
  uint limit = c->state[gsync_word_watch_deadline_ms];
  if (limit != 0u) {
    ulong end = now + (ulong)limit * gsync_clock_per_ms;
    gsync_watch_end(c)[0] = (uint)end;
    gsync_watch_end(c)[1] = (uint)(end >> 32);
    mode |= gsync_watch_deadline;
  }
#endif
  *gsync_watch_mode(c) = mode;
#endif
}

/* Largest r with r^k <= p (k = 2 or 3): the float root, corrected. */
uint gsync_root(uint p, uint k) {
  uint r = (uint)(k == 2u ? sqrt((float)p) : cbrt((float)p));
  while (r > 0u && (k == 2u ? (ulong)r * r : (ulong)r * r * r) > p)
    r--;
  while ((k == 2u ? (ulong)(r + 1u) * (r + 1u)
                  : (ulong)(r + 1u) * (r + 1u) * (r + 1u)) <= p)
    r++;
  return r;
}

#ifdef gsync_ids_stored
/* Stores the answers of the four virtual-id queries, get_group_id,
 * get_num_groups, get_global_id and get_global_size (rows 0-3), for each
 * dimension, and in column 3 their answer past dimension 2. */
void gsync_ids_store(private struct gsync_ctx *c) {
  for (uint d = 0; d < 3u; d++) {
    c->ids[0][d] = c->id[d];
    c->ids[1][d] = c->n[d];
    c->ids[2][d] = (size_t)c->id[d] * get_local_size(d) + get_local_id(d) +
                   get_global_offset(d);
    c->ids[3][d] = (size_t)c->n[d] * get_local_size(d);
  }
  c->ids[0][3] = 0;
  c->ids[1][3] = 1;
  c->ids[2][3] = 0;
  c->ids[3][3] = 1;
}
#endif

/* The virtual grid v0 x v1 x v2 (docs/nd.md): participant p gets the
 * virtual id (p % v0, p / v0 % v1, p / (v0 v1)); one with p >= v0 v1 v2 is
 * left out: this returns 0 and it leaves, like a group that was not
 * admitted. Participant 0 records the grid in the state's words grid for
 * the host. */
int gsync_ctx_shape(private struct gsync_ctx *c, uint v0, uint v1, uint v2) {
  uint me = c->group;
  if (me >= v0 * v1 * v2)
    return 0;
  gsync_anchor(c);
  c->groups = v0 * v1 * v2;
  c->n[0] = v0;
  c->n[1] = v1;
  c->n[2] = v2;
  c->id[0] = me % v0;
  c->id[1] = me / v0 % v1;
  c->id[2] = me / (v0 * v1);
#ifdef gsync_ids_stored
  gsync_ids_store(c);
#endif
  if (me == 0u && gsync_leader()) {
    c->state[gsync_word_grid] = v0;
    c->state[gsync_word_grid + 1u] = v1;
    c->state[gsync_word_grid + 2u] = v2;
    gsync_watch_start(c);
  }
  return 1;
}

/* Without discovery every launched group takes part: the launch's shape. */
#define gsync_ctx_launch(c)                                                    \
  gsync_ctx_shape(c, (uint)get_num_groups(0), (uint)get_num_groups(1),        \
                  (uint)get_num_groups(2))

/* The virtual grid of a discovery launch (docs/nd.md). Discovery admitted
 * c->groups work-groups, numbered 0..c->groups-1, of a launch of
 * n0 x n1 x n2 work-groups; they take part as a virtual grid v0 x v1 x v2
 * with every v_d <= n_d, chosen by
 *   1. the largest v0 v1 v2 <= P: the fewest admitted groups left out;
 *   2. then the fewest rounds ceil(n0/v0) ceil(n1/v1) ceil(n2/v2): the
 *      work of the busiest group of a grid-stride kernel whose domain the
 *      launch covers;
 *   3. then the widest in dimension 0, then in dimension 1.
 * (gsync_ctx_shape above gives the ids.) When every launched group takes
 * part (or the launch is 1-D) the grid is the launch's shape and needs no
 * search; a build without discovery has none (gsync_ctx_launch).
 *
 * The search: the smallest extent m of a grid is at most cbrt(P), and the
 * other two are a best pair for the budget P / m, whose smaller one is at
 * most sqrt(P / m). So the candidates (dimension d, m <= cbrt(P), s <=
 * sqrt(P / m), which other dimension gets s), each completed with the
 * largest extent that fits, hold every optimal grid: 6 cbrt(P) sqrt(P) of
 * them (1920 at P = 1056). It runs once per launch, with the same inputs
 * in every participating group, so all agree. Who weighs the candidates
 * differs by device, so that each compiles and runs it cheaply; the
 * grid is the same:
 *   - On a GPU the group's work-items share them, and four local atomics
 *     then pick the best, rule by rule, in the search's local words
 *     (GSYNC_SHARED_GRID on), under the branch, so that a launch with no
 *     search passes no barrier. A search by 32 work-items with one barrier
 *     on every launch's path made a partial N-D launch on the H100 60 us
 *     slower (bench/results/h100.md, 2026-12-07 d).
 *   - On PoCL the leader weighs them all, before one work-group barrier
 *     that every launch passes. PoCL's kernel compiler copies the rest of
 *     a kernel after each work-group barrier under a branch, once per way
 *     in: with the GPU's five, a cold PoCL build of the discovery output of
 *     apps/graph/bc.cl took 27 s, with this one 7 s, about what its
 *     --no-discovery output takes (bench/results/pocl-build.md). On a CPU
 *     P is at most its threads: 48 candidates at 16. -Dgsync_grid_shared
 *     gives PoCL the GPU's search (test/run/grid-search.test runs both). */
/* Weighs candidates first, first + step, ... of the search into the best
 * so far, bp (its v0 v1 v2), br (its rounds), b0 and b1 (its v0 and v1),
 * variables of the code it is written in, as are p, n0-n2, m_max (cbrt(P))
 * and s_max (sqrt(P)). */
#define GSYNC_GRID_WEIGH(first, step)                                          \
  for (uint k = (first); k < 6u * m_max * s_max; k += (step)) {                \
    uint s = k / 2u % s_max + 1u, m = k / 2u / s_max % m_max + 1u;             \
    uint d = k / 2u / s_max / m_max, q = p / m;                                \
    uint nd = d == 0u ? n0 : d == 1u ? n1 : n2;                                \
    uint ne = d == 0u ? n1 : n0, nf = d == 2u ? n1 : n2;                       \
    if (m > nd || s > q / s || s > (k % 2u ? nf : ne))                         \
      continue;                                                                \
    uint ve = k % 2u ? min(ne, q / s) : s, vf = k % 2u ? s : min(nf, q / s);   \
    uint x0 = d == 0u ? m : ve, x1 = d == 1u ? m : d == 0u ? ve : vf;          \
    uint x2 = d == 2u ? m : vf, prod = x0 * x1 * x2;                           \
    ulong r = (ulong)((n0 + x0 - 1u) / x0) * ((n1 + x1 - 1u) / x1) *           \
              ((n2 + x2 - 1u) / x2);                                           \
    uint rounds = r < 0xffffffffu ? (uint)r : 0xffffffffu;                     \
    if (prod > bp ||                                                           \
        (prod == bp && (rounds < br || (rounds == br && (x0 > b0 ||            \
                                        (x0 == b0 && x1 > b1)))))) {           \
      bp = prod;                                                               \
      br = rounds;                                                             \
      b0 = x0;                                                                 \
      b1 = x1;                                                                 \
    }                                                                          \
  }

int gsync_ctx_grid(private struct gsync_ctx *c, local uint *shared) {
  uint p = c->groups;
  uint n0 = (uint)get_num_groups(0), n1 = (uint)get_num_groups(1),
       n2 = (uint)get_num_groups(2);
  uint v0 = n0, v1 = n1, v2 = n2;
  int search = (ulong)n0 * n1 * n2 > p && n1 * n2 != 1u;
  if ((ulong)n0 * n1 * n2 > p && n1 * n2 == 1u)
    v0 = p;
#if defined(POCL_DEVICE_ADDRESS_BITS) && !defined(gsync_grid_shared)
  gsync_anchor(c);
  if (search && gsync_leader()) {
    uint m_max = gsync_root(p, 3u), s_max = gsync_root(p, 2u);
    uint bp = 0u, br = 0xffffffffu, b0 = 0u, b1 = 0u;
    GSYNC_GRID_WEIGH(0u, 1u)
    shared[GSYNC_SHARED_GRID + 0u] = bp;
    shared[GSYNC_SHARED_GRID + 2u] = b0;
    shared[GSYNC_SHARED_GRID + 3u] = b1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
#else
  if (search) {
    gsync_anchor(c);
    uint m_max = gsync_root(p, 3u), s_max = gsync_root(p, 2u);
    uint items = (uint)(get_local_size(0) * get_local_size(1) *
                        get_local_size(2));
    uint me = (uint)((get_local_id(2) * get_local_size(1) + get_local_id(1)) *
                         get_local_size(0) +
                     get_local_id(0));
    uint bp = 0u, br = 0xffffffffu, b0 = 0u, b1 = 0u;
    GSYNC_GRID_WEIGH(me, items)
    if (gsync_leader()) {
      shared[GSYNC_SHARED_GRID + 0u] = 0u;
      shared[GSYNC_SHARED_GRID + 1u] = 0xffffffffu;
      shared[GSYNC_SHARED_GRID + 2u] = 0u;
      shared[GSYNC_SHARED_GRID + 3u] = 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    gsync_anchor(c);
    atomic_max(&shared[GSYNC_SHARED_GRID + 0u], bp);
    barrier(CLK_LOCAL_MEM_FENCE);
    gsync_anchor(c);
    int best = bp == shared[GSYNC_SHARED_GRID + 0u];
    if (best)
      atomic_min(&shared[GSYNC_SHARED_GRID + 1u], br);
    barrier(CLK_LOCAL_MEM_FENCE);
    gsync_anchor(c);
    best = best && br == shared[GSYNC_SHARED_GRID + 1u];
    if (best)
      atomic_max(&shared[GSYNC_SHARED_GRID + 2u], b0);
    barrier(CLK_LOCAL_MEM_FENCE);
    gsync_anchor(c);
    best = best && b0 == shared[GSYNC_SHARED_GRID + 2u];
    if (best)
      atomic_max(&shared[GSYNC_SHARED_GRID + 3u], b1);
    barrier(CLK_LOCAL_MEM_FENCE);
    gsync_anchor(c);
  }
#endif
  if (search) {
    v0 = shared[GSYNC_SHARED_GRID + 2u];
    v1 = shared[GSYNC_SHARED_GRID + 3u];
    v2 = shared[GSYNC_SHARED_GRID + 0u] / (v0 * v1);
  }
  return gsync_ctx_shape(c, v0, v1, v2);
}

/* The virtual ids. Past dimension 2 they answer as the OpenCL C
 * specification says the built-ins do (ids 0, counts and sizes 1; PoCL 3.1
 * answers sizes 0 there). The context is never null here: a context
 * function that code without one calls starts with gsync_ctx_or_real(). */
#ifdef gsync_ids_stored
#define gsync_ids_query(c, q, d) ((c)->ids[q][min((uint)(d), 3u)])
#define gsync_get_group_id(c, d) gsync_ids_query(c, 0, d)
#define gsync_get_num_groups(c, d) gsync_ids_query(c, 1, d)
#define gsync_get_global_id(c, d) gsync_ids_query(c, 2, d)
#define gsync_get_global_size(c, d) gsync_ids_query(c, 3, d)
#else
size_t gsync_get_group_id(private struct gsync_ctx *c, uint d) {
  return d == 0u   ? (size_t)c->id[0]
         : d == 1u ? (size_t)c->id[1]
         : d == 2u ? (size_t)c->id[2]
                   : 0;
}

size_t gsync_get_num_groups(private struct gsync_ctx *c, uint d) {
  return d == 0u   ? (size_t)c->n[0]
         : d == 1u ? (size_t)c->n[1]
         : d == 2u ? (size_t)c->n[2]
                   : 1;
}

size_t gsync_get_global_id(private struct gsync_ctx *c, uint d) {
  return d < 3u ? gsync_get_group_id(c, d) * get_local_size(d) +
                      get_local_id(d) + get_global_offset(d)
                : 0;
}

size_t gsync_get_global_size(private struct gsync_ctx *c, uint d) {
  return d < 3u ? gsync_get_num_groups(c, d) * get_local_size(d) : 1;
}
#endif

/* The context a context function uses: c, or where code that does not
 * take part called it (with a null context), *real made a context of the
 * real ids. The rewrite starts every context function that such code
 * calls with it; after inlining into either kind of caller the test
 * folds away. */
private struct gsync_ctx *gsync_ctx_or_real(private struct gsync_ctx *c,
                                            private struct gsync_ctx *real) {
  if (c)
    return c;
  real->state = 0;
  real->group = gsync_launch_group();
  real->groups = gsync_launch_groups();
  real->left = 0;
  real->split = 0;
  for (uint d = 0; d < 3u; d++) {
    real->id[d] = (uint)get_group_id(d);
    real->n[d] = (uint)get_num_groups(d);
  }
#ifdef gsync_ids_stored
  gsync_ids_store(real);
#endif
  return real;
}

/* get_global_linear_id() (OpenCL C 2.0), in the virtual grid: computed
 * from the ids of every dimension as the built-in is defined, so that it
 * needs no built-in in any version. */
size_t gsync_get_global_linear_id(private struct gsync_ctx *c) {
  size_t x = gsync_get_global_id(c, 0) - get_global_offset(0);
  size_t y = gsync_get_global_id(c, 1) - get_global_offset(1);
  size_t z = gsync_get_global_id(c, 2) - get_global_offset(2);
  return (z * gsync_get_global_size(c, 1) + y) * gsync_get_global_size(c, 0) +
         x;
}
