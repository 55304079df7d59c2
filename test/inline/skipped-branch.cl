// The '#if 0' blocks around inlined directives are no branches the user
// skips: a header whose name holds "global_barrier" draws no warning, while
// a skipped branch in an inlined header is warned about at its own line.
// RUN: cd %S && %gsync --inline-includes skipped-branch.cl -o %t.cl 2>&1 | FileCheck %s
// CHECK: Inputs/skips.h:3:3: warning: 'global_barrier' in a branch that the preprocessor skips with these options: it is not rewritten for this configuration
// CHECK-NOT: warning
#include "Inputs/global_barrier_util.h"
#include "Inputs/skips.h"
kernel void k(global uint *a) { a[0] = UNUSED_UTIL; maybe_sync(); global_barrier(); }
