// Run-test input: every round each item publishes a value derived from its
// element and the round, then reads the mirrored element, which an item of
// another work-group wrote, and counts a mismatch if it is not this round's
// value. The host expects zero mismatches in total.
uint mirror_value(uint i, uint round) {
  return i * 2654435761u + round * 40503u + 1u;
}

kernel void mirror(global uint *slot, global uint *errors, uint n,
                   uint rounds) {
  for (uint r = 0; r < rounds; r++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      slot[i] = mirror_value(i, r);
    global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
      uint j = n - 1 - i;
      if (slot[j] != mirror_value(j, r))
        errors[i] += 1;
    }
    global_barrier();
  }
}
