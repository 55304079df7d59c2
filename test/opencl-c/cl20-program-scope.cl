// OpenCL C 2.0 program-scope global variables, which PoCL builds as 2.0 (its
// 3.0 does not declare the feature): the output builds on PoCL with
// -cl-std=CL2.0, and the constraints say that 3.0 needs the feature.
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl --constraints %t.json
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL2.0 %t.cl
// RUN: %gsync-run --build-only %t.cl --options -cl-std=CL2.0 | FileCheck --check-prefix=BUILD %s
// BUILD: build ok
global uint rounds;
global uint first[4] = {1, 2, 3, 4};
kernel void k(global uint *a, uint n) {
  for (uint r = 0; r < 3; r++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      a[i] += first[i % 4] + rounds;
    global_barrier();
    if (get_global_id(0) == 0)
      rounds++;
    global_barrier();
  }
}
// JSON:      "opencl_c_version": "2.0",
// JSON:      "opencl_c_features": [
// JSON-NEXT:   "__opencl_c_program_scope_global_variables"
// JSON-NEXT: ]
