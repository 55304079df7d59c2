// Every global_barrier() text is a barrier site, numbered 1, 2, ... in the
// order it is written, whichever function it is in; a text in a macro body
// is one site however often the macro expands. The call passes its number,
// and the constraints map each number to file:line:column, so that a
// barrier that times out can be named.
// RUN: cd %S && %gsync barrier-sites.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); assert [s['site'] for s in d['barrier_sites']] == [1, 2, 3, 4]" %t.json
#define SYNC() global_barrier()

void late(void);

kernel void first(global uint *a) {
  a[0] = 1;
  late();
  global_barrier();
  SYNC();
}

void late(void) {
    global_barrier(); SYNC();
}

kernel void second(global uint *a) { SYNC(); global_barrier(); }

// CHECK: #define SYNC() gsync_barrier(gsync_ctx, 1)
// CHECK:   gsync_barrier(gsync_ctx, 2);
// CHECK:     gsync_barrier(gsync_ctx, 3); SYNC();
// CHECK: kernel void second(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx); SYNC(); gsync_barrier(gsync_ctx, 4); gsync_anchor(gsync_ctx); }

// JSON:      "barrier_sites": [
// JSON-NEXT:   {
// JSON-NEXT:     "site": 1,
// JSON-NEXT:     "file": "barrier-sites.cl",
// JSON-NEXT:     "line": 10,
// JSON-NEXT:     "column": 16
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "site": 2,
// JSON-NEXT:     "file": "barrier-sites.cl",
// JSON-NEXT:     "line": 17,
// JSON-NEXT:     "column": 3
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "site": 3,
// JSON-NEXT:     "file": "barrier-sites.cl",
// JSON-NEXT:     "line": 22,
// JSON-NEXT:     "column": 5
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "site": 4,
// JSON-NEXT:     "file": "barrier-sites.cl",
// JSON-NEXT:     "line": 25,
// JSON-NEXT:     "column": 46
// JSON-NEXT:   }
// JSON-NEXT: ]
