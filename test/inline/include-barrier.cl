// -include of a header whose function calls global_barrier(): the call is
// the barrier (the tool's declaration comes before every -include), so the
// usual rules apply. Without --inline-includes the header cannot be
// rewritten: the diagnostic says so.
// RUN: rm -f %t.plain.cl
// RUN: not %gsync -include %S/Inputs/barrier-helper.h %s -o %t.plain.cl 2>&1 | FileCheck --check-prefix=PLAIN %s
// RUN: not test -e %t.plain.cl
// PLAIN-NOT: conflicting types
// PLAIN-NOT: implicit declaration
// PLAIN: barrier-helper.h:2:6: error: 'sync_all' is declared in an included file but needs the hidden parameter 'private struct gsync_ctx *gsync_ctx'
// PLAIN-NEXT: barrier-helper.h:2:6: note: only the input is rewritten; --inline-includes writes the files it includes into the output, where they are rewritten too
// With it, the header's text is written in and rewritten.
// RUN: %gsync --inline-includes -include %S/Inputs/barrier-helper.h %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
kernel void k(global uint *a) { sync_all(); a[0] = 1; }
// CHECK: void sync_all(private struct gsync_ctx *gsync_ctx) { gsync_barrier(gsync_ctx, 1); }
// CHECK: kernel void k(global uint *a, global uint *gsync_state) { {{.*}} sync_all(gsync_ctx); a[0] = 1; gsync_anchor(gsync_ctx); }
