// The optional gsync.h lets plain clang parse the input; the output does
// not need it, so its #include becomes a comment.
// RUN: %clang-cl -cl-std=CL1.2 -I %S/../../include %s
// RUN: %gsync -I %S/../../include %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
#include "gsync.h"
kernel void k(global uint *a) { a[get_global_id(0)] = 1; global_barrier(); }
// CHECK: /* gsync.h: not needed after gsync-rewrite */
// CHECK-NEXT: kernel void k(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); a[gsync_get_global_id(gsync_ctx, 0)] = 1; gsync_barrier(gsync_ctx, 1); gsync_anchor(gsync_ctx); }
