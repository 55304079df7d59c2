// '#pragma gsync uniform' right before a loop states that every work-item
// runs it the same number of times, for a loop the checker cannot prove:
// here per-work-item chunks with a second test, e < lim, that the user
// knows ends no chunk early (without it, chunked-loop.cl, the loop needs
// no pragma). It covers that loop's condition only; the output keeps a
// comment in its place, so the driver sees no unknown pragma.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck --check-prefix=STRIDE %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 -Werror=unknown-pragmas %t.cl
// RUN: not %gsync -DNO_PRAGMA %s -o %t.none.cl 2>&1 | FileCheck --check-prefix=NONE %s
// What it does not cover, and where it does not belong: pragma-uniform-errors.cl.
kernel void chunks(global uint *a, uint per, uint lim) {
  uint id = get_global_id(0);
#ifndef NO_PRAGMA
#pragma gsync uniform
#endif
  for (uint e = id * per; e < id * per + per && e < lim; e++) {
    a[e] += 1;
    global_barrier();
  }
  // NONE: pragma-uniform.cl:[[@LINE-2]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
  // NONE: pragma-uniform.cl:[[@LINE-5]]:49: note: 'e < lim' can end this chunked loop early in some work-items
  // NONE-NOT: grid-stride
}
// With the pragma the one diagnostic is that the chunks are not grid-stride.
// STRIDE: pragma-uniform.cl:[[@LINE-8]]:5: warning: kernel 'chunks' indexes memory by get_global_id(0) outside a grid-stride loop
// CHECK: /* #pragma gsync uniform */
// CHECK-NEXT: #endif
// CHECK-NEXT:   for (uint e = id * per; e < id * per + per && e < lim; e++) { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     a[e] += 1;
// CHECK-NEXT:     gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT:   if (!gsync_running(gsync_ctx)) break; gsync_anchor(gsync_ctx); }
