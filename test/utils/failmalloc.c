/* test/utils/failmalloc.c: an LD_PRELOAD library that fails one
 * allocation, for test/cli/out-of-memory.test.
 *
 *   FAILMALLOC_NTH=N   the N-th allocation (from 1) returns NULL
 *   FAILMALLOC_COUNT=F at exit, appends a line to F saying how many
 *                      allocations were made
 *
 * A child forked from the process (the tool rewrites in one) counts on
 * from the fork: it fails its own N-th allocation, and appends its own
 * line. fault-inject.py goes up to the largest count.
 *
 * Only the allocations the program itself makes (malloc, calloc, realloc
 * called from code of the main executable: the tool and its engine) are
 * counted and failed. libclang's and the C library's are not: libclang
 * does not survive a failed allocation (C++ new throws), and the engine's
 * failure policy is what is under test. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "preload-count.h"

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);

__attribute__((constructor)) static void init(void) {
  count_init("FAILMALLOC_NTH", "FAILMALLOC_COUNT");
}

/* Whether this allocation, made from caller, is the one to fail. */
static int fail_now(void *caller) { return count_call(caller); }

void *malloc(size_t n) {
  return fail_now(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t m) {
  return fail_now(__builtin_return_address(0)) ? NULL : __libc_calloc(n, m);
}

void *realloc(void *p, size_t n) {
  return fail_now(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}
