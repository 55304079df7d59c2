// --inline-includes writes the text of every file the input includes into
// the output between #line directives, so that the driver needs no include
// path and its errors still name the header and its line. Each directive
// stays, inside #if 0, for the reader; functions in the headers are
// rewritten like the input's own.
// RUN: cd %S && %gsync --inline-includes -I Inputs/inc inline.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// The OpenCL driver builds it from another directory with no -I.
// RUN: rm -rf %t.elsewhere && mkdir %t.elsewhere && cd %t.elsewhere && %gsync-run --build-only %t.cl
#include "Inputs/step.h"
#include <angle.h>
kernel void k(global uint *a, uint n) {
  step(a, n * ANGLE);
}
// CHECK: #line 1 "inline.cl"
// CHECK: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include "Inputs/step.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/step.h"
// CHECK-NEXT: // A helper that calls global_barrier(): it needs the hidden context, so
// CHECK: #define STEP_H
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include "scale.h"
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/scale.h"
// CHECK-NEXT: /* #pragma once: the text is inlined once */
// CHECK-NEXT: #define SCALE 3u
// CHECK-NEXT: #line 6 "Inputs/step.h"
// CHECK-NEXT: void step(global uint *a, uint n, private struct gsync_ctx *gsync_ctx) {
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     a[i] *= SCALE;
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT: }
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 12 "inline.cl"
// CHECK-NEXT: #if 0 /* gsync-rewrite --inline-includes: the file's text follows */
// CHECK-NEXT: #include <angle.h>
// CHECK-NEXT: #endif
// CHECK-NEXT: #line 1 "Inputs/inc/angle.h"
// CHECK-NEXT: #define ANGLE 2u
// CHECK-NEXT: #line 13 "inline.cl"
// CHECK-NEXT: kernel void k(global uint *a, uint n, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   step(a, n * ANGLE, gsync_ctx);
// CHECK-NEXT: gsync_anchor(gsync_ctx); }
// The barrier site is named where it is written: in the header.
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// JSON:      "barrier_sites": [
// JSON-NEXT:   {
// JSON-NEXT:     "site": 1,
// JSON-NEXT:     "file": "Inputs/step.h",
// JSON-NEXT:     "line": 9,
// JSON-NEXT:     "column": 3
