/* barrier-acq-rel: Xiao-Feng master/slave flags with OpenCL 2.0 atomics,
 * release on raising a flag and acquire on seeing one, at device scope.
 *
 * @summary Xiao-Feng flags, OpenCL 2.0 release/acquire atomics
 * @runs-on PoCL, AMD and Intel; not NVIDIA, whose OpenCL C is 1.2
 * @opencl-c 2.0
 * @atomic-capability acq_rel
 * @atomic-capability device_scope
 * @state-per-group 8
 *
 * Algorithm and shape as barrier-atomic-or: participant g > 0 raises
 * arrive[g] and waits for release[g]; participant 0 waits for every arrival,
 * clears them and raises every release. Flags at rule words 2g and 2g + 1,
 * back at zero after each barrier. Linear local id 0 does all flag
 * traffic, inside one if-block between two work-group barriers.
 *
 * Memory model (OpenCL 2.0 / 3.0): the first work_group_barrier with
 * CLK_GLOBAL_MEM_FENCE makes every item's writes happen-before linear local id
 * 0's release store of its arrival flag; the master's acquire load that reads
 * it synchronizes-with that store at memory_scope_device; the master's release
 * stores of the release flags, read by acquire loads in each group, carry it
 * on; the closing work-group barrier extends it to every item. Happens-before
 * is transitive, so every write before the barrier in any group happens-before
 * every read after it in any other group. Spinning is done with relaxed loads
 * and one acquire fence after the loop. Needs OpenCL C 2.0, or 3.0 with
 * __opencl_c_atomic_order_acq_rel and __opencl_c_atomic_scope_device. NVIDIA's
 * OpenCL (C 1.2) cannot build it.
 *
 * Bounded spin (prelude.cl): a master that gives up releases no one, so
 * no group leaves the barrier as if it were complete. The host zeroes the
 * state after an aborted launch.
 */
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 300 && \
    (!defined(__opencl_c_atomic_order_acq_rel) ||                   \
     !defined(__opencl_c_atomic_scope_device))
#error "barrier acq-rel needs the acq_rel and device-scope atomic features"
#endif
#if !defined(__OPENCL_C_VERSION__) || __OPENCL_C_VERSION__ < 200
#error "barrier acq-rel needs OpenCL C 2.0 or later (build with -cl-std=CL2.0 or CL3.0)"
#endif

/* How many groups have raised their arrival flag (the master counted when
 * it is the one asking: its own arrival sets no flag). */
uint gsync_xf_arrived(global atomic_uint *flag, private struct gsync_ctx *c) {
  uint n = c->group == 0;
  for (uint g = 1; g < c->groups; g++)
    n += atomic_load_explicit(&flag[2 * g], memory_order_relaxed,
                              memory_scope_device) != 0;
  return n;
}

void gsync_barrier(private struct gsync_ctx *c, uint site) {
  global atomic_uint *flag = (global atomic_uint *)(gsync_rule_words(c));
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
  if (gsync_leader()) {
    if (c->group == 0) {
      for (uint g = 1; g < c->groups && !gsync_aborted(c); g++)
        gsync_spin_while(c, site,
                         atomic_load_explicit(&flag[2 * g],
                                              memory_order_relaxed,
                                              memory_scope_device) == 0,
                         gsync_xf_arrived(flag, c));
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire,
                             memory_scope_device);
      for (uint g = 1; g < c->groups && !gsync_aborted(c); g++) {
        atomic_store_explicit(&flag[2 * g], 0u, memory_order_relaxed,
                              memory_scope_device);
        atomic_store_explicit(&flag[2 * g + 1], 1u, memory_order_release,
                              memory_scope_device);
      }
    } else {
      atomic_store_explicit(&flag[2 * c->group], 1u, memory_order_release,
                            memory_scope_device);
      gsync_spin_while(c, site,
                       atomic_load_explicit(&flag[2 * c->group + 1],
                                            memory_order_relaxed,
                                            memory_scope_device) == 0,
                       gsync_xf_arrived(flag, c));
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire,
                             memory_scope_device);
      atomic_store_explicit(&flag[2 * c->group + 1], 0u, memory_order_relaxed,
                            memory_scope_device);
    }
    gsync_watch_tick(c, gsync_watch_peek(c));
  }
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  gsync_anchor(c);
}
