// Chunked loops whose trip count can differ between work-items: each stays
// an error. The published form with a second test gets a note on how to
// keep the barrier out of it.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
kernel void cut(global uint *a, uint limit) {
  uint per = (limit + get_global_size(0) - 1) / get_global_size(0);
  for (uint i = get_global_id(0) * per;
       i < get_global_id(0) * per + per && i < limit; i++) {
    a[i] += 1;
    global_barrier();
    // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
    // CHECK-NEXT: chunked-loop-errors.cl:[[@LINE-5]]:17: note: the condition depends on the work-item or group id here
    // CHECK-NEXT: chunked-loop-errors.cl:[[@LINE-5]]:44: note: 'i < limit' can end this chunked loop early in some work-items, though its chunk bound gives every work-item the same number of passes: test it inside the loop, around the work, and leave global_barrier() outside that test
    // CHECK-NOT: pragma
  }
}
kernel void varying_length(global uint *a) {
  uint per = get_local_id(0) + 1;
  for (uint i = get_global_id(0) * per; i < get_global_id(0) * per + per; i++)
    global_barrier();
  // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
kernel void varying_step(global uint *a, uint per) {
  uint s = get_global_id(0) * per;
  for (uint i = s; i < s + per; i += get_local_id(0) + 1)
    global_barrier();
  // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
kernel void body_steps(global uint *a, uint per) {
  for (uint i = get_global_id(0) * per; i < get_global_id(0) * per + per; i++) {
    global_barrier();
    // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
    if (a[i] == 0)
      i++;
  }
}
kernel void start_changes(global uint *a, uint per) {
  uint s = get_global_id(0) * per;
  for (uint i = s; i < s + per; i++) {
    global_barrier();
    // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
    s++;
  }
}
kernel void other_start(global uint *a, uint per) {
  for (uint i = get_global_id(0) * per; i < get_local_id(0) * per + per; i++)
    global_barrier();
  // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
kernel void start_in_memory(global uint *a, global uint *first, uint per) {
  for (uint i = first[get_global_id(0)]; i < first[get_global_id(0)] + per;
       i++)
    global_barrier();
  // CHECK: chunked-loop-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
