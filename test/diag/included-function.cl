// A function defined in an included file that needs the hidden parameter
// cannot be rewritten there: one error at the header's line, and a note
// pointing at --inline-includes (test/inline shows it rewritten).
// RUN: rm -f %t.cl
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
// CHECK: {{.*}}Inputs/helper.h:4:6: error: 'sync_all' is declared in an included file but needs the hidden parameter 'private struct gsync_ctx *gsync_ctx'
// CHECK-NEXT: {{.*}}Inputs/helper.h:4:6: note: only the input is rewritten; --inline-includes writes the files it includes into the output, where they are rewritten too
// CHECK-NOT: error
// CHECK-NOT: note
#include "Inputs/helper.h"
kernel void k(global uint *a) { sync_all(a); }
