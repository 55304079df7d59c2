// local sizes: 2x1x2 2x2x1 3x1x2
// Issue 24, item 2: a barrier, then work for the first work-item behind
// a test of two parts, with a 3-D local size whose middle extent is 1.
// Built optimised PoCL 3.1 stored nothing, and with -cl-opt-disable it
// crashed (docs/pocl.md, section 6: tail replication).
kernel void k(global int *a, global int *b, global int *f, int n, int k) {
  global_barrier();
  if (get_global_id(0) == 0 && get_global_id(1) == 0)
    f[0] = 1;
}
