/* rewrite-fuzzer: a libFuzzer harness for gsr_rewrite().
 *
 * The first byte of an input chooses the options (barrier, discovery
 * protocol, --no-uniformity-check, -cl-std=CL2.0, --inline-includes); the
 * rest is the OpenCL C source. It is parsed as if it were a file in
 * test/inline/, so that #include "Inputs/..." finds that test's headers,
 * with -I include/ for gsync.h. Besides the sanitizers, it checks the
 * engine's contract on every input:
 *   - a status other than GSR_OK comes with no result and at least one
 *     error diagnostic, GSR_OK with a result and no error diagnostic;
 *   - the constraints are valid JSON, and every dependency is a string;
 *   - a source that cannot call global_barrier() (the name appears nowhere,
 *     and no token pasting, line splice or #include can make it) passes
 *     through byte for byte.
 * A broken contract aborts, which libFuzzer records as a crash.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "gsync_rewrite.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RULES 16

/* Rule names, gathered once at start-up so that new rule files are fuzzed
 * without a change here. */
typedef struct name_list {
  char *names[MAX_RULES];
  int n;
} name_list;
static name_list barriers, discoveries;

/* gsr_list_rules() callback: keeps a copy of each name. */
static void keep_name(void *user, const char *name, const char *summary,
                      const char *runs_on, int is_default) {
  name_list *l = user;
  (void)summary;
  (void)runs_on;
  (void)is_default;
  if (l->n < MAX_RULES)
    l->names[l->n++] = strdup(name);
}

/* Counts diagnostics by severity, and reads every byte of each so that the
 * sanitizers see a dangling or unterminated string. */
typedef struct diag_count {
  unsigned errors, total;
} diag_count;

static void count_diag(void *user, const gsr_diagnostic *d) {
  diag_count *c = user;
  volatile size_t sink = strlen(d->message);
  if (d->file)
    sink += strlen(d->file);
  (void)sink;
  if ((int)d->severity < GSR_NOTE || d->severity > GSR_ERROR)
    abort();
  c->errors += d->severity == GSR_ERROR;
  c->total++;
}

/* Nonzero if the n bytes at s contain the string w. */
static int contains(const uint8_t *s, size_t n, const char *w) {
  size_t wl = strlen(w);
  for (size_t i = 0; i + wl <= n; i++)
    if (memcmp(s + i, w, wl) == 0)
      return 1;
  return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  if (gsr_list_rules(NULL, "barrier", keep_name, &barriers, NULL, NULL) ||
      gsr_list_rules(NULL, "discovery", keep_name, &discoveries, NULL, NULL) ||
      !barriers.n || !discoveries.n) {
    fprintf(stderr, "rewrite-fuzzer: cannot list the built-in rules\n");
    exit(1);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  uint8_t sel = data[0];
  const uint8_t *src = data + 1;
  size_t len = size - 1;

  static const char *const args[] = {"-I", GSYNC_SOURCE_DIR "/include",
                                     "-cl-std=CL2.0"};
  diag_count dc = {0, 0};
  gsr_options opt;
  memset(&opt, 0, sizeof opt);
  opt.size = sizeof opt;
  opt.input_name = "fuzz.cl";
  opt.input_path = GSYNC_SOURCE_DIR "/test/inline/fuzz.cl";
  opt.source = (const char *)src;
  opt.source_len = len;
  opt.barrier = barriers.names[(sel & 7) % barriers.n];
  opt.discovery = discoveries.names[((sel >> 3) & 3) % discoveries.n];
  opt.no_uniformity_check = (sel >> 5) & 1;
  opt.parser_args = args;
  opt.num_parser_args = sel & 0x40 ? 3 : 2;
  opt.inline_includes = (sel >> 7) & 1;
  opt.diag = count_diag;
  opt.diag_user = &dc;

  gsr_result *res = (gsr_result *)1; /* must be overwritten */
  gsr_status st = gsr_rewrite(&opt, &res);
  if (st != GSR_OK) {
    if (res || !dc.errors)
      abort();
    return 0;
  }
  if (!res || dc.errors)
    abort();

  size_t out_len;
  const char *out = gsr_result_output(res, &out_len);
  const char *json = gsr_result_constraints(res);
  json_object *j = json_tokener_parse(json);
  if (!j)
    abort();
  json_object_put(j);
  for (size_t i = 0; i < gsr_result_num_dependencies(res); i++) {
    const char *dep = gsr_result_dependency(res, i);
    if (!dep)
      abort();
    volatile size_t sink = strlen(dep);
    (void)sink;
  }
  if (!contains(src, len, "global_barrier") && !contains(src, len, "##") &&
      !contains(src, len, "%:%:") && !contains(src, len, "\\") &&
      !contains(src, len, "include") &&
      (out_len != len || memcmp(out, src, len) != 0))
    abort();
  gsr_result_dispose(res);
  return 0;
}
