// With a spin limit (the default), every statement that can abort, one
// that calls global_barrier() or a function that reaches it, is followed
// by a check that leaves the kernel once the launch was aborted: in braces
// where the statement is the body of an if, a loop or a case; after a whole
// macro expansion; at the top of a loop body when the loop's condition or
// increment can abort; with a value of the function's type in a helper
// that returns one; never after a return.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
#define SYNC() global_barrier()
#define TWICE(x) do { x; x; } while (0)
#define BUMP { a[0]++; }

void helper(global uint *a) { a[1] = 0; SYNC(); }

uint sum(global uint *a, uint n) {
  global_barrier();
  uint s = 0;
  for (uint i = 0; i < n; i++)
    s += a[i];
  return s;
}

uint converged(global uint *a) { global_barrier(); return a[0] > 3; }

uint relay(global uint *a) { return converged(a); }

kernel void k(global uint *a, uint n, uint c) {
  global_barrier();
  SYNC();
  TWICE(global_barrier());
  if (c)
    global_barrier();
  else
    helper(a);
  for (uint i = 0; i < n; i++)
    helper(a);
  uint s = sum(a, n);
  a[2] = sum(a, n) + s;
  while (!converged(a)) {
    a[0]++;
  }
  while (!converged(a)) BUMP
  for (uint i = 0; i < n; global_barrier())
    i++;
  do a[3]++; while (!relay(a));
  switch (c) {
  case 1:
    global_barrier();
    break;
  default:
    helper(a);
  }
  { global_barrier(); } // a comment after the call
}

// CHECK: #define SYNC() gsync_barrier(gsync_ctx, 1)
// CHECK-NEXT: #define TWICE(x) do { x; x; } while (0)
// CHECK-NEXT: #define BUMP { a[0]++; }
// CHECK-EMPTY:
// CHECK-NEXT: void helper(global uint *a, private struct gsync_ctx *gsync_ctx) { a[1] = 0; SYNC(); if (gsync_aborted(gsync_ctx)) return; }
// CHECK-EMPTY:
// CHECK-NEXT: uint sum(global uint *a, uint n, private struct gsync_ctx *gsync_ctx) {
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 2); if (gsync_aborted(gsync_ctx)) return (uint){0};
// CHECK:      uint converged(global uint *a, private struct gsync_ctx *gsync_ctx) { gsync_barrier(gsync_ctx, 3); if (gsync_aborted(gsync_ctx)) return (uint){0}; return a[0] > 3; }
// CHECK-EMPTY:
// CHECK-NEXT: uint relay(global uint *a, private struct gsync_ctx *gsync_ctx) { return converged(a, gsync_ctx); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void k(global uint *a, uint n, uint c, global uint *gsync_state) { {{.*}} return;
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 4); if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   SYNC(); if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   TWICE(gsync_barrier(gsync_ctx, 5)); if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   if (c)
// CHECK-NEXT:     { gsync_barrier(gsync_ctx, 6); if (gsync_aborted(gsync_ctx)) return; }
// CHECK-NEXT:   else
// CHECK-NEXT:     { helper(a, gsync_ctx); if (gsync_aborted(gsync_ctx)) return; }
// CHECK-NEXT:   for (uint i = 0; i < n; i++)
// CHECK-NEXT:     { helper(a, gsync_ctx); if (gsync_aborted(gsync_ctx)) return; }
// CHECK-NEXT:   uint s = sum(a, n, gsync_ctx); if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   a[2] = sum(a, n, gsync_ctx) + s; if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   while (!converged(a, gsync_ctx)) { if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:     a[0]++;
// CHECK-NEXT:   } if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   while (!converged(a, gsync_ctx)) { if (gsync_aborted(gsync_ctx)) return; BUMP } if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   for (uint i = 0; i < n; gsync_barrier(gsync_ctx, 7))
// CHECK-NEXT:     { if (gsync_aborted(gsync_ctx)) return; i++; } if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   do { if (gsync_aborted(gsync_ctx)) return; a[3]++; } while (!relay(a, gsync_ctx)); if (gsync_aborted(gsync_ctx)) return;
// CHECK-NEXT:   switch (c) {
// CHECK-NEXT:   case 1:
// CHECK-NEXT:     { gsync_barrier(gsync_ctx, 8); if (gsync_aborted(gsync_ctx)) return; }
// CHECK-NEXT:     break;
// CHECK-NEXT:   default:
// CHECK-NEXT:     { helper(a, gsync_ctx); if (gsync_aborted(gsync_ctx)) return; }
// CHECK-NEXT:   }
// CHECK-NEXT:   { gsync_barrier(gsync_ctx, 9); if (gsync_aborted(gsync_ctx)) return; } // a comment after the call
// CHECK-NEXT: }
