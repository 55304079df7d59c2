// With a spin limit (the default), every loop that can abort (its body,
// condition or increment calls global_barrier() or a function that reaches
// it) is guarded, so that it ends once the launch was aborted: a while or
// for loop at the end of its body (a body of one statement becomes a
// block; a continue of the loop jumps to the guard), a do loop in its
// condition; a body that a macro writes keeps the guard in the header. A
// loop that never repeats (a macro's do { ... } while (0)) and a loop that
// cannot abort are left alone. There is no early return; the anchors
// (test/rewrite/anchors.cl) are the only other statements added. A loop
// body that a macro writes gets no anchor: a warning says so.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck --check-prefix=WARN %s
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// WARN: abort-guards.cl:[[@LINE+35]]:25: warning: 'k' has code written by a macro where PoCL needs an anchor (1 place): PoCL can run it wrong at any optimisation level; write that code without the macro (docs/pocl.md)
#define SYNC() global_barrier()
#define TWICE(x) do { x; x; } while (0)
#define BUMP { a[0]++; }
#define FOREVER for (;;)

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
  for (;;) {
    global_barrier();
    if (a[4])
      break;
  }
  for (uint i = 0; i < n; i++) /* no barrier: no guard */
    a[5] += i;
  switch (c) {
  case 1:
    global_barrier();
    break;
  default:
    helper(a);
  }
  { global_barrier(); } // a comment after the call
  uint t = 0;
  FOREVER {
    if (t++ < n)
      continue;
    for (uint i = 0; i < n; i++) {
      if (i == c)
        continue; // the inner loop's own: no barrier, no guard
      a[i] = 1;
    }
    switch (t) {
    case 7:
      continue;
    }
    global_barrier();
    if (t > 2 * n)
      break;
  }
  while (t--)
    if (c)
      global_barrier();
    else
      helper(a);
}

// CHECK: #define SYNC() gsync_barrier(gsync_ctx, 1)
// CHECK-NEXT: #define TWICE(x) do { x; x; } while (0)
// CHECK-NEXT: #define BUMP { a[0]++; }
// CHECK-NEXT: #define FOREVER for (;;)
#define FOREVER for (;;)
// CHECK-EMPTY:
// CHECK-NEXT: void helper(global uint *a, private struct gsync_ctx *gsync_ctx) { a[1] = 0; SYNC(); }
// CHECK-EMPTY:
// CHECK-NEXT: uint sum(global uint *a, uint n, private struct gsync_ctx *gsync_ctx) {
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 2);
// CHECK-NEXT:   uint s = 0;
// CHECK-NEXT:   for (uint i = 0; i < n; i++)
// CHECK:      uint converged(global uint *a, private struct gsync_ctx *gsync_ctx) { gsync_barrier(gsync_ctx, 3); return a[0] > 3; }
// CHECK-EMPTY:
// CHECK-NEXT: uint relay(global uint *a, private struct gsync_ctx *gsync_ctx) { return converged(a, gsync_ctx); }
// CHECK-EMPTY:
// CHECK-NEXT: kernel void k(global uint *a, uint n, uint c, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 4);
// CHECK-NEXT:   SYNC();
// CHECK-NEXT:   TWICE(gsync_barrier(gsync_ctx, 5));
// CHECK-NEXT:   if (c)
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); gsync_barrier(gsync_ctx, 6); gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   else
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); helper(a, gsync_ctx); gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   for (uint i = 0; i < n; i++)
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); helper(a, gsync_ctx); if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   uint s = sum(a, n, gsync_ctx);
// CHECK-NEXT:   a[2] = sum(a, n, gsync_ctx) + s;
// CHECK-NEXT:   while (!converged(a, gsync_ctx)) { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     a[0]++;
// CHECK-NEXT:   if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   while (gsync_running(gsync_ctx) && (!converged(a, gsync_ctx))) BUMP
// CHECK-NEXT:   for (uint i = 0; i < n; gsync_barrier(gsync_ctx, 7))
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); i++; if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   do { a[3]++; gsync_anchor(gsync_ctx); } while (gsync_running(gsync_ctx) && (!relay(a, gsync_ctx)));
// CHECK-NEXT:   for (;;) { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     gsync_barrier(gsync_ctx, 8);
// CHECK-NEXT:     if (a[4])
// CHECK-NEXT:       break; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   for (uint i = 0; i < n; i++) /* no barrier: no guard */
// CHECK-NEXT:     a[5] += i;
// CHECK-NEXT:   switch (c) {
// CHECK-NEXT:   case 1:
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); gsync_barrier(gsync_ctx, 9); gsync_anchor(gsync_ctx); }
// CHECK-NEXT:     break;
// CHECK-NEXT:   default:
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); helper(a, gsync_ctx); gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   }
// CHECK-NEXT:   { gsync_barrier(gsync_ctx, 10); } // a comment after the call
// CHECK-NEXT:   uint t = 0;
// CHECK-NEXT:   FOREVER { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     if (t++ < n)
// CHECK-NEXT:       goto gsync_next_1; gsync_anchor(gsync_ctx);
// CHECK-NEXT:     for (uint i = 0; i < n; i++) {
// CHECK-NEXT:       if (i == c)
// CHECK-NEXT:         continue; // the inner loop's own: no barrier, no guard
// CHECK-NEXT:       a[i] = 1;
// CHECK-NEXT:     }
// CHECK-NEXT:     switch (t) {
// CHECK-NEXT:     case 7:
// CHECK-NEXT:       goto gsync_next_1;
// CHECK-NEXT:     } gsync_anchor(gsync_ctx);
// CHECK-NEXT:     gsync_barrier(gsync_ctx, 11);
// CHECK-NEXT:     if (t > 2 * n)
// CHECK-NEXT:       break; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   gsync_next_1: if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   while (t--)
// CHECK-NEXT:     { gsync_anchor(gsync_ctx); if (c)
// CHECK-NEXT:       { gsync_anchor(gsync_ctx); gsync_barrier(gsync_ctx, 12); gsync_anchor(gsync_ctx); }
// CHECK-NEXT:     else
// CHECK-NEXT:       { gsync_anchor(gsync_ctx); helper(a, gsync_ctx); gsync_anchor(gsync_ctx); } if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
