/* The rewrite in a child process, on a stack of its own, so that code
 * nested too deeply for libclang's recursive parser, or anything else that
 * ends the rewrite with a signal, ends the run with an error that names
 * the input, and writes nothing. docs/design.md, "Limits", says why and
 * how.
 */
#ifndef GSYNC_BOUNDED_H
#define GSYNC_BOUNDED_H

#include "gsync_rewrite.h"

#include <stddef.h>

/* What a rewrite hands back: gsr_rewrite()'s result, copied out of the
 * child. */
typedef struct bounded_result {
  char *output;
  size_t output_len;
  char *constraints; /* NUL-terminated */
  char **deps;
  size_t n_deps;
} bounded_result;

/* Runs gsr_rewrite(o) in a child process; the child prints the
 * diagnostics through o->diag. Returns 0 with *res filled (see
 * bounded_result_free()), or an exit code after saying why: the child's
 * (1, 2 or 4, as for the engine's statuses), 1 when code nested too
 * deeply ran its stack out, 4 when a signal ended it. */
int bounded_rewrite(const gsr_options *o, bounded_result *res);

/* Frees what bounded_rewrite() filled in. */
void bounded_result_free(bounded_result *res);

#endif
