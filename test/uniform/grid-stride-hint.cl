// The hint to move the barrier out of a grid-stride loop is given for
// grid-stride loops only; another loop whose trip count varies gets the
// pragma's hint instead.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
kernel void k(global uint *a) {
  for (uint k = 0; k < get_local_id(0); k++)
    global_barrier();
  // CHECK: grid-stride-hint.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
  // CHECK-NEXT: grid-stride-hint.cl:[[@LINE-3]]:24: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: note: if every work-item runs this loop equally often, write '#pragma gsync uniform' on the line before it
  // CHECK-NOT: grid-stride
}
