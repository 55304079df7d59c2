/* The tool's exit statuses (README.md, docs/gsync-rewrite.1). */
#ifndef GSYNC_EXIT_CODES_H
#define GSYNC_EXIT_CODES_H

enum exit_code {
  EXIT_OK = 0,      /* written (warnings may have been printed) */
  EXIT_INPUT = 1,   /* the input has errors */
  EXIT_USAGE = 2,   /* bad command line, unknown barrier, bad rules */
  EXIT_IO = 3,      /* input unreadable or output unwritable */
  EXIT_INTERNAL = 4 /* libclang failed to run, out of memory */
};

#include <stdio.h>

/* Says that memory ran out and returns EXIT_INTERNAL: no failure of the
 * tool ends without a message. */
static inline int exit_nomem(void) {
  fputs("gsync-rewrite: error: out of memory\n", stderr);
  return EXIT_INTERNAL;
}

#endif
