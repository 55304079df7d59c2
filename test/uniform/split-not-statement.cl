// A half that is not a statement of its own in a block (the body of an if
// without braces): its other half cannot be a later statement of its block.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
kernel void k(global uint *a, uint n) {
  if (n > 4)
    global_barrier_arrive();
  // CHECK: split-not-statement.cl:[[@LINE-1]]:5: error: global_barrier_arrive() must be a statement of its own in a block (the other half a later statement of the same block)
  a[0] = n;
  global_barrier_wait();
  // CHECK: split-not-statement.cl:[[@LINE-1]]:3: error: global_barrier_wait() without a global_barrier_arrive() before it in the same block
}
