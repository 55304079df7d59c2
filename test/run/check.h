/* The checks of the libgsync test programs that print one line per check,
 * "ok: WHAT" or "FAIL: WHAT (why)", for FileCheck, and count the failures.
 * Included by one file each. */
#ifndef GSYNC_TEST_CHECK_H
#define GSYNC_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int failures;

/* Prints the check's line (fmt and its arguments say what was checked)
 * and counts it if it failed. */
static void check(int ok, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("%s: ", ok ? "ok" : "FAIL");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  fflush(stdout);
  failures += !ok;
}

#endif
