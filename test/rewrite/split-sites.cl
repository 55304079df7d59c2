// global_barrier_arrive() and global_barrier_wait() become calls of the
// rule's halves on the context, each a barrier site of its own (numbered
// in input order with the others), which the constraints map to
// file:line:column so that a wait that gives up is named by its own line.
// The same for every rule that splits: the default here.
// RUN: %gsync %S/Inputs/split.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// CHECK: #line 1 "{{.*}}split.cl"
// CHECK: kernel void halves(global uint *a, global uint *b, uint n, global uint *gsync_state) { {{.*}}
// CHECK-NEXT:   gsync_barrier_arrive(gsync_ctx, 1);
// CHECK-NEXT:   for (uint i = gsync_get_global_id(gsync_ctx, 0); i < n; i += gsync_get_global_size(gsync_ctx, 0))
// CHECK-NEXT:     b[i] = 3u * a[i];
// CHECK-NEXT:   gsync_barrier_wait(gsync_ctx, 2);
// JSON: "barrier_sites": [
// JSON-NEXT: {
// JSON-NEXT: "site": 1,
// JSON-NEXT: "file": "{{.*}}split.cl",
// JSON-NEXT: "line": 5,
// JSON-NEXT: "column": 3
// JSON-NEXT: },
// JSON-NEXT: {
// JSON-NEXT: "site": 2,
// JSON-NEXT: "file": "{{.*}}split.cl",
// JSON-NEXT: "line": 8,
// JSON-NEXT: "column": 3
