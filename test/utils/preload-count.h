/* test/utils/preload-count.h: what the LD_PRELOAD libraries of the tests
 * (failmalloc.c, killat.c) share: they count only the calls the program
 * itself makes, from code of the main executable (the tool and its
 * engine, not libclang or the C library), act at the N-th and can write
 * how many they counted at exit. Included by one file each.
 *
 *   PREFIX_NTH=N    the N-th counted call (from 1) is the one to act at
 *   PREFIX_COUNT=F  at exit, appends a line to F saying how many calls
 *                   were counted (a forked child, which counts on from
 *                   the fork, appends its own) */
#ifndef GSYNC_PRELOAD_COUNT_H
#define GSYNC_PRELOAD_COUNT_H

#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Reads the variables (nth_var, count_var) and finds the executable. */
static void count_init(const char *nth_var, const char *count_var) {
  dl_iterate_phdr(first_object, NULL);
  const char *n = getenv(nth_var);
  nth = n ? strtoul(n, NULL, 10) : 0;
  count_file = getenv(count_var);
  atexit(report);
}

/* Counts a call made from caller, if the executable made it; nonzero if
 * it is the N-th. */
static int count_call(void *caller) {
  uintptr_t c = (uintptr_t)caller;
  if (!hi || c < lo || c >= hi)
    return 0;
  return ++count == nth;
}

#endif
