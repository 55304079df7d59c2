// A barrier inside a grid-stride loop: the trip count differs per item.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
kernel void k(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    a[i] = 1;
    global_barrier();
    // CHECK: grid-stride-loop.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
    // CHECK-NEXT: grid-stride-loop.cl:[[@LINE-4]]:17: note: the condition depends on the work-item or group id here
    // CHECK-NEXT: note: put the barrier outside the grid-stride loop: run the loop to its end, then call global_barrier()
  }
}
