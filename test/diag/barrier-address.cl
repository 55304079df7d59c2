// The address of global_barrier, or of either half of the split barrier,
// cannot be taken; the message names the one written. A function of the
// user's whose name begins with one of theirs (global_barrier_step) keeps
// the compiler's own message.
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
void global_barrier_step(global uint *a) { a[1] = 2; }
kernel void k(global uint *a) {
  if (&global_barrier)
    a[0] = 1;
  // CHECK: barrier-address.cl:[[@LINE-2]]:8: error: the address of 'global_barrier' cannot be taken; it can only be called as 'global_barrier()'
  if (&global_barrier_arrive)
    a[0] = 2;
  // CHECK: barrier-address.cl:[[@LINE-2]]:8: error: the address of 'global_barrier_arrive' cannot be taken; it can only be called as 'global_barrier_arrive()'
  if (&global_barrier_wait)
    a[0] = 3;
  // CHECK: barrier-address.cl:[[@LINE-2]]:8: error: the address of 'global_barrier_wait' cannot be taken; it can only be called as 'global_barrier_wait()'
  if (&global_barrier_step)
    a[0] = 4;
  // CHECK: barrier-address.cl:[[@LINE-2]]:8: error: taking address of function is not allowed
}
