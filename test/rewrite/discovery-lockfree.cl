// The lock-free discovery (the default): every group's first access is one
// atomic_inc of the poll word, which both joins and says whether the poll
// had closed; participant 0 closes it with a compare-and-swap; the last
// launched group writes the word back to "none come" with the other
// generation, which is what the next launch finds.
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
// and with exactly as many as run, and with every second launch of 6
// groups (a launch must not take what one of another size left): every
// launch is checked.
// RUN: %gsync %kernels/stencil.cl -o %t.stencil.cl --constraints %t.stencil.json
// RUN: %timeout %gsync-run --scenario stencil --cl %t.stencil.cl --constraints %t.stencil.json --groups 48 --local 64 --rounds 5 --launches 6 | FileCheck --check-prefix=MANY %s
// RUN: %timeout %gsync-run --scenario stencil --cl %t.stencil.cl --constraints %t.stencil.json --groups 1 --local 64 --rounds 5 --launches 4 | FileCheck --check-prefix=ONE %s
// RUN: %timeout %gsync-run --scenario reuse --cl %t.stencil.cl --constraints %t.stencil.json --groups 48 --local 64 --launches 20 --vary 8 | FileCheck --check-prefix=VARY %s
//
// On a CPU device participant 0 closes the poll once no group has come for
// 20 ms (64 polls, which it once waited, were over before PoCL's second
// thread started a group), so PoCL admits every group it runs at once and
// these runs take the paths of several participants: four threads and
// eight groups (four take part and
// close the poll, four come late), every second launch with two (all take
// part; a launch that took the count the last one left, or whose reset kept
// the generation, goes wrong here), four groups that all take part, and
// the remapped ids of eight groups.
// RUN: env POCL_MAX_PTHREAD_COUNT=4 %timeout %gsync-run --scenario reuse --cl %t.stencil.cl --constraints %t.stencil.json --groups 8 --local 64 --launches 20 --vary 4 | FileCheck --check-prefix=SEVERAL %s
// RUN: env POCL_MAX_PTHREAD_COUNT=4 %timeout %gsync-run --scenario stencil --cl %t.stencil.cl --constraints %t.stencil.json --groups 4 --local 64 --rounds 20 --launches 3 | FileCheck --check-prefix=ALL4 %s
// The ids scenario checks the count libgsync reports against the ids the
// kernel used (a count published by a group that came after the close
// would differ):
// RUN: %gsync %kernels/ids.cl -o %t.ids.cl --constraints %t.ids.json
// RUN: env POCL_MAX_PTHREAD_COUNT=4 %timeout %gsync-run --scenario ids --cl %t.ids.cl --constraints %t.ids.json --groups 8 --local 64 --launches 5 | FileCheck --check-prefix=IDS %s
// The poll cap: after a launch that admitted fewer groups than it polled,
// libgsync caps later launches of as many groups or more at that count
// (state word 32), and the groups past it return at once. The second
// launch polls 4, and each launch is checked. PoCL 3.1 does not start the
// first four groups together on its four threads (it admits 2 of the 4
// polled, where a rule that ignored the cap would admit 4 of the 8), so a
// capped launch there admits fewer than its cap: the next launch polls all
// again, and after two such launches the kernel handle caps no more (a
// GPU, which starts groups in id order, admits the cap and stays capped:
// test/gpu/run.sh). Launches of 2 groups, below the cap, poll 2 and leave
// it as it was.
// RUN: env POCL_MAX_PTHREAD_COUNT=4 %timeout %gsync-run --scenario reuse --cl %t.stencil.cl --constraints %t.stencil.json --groups 8 --local 64 --launches 10 --polled | FileCheck --check-prefix=CAP %s
// RUN: env POCL_MAX_PTHREAD_COUNT=4 %timeout %gsync-run --scenario reuse --cl %t.stencil.cl --constraints %t.stencil.json --groups 8 --local 64 --launches 12 --vary 4 --polled | FileCheck --check-prefix=CAPVARY %s
// CAP: reuse: ok participants=2 groups=8 launches=10
// CAP-NEXT: polled: 8 4 8 4 8 8 8 8 8 8{{$}}
// CAPVARY: reuse: ok participants=2 groups=8 launches=12
// CAPVARY-NEXT: polled: 8 2 4 2 8 2 4 2 8 2 8 2{{$}}
// SEVERAL: reuse: ok participants={{[2-4]}} groups=8 launches=20
// IDS: ids: ok participants={{[2-4]}} groups=8 launches=5
// ALL4: stencil: ok participants={{[2-4]}} groups=4 launches=3
// MANY: stencil: ok participants={{[1-9][0-9]*}} groups=48 launches=6
// VARY: reuse: ok participants={{[1-9][0-9]*}} groups=48 launches=20
// ONE: stencil: ok participants=1 groups=1 launches=4
// CHECK: /* discovery-lockfree: occupancy discovery without a lock. A polled group's
// CHECK: #define GSYNC_LF_STILL 4u
// CHECK: #define GSYNC_LF_STILL 64u
// A participant's first poll waits while many groups are still due
// (bench/results/h100.md, 2026-12-07 (c)); nothing off NVIDIA.
// CHECK: #define GSYNC_LF_FIRST_NAP 2048u
// CHECK: #define GSYNC_LF_WAIT_NAP 200u
// CHECK:   gsync_lf_nap(GSYNC_LF_WAIT_NAP);
// CHECK:   uint launched = gsync_launch_groups(), cap = s[gsync_word_poll_cap];
// CHECK-NEXT:   return cap != 0u && cap < launched ? cap : launched;
// CHECK:   uint polled = gsync_lf_polled(s);
// CHECK-NEXT:   if (gsync_launch_group() >= polled)
// CHECK-NEXT:     return 0;
// CHECK-NEXT:   gsync_anchor(c);
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK-NEXT:   gsync_anchor(c);
// CHECK:       uint old = atomic_inc(poll);
// CHECK-NEXT:     uint gen = old & GSYNC_LF_GEN, id = old & GSYNC_LF_COME, count = 0;
// CHECK-NEXT:     if (old & GSYNC_LF_CLOSED)
// CHECK-NEXT:       id = 0xffffffffu;
// CHECK-NEXT:     if ((old & GSYNC_LF_COME) == polled - 1u) {
// CHECK:           atomic_xchg(poll, gen ^ GSYNC_LF_GEN);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (GSYNC_LF_FIRST_NAP != 0u && id != 0xffffffffu)
// CHECK-NEXT:      gsync_lf_nap(min((polled - 1u - id) / 2u, GSYNC_LF_FIRST_NAP));
// CHECK-NEXT:    if (id == 0u) {
// CHECK:           uint was = atomic_cmpxchg(poll, seen, seen | GSYNC_LF_CLOSED);
// CHECK-NOT: atomic_inc(&s[8])
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "discovery": true,
// JSON: "reset_by_kernel": true
// JSON: "poll_cap_offset": 128
// PTX-DAG: ld.relaxed.gpu.global.u32
// PTX-DAG: nanosleep.u32
// PORTABLE-NOT: ld.relaxed
// PORTABLE-NOT: nanosleep
