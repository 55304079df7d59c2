// A condition on a variable that was set from a racy read is a race, and
// the notes say so and point at the read and the write, not at an id.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck --implicit-check-not=note: %s
kernel void k(global int *f, int n) {
  for (int t = 0; t < n; t++) {
    atomic_add(&f[0], 1);
    global_barrier();
    int v = f[0];
    // CHECK: race-through-variable.cl:[[@LINE-2]]:5: error: global_barrier() is not reached by every work-item: an earlier exit is taken by only some of them
    // CHECK-NEXT: race-through-variable.cl:[[@LINE+2]]:17: note: this 'break' depends on a read that can give work-items different values
    // CHECK-NEXT: race-through-variable.cl:[[@LINE-3]]:13: note: this read can give work-items different values: the same place is written at {{.*}}race-through-variable.cl:[[@LINE-5]]:5 between the same two barriers
    if (v > 64) break;
  }
}
