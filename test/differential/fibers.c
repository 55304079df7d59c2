/* The differential test's reference on the CPU without OpenCL: a kernel of
 * gen.py's signature, k(global int *a, global int *b, global int *f, int n,
 * int k), compiled as C with the shims below and run as ONE work-group whose
 * every work-item is a thread of control of its own (a ucontext fiber with
 * its own stack), barrier() a switch to the next work-item until all have
 * come: a work-group barrier that is real, as NVIDIA's is, and no work-group
 * compiler to get the input wrong (docs/pocl.md, section 6). The work-items
 * take turns on one OS thread, each running from one barrier to the next,
 * so a barrier costs microseconds (a pthread barrier of 64 threads on two
 * cores cost milliseconds), the run is deterministic, and a barrier that
 * some work-items leave the kernel without reaching is an error, not a
 * hang. fibers.py builds and runs it:
 *
 *   cc -std=gnu11 -O1 -fwrapv -DKERNEL_FILE='"ref.c"' fibers.c
 *   ./a.out INPUT LxMxN      (INPUT: n, k, then n values of a; int32)
 *
 * and it prints what gsync-diffhost prints for the same run: "result HASH",
 * the FNV-1a of a, b and f[0..2] after the launch. The kernel file is the
 * reference (global_barrier() as barrier()) with its `local` variables made
 * `static` (one work-group: every work-item shares them); fibers.py does that.
 * What the shims cover is what gen.py's kernels and the hand-written ones
 * of kernels/ use: the work-item functions of one group at offset 0, the
 * 32-bit atomics, min and max. A kernel that needs more does not compile,
 * and fibers.py says so: no result is ever made up. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "fnv.h"

typedef unsigned int uint;
typedef unsigned long ulong;
typedef unsigned short ushort;
typedef unsigned char uchar;

#define kernel
#define __kernel
#define global
#define __global
#define local
#define __local
#define private
#define __private
#define constant const
#define __constant const
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2

static size_t shape[3] = {1, 1, 1};
static uint dims = 1;
/* The work-items: their contexts, the scheduler's, which one runs, and
 * where each is. */
enum { RUNNING, AT_BARRIER, DONE };
static ucontext_t scheduler, *fiber;
static size_t current;
static int *where;

static inline size_t get_local_id(uint d) {
  return d == 0   ? current % shape[0]
         : d == 1 ? current / shape[0] % shape[1]
         : d == 2 ? current / (shape[0] * shape[1])
                  : 0;
}
static inline size_t get_local_size(uint d) { return d < 3 ? shape[d] : 1; }
static inline size_t get_global_id(uint d) { return get_local_id(d); }
static inline size_t get_global_size(uint d) { return get_local_size(d); }
static inline size_t get_group_id(uint d) { return (void)d, 0; }
static inline size_t get_num_groups(uint d) { return (void)d, 1; }
static inline size_t get_global_offset(uint d) { return (void)d, 0; }
static inline uint get_work_dim(void) { return dims; }

/* The next work-item runs; this one resumes when all have come. */
static inline void barrier(int flags) {
  (void)flags;
  where[current] = AT_BARRIER;
  swapcontext(&fiber[current], &scheduler);
}

#define atomic_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define atomic_sub(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
#define atomic_inc(p) __atomic_fetch_add((p), 1, __ATOMIC_SEQ_CST)
#define atomic_dec(p) __atomic_fetch_sub((p), 1, __ATOMIC_SEQ_CST)
#define atomic_or(p, v) __atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define atomic_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define atomic_xor(p, v) __atomic_fetch_xor((p), (v), __ATOMIC_SEQ_CST)
#define atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define atomic_cmpxchg(p, c, v)                                                \
  __extension__({                                                              \
    __typeof__(*(p)) gsync_expected = (c);                                     \
    __atomic_compare_exchange_n((p), &gsync_expected, (v), 0,                  \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    gsync_expected;                                                            \
  })
#define atomic_min(p, v)                                                       \
  __extension__({                                                              \
    __typeof__(*(p)) gsync_old = __atomic_load_n((p), __ATOMIC_SEQ_CST);       \
    while ((v) < gsync_old &&                                                  \
           !__atomic_compare_exchange_n((p), &gsync_old, (v), 0,               \
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))   \
      ;                                                                        \
    gsync_old;                                                                 \
  })
#define atomic_max(p, v)                                                       \
  __extension__({                                                              \
    __typeof__(*(p)) gsync_old = __atomic_load_n((p), __ATOMIC_SEQ_CST);       \
    while ((v) > gsync_old &&                                                  \
           !__atomic_compare_exchange_n((p), &gsync_old, (v), 0,               \
                                        __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))   \
      ;                                                                        \
    gsync_old;                                                                 \
  })
#define max(x, y) ((x) > (y) ? (x) : (y))
#define min(x, y) ((x) < (y) ? (x) : (y))

#include KERNEL_FILE

/* The launch's arguments (the kernel is k, and so is an argument). */
static int32_t *arg_a, *arg_b, arg_f[16], arg_n, arg_k;

static void work_item(void) {
  k(arg_a, arg_b, arg_f, arg_n, arg_k);
  where[current] = DONE;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s INPUT LxMxN\n", argv[0]);
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  int32_t head[2];
  if (!in || fread(head, 4, 2, in) != 2 || head[0] <= 0) {
    printf("error: cannot read %s\n", argv[1]);
    return 1;
  }
  arg_n = head[0];
  arg_k = head[1];
  arg_a = malloc((size_t)arg_n * 4);
  arg_b = calloc((size_t)arg_n, 4);
  if (!arg_a || !arg_b || fread(arg_a, 4, (size_t)arg_n, in) != (size_t)arg_n) {
    printf("error: cannot read %d values from %s\n", arg_n, argv[1]);
    return 1;
  }
  fclose(in);
  char *s = argv[2];
  for (dims = 0; dims < 3 && *s; dims++) {
    shape[dims] = strtoul(s, &s, 10);
    if (*s == 'x')
      s++;
  }
  size_t items = shape[0] * shape[1] * shape[2];
  if (!dims || !items || items > 1024 || *s) {
    printf("error: bad local size %s\n", argv[2]);
    return 1;
  }
  enum { STACK = 1 << 18 };
  fiber = calloc(items, sizeof *fiber);
  where = calloc(items, sizeof *where);
  for (size_t t = 0; t < items; t++) {
    getcontext(&fiber[t]);
    fiber[t].uc_stack.ss_sp = malloc(STACK);
    fiber[t].uc_stack.ss_size = STACK;
    fiber[t].uc_link = &scheduler;
    if (!fiber[t].uc_stack.ss_sp) {
      printf("error: no stack for work-item %zu\n", t);
      return 1;
    }
    makecontext(&fiber[t], work_item, 0);
  }
  /* Rounds: each work-item runs to its next barrier or its end. */
  for (unsigned long round = 0;; round++) {
    size_t done = 0;
    for (current = 0; current < items; current++) {
      if (where[current] != DONE) {
        where[current] = RUNNING;
        swapcontext(&scheduler, &fiber[current]);
      }
      done += where[current] == DONE;
    }
    if (done == items)
      break;
    if (done) {
      printf("error: after barrier %lu, %zu of %zu work-items ended and the "
             "others wait at a barrier\n",
             round, done, items);
      return 1;
    }
  }
  uint64_t h = fnv(FNV_START, arg_a, (size_t)arg_n * 4);
  h = fnv(h, arg_b, (size_t)arg_n * 4);
  h = fnv(h, arg_f, 3 * 4);
  printf("result %016llx\n", (unsigned long long)h);
  return 0;
}
