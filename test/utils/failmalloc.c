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
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);

static uintptr_t lo, hi; /* the main executable's loaded range */
static unsigned long count, nth;
static const char *count_file;

/* Records the address range of the first object: the main executable. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t b = info->dlpi_addr + ph->p_vaddr, e = b + ph->p_memsz;
    if (!lo || b < lo)
      lo = b;
    if (e > hi)
      hi = e;
  }
  return 1;
}

static void report(void) {
  if (!count_file)
    return;
  FILE *f = fopen(count_file, "a");
  if (f) {
    fprintf(f, "%lu\n", count);
    fclose(f);
  }
}

__attribute__((constructor)) static void init(void) {
  dl_iterate_phdr(first_object, NULL);
  const char *n = getenv("FAILMALLOC_NTH");
  nth = n ? strtoul(n, NULL, 10) : 0;
  count_file = getenv("FAILMALLOC_COUNT");
  atexit(report);
}

/* Whether this allocation, made from caller, is the one to fail. */
static int fail_now(void *caller) {
  uintptr_t c = (uintptr_t)caller;
  if (!hi || c < lo || c >= hi)
    return 0;
  return ++count == nth;
}

void *malloc(size_t n) {
  return fail_now(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t m) {
  return fail_now(__builtin_return_address(0)) ? NULL : __libc_calloc(n, m);
}

void *realloc(void *p, size_t n) {
  return fail_now(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
}
