// The constraints record what the build needs: the OpenCL C version (the
// higher of the input's -cl-std and the rules'), and the preprocessor
// options the input was rewritten with, as clBuildProgram takes them (-D
// and -I only: PoCL refuses -U and -include), one argument each, -I paths
// absolute, and -I for the input's own directory first. A -U cancels the
// -D of its name before it; any other -U, and -include, are warned about.
// With --inline-includes the included text is in the output: no -I.
// RUN: cd %S && %gsync -cl-std=CL2.0 -DFACTOR=2 -D LIMIT=9 -DGONE -UGONE -UNDEBUG -I Inputs/incdir -include Inputs/pre.h build-options.cl -o %t.cl --constraints %t.json 2> %t.err
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// WARN: gsync-rewrite: warning: clBuildProgram takes no -U: libgsync builds the output without '-UNDEBUG'
// WARN-NEXT: gsync-rewrite: warning: clBuildProgram takes no -include: the output needs 'Inputs/pre.h' included before it (--inline-includes writes its text into the output)
// JSON:      "opencl_c_version": "2.0",
// JSON:      "build": {
// JSON-NEXT:   "options": [
// JSON-NEXT:     "-I{{/.*}}/test/rewrite",
// JSON-NEXT:     "-DFACTOR=2",
// JSON-NEXT:     "-DLIMIT=9",
// JSON-NEXT:     "-I{{/.*}}/test/rewrite/Inputs/incdir"
// JSON-NEXT:   ]
// JSON-NEXT: },
// The output builds on PoCL with those options and the -include'd text.
// RUN: cat %S/Inputs/pre.h %t.cl > %t.pre.cl
// RUN: %gsync-run --build-only %t.pre.cl --options "-cl-std=CL3.0 -I%S -DFACTOR=2 -DLIMIT=9 -I%S/Inputs/incdir"
//
// RUN: cd %S && %gsync --inline-includes -DFACTOR=2 -DLIMIT=1 -I Inputs/incdir -include Inputs/pre.h build-options.cl -o %t.inl.cl --constraints %t.inl.json 2> %t.inl.err
// RUN: count 0 < %t.inl.err
// RUN: FileCheck --check-prefix=INLINE %s < %t.inl.json
// INLINE:      "opencl_c_version": "1.2",
// INLINE:      "build": {
// INLINE-NEXT:   "options": [
// INLINE-NEXT:     "-DFACTOR=2",
// INLINE-NEXT:     "-DLIMIT=1"
// INLINE-NEXT:   ]
// INLINE-NEXT: },
// RUN: %gsync-run --build-only %t.inl.cl --options "-DFACTOR=2 -DLIMIT=1"
#include "scale.h"

#ifdef LIMIT
#define LIMIT_OR_0 LIMIT
#else
#define LIMIT_OR_0 0
#endif

kernel void k(global int *a, int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = SCALE(a[i]) + OFFSET + LIMIT_OR_0;
  global_barrier();
}
