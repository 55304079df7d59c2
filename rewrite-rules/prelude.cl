/* prelude: what every rewritten kernel shares.
 *
 * @summary the context passed to rewritten functions, and virtual ids
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
};

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
