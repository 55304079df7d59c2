// The grid-stride loops that grid-stride-rounded.cl accepts, changed so
// that their trip count is no longer the same for every work-item: each
// stays an error.
// RUN: not %gsync -DNOT_ROUNDED %s -o %t.bad.cl 2>&1 | FileCheck --check-prefix=NOT-ROUNDED %s
// RUN: not %gsync -DOTHER_STRIDE %s -o %t.bad.cl 2>&1 | FileCheck --check-prefix=OTHER-STRIDE %s
// RUN: not %gsync -DASSIGNED %s -o %t.bad.cl 2>&1 | FileCheck --check-prefix=ASSIGNED %s
// RUN: not %gsync -DBODY_STEPS %s -o %t.bad.cl 2>&1 | FileCheck --check-prefix=BODY-STEPS %s
// RUN: not %gsync -DVARYING_FACTOR %s -o %t.bad.cl 2>&1 | FileCheck --check-prefix=VARYING-FACTOR %s
#ifdef NOT_ROUNDED
kernel void bad(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    global_barrier();
    // NOT-ROUNDED: grid-stride-rounded-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id; not every work-item reaches it equally often
    // NOT-ROUNDED: note: put the barrier outside the grid-stride loop: run the loop to its end, then call global_barrier(); or round the bound up to a multiple of the stride, (n + T - 1) / T * T, so that every work-item runs it equally often
  }
}
#endif
#ifdef OTHER_STRIDE
kernel void bad(global uint *a, uint n) {
  uint up = (n + get_local_size(0) - 1) / get_local_size(0) * get_local_size(0);
  for (uint i = get_global_id(0); i < up; i += get_global_size(0))
    global_barrier();
  // OTHER-STRIDE: grid-stride-rounded-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
#endif
#ifdef ASSIGNED
kernel void bad(global uint *a, uint n) {
  uint T = get_global_size(0);
  uint up = (n + T - 1) / T * T;
  if (a[0])
    up = n;
  for (uint i = get_global_id(0); i < up; i += T)
    global_barrier();
  // ASSIGNED: grid-stride-rounded-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
#endif
#ifdef BODY_STEPS
kernel void bad(global uint *a, uint n) {
  uint T = get_global_size(0);
  for (uint i = get_global_id(0); i < (n + T - 1) / T * T; i += T) {
    global_barrier();
    // BODY-STEPS: grid-stride-rounded-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
    if (a[i])
      i++;
  }
}
#endif
#ifdef VARYING_FACTOR
kernel void bad(global uint *a, uint n) {
  uint T = get_global_size(0);
  for (uint i = get_global_id(0); i < (n + get_local_id(0)) / T * T; i += T)
    global_barrier();
  // VARYING-FACTOR: grid-stride-rounded-errors.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
}
#endif
