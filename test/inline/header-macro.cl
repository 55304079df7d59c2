// A global_barrier() or a remapped id spelled in a header's macro can only
// be rewritten where the header's text is inlined; without
// --inline-includes the error says where it is spelled and points at the
// option (once).
// RUN: rm -f %t.cl
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck --check-prefix=ERR %s
// RUN: not test -e %t.cl
// RUN: %gsync --inline-includes %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
#include "Inputs/sync-macro.h"
kernel void k(global uint *a) {
  a[GID] = 1u;
  // ERR: header-macro.cl:[[@LINE-1]]:5: error: cannot remap this 'get_global_id': it is spelled in an included file
  // ERR-NEXT: header-macro.cl:[[@LINE-2]]:5: note: only the input is rewritten; --inline-includes writes the files it includes into the output, where they are rewritten too
  SYNC_ALL();
  // ERR-NEXT: header-macro.cl:[[@LINE-1]]:3: error: cannot rewrite this global_barrier(): it is spelled in an included file
  // ERR-NOT: error
}
// CHECK: #define SYNC_ALL() gsync_barrier(gsync_ctx, 1)
// CHECK-NEXT: #define GID gsync_get_global_id(gsync_ctx, 0)
