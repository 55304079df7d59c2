// A file is inlined wherever the preprocessor entered it. Where it skipped
// it (its include guard or #pragma once had already fired) the directive is
// only kept inside #if 0. A file without a guard included twice is inlined
// twice, as the preprocessor read it twice. An #include in a branch the
// preprocessor skips is left as it is.
// RUN: cd %S && %gsync --inline-includes guards.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
#include "Inputs/step.h"
#include "Inputs/step.h"
#include "Inputs/scale.h"
#define OP(name, op) uint name##_op(uint a, uint b) { return a op b; }
#include "Inputs/ops.def"
#undef OP
#define OP(name, op) uint name##_twice(uint a) { return a op a; }
#include "Inputs/ops.def"
#undef OP
#ifdef NEVER_DEFINED
#include "Inputs/missing.h"
#endif
kernel void k(global uint *a, uint n) { step(a, add_op(n, mul_twice(SCALE))); }
// CHECK: #line 1 "guards.cl"
// CHECK: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include "Inputs/step.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/step.h"
// CHECK: #line 10 "guards.cl"
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: skipped here, as it was included before */
// CHECK-NEXT: #include "Inputs/step.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 11 "guards.cl"
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: skipped here, as it was included before */
// CHECK-NEXT: #include "Inputs/scale.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 12 "guards.cl"
// CHECK-NEXT: #define OP(name, op) uint name##_op(uint a, uint b) { return a op b; }
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include "Inputs/ops.def"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/ops.def"
// CHECK-NEXT: OP(add, +)
// CHECK-NEXT: OP(mul, *)
// CHECK-NEXT: #line 14 "guards.cl"
// CHECK-NEXT: #undef OP
// CHECK-NEXT: #define OP(name, op) uint name##_twice(uint a) { return a op a; }
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include "Inputs/ops.def"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/ops.def"
// CHECK-NEXT: OP(add, +)
// CHECK-NEXT: OP(mul, *)
// CHECK-NEXT: #line 17 "guards.cl"
// CHECK-NEXT: #undef OP
// CHECK-NEXT: #ifdef NEVER_DEFINED
// CHECK-NEXT: #include "Inputs/missing.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: kernel void k(global uint *a, uint n, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); step(a, add_op(n, mul_twice(SCALE)), gsync_ctx); gsync_anchor(gsync_ctx); }
