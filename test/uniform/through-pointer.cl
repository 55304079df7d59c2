// A variable changed through a pointer to it, or by a helper given its
// address (an out-parameter), an element of an array and a field of a
// struct: each varies as the variable itself would, and the note says
// where it was changed.
// RUN: not %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=error:
void bump(uint *count) { *count += 1; }
void set_id(uint *out) { *out = get_local_id(0); }
typedef struct range { uint first, last; } range;
kernel void pointer(global uint *a) {
  uint x = 0;
  uint *p = &x;
  *p = get_global_id(0) % 2;
  if (x)
    global_barrier();
  // CHECK: through-pointer.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id; not every work-item reaches it
  // CHECK-NEXT: through-pointer.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: through-pointer.cl:[[@LINE-5]]:3: note: 'x' may be changed here through a pointer to a value that depends on the work-item or group id
}
kernel void out_parameter(global uint *a, uint steps) {
  uint n = 0;
  if (get_local_id(0) == 0)
    bump(&n);
  for (uint t = 0; t < n; t++)
    global_barrier();
  // CHECK: through-pointer.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
  // CHECK-NEXT: through-pointer.cl:[[@LINE-3]]:24: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: through-pointer.cl:[[@LINE-5]]:5: note: 'n' may be changed here through a pointer under a condition that depends on the work-item or group id
}
kernel void out_value(global uint *a) {
  uint id;
  set_id(&id);
  if (id == 3)
    global_barrier();
  // CHECK: through-pointer.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id
  // CHECK-NEXT: through-pointer.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: through-pointer.cl:7:26: note: 'id' may be changed here through a pointer to a value that depends on the work-item or group id
}
kernel void element(global uint *a) {
  uint hits[4] = {0, 0, 0, 0};
  hits[get_local_id(0) % 4]++;
  if (hits[0] > 0)
    global_barrier();
  // CHECK: through-pointer.cl:[[@LINE-1]]:5: error: global_barrier() under a condition that depends on the work-item or group id
  // CHECK-NEXT: through-pointer.cl:[[@LINE-3]]:7: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: through-pointer.cl:[[@LINE-5]]:3: note: 'hits' is changed here at a place that depends on the work-item or group id
}
kernel void field(global uint *a, uint n) {
  range r = {0, n};
  range *pr = &r;
  pr->last -= get_group_id(0);
  while (r.first < r.last) {
    r.first++;
    global_barrier();
    // CHECK: through-pointer.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
    // CHECK-NEXT: through-pointer.cl:[[@LINE-4]]:10: note: the condition depends on the work-item or group id here
    // CHECK-NEXT: through-pointer.cl:[[@LINE-6]]:3: note: 'r' may be changed here through a pointer to a value that depends on the work-item or group id
  }
}
