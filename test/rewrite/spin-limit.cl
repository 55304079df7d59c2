// --spin-limit=TIME sets how long a spinning work-group waits before it
// aborts the launch: the value, in milliseconds, reaches the output as
// gsync_spin_limit_ms, the summary comment and the constraints'
// "spin_limit_ms". "5s" and "5000ms" are the same time. The default is
// what --help names; --spin-limit=0 means no limit: plain spins as before,
// no checks at the call sites, and only the prelude's unused helpers
// remain.
// RUN: %gsync %s -o %t.default.cl --constraints %t.default.json
// RUN: %gsync --help | FileCheck --check-prefix=HELP %s
// RUN: %gsync --spin-limit=5s %s -o %t.same.cl
// RUN: cmp %t.default.cl %t.same.cl
// RUN: FileCheck --match-full-lines --check-prefix=DEFAULT %s < %t.default.cl
// RUN: FileCheck --check-prefix=DEFAULT-JSON %s < %t.default.json
// RUN: %gsync --spin-limit 250ms %s -o %t.5000.cl --constraints %t.5000.json
// RUN: FileCheck --match-full-lines --check-prefix=N %s < %t.5000.cl
// RUN: FileCheck --check-prefix=N-JSON %s < %t.5000.json
// RUN: %gsync --spin-limit=0 %s -o %t.0.cl --constraints %t.0.json
// RUN: FileCheck --match-full-lines --check-prefix=ZERO %s < %t.0.cl
// RUN: FileCheck --check-prefix=ZERO-JSON %s < %t.0.json
// RUN: %clang-cl -cl-std=CL1.2 %t.5000.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.0.cl
// RUN: %gsync-run --build-only %t.0.cl
// The NVIDIA paths of the bounded spin compile too (as barrier-tree.cl).
// RUN: clang -target nvptx64-nvidia-nvcl -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -D__NV_CL_C_VERSION=1 -Dasm=__asm__ -O2 -S %t.default.cl -o /dev/null

void phase(global uint *a) { a[get_global_id(0)] += 1; global_barrier(); }

kernel void k(global uint *a) {
  phase(a);
  global_barrier();
}

// HELP: --spin-limit=TIME {{.*}}
// HELP: (default: 5000ms;

// DEFAULT:  * Spin limit: 5000 ms; a wait that outlasts it aborts the launch, every work-group
// DEFAULT: #define gsync_spin_limit_ms 5000u
// DEFAULT: #define gsync_spin_while(c, site, cond, arrived) {{.*}}
// DEFAULT-NEXT:   do { {{.*}}
// DEFAULT-NEXT:     ulong gsync_start = 0; {{.*}}
// DEFAULT-NEXT:     for (uint gsync_polls = 1; !*(c)->left && (cond); gsync_polls++) { {{.*}}
// DEFAULT: void phase(global uint *a, private struct gsync_ctx *gsync_ctx) { a[gsync_get_global_id(gsync_ctx, 0)] += 1; gsync_barrier(gsync_ctx, 1); }
// DEFAULT:   phase(a, gsync_ctx);
// DEFAULT-NEXT:   gsync_barrier(gsync_ctx, 2);
// DEFAULT-JSON: "spin_limit_ms": 5000,

// N: #define gsync_spin_limit_ms 250u
// N-JSON: "spin_limit_ms": 250,

// ZERO:  * Spin limit: none (--spin-limit=0): a barrier that cannot complete hangs.
// ZERO: #define gsync_spin_limit_ms 0u
// ZERO: void phase(global uint *a, private struct gsync_ctx *gsync_ctx) { a[gsync_get_global_id(gsync_ctx, 0)] += 1; gsync_barrier(gsync_ctx, 1); }
// ZERO:   phase(a, gsync_ctx);
// ZERO-NEXT:   gsync_barrier(gsync_ctx, 2);
// ZERO-NEXT: gsync_anchor(gsync_ctx); }
// ZERO-JSON: "spin_limit_ms": 0,
