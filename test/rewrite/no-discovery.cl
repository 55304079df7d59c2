// --no-discovery: every launched group takes part; the prelude carries the
// trivial join, and the constraints say the launch must be co-resident.
// RUN: %gsync --no-discovery %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// --discovery=none is the same launch contract, and says so in the JSON.
// RUN: %gsync --discovery=none %S/Inputs/common.cl -o %t.none.cl --constraints %t.none.json
// RUN: cmp %t.cl %t.none.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.none.json
// CHECK: {{.*}}Discovery: off (every launched work-group must be co-resident).
// CHECK: /* discovery-none: every launched work-group takes part (--no-discovery).
// CHECK-NOT: gsync_lock
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "discovery": false,
// JSON: "coresident_launch_required": true
