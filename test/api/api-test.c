/* api-test: checks the engine's public interface as a program built
 * against an older gsync_rewrite.h would use it, and the dependency list.
 *
 * usage: api-test INPUT.cl INCLUDE_DIR
 * Rewrites INPUT.cl (which includes a header from INCLUDE_DIR) three ways
 * and prints one line per check; exits 1 if one fails.
 */
#include "gsync_rewrite.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Prints a check's outcome and counts failures. */
static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  failures += !ok;
}

/* Reads a whole file; NULL on error. */
static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = malloc(1 << 20);
  *len = buf ? fread(buf, 1, 1 << 20, f) : 0;
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: api-test INPUT.cl INCLUDE_DIR\n");
    return 2;
  }
  size_t len;
  char *src = read_all(argv[1], &len);
  if (!src)
    return 2;
  const char *args[] = {"-I", argv[2]};
  gsr_options o;
  memset(&o, 0, sizeof o);
  o.input_name = argv[1];
  o.input_path = argv[1];
  o.source = src;
  o.source_len = len;
  o.parser_args = args;
  o.num_parser_args = 2;

  /* A caller built before inline_includes existed passes a smaller size;
   * the engine must take it, with the new field as zero. */
  gsr_result *r = NULL;
  o.size = offsetof(gsr_options, inline_includes);
  o.inline_includes = 1; /* past the size: must be ignored */
  check(gsr_rewrite(&o, &r) == GSR_OK, "an older, smaller options struct");
  size_t out_len = 0;
  const char *out = r ? gsr_result_output(r, &out_len) : NULL;
  check(out && strstr(out, "#include \"api.h\"") && !strstr(out, "#if 0"),
        "fields past its size count as zero: the include stays");
  check(r && gsr_result_num_dependencies(r) == 1 &&
            strstr(gsr_result_dependency(r, 0), "api.h") &&
            gsr_result_dependency(r, 1) == NULL,
        "the dependency list names the included header, once");
  gsr_result_dispose(r);

  r = NULL;
  o.size = sizeof o;
  check(gsr_rewrite(&o, &r) == GSR_OK && r, "the full options struct");
  out = r ? gsr_result_output(r, &out_len) : NULL;
  check(out && strstr(out, "#if 0 /* gsync-rewrite --inline-includes"),
        "inline_includes inlines the header");
  gsr_result_dispose(r);

  /* spin_limit: zero (as from an older header) is the default limit,
   * GSR_SPIN_UNBOUNDED none, and a limit above the largest is refused. */
  char want[64];
  snprintf(want, sizeof want, "#define gsync_spin_limit_ms %luu\n",
           gsr_default_spin_limit());
  o.inline_includes = 0;
  r = NULL;
  check(gsr_rewrite(&o, &r) == GSR_OK && r &&
            strstr(gsr_result_output(r, &out_len), want),
        "spin_limit 0 is the default limit");
  gsr_result_dispose(r);
  r = NULL;
  o.spin_limit = GSR_SPIN_UNBOUNDED;
  check(gsr_rewrite(&o, &r) == GSR_OK && r &&
            strstr(gsr_result_output(r, &out_len),
                   "#define gsync_spin_limit_ms 0u\n"),
        "GSR_SPIN_UNBOUNDED: no limit");
  gsr_result_dispose(r);
  r = NULL;
  o.spin_limit = GSR_SPIN_LIMIT_MAX + 1;
  check(gsr_rewrite(&o, &r) == GSR_ERR_OPTIONS && !r,
        "a spin limit above GSR_SPIN_LIMIT_MAX is refused");

  r = NULL;
  o.size = sizeof o.size - 1;
  check(gsr_rewrite(&o, &r) == GSR_ERR_OPTIONS && !r,
        "a size too small for the size field is refused");
  check(strcmp(gsr_status_str(GSR_ERR_NOMEM), "out of memory") == 0 &&
            strcmp(gsr_status_str(GSR_OK), "ok") == 0 &&
            strcmp(gsr_status_str(GSR_ERR_INTERNAL), "internal error") == 0,
        "gsr_status_str names each status");
  /* The source need not end in a NUL: a last line "#include" with nothing
   * after it must be read up to source_len and no further (ASan sees an
   * overread of this exact-size copy). */
  static const char bare[] = "#include";
  char *exact = malloc(sizeof bare - 1);
  if (!exact)
    return 2;
  memcpy(exact, bare, sizeof bare - 1);
  o.source = exact;
  o.source_len = sizeof bare - 1;
  o.size = sizeof o;
  o.spin_limit = 0;
  r = NULL;
  check(gsr_rewrite(&o, &r) == GSR_ERR_INPUT && !r,
        "a source ending in a bare #include is an input error");
  free(exact);
  free(src);
  return failures != 0;
}
