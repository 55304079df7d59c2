// The default barrier is tree: a flip word up to 512 groups and 64-group
// leaves above, with PTX release/acquire on NVIDIA (sm_70 or newer, unless
// libgsync says GSYNC_NV_SM is older) and OpenCL 1.1 atomics with device
// fences everywhere else; the default discovery is lock-free.
// RUN: %gsync %S/Inputs/common.cl -o %t.default.cl
// RUN: %gsync --barrier=tree --discovery=lockfree %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: cmp %t.cl %t.default.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
//
// The NVIDIA path is OpenCL C that clang compiles for nvptx64 into the PTX
// it names; the pre-Volta fallback has none of it.
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -Dasm=__asm__ -O2 -S %t.cl -o - | FileCheck --check-prefix=PTX %s
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -DGSYNC_NV_SM=61 -Dasm=__asm__ -O2 -S %t.cl -o - | FileCheck --check-prefix=OLD %s
// CHECK: /* barrier-tree: a flip word (grid.sync's algorithm) for up to 512 groups,
// CHECK: #define GSYNC_TREE_FLAT_MAX 512u
// CHECK: #define GSYNC_TREE_LEAF 64u
// CHECK:     if (c->groups <= GSYNC_TREE_FLAT_MAX) {
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "tree",
// JSON: "discovery": true,
// JSON: "fixed": 384,
// JSON-NEXT: "per_group": 2
// PTX-DAG: red.release.gpu.global.add.u32
// PTX-DAG: atom.acq_rel.gpu.global.add.u32
// PTX-DAG: ld.relaxed.gpu.global.u32
// PTX-DAG: ld.acquire.gpu.global.u32
// PTX-DAG: nanosleep.u32
// OLD-NOT: .gpu.global
// OLD: membar.gl
// OLD-NOT: .gpu.global
