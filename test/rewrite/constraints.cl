// The constraints file, format version 1, field by field.
// RUN: cd %S && %gsync constraints.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --strict-whitespace %s < %t.json
// RUN: %python -c "import json,sys; json.load(open(sys.argv[1]))" %t.json

kernel void stencil(global uint *a, global uint *b, uint n, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = a[i] + a[(i + 1) % n];
    global_barrier();
  }
}
kernel void copy(global uint *a) { a[get_global_id(0)] = 0; }

// CHECK:      {
// CHECK-NEXT:   "format": "gsync-constraints",
// CHECK-NEXT:   "version": 1,
// CHECK-NEXT:   "tool": "gsync-rewrite 0.1.0",
// CHECK-NEXT:   "input": "constraints.cl",
// CHECK-NEXT:   "barrier": "tree",
// CHECK-NEXT:   "discovery": true,
// CHECK-NEXT:   "spin_limit_ms": 5000,
// CHECK-NEXT:   "requires": {
// CHECK-NEXT:     "opencl_c_version": "1.2",
// CHECK-NEXT:     "extensions": [
// CHECK-NEXT:       "cl_khr_global_int32_base_atomics"
// CHECK-NEXT:     ],
// CHECK-NEXT:     "atomic_capabilities": [
// CHECK-NEXT:     ],
// CHECK-NEXT:     "opencl_c_features": [
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   "build": {
// CHECK-NEXT:     "options": [
// CHECK-NEXT:       "-I{{/.*}}/test/rewrite"
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   "kernels": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "name": "stencil",
// CHECK-NEXT:       "global_barrier": true,
// CHECK-NEXT:       "work_dim": 1,
// CHECK-NEXT:       "dimensions": [
// CHECK-NEXT:         0
// CHECK-NEXT:       ],
// CHECK-NEXT:       "run_time_dimension": false,
// CHECK-NEXT:       "params": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "name": "a",
// CHECK-NEXT:           "kind": "global"
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "name": "b",
// CHECK-NEXT:           "kind": "global"
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "name": "n",
// CHECK-NEXT:           "kind": "private",
// CHECK-NEXT:           "bytes": 4
// CHECK-NEXT:         },
// CHECK-NEXT:         {
// CHECK-NEXT:           "name": "iters",
// CHECK-NEXT:           "kind": "private",
// CHECK-NEXT:           "bytes": 4
// CHECK-NEXT:         }
// CHECK-NEXT:       ],
// CHECK-NEXT:       "state_arg": {
// CHECK-NEXT:         "index": 4,
// CHECK-NEXT:         "type": "global uint *",
// CHECK-NEXT:         "bytes": {
// CHECK-NEXT:           "fixed": 512,
// CHECK-NEXT:           "per_group": 2
// CHECK-NEXT:         },
// CHECK-NEXT:         "init": "zero",
// CHECK-NEXT:         "reset_by_kernel": true,
// CHECK-NEXT:         "participants_offset": 20,
// CHECK-NEXT:         "grid_offset": 24,
// CHECK-NEXT:         "abort_offset": 40,
// CHECK-NEXT:         "poll_cap_offset": 128
// CHECK-NEXT:       },
// CHECK-NEXT:       "max_work_groups": 1073741823,
// CHECK-NEXT:       "min_local_size": 1,
// CHECK-NEXT:       "coresident_launch_required": false
// CHECK-NEXT:     },
// CHECK-NEXT:     {
// CHECK-NEXT:       "name": "copy",
// CHECK-NEXT:       "global_barrier": false
// CHECK-NEXT:     }
// CHECK-NEXT:   ],
// CHECK-NEXT:   "barrier_sites": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "site": 1,
// CHECK-NEXT:       "file": "constraints.cl",
// CHECK-NEXT:       "line": 10,
// CHECK-NEXT:       "column": 5
// CHECK-NEXT:     }
// CHECK-NEXT:   ],
// CHECK-NEXT:   "output_bytes": {{[0-9]+}},
// CHECK-NEXT:   "fingerprint": "{{([0-9a-f]{16})}}",
// CHECK-NEXT:   "state_layout": "gsync-layout/2 barrier=tree discovery=lockfree rules={{([0-9a-f]{16})}} table={{([0-9a-f]{16})}} fixed=512 per_group=2 participants=20 grid=24 abort=40 record=32 poll_cap=128"
// CHECK-NEXT: }
