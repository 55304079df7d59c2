// Code shared with other compilers hides the OpenCL qualifiers from them
// behind #ifndef __OPENCL_VERSION__, a macro every OpenCL driver defines.
// The tool parses with it too, so 'k' is a kernel here as on the driver:
// it gets the state argument, and 'step', which it calls, the context.
// Parsed without it, 'k' was rewritten as a helper with a private pointer
// parameter, with exit 0, and no driver built the output.
// RUN: %gsync %s -o %t.cl --constraints %t.json 2> %t.err
// RUN: count 0 < %t.err
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// JSON:      "kernels": [
// JSON-NEXT:   {
// JSON-NEXT:     "name": "k",
// JSON-NEXT:     "global_barrier": true,
// JSON:          "state_arg": {
// JSON-NEXT:       "index": 2,
// RUN: grep -c '^__kernel void k(__global float \*a, uint n, global uint \*gsync_state) {' %t.cl
// The output builds; clang alone is no driver and is told the version.
// RUN: %clang-cl -D__OPENCL_VERSION__=120 %t.cl
// RUN: %gsync-run --build-only %t.cl --options "-cl-std=CL1.2"
#ifndef __OPENCL_VERSION__
#define __kernel
#define __global
typedef unsigned int uint;
#endif

static void step(__global float *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] += 1.0f;
  global_barrier();
}

__kernel void k(__global float *a, uint n) {
  step(a, n);
}
