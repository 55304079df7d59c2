// The constraints say which dimensions each kernel's work-item calls ask
// about, its own and its helpers' (the local functions count too), and the
// launch dimension that covers them (work_dim). A dimension computed at run
// time is flagged; a constant one above 2 asks about no dimension.
// RUN: %gsync %s -o %t.cl --constraints %t.json
// RUN: FileCheck %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl

uint row(void) { return get_global_id(1); }

kernel void image(global uint *a) {
  a[row() * get_global_size(0) + get_global_id(0)] = 1;
  global_barrier();
}

kernel void planes(global uint *a) {
  a[get_group_id(0)] = get_local_id(2);
  global_barrier();
}

kernel void none(global uint *a) {
  a[0] = get_global_id(5) + get_work_dim();
  global_barrier();
}

// CHECK:      "name": "image",
// CHECK-NEXT: "global_barrier": true,
// CHECK-NEXT: "work_dim": 2,
// CHECK-NEXT: "dimensions": [
// CHECK-NEXT:   0,
// CHECK-NEXT:   1
// CHECK-NEXT: ],
// CHECK-NEXT: "run_time_dimension": false,
// CHECK:      "name": "planes",
// CHECK-NEXT: "global_barrier": true,
// CHECK-NEXT: "work_dim": 3,
// CHECK-NEXT: "dimensions": [
// CHECK-NEXT:   0,
// CHECK-NEXT:   2
// CHECK-NEXT: ],
// CHECK-NEXT: "run_time_dimension": false,
// CHECK:      "name": "none",
// CHECK-NEXT: "global_barrier": true,
// CHECK-NEXT: "work_dim": 1,
// CHECK-NEXT: "dimensions": [
// CHECK-NEXT: ],
// CHECK-NEXT: "run_time_dimension": false,
