// Run-test input: every work-item of a participating work-group records
// what the remapped work-item functions tell it, asked with a run-time
// dimension, so that gsync-run can check the virtual grid: each virtual
// global id occurs once, ids, counts and sizes agree in every dimension,
// and the grid is the one docs/nd.md describes for the admitted count.
// The same values asked with constant dimensions, through a helper and a
// macro, and (OpenCL C 2.0 on) get_global_linear_id must agree; each
// disagreement sets a bit of word 12 of the record.
#define ID(d) get_global_id(d)
#define REC 14

// The work-item's place in the virtual launch, dimension 0 fastest.
size_t place(void) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  return (z * get_global_size(1) + y) * get_global_size(0) + x;
}

size_t groups_of(uint d) { return get_num_groups(d); }

kernel void ids(global uint *rec, global uint *hits, uint n) {
  global_barrier();
  size_t at = place();
  if (at >= n)
    return;
  atomic_inc(&hits[at]);
  global uint *r = rec + at * REC;
  for (uint d = 0; d < 3; d++) {
    r[d] = (uint)get_group_id(d);
    r[3 + d] = (uint)get_num_groups(d);
    r[6 + d] = (uint)get_global_id(d);
    r[9 + d] = (uint)get_global_size(d);
  }
  uint bad = 0;
  bad |= (get_group_id(0) != r[0]) | (get_group_id(1) != r[1]) << 1 |
         (get_group_id(2) != r[2]) << 2;
  bad |= (groups_of(0) != r[3]) << 3 | (groups_of(1) != r[4]) << 4 |
         (get_num_groups(2) != r[5]) << 5;
  bad |= (ID(0) != r[6]) << 6 | (ID(1) != r[7]) << 7 | (ID(2) != r[8]) << 8;
  bad |= (get_global_size(0) != r[9]) << 9 |
         (get_global_size(1) != r[10]) << 10 |
         (get_global_size(2) != r[11]) << 11;
  /* Past dimension 2 ids are 0 (counts and sizes should be 1, but PoCL 3.1
   * answers 0 for its own; the rewritten ones answer 1). */
  bad |= (get_group_id(3) != 0) << 12 | (get_global_id(3) != 0) << 13;
#if __OPENCL_C_VERSION__ >= 200
  bad |= (get_global_linear_id() != at) << 14;
  r[13] = 1;
#else
  r[13] = 0;
#endif
  r[12] = bad;
}
