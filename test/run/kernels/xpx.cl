// Run-test input: all-to-all exchange. Each item j sums all of X into P[j],
// then, after a global barrier, sums all of P into X[j]. Every element
// depends on every element of the previous phase, so a work-group that runs
// ahead of the barrier reads a stale or half-updated array.
kernel void xpx(global uint *x, global uint *p, uint n, uint rounds) {
  for (uint r = 0; r < rounds; r++) {
    for (uint j = get_global_id(0); j < n; j += get_global_size(0)) {
      uint s = 0;
      for (uint k = 0; k < n; k++)
        s += x[k];
      p[j] = s + j * r + 1u;
    }
    global_barrier();
    for (uint j = get_global_id(0); j < n; j += get_global_size(0)) {
      uint s = 0;
      for (uint k = 0; k < n; k++)
        s += p[k] * (k + 1u);
      x[j] = s ^ j;
    }
    global_barrier();
  }
}
