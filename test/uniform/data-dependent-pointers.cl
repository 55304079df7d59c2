// The warning for a barrier under a condition on memory read before any
// barrier: a dereference, a member reached through a pointer, and a
// work-list loop on *p count as reads, as p[0] does.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s
// RUN: %gsync --no-uniformity-check %s -o %t.cl 2>&1 | count 0
typedef struct state { uint x; global uint *q; } state;
kernel void deref(global uint *p) {
  if (*p > 5)
    // CHECK: data-dependent-pointers.cl:[[@LINE-1]]:7: warning: global_barrier() under a condition that reads memory before any barrier: every work-item reaches it only if they all read the same value (--no-uniformity-check silences this)
    global_barrier();
}
kernel void member(global state *s) {
  if (s->x)
    // CHECK: data-dependent-pointers.cl:[[@LINE-1]]:10: warning: global_barrier() under a condition that reads memory before any barrier
    global_barrier();
}
kernel void nested(global state *s) {
  if (*(s->q) != 0)
    // CHECK: data-dependent-pointers.cl:[[@LINE-1]]:7: warning: global_barrier() under a condition that reads memory before any barrier
    global_barrier();
}
kernel void worklist(global uint *p, global uint *items) {
  while (*p > 0) {
    // CHECK: data-dependent-pointers.cl:[[@LINE-1]]:10: warning: global_barrier() under a condition that reads memory before any barrier
    global_barrier();
    if (get_global_id(0) == 0)
      *p -= 1;
    global_barrier();
  }
}
// Reading through a pointer is not a read of memory: no warning.
kernel void plain(global uint *p, uint n) {
  global uint *end = p + n;
  if (end != p)
    global_barrier();
}
// CHECK-NOT: warning
