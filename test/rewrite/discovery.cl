// --discovery=NAME picks the protocol; an unknown one is a usage error.
// RUN: %gsync --discovery=ticket %S/Inputs/common.cl -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// RUN: %expect-exit 2 %gsync --discovery=nosuch %S/Inputs/common.cl
// RUN: not %gsync --discovery=nosuch %S/Inputs/common.cl 2>&1 | FileCheck --check-prefix=ERR %s
// CHECK: /* discovery-ticket: the occupancy discovery protocol of Sorensen et al.
// CHECK-NOT: discovery-lockfree
// CHECK: #line 1 "{{.*}}common.cl"
// ERR: gsync-rewrite: error: unknown discovery protocol 'nosuch' (see --list-barriers)
