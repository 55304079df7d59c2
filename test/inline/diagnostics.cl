// Diagnostics about inlined text name the header and its own line, once:
// the rewrite's (a barrier not every work-item reaches) and libclang's (a
// #warning).
// RUN: rm -f %t.cl
// RUN: cd %S && not %gsync --inline-includes diagnostics.cl -o %t.cl 2>&1 | FileCheck %s
// RUN: not test -e %t.cl
// CHECK: Inputs/divergent.h:2:2: warning: this header warns
// CHECK-NOT: this header warns
// CHECK: Inputs/divergent.h:5:5: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
// CHECK-NEXT: Inputs/divergent.h:4:7: note: the condition depends on the work-item or group id here
// CHECK-NOT: warning
// CHECK-NOT: error
#include "Inputs/divergent.h"
kernel void k(global uint *a) {
  first_only(a);
}
