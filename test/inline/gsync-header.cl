// gsync.h, wherever it is included, becomes the same comment as without
// --inline-includes: the driver does not need it.
// RUN: cd %S && %gsync --inline-includes -I ../../include gsync-header.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
#include "gsync.h"
#include "Inputs/uses-gsync.h"
kernel void k(global uint *a) { a[0] = 1u; sync_all(); }
// CHECK: #line 1 "gsync-header.cl"
// CHECK: /* gsync.h: not needed after gsync-rewrite */
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include "Inputs/uses-gsync.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/uses-gsync.h"
// CHECK-NEXT: /* gsync.h: not needed after gsync-rewrite */
// CHECK-NEXT: void sync_all(private struct gsync_ctx *gsync_ctx) { gsync_barrier(gsync_ctx, 1); }
// CHECK-NEXT: #line 8 "gsync-header.cl"
