// '#pragma gsync uniform' covers the condition of the loop after it and
// nothing else; elsewhere, or misspelled, it is an error, and before a loop
// that reaches no barrier a warning.
// RUN: not %gsync -DINSIDE %s -o %t.inside.cl 2>&1 | FileCheck --check-prefix=INSIDE %s
// RUN: not %gsync -DELSEWHERE %s -o %t.elsewhere.cl 2>&1 | FileCheck --check-prefix=ELSEWHERE %s
// RUN: not %gsync -DMISPLACED %s -o %t.misplaced.cl 2>&1 | FileCheck --check-prefix=MISPLACED %s
// RUN: not %gsync -DUNKNOWN %s -o %t.unknown.cl 2>&1 | FileCheck --check-prefix=UNKNOWN %s
// RUN: %gsync -DUNUSED %s -o %t.unused.cl 2>&1 | FileCheck --check-prefix=UNUSED %s
// With --no-uniformity-check the pragma is still read: a misplaced one is
// still an error.
// RUN: not %gsync --no-uniformity-check -DMISPLACED %s -o %t.misplaced.cl 2>&1 | FileCheck --check-prefix=MISPLACED %s
#ifdef INSIDE
// The pragma speaks for the loop's condition, not for the code inside it.
kernel void inside(global uint *a, uint per) {
#pragma gsync uniform
  for (uint e = get_global_id(0) * per; e < get_global_id(0) * per + per; e++) {
    if (get_local_id(0) == 0)
      global_barrier();
    // INSIDE: pragma-uniform-errors.cl:[[@LINE-1]]:7: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  }
}
#endif
#ifdef ELSEWHERE
// It speaks for one loop: the next one is checked as ever.
kernel void elsewhere(global uint *a, uint per) {
  uint id = get_global_id(0);
#pragma gsync uniform
  while (a[id * per] > 0) {
    a[id * per] -= 1;
    global_barrier();
  }
  while (a[id * per + 1] > 0) {
    a[id * per + 1] -= 1;
    global_barrier();
    // ELSEWHERE: pragma-uniform-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
  }
  // ELSEWHERE-NOT: : error:
}
#endif
#ifdef MISPLACED
kernel void misplaced(global uint *a) {
#pragma gsync uniform
  // MISPLACED: pragma-uniform-errors.cl:[[@LINE-1]]:1: error: '#pragma gsync uniform' must come right before a for, while or do loop
  a[0] = 1;
  global_barrier();
}
#pragma gsync uniform
// MISPLACED: pragma-uniform-errors.cl:[[@LINE-1]]:1: error: '#pragma gsync uniform' must come right before a for, while or do loop
#endif
#ifdef UNKNOWN
#pragma gsync uniforme
// UNKNOWN: pragma-uniform-errors.cl:[[@LINE-1]]:1: error: unknown '#pragma gsync' directive 'uniforme' (the one there is: '#pragma gsync uniform')
#endif
#ifdef UNUSED
kernel void unused(global uint *a) {
#pragma gsync uniform
  // UNUSED: pragma-uniform-errors.cl:[[@LINE-1]]:1: warning: '#pragma gsync uniform' has no effect: the loop after it reaches no global_barrier()
  for (uint i = 0; i < 4; i++)
    a[i] = 0;
  global_barrier();
}
#endif
