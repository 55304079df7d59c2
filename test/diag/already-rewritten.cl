// Feeding the tool its own output is an error: the injected names use the
// reserved prefix, and nothing is written.
// RUN: %gsync %S/../cli/Inputs/k.cl -o %t.once.cl
// RUN: %expect-exit 1 %gsync %t.once.cl -o %t.twice.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.twice.cl
// CHECK: error: identifier '{{gsync_[a-z_]*}}' uses the prefix 'gsync_' that gsync-rewrite reserves for the code it injects
// CHECK-NEXT: already-rewritten.cl.tmp.once.cl:1:1: note: this file is already gsync-rewrite output; rewrite the original instead
// CHECK-NOT: error
