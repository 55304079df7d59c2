// -MD writes Make-syntax dependencies to the -o file's name with its suffix
// replaced by .d: the target, the input as named, then every file it
// includes, directly or not and -include ones too, once each, in the order
// the preprocessor first entered them. Not the tool's built-in declaration
// header, nor the compiler's OpenCL headers, nor includes in inactive #if
// branches.
// RUN: rm -f %t.d
// RUN: cd %S && %gsync deps.cl -I Inputs/inc -include Inputs/pre.h -o %t.cl -MD
// RUN: FileCheck --match-full-lines %s < %t.d
// RUN: FileCheck --implicit-check-not=global_barrier.h --implicit-check-not=opencl-c --implicit-check-not=missing.h --check-prefix=ONLY %s < %t.d
// CHECK:      {{.*}}deps.cl.tmp.cl: deps.cl \
// CHECK-NEXT:  {{.*}}Inputs/pre.h \
// CHECK-NEXT:  {{.*}}Inputs/local.h \
// CHECK-NEXT:  {{.*}}Inputs/nested.h \
// CHECK-NEXT:  {{.*}}Inputs/inc/angle.h
// CHECK-NOT: {{.}}
// ONLY: deps.cl.tmp.cl: deps.cl
//
// The dependencies do not depend on the rewrite: a file with no
// global_barrier() lists the same ones. -MMD is the same as -MD (system
// headers are never listed), and -MF names the file.
// RUN: cd %S && %gsync deps.cl -I Inputs/inc -include Inputs/pre.h -DNO_BARRIER -o %t.nb.cl -MMD -MF %t.nb.dep
// RUN: sed 's/\.nb\.cl:/.cl:/' %t.nb.dep > %t.nb.same
// RUN: diff %t.d %t.nb.same
#include "Inputs/local.h"
#include "Inputs/local.h"
#include <angle.h>
#if 0
#include "missing.h"
#endif
kernel void k(global uint *a) {
  a[get_global_id(0)] = SCALE + OFFSET + ANGLE + PRE;
#ifndef NO_BARRIER
  global_barrier();
#endif
}
