// Run-test input: the C11 atomic functions of OpenCL C 2.0 and 3.0. In each
// round every element i adds b[i] + r + 1 to a[(7 i + r) mod n] with
// atomic_fetch_add; after a global barrier, each element reads a[i] with
// atomic_load into b[i]; after another, the next round begins. The adds
// commute, so the result is exact, but only if every add of a round is done
// before any element reads, and every read before the next round's adds.
kernel void atomics(global atomic_uint *a, global uint *b, uint n,
                    uint rounds) {
  for (uint r = 0; r < rounds; r++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      atomic_fetch_add(&a[(7u * i + r) % n], b[i] + r + 1u);
    global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = atomic_load(&a[i]) ^ i;
    global_barrier();
  }
}
