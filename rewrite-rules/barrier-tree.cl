/* barrier-tree: a flip word (grid.sync's algorithm) for up to 512 groups,
 * a two-level combining tree above; PTX release/acquire on NVIDIA.
 *
 * @summary flip word up to 512 groups, 64-group leaves above; PTX acquire/release on NVIDIA: any device
 * @opencl-c 1.1
 * @extension cl_khr_global_int32_base_atomics
 * @state-fixed 256
 * @state-per-group 2
 *
 * Algorithm: the top word works as in barrier-flip: the adds of one
 * barrier sum to 0x80000000, so its top bit flips once all are in and its
 * low bits come back to where they were (no reset). Each waiter reads the
 * top bit BEFORE it arrives (it cannot flip before this arrival) and spins
 * until it differs. With up to 512 participants every group adds to the
 * top word itself. Above that, groups arrive at a leaf counter of 64
 * groups; the last to arrive at its leaf (the add returns size - 1) resets
 * the leaf and adds for the whole leaf to the top word, so the top word
 * sees one add per 64 groups instead of one per group. Leaves sit in
 * separate 128-byte lines (words 48 + 32 k); the top word is word 16.
 * GSYNC_TREE_FLAT_MAX (512) and GSYNC_TREE_LEAF (64) may be defined
 * smaller to run the tree with few groups in tests; the state holds
 * ceil(groups / GSYNC_TREE_LEAF) leaves only while the leaf is 64 or more,
 * or the groups are at most 4.
 *
 * Why: measured on an H100 (docs/gpu.md, bench/results/), one word costs
 * the least up to about 400 groups; at 1056 groups the contention of 1056
 * adds and pollers on one line costs 3.4 us a barrier, the tree 2.4 us.
 *
 * Per device: on NVIDIA's OpenCL (its compiler's macros; sm_70 or newer,
 * which libgsync states as GSYNC_NV_SM) the arrivals are PTX
 * red/atom.release.gpu and the spin ld.relaxed.gpu with nanosleep, then one
 * ld.acquire.gpu: no full fences (barrier-flip, which fences with membar.gl
 * twice, costs 1.53 us a barrier at 132 groups, this 1.17 us).
 * Elsewhere every access is an OpenCL 1.1 atomic (right with non-coherent
 * L1 caches, AMD GCN) with gsync_device_fence() for release and acquire.
 *
 * Shape: all of it in ONE if (gsync_leader()) block between two
 * work-group barriers (the only shape PoCL runs; docs/barriers.md).
 *
 * Memory model: the opening work-group barrier makes the group's writes
 * visible to linear local id 0; its release add (a leaf add is acq_rel, so the
 * leaf's last arriver also acquires the others' writes before releasing
 * them all to the top word) publishes them; the waiter's acquire after the
 * spin reads the flipped top word, the end of every arrival's release
 * sequence, so it sees every group's writes; the closing work-group
 * barrier passes that to the whole group. A leaf's reset happens before
 * the top add, so the next barrier's arrivals (after the flip) see it.
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
#if (defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)) && \
    (!defined(GSYNC_NV_SM) || GSYNC_NV_SM >= 70)
uint gsync_tree_load(global uint *p) {
  uint v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];"
               : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
}
void gsync_tree_acquire(global uint *p) {
  uint v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
               : "=r"(v) : "l"((ulong)p) : "memory");
}
void gsync_tree_pause(void) { asm volatile("nanosleep.u32 32;" ::: "memory"); }
void gsync_tree_arrive(global uint *p, uint x) {
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;"
               :: "l"((ulong)p), "r"(x) : "memory");
}
uint gsync_tree_leaf_add(global uint *p) {
  uint v;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
               : "=r"(v) : "l"((ulong)p) : "memory");
  return v;
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
#endif

/* Whether the top word's top bit still reads before; if so, pauses as
 * the spin does between polls. */
int gsync_tree_waiting(global uint *top, uint before) {
  if ((gsync_tree_load(top) & 0x80000000u) != before)
    return 0;
  gsync_tree_pause();
  return 1;
}

/* How many of n adders have added to a flip word w mid-barrier: its low 31
 * bits start every barrier at 0; below n they count the adds of all but
 * the first adder, whose add of 2^31 - (n - 1) puts them near 2^31. */
uint gsync_tree_adds(uint w, uint n) {
  uint low = w & 0x7fffffffu;
  return low < n ? low : n - (0x80000000u - low);
}

/* How many groups have arrived, as far as the words tell: above
 * GSYNC_TREE_FLAT_MAX a complete leaf counts as GSYNC_TREE_LEAF groups. */
uint gsync_tree_arrived(private struct gsync_ctx *c) {
  uint w = atomic_or(c->state + 16, 0u);
  if (c->groups <= GSYNC_TREE_FLAT_MAX)
    return gsync_tree_adds(w, c->groups);
  uint leaves = (c->groups + GSYNC_TREE_LEAF - 1u) / GSYNC_TREE_LEAF;
  uint n = gsync_tree_adds(w, leaves) * GSYNC_TREE_LEAF;
  for (uint k = 0; k < leaves; k++)
    n += atomic_or(c->state + 48 + 32u * k, 0u);
  return min(n, c->groups);
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  global uint *top = c->state + 16;
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (gsync_leader()) {
    uint before = gsync_tree_load(top) & 0x80000000u;
    if (c->groups <= GSYNC_TREE_FLAT_MAX) {
      gsync_tree_arrive(top, c->group == 0 ? 0x80000000u - (c->groups - 1u)
                                           : 1u);
    } else {
      uint leaf = c->group / GSYNC_TREE_LEAF;
      uint leaves = (c->groups + GSYNC_TREE_LEAF - 1u) / GSYNC_TREE_LEAF;
      uint size = min(GSYNC_TREE_LEAF, c->groups - leaf * GSYNC_TREE_LEAF);
      global uint *count = c->state + 48 + 32u * leaf;
      if (gsync_tree_leaf_add(count) == size - 1u) {
        atomic_xchg(count, 0u);
        gsync_tree_arrive(top, leaf == 0 ? 0x80000000u - (leaves - 1u) : 1u);
      }
    }
    gsync_spin_while(c, site, gsync_tree_waiting(top, before),
                     gsync_tree_arrived(c));
    gsync_tree_acquire(top);
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
