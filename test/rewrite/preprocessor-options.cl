// -D, -U, -I, -include and -cl-std= reach the parser as they would reach
// clBuildProgram; the output keeps the directives as written.
// RUN: %gsync -DLEN=128 -UDEBUG -I %S/Inputs -include sync.h -cl-std=CL2.0 %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL2.0 -DLEN=128 -I %S/Inputs -include sync.h %t.cl
// Without -DLEN the input does not parse, and nothing is written.
// RUN: not %gsync -I %S/Inputs -include sync.h %s -o %t.missing.cl 2>&1 | FileCheck --check-prefix=ERR %s
// RUN: not test -e %t.missing.cl
#ifndef LEN
#error LEN must be defined
#endif
kernel void k(global uint *a) {
  for (uint i = get_global_id(0); i < LEN; i += get_global_size(0) * STEP_SIZE)
    a[i] = 1;
  global_barrier();
}
// CHECK: #ifndef LEN
// CHECK: kernel void k(global uint *a, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < LEN; i += gsync_get_global_size(gsync_ctx, 0) * STEP_SIZE)
// ERR: preprocessor-options.cl:10:2: error: LEN must be defined
