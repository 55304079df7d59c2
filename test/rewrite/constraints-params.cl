// The constraints' "params": each of a kernel's own parameters, by name
// and kind, so that libgsync can set a harmless argument of each for the
// probe of how many work-groups fit (docs/constraints.md): pointers to
// global, constant and local memory (also written as arrays), values with
// their size (a struct, a vector, a scalar), and the handles the probe
// cannot make up: images, samplers, pipes and device queues. A kernel
// without a global barrier lists none.
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl --constraints %t.json
// RUN: FileCheck %s < %t.json
// RUN: %clang-cl -cl-std=CL2.0 %t.cl

typedef struct {
  float x;
  uint n;
  char c;
  double d;
} pair;

kernel void values(global float *g, constant float *c, local float4 *l,
                   global float a[], local int b[4], pair p, float3 v,
                   uchar u) {
  global_barrier();
}

kernel void handles(read_only image2d_t img, sampler_t s, read_only pipe int q,
                    queue_t dq) {
  global_barrier();
}

kernel void none(global float *g) {}

// CHECK:      "name": "values",
// CHECK:      "params": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "g",
// CHECK-NEXT:     "kind": "global"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "c",
// CHECK-NEXT:     "kind": "constant"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "l",
// CHECK-NEXT:     "kind": "local"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "a",
// CHECK-NEXT:     "kind": "global"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "b",
// CHECK-NEXT:     "kind": "local"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "p",
// CHECK-NEXT:     "kind": "private",
// CHECK-NEXT:     "bytes": 24
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "v",
// CHECK-NEXT:     "kind": "private",
// CHECK-NEXT:     "bytes": 16
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "u",
// CHECK-NEXT:     "kind": "private",
// CHECK-NEXT:     "bytes": 1
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK-NEXT: "state_arg": {
// CHECK-NEXT:   "index": 8,

// CHECK:      "name": "handles",
// CHECK:      "params": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "img",
// CHECK-NEXT:     "kind": "image"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "s",
// CHECK-NEXT:     "kind": "sampler"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "q",
// CHECK-NEXT:     "kind": "pipe"
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "name": "dq",
// CHECK-NEXT:     "kind": "queue"
// CHECK-NEXT:   }
// CHECK-NEXT: ],
// CHECK-NEXT: "state_arg": {
// CHECK-NEXT:   "index": 4,

// CHECK:      "name": "none",
// CHECK-NEXT: "global_barrier": false
// CHECK-NEXT: }
