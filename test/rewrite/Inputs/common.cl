// Shared input of the per-barrier tests: a two-phase grid-stride kernel.
kernel void twophase(global uint *a, global uint *b, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    b[i] = a[i] + a[(i + 1) % n];
  global_barrier();
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = b[i];
}
