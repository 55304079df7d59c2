// The default barrier is tree: on NVIDIA (sm_70 or newer, unless libgsync
// says GSYNC_NV_SM is older) one word on its own 128-byte line, with an
// atom.release arrival, ld.relaxed polls that start once the arrival has
// come back and one ld.acquire after them; everywhere else a flip word up to 512 groups and 64-group
// leaves above, with OpenCL 1.1 atomics and device fences. The default
// discovery is lock-free.
// RUN: %gsync %S/Inputs/common.cl -o %t.default.cl
// RUN: %gsync --barrier=tree --discovery=lockfree %S/Inputs/common.cl -o %t.cl --constraints %t.json
// RUN: cmp %t.cl %t.default.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=JSON %s < %t.json
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl
//
// The NVIDIA path is OpenCL C that clang compiles for nvptx64 into the PTX
// it names; the pre-Volta fallback has none of it. The barrier alone
// (--no-discovery: the lock-free discovery has relaxed loads of its own)
// arrives with one release add that returns its value, no red.release (its
// polls could not wait for the arrival) and no acq_rel add, and polls with
// relaxed loads: the kernel holds ONE acquire, the load after the polls
// (an acquire poll or arrival empties the SM's L1 for the groups still
// working: bench/skew.sh). (The prelude's
// gsync_device_fence, with its membar.gl, is compiled too, though nothing
// calls it here.)
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -Dasm=__asm__ -O2 -S %t.cl -o - | FileCheck --check-prefix=PTX %s
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -DGSYNC_NV_SM=61 -Dasm=__asm__ -O2 -S %t.cl -o - | FileCheck --check-prefix=OLD %s
// RUN: %gsync --barrier=tree --no-discovery %S/Inputs/common.cl -o %t.nd.cl
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -Dasm=__asm__ -O2 -S %t.nd.cl -o %t.nd.ptx
// RUN: FileCheck --check-prefix=BAR %s < %t.nd.ptx
// RUN: sed -n '/\.entry/,$p' %t.nd.ptx | grep -c 'ld\.acquire\.gpu' | FileCheck --check-prefix=ONE-ACQUIRE %s
// ONE-ACQUIRE: {{^1$}}
// RUN: not grep 'atom\.acq_rel' %t.nd.ptx
// CHECK: /* barrier-tree: on NVIDIA (sm_70+) one word polled with relaxed loads once
// CHECK: #define GSYNC_TREE_FLAT_MAX 512u
// CHECK: #define GSYNC_TREE_LEAF 64u
// CHECK:   return gsync_tree_add(gsync_rule_words(c), gsync_tree_share(c));
// CHECK:   global uint *w = gsync_rule_words(c);
// CHECK-NEXT:   if (((old + gsync_tree_share(c)) & 0x7fffffffu) != 0u) {
// CHECK:     global uint *first = gsync_tree_after(w, old);
// CHECK-NEXT:     if (nap && due >= 128u)
// CHECK-NEXT:       gsync_tree_nap(min(due / 2u, 512u));
// CHECK-NEXT:     if (gsync_tree_waiting(first, t))
// CHECK-NEXT:       gsync_spin_while(c, site, gsync_tree_waiting(w, t),
// CHECK-NEXT:                        gsync_tree_adds(atomic_or(w, 0u), c->groups));
// CHECK-NEXT:   }
// CHECK-NEXT:   gsync_tree_acquire(w);
// CHECK: void gsync_barrier(private struct gsync_ctx *c, uint site) {
// CHECK:     uint watch = gsync_watch_peek(c);
// CHECK-NEXT:     gsync_tree_await(c, site, gsync_tree_arrival(c), 1);
// CHECK-NEXT:     gsync_watch_tick(c, watch);
// CHECK: #else
// CHECK:     if (!gsync_tree_leaves(c)) {
// CHECK: #line 1 "{{.*}}common.cl"
// JSON: "barrier": "tree",
// JSON: "discovery": true,
// JSON: "fixed": 512,
// JSON-NEXT: "per_group": 2
// PTX-DAG: atom.release.gpu.global.add.u32
// PTX-DAG: ld.acquire.gpu.global.u32
// PTX-DAG: ld.relaxed.gpu.global.u32
// PTX-DAG: nanosleep.u32
// OLD-NOT: .gpu.global
// OLD: membar.gl
// OLD-NOT: .gpu.global
// BAR-NOT: red.release
// BAR-DAG: atom.release.gpu.global.add.u32
// BAR-DAG: ld.relaxed.gpu.global.u32
// BAR-DAG: ld.acquire.gpu.global.u32
// BAR-DAG: nanosleep.u32
// The requirements and state sizes the rule header declares, as the
// constraints carry them (test/utils/rules-complete.py asks for these).
// RUN: FileCheck --check-prefix=REQ %s < %t.json
// REQ: "opencl_c_version": "1.2",
// REQ-NEXT: "extensions": [
// REQ-NEXT: "cl_khr_global_int32_base_atomics"
// REQ-NEXT: ],
// REQ-NEXT: "atomic_capabilities": [
// REQ-NEXT: ],
// REQ: "fixed": 512,
// REQ-NEXT: "per_group": 2
