// Benchmark input for gsync-bench placement: each work-group that takes
// part records, at its (remapped) group id, the SM it runs on (NVIDIA's
// %smid; elsewhere 0), then all meet at a barrier. A persistent kernel
// whose work is smaller than the grid runs on the lowest ids: how many
// SMs those ids span decides how much of the device such a phase gets.
// Signature of loop.cl; iters is unused.
kernel void loop(global uint *data, uint n, uint iters) {
  if (get_local_id(0) == 0 && get_group_id(0) < min(n, (uint)get_num_groups(0))) {
    uint sm = 0;
#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
#endif
    data[get_group_id(0)] = sm;
  }
  global_barrier();
}
