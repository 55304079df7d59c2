// Identifiers that use the reserved prefix are refused, even in a macro.
// RUN: %expect-exit 1 %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not test -e %t.cl
#define gsync_helper 1
// CHECK: reserved-prefix.cl:[[@LINE-1]]:9: error: identifier 'gsync_helper' uses the prefix 'gsync_' that gsync-rewrite reserves for the code it injects
kernel void k(global uint *gsync_state) {
  // CHECK: reserved-prefix.cl:[[@LINE-1]]:28: error: identifier 'gsync_state' uses the prefix 'gsync_' that gsync-rewrite reserves for the code it injects
  global_barrier();
}
