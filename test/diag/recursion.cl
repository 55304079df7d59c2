// Recursion through a function on the way to a barrier is refused.
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
void down(uint n) {
  global_barrier();
  if (n)
    down(n - 1);
  // CHECK: recursion.cl:[[@LINE-1]]:5: error: recursive call of 'down' on a path to global_barrier()
}
kernel void k(void) { down(3); }
