// A change that only some work-items make because of where it is: in a
// loop whose trip count varies (its own increment too), after a break or
// continue that some take, on the right of && or || whose left side
// varies. The variable varies after it, and a barrier that it decides is
// an error with a note at the change.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
kernel void counter_after_loop(global uint *a) {
  uint k;
  for (k = 0; k < get_local_id(0); k++)
    a[k] = 0;
  if (k > 2)
    global_barrier();
  // CHECK: exits-and-loops.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  // CHECK-NEXT: exits-and-loops.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: exits-and-loops.cl:[[@LINE-6]]:36: note: 'k' is changed here in a loop whose trip count depends on the work-item or group id
}
kernel void after_break(global uint *a, uint n) {
  uint done = 0;
  for (uint i = 0; i < 4; i++) {
    if (a[get_global_id(0)] == 0)
      break;
    done++;
  }
  for (uint t = 0; t < done; t++)
    global_barrier();
  // CHECK: exits-and-loops.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
  // CHECK-NEXT: exits-and-loops.cl:[[@LINE-3]]:24: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: exits-and-loops.cl:[[@LINE-6]]:5: note: 'done' is changed here after a 'break' that depends on the work-item or group id
}
kernel void short_circuit(global uint *a, uint n) {
  uint rounds = n;
  (void)(get_group_id(0) == 0 || (rounds = 2 * n));
  while (rounds-- > 0)
    global_barrier();
  // CHECK: exits-and-loops.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
  // CHECK-NEXT: exits-and-loops.cl:[[@LINE-3]]:10: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: exits-and-loops.cl:[[@LINE-5]]:35: note: 'rounds' is changed here under a condition that depends on the work-item or group id
}
// A barrier in the right side of && runs only where the left side lets it.
int sync_and_count(void) {
  global_barrier();
  return 1;
}
kernel void barrier_in_and(global uint *a) {
  if (get_local_id(0) == 0 && sync_and_count())
    a[0] = 1;
  // CHECK: exits-and-loops.cl:[[@LINE-2]]:31: error: call of 'sync_and_count', which reaches global_barrier(), under a condition that depends on the work-item or group id
}
