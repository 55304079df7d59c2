// The lock-free discovery (the default): every group reads the poll word
// first; a group that finds the last launch over opens the poll for this
// one with a compare-and-swap that flips the generation; one that finds it
// open joins with atomic_dec; one that finds it CLOSED counts itself with a
// decrement it does not wait for (PTX red on NVIDIA) and leaves. No word is
// reset: when every launched group has come, the poll reads "none due"
// again, which is what the next launch finds.
// RUN: %gsync --discovery=lockfree %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -Dasm=__asm__ -O2 -S %t.cl -o - | FileCheck --check-prefix=PTX %s
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -O2 -S %t.cl -o - | FileCheck --check-prefix=PORTABLE %s
//
// Launches in sequence share the state without a reset between them, on
// PoCL with more groups launched than run at once (most do not take part)
// and with exactly as many as run: every launch is checked.
// RUN: %gsync %kernels/stencil.cl -o %t.stencil.cl --constraints %t.stencil.json
// RUN: %timeout %gsync-run --scenario stencil --cl %t.stencil.cl --constraints %t.stencil.json --groups 48 --local 64 --rounds 5 --launches 6 | FileCheck --check-prefix=MANY %s
// RUN: %timeout %gsync-run --scenario stencil --cl %t.stencil.cl --constraints %t.stencil.json --groups 1 --local 64 --rounds 5 --launches 4 | FileCheck --check-prefix=ONE %s
// MANY: stencil: ok participants={{[1-9][0-9]*}} groups=48 launches=6
// ONE: stencil: ok participants=1 groups=1 launches=4
// CHECK: /* discovery-lockfree: occupancy discovery without a lock. A group that does
// CHECK: #define GSYNC_LF_STILL 4u
// CHECK: #define GSYNC_LF_STILL 64u
// CHECK:       if ((v & GSYNC_LF_DUE) == 0u) {
// CHECK-NEXT:         uint open = ((v & GSYNC_LF_GEN) ^ GSYNC_LF_GEN) | (launched - 1u);
// CHECK-NEXT:         uint old = atomic_cmpxchg(poll, v, open);
// CHECK:       } else if (v & GSYNC_LF_CLOSED) {
// CHECK-NEXT:         gsync_lf_leave(poll);
// CHECK-NEXT:       } else {
// CHECK-NEXT:         uint old = atomic_dec(poll);
// CHECK-NOT: atomic_inc(&s[8])
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "discovery": true,
// JSON: "reset_by_kernel": true
// PTX-DAG: red.relaxed.gpu.global.add.u32
// PTX-DAG: ld.relaxed.gpu.global.u32
// PORTABLE-NOT: red.relaxed
// PORTABLE-NOT: nanosleep
