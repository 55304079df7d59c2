// The report of issue 24: work-item 0 steps the loop's counter twice per
// pass, so it runs the loop half as often as the others and the barrier
// in it hangs (with discovery the launch crashed). ++ and --, either
// side, change a variable as = and += do; a note points at the change.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// Every other way a variable changes: gen-mutations.py (mutations.test).
kernel void reported(global int *a, uint steps) {
  for (uint t = 0; t < steps; t++) {
    if (get_global_id(0) == 0)
      t++;
    global_barrier();
    // CHECK: increment.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
    // CHECK-NEXT: increment.cl:[[@LINE-5]]:20: note: the condition depends on the work-item or group id here
    // CHECK-NEXT: increment.cl:[[@LINE-4]]:7: note: 't' is changed here under a condition that depends on the work-item or group id
    // CHECK-NEXT: note: if every work-item runs this loop equally often, write '#pragma gsync uniform' on the line before it
  }
}
kernel void prefix(global int *a, uint steps) {
  for (uint t = 0; t < steps; t++) {
    if (get_local_id(0) < 4)
      ++t;
    global_barrier();
    // CHECK: increment.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
    // CHECK: increment.cl:[[@LINE-3]]:7: note: 't' is changed here under a condition that depends on the work-item or group id
  }
}
kernel void decrement(global int *a, uint steps) {
  for (uint t = 0; t < steps; t++) {
    global_barrier();
    // CHECK: increment.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
    if (get_group_id(0) == 1)
      t--;
    // CHECK: increment.cl:[[@LINE-1]]:7: note: 't' is changed here under a condition that depends on the work-item or group id
  }
}
// The same change under a condition every work-item agrees on is fine.
kernel void uniform(global int *a, uint steps, uint skip) {
  for (uint t = 0; t < steps; t++) {
    if (skip > 0)
      t++;
    global_barrier();
  }
}
