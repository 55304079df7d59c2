// A loop that can reach a barrier is guarded, so that it ends once the
// launch was aborted. Where the guard has no place, the rewrite refuses: a
// loop that a macro writes whole, and a loop written with a goto back to a
// label. --spin-limit=0 needs no guards: there both rewrite.
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl
// RUN: %gsync --spin-limit=0 %s -o %t.0.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.0.cl
#define SPIN_UNTIL(c) for (;;) { global_barrier(); if (c) break; }
kernel void k(global uint *a, uint n) {
  SPIN_UNTIL(a[0] > n);
  // CHECK: abort-guard.cl:[[@LINE-1]]:3: error: cannot guard this loop, which a barrier can abort: a macro writes both its header and its body (--spin-limit=0 needs no guard)
again:
  global_barrier();
  if (a[1] < n)
    goto again;
  // CHECK: abort-guard.cl:[[@LINE-1]]:5: error: a goto back to an earlier label makes a loop that a barrier can abort, and that cannot be ended after an aborted launch: write it as a for, while or do loop (or rewrite with --spin-limit=0)
  if (a[2])
    goto done;
  global_barrier();
done:
  a[3] = 0;
}
