// Reads that can differ between work-items: the same place written between
// the same two barriers, by an atomic or a plain store; and atomics that
// modify, whose result is each work-item's own.
// RUN: not %gsync -DRACE %s -o %t.race.cl 2>&1 | FileCheck --check-prefix=RACE %s
// RUN: not %gsync -DRACE_PLAIN %s -o %t.plain.cl 2>&1 | FileCheck --check-prefix=PLAIN %s
// RUN: not %gsync -DMODIFY %s -o %t.modify.cl 2>&1 | FileCheck --check-prefix=MODIFY %s
#ifdef RACE
kernel void race(global uint *flag) {
  while (atomic_or(flag, 0) == 0) {
    // RACE: atomic-read-errors.cl:[[@LINE+4]]:5: error: global_barrier() in a loop whose trip count can differ between work-items; not every work-item reaches it equally often
    // RACE-NEXT: atomic-read-errors.cl:[[@LINE-2]]:10: note: this read can give work-items different values: the same place is written at {{.*}}atomic-read-errors.cl:[[@LINE+2]]:7 between the same two barriers
    if (get_global_id(0) == 0)
      atomic_or(flag, 1u);
    global_barrier();
  }
}
#endif
#ifdef RACE_PLAIN
kernel void race(global uint *done, global uint *a) {
  for (;;) {
    global_barrier();
    if (done[0])
      break;
    // PLAIN: atomic-read-errors.cl:[[@LINE-3]]:5: error: global_barrier() is not reached by every work-item: an earlier exit is taken by only some of them
    // PLAIN-NEXT: atomic-read-errors.cl:[[@LINE-2]]:7: note: this 'break' depends on a read that can give work-items different values
    // PLAIN-NEXT: atomic-read-errors.cl:[[@LINE-4]]:9: note: this read can give work-items different values: the same place is written at {{.*}}atomic-read-errors.cl:[[@LINE+2]]:7 between the same two barriers
    if (a[get_global_id(0)] == 0)
      done[0] = 1;
  }
}
#endif
#ifdef MODIFY
kernel void modify(global uint *count) {
  while (atomic_inc(count) < 100)
    // MODIFY: atomic-read-errors.cl:[[@LINE+1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
    global_barrier();
}
#endif
