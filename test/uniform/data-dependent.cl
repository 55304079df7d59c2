// A condition on memory read before any barrier may or may not be uniform:
// a warning with the reason; --no-uniformity-check silences it.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: %gsync --no-uniformity-check %s -o %t.cl 2>&1 | count 0
kernel void k(global uint *a) {
  if (a[0] > 5)
    // CHECK: data-dependent.cl:[[@LINE-1]]:7: warning: global_barrier() under a condition that reads memory before any barrier: every work-item reaches it only if they all read the same value (--no-uniformity-check silences this)
    global_barrier();
}
