// UTF-8 identifiers (clang accepts them in OpenCL C as in C11) and
// non-ASCII text in comments and strings: edits land on the right bytes,
// everything else passes through, and the constraints name the kernel in
// UTF-8.
// RUN: %gsync --spin-limit=0 %s -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl | FileCheck --check-prefix=BUILD %s
// BUILD: build ok

/* Données — 数据 — λ. */
float doublé(float x) { return 2.0f * x; }
kernel void mise_à_l_échelle(global float *données) {
  size_t 数 = get_global_id(0); /* « global_barrier() » in a comment */
  données[数] = doublé(données[数]); /* ↯ */ global_barrier();
  printf("λ = %f, ✓\n", données[get_group_id(0)]);
}
// CHECK: float doublé(float x) { return 2.0f * x; }
// CHECK-NEXT: kernel void mise_à_l_échelle(global float *données, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   size_t 数 = gsync_get_global_id(gsync_ctx, 0); /* « global_barrier() » in a comment */
// CHECK-NEXT:   données[数] = doublé(données[数]); /* ↯ */ gsync_barrier(gsync_ctx, {{[0-9]+}});
// CHECK-NEXT:   printf("λ = %f, ✓\n", données[gsync_get_group_id(gsync_ctx, 0)]);
// CHECK-NEXT: gsync_anchor(gsync_ctx); }

// JSON: "name": "mise_à_l_échelle",
// JSON-NEXT: "global_barrier": true,
