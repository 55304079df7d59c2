/* Make-syntax dependency files (see depfile.h). File names are escaped the
 * way GCC and Clang escape them, so that GNU Make reads back every name:
 * a space or tab becomes '\ ', '#' becomes '\#' (a run of backslashes
 * before either is doubled, so it stays literal), '$' becomes '$$'.
 */
#define _XOPEN_SOURCE 700
#include "depfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes name escaped for Make. */
static void put_escaped(FILE *f, const char *name) {
  for (size_t i = 0; name[i]; i++) {
    char c = name[i];
    if (c == ' ' || c == '\t' || c == '#') {
      for (size_t j = i; j > 0 && name[j - 1] == '\\'; j--)
        fputc('\\', f);
      fputc('\\', f);
    } else if (c == '$') {
      fputc('$', f);
    }
    fputc(c, f);
  }
}

/* Returns the first of the names that has a newline, or NULL. */
static const char *unspellable(const char *input, const char *const *deps,
                               size_t n_deps) {
  if (input && strchr(input, '\n'))
    return input;
  for (size_t i = 0; i < n_deps; i++)
    if (strchr(deps[i], '\n'))
      return deps[i];
  return NULL;
}

/* Builds the dependency file's text; see depfile.h. */
char *depfile_text(const dep_target *targets, size_t n_targets,
                   const char *input, const char *const *deps, size_t n_deps,
                   int phony, size_t *len, const char **bad) {
  *bad = unspellable(input, deps, n_deps);
  for (size_t i = 0; !*bad && i < n_targets; i++)
    if (strchr(targets[i].name, '\n'))
      *bad = targets[i].name;
  if (*bad)
    return NULL;
  char *text = NULL;
  FILE *f = open_memstream(&text, len);
  if (!f)
    return NULL;
  for (size_t i = 0; i < n_targets; i++) {
    if (i)
      fputc(' ', f);
    if (targets[i].quote)
      put_escaped(f, targets[i].name);
    else
      fputs(targets[i].name, f);
  }
  fputc(':', f);
  if (input) {
    fputc(' ', f);
    put_escaped(f, input);
  }
  /* One prerequisite a line, as compilers do, so diffs stay readable. */
  for (size_t i = 0; i < n_deps; i++) {
    fputs(" \\\n ", f);
    put_escaped(f, deps[i]);
  }
  fputc('\n', f);
  for (size_t i = 0; phony && i < n_deps; i++) {
    fputc('\n', f);
    put_escaped(f, deps[i]);
    fputs(":\n", f);
  }
  if (fclose(f) != 0) {
    free(text);
    return NULL;
  }
  return text;
}
