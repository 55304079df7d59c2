// CRLF line endings are kept. The input is this file with every line made
// CRLF; its rewrite must be the rewrite of this file with every line made
// CRLF, the prelude included: no mixed endings, and nothing outside the
// edits changes. A macro continued over a CRLF line end is edited too.
// RUN: %python %S/../utils/crlf.py to %s > %t.crlf.cl
// RUN: %gsync --spin-limit=0 - < %t.crlf.cl > %t.crlf.out.cl
// RUN: %gsync --spin-limit=0 - < %s > %t.lf.out.cl
// RUN: %python %S/../utils/crlf.py to %t.lf.out.cl > %t.want.cl
// The fingerprint hashes the output's bytes, which differ in their line ends.
// RUN: sed -e 's/gsync_fingerprint "[0-9a-f]*"/gsync_fingerprint/' %t.want.cl > %t.want.nofp.cl
// RUN: sed -e 's/gsync_fingerprint "[0-9a-f]*"/gsync_fingerprint/' %t.crlf.out.cl > %t.crlf.nofp.cl
// RUN: cmp %t.want.nofp.cl %t.crlf.nofp.cl
// RUN: %python %S/../utils/crlf.py count %t.crlf.out.cl | FileCheck --check-prefix=ENDS %s
// ENDS: CRLF: {{[1-9][0-9]*}}, bare LF: 0
// RUN: FileCheck --match-full-lines %s < %t.lf.out.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.crlf.out.cl
// RUN: %gsync-run --build-only %t.crlf.out.cl | FileCheck --check-prefix=BUILD %s
// BUILD: build ok
//
// A CRLF file without global_barrier() passes through byte for byte.
// RUN: %python %S/../utils/crlf.py to %S/../rewrite/passthrough.cl > %t.plain.cl
// RUN: %gsync --spin-limit=0 %t.plain.cl -o %t.plain.out.cl
// RUN: cmp %t.plain.cl %t.plain.out.cl

#define SYNC_AND_BUMP(p)      \
  do {                        \
    global_barrier();         \
    (p)[get_global_id(0)]++;  \
  } while (0)
kernel void k(global uint *a) {
  a[get_global_id(0)] = 1; // a line comment, then CRLF
  SYNC_AND_BUMP(a);
  a[get_global_id(0)] += 1;
}
// CHECK: #define SYNC_AND_BUMP(p)      \
// CHECK-NEXT:   do {                        \
// CHECK-NEXT:     gsync_barrier(gsync_ctx, {{[0-9]+}});         \
// CHECK-NEXT:     (p)[gsync_get_global_id(gsync_ctx, 0)]++;  \
// CHECK-NEXT:   } while (0)
// CHECK-NEXT: kernel void k(global uint *a, global uint *gsync_state) { {{.*}} return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   a[gsync_get_global_id(gsync_ctx, 0)] = 1; // a line comment, then CRLF
