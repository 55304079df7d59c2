// A macro that spells an id and expands both in a kernel that takes part
// and in one that does not cannot be rewritten for both.
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
#define GID get_global_id(0)
// CHECK: macro-shared.cl:[[@LINE-1]]:13: error: macro 'GID' calls 'get_global_id' and expands both in code that takes part in a global barrier and in code that does not; one text cannot serve both, so split the macro
kernel void a(global uint *x) { x[GID] = 1; global_barrier(); }
kernel void b(global uint *x) { x[GID] = 2; }
