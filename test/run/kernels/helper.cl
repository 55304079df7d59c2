// Run-test input: the barrier sits two calls deep (kernel -> phase() ->
// sync_step() -> global_barrier()), and phase() is shared by two kernels
// that rotate an array in opposite directions through a scratch buffer.
// Each rotation reads elements that items of other work-groups write in the
// next phase, so both kernels need the barrier between the phases.

// Waits until every participating work-item has got here.
void sync_step(void) {
  global_barrier();
}

// Copies src rotated left by shift into dst, adding add, then waits.
void phase(global uint *dst, global const uint *src, uint n, uint shift,
           uint add) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    dst[i] = src[(i + shift) % n] + add;
  sync_step();
}

kernel void shift_left(global uint *a, global uint *tmp, uint n,
                       uint rounds) {
  for (uint r = 0; r < rounds; r++) {
    phase(tmp, a, n, 1u, r);
    phase(a, tmp, n, 0u, 1u);
  }
}

kernel void shift_right(global uint *a, global uint *tmp, uint n,
                        uint rounds) {
  for (uint r = 0; r < rounds; r++) {
    phase(tmp, a, n, n - 1u, 2u * r);
    phase(a, tmp, n, 0u, 3u);
  }
}
