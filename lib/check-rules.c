/* gsync-check-rules: checks the headers of rule files as the tool would
 * read them (gsri_rule_parse_header), at build time, so that a malformed
 * built-in rule fails the build with "FILE:LINE:COL: error: ..." rather
 * than every run of the tool with an error about a file the user never
 * wrote.
 *
 *   gsync-check-rules FILE.cl...
 *
 * Prints one error per bad file; exits 1 if any was bad, 2 if one could
 * not be read. */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints a diagnostic as a compiler would. */
static void print_diag(void *user, const gsr_diagnostic *d) {
  (void)user;
  fprintf(stderr, "%s:%u:%u: error: %s\n", d->file, d->line, d->col,
          d->message);
}

int main(int argc, char **argv) {
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    const char *path = argv[i];
    size_t len = 0;
    const char *why = NULL;
    char *text =
        gsri_read_file(path, GSR_RULE_FILE_MAX, "it is too large", &len, &why);
    if (!text) {
      fprintf(stderr, "%s: error: cannot read: %s\n", path,
              why ? why : strerror(errno));
      return 2;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base);
    gsri_rule r;
    memset(&r, 0, sizeof r);
    r.name = gsri_strndup(base, bl > 3 ? bl - 3 : bl);
    r.file = gsri_strdup(path);
    r.text = text;
    r.len = len;
    if (!r.name || !r.file) {
      fprintf(stderr, "%s: error: out of memory\n", path);
      return 2;
    }
    int ok = gsri_rule_parse_header(&r, print_diag, NULL);
    if (ok < 0)
      fprintf(stderr, "%s: error: out of memory\n", path);
    if (ok <= 0)
      bad = 1;
    gsri_rule_free(&r);
  }
  return bad;
}
