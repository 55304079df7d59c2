/* The rewrite in a child process, under limits on its memory, its time
 * and its stack, so that whatever the input makes libclang do (read an
 * included /dev/zero, FIFO or huge file, however the #include is
 * spelled; recurse through code nested too deeply; run too long), the run
 * ends within seconds with an error that names the input, and writes
 * nothing. docs/design.md, "Limits", says why and how.
 */
#ifndef GSYNC_BOUNDED_H
#define GSYNC_BOUNDED_H

#include "gsync_rewrite.h"

#include <stddef.h>

/* The defaults of --max-memory and --max-time (docs/design.md, "Limits",
 * has the measurements behind them). */
#define BOUNDED_MEMORY_DEFAULT (2048ull << 20)
#define BOUNDED_TIME_DEFAULT 60000ul

/* Limits on one rewrite. */
typedef struct bounded_limits {
  unsigned long long memory; /* bytes of memory in use at most; 0: none */
  unsigned long time_ms;     /* milliseconds of running at most; 0: none */
} bounded_limits;

/* What a rewrite hands back: gsr_rewrite()'s result, copied out of the
 * child. */
typedef struct bounded_result {
  char *output;
  size_t output_len;
  char *constraints; /* NUL-terminated */
  char **deps;
  size_t n_deps;
} bounded_result;

/* Runs gsr_rewrite(o) in a child process under lim; the child prints the
 * diagnostics through o->diag. Returns 0 with *res filled (see
 * bounded_result_free()), or an exit code after saying why: the child's
 * (1, 2 or 4, as for the engine's statuses), 1 when a limit stopped it
 * (or code nested too deeply ran its stack out), 4 when it crashed. */
int bounded_rewrite(const gsr_options *o, const bounded_limits *lim,
                    bounded_result *res);

/* Frees what bounded_rewrite() filled in. */
void bounded_result_free(bounded_result *res);

#endif
