// A loop over a chunk of its own, from s to s + m, runs m times (by a step
// of 1; m / step, rounded up, by another) in every work-item, wherever its
// chunk s starts: a barrier inside it is uniform when m and the step do not
// vary. s is the same expression at the start and in the bound, or a
// variable that only its initializer sets; nothing else changes the
// loop's variable. The proof assumes that s + m does not wrap around.
// RUN: %gsync %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// Chunked loops that are not uniform stay errors: chunked-loop-errors.cl.
kernel void chunks(global uint *a, uint limit) {
  uint per = (limit + get_global_size(0) - 1) / get_global_size(0);
  for (uint i = get_global_id(0) * per; i < get_global_id(0) * per + per;
       i++) {
    if (i < limit)
      a[i] += 1;
    global_barrier();
  }
}
kernel void start_variable(global uint *a, uint limit) {
  uint per = (limit + get_num_groups(0) - 1) / get_num_groups(0);
  uint first = get_group_id(0) * per;
  uint i;
  for (i = first; i <= first + (per - 1); i += 1) {
    if (i < limit)
      a[i] += 1;
    global_barrier();
  }
}
kernel void stepped(global uint *a, uint limit, uint per, uint step) {
  size_t s = get_local_id(0) * per;
  for (size_t i = s; per + s > i; i = i + step) {
    if (i < limit)
      a[i] += 1;
    global_barrier();
  }
}
// With a second test (Lonestar DMR, as published), the trip count varies:
// fine as long as the barrier is not inside.
kernel void cut_then_barrier(global uint *a, uint limit) {
  uint per = (limit + get_global_size(0) - 1) / get_global_size(0);
  for (uint i = get_global_id(0) * per;
       i < get_global_id(0) * per + per && i < limit; i++)
    a[i] += 1;
  global_barrier();
}
