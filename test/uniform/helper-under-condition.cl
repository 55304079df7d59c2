// A function that reaches a barrier, called under an id condition; and a
// helper whose parameter carries an id into its condition.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s
void sync(void) { global_barrier(); }
void maybe(uint i) {
  if (i == 0)
    global_barrier();
  // CHECK-DAG: helper-under-condition.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
}
kernel void k(global uint *a) {
  if (get_local_id(0) == 0)
    sync();
  // CHECK-DAG: helper-under-condition.cl:[[@LINE-1]]:5: error: call of 'sync', which reaches global_barrier(), under a condition that depends on the work-item or group id
  maybe(get_global_id(0));
}
