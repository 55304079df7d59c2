/* Make-syntax dependency files, written the way a C compiler writes them
 * with -MD: "TARGETS: INPUT \ DEPS", and with -MP an empty rule for each
 * dependency so that deleting a header does not break the build.
 */
#ifndef GSYNC_DEPFILE_H
#define GSYNC_DEPFILE_H

#include <stddef.h>

/* One target: written as given (-MT), or quoted for Make (-MQ, and the
 * default target, the output file). */
typedef struct dep_target {
  const char *name;
  int quote;
} dep_target;

/* Returns the text of a dependency file (malloc'd, *len bytes): the
 * targets, then input (NULL for standard input) and deps as prerequisites;
 * with phony, an empty rule for each of deps. Returns NULL when out of
 * memory, or when a file name has a newline, which Make cannot spell: then
 * *bad names it. */
char *depfile_text(const dep_target *targets, size_t n_targets,
                   const char *input, const char *const *deps, size_t n_deps,
                   int phony, size_t *len, const char **bad);

#endif
