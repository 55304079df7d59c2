/* Rules: the OpenCL C files that implement barriers and discovery.
 *
 * They are data. The built-in ones are embedded at build time (see
 * cmake/embed-rules.cmake); a rules directory given by the user adds rules
 * or replaces built-in ones of the same name, for rule development. A
 * rule's metadata sits in its header comment as "@key value" lines:
 *   @summary            one line for --list-barriers: what it does
 *   @runs-on            the devices it is correct on (--list-barriers, docs)
 *   @opencl-c           the lowest OpenCL C version it builds with
 *   @extension          an OpenCL extension it needs (repeatable)
 *   @atomic-capability  a CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES bit it needs
 *   @state-fixed        bytes of state it needs besides the shared header
 *   @state-per-group    bytes of state per launched work-group
 *   @max-groups         the most work-groups a launch may have
 *   @split              a barrier that also comes in two halves,
 *                       gsync_barrier_arrive() and gsync_barrier_wait()
 * File names: prelude.cl, barrier-NAME.cl, discovery-NAME.cl. Headers are
 * checked as they are read (gsri_rule_parse_header, rule-header.c), so that a
 * rule from
 * --rules-dir that libgsync or a terminal would trip over is refused with
 * its file, line and column.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RULE_TOO_LARGE "it is larger than " GSR_STR(GSR_RULE_FILE_MAX) " bytes"

/* Passes a diagnostic about a rule file on to the rewrite's callback. */
static void report_to_ctx(void *user, const gsr_diagnostic *d) {
  gsri_report_at(user, d->severity, d->file, d->line, d->col, "%s", d->message);
}

/* Adds (or replaces) the rule named by file stem with the given text.
 * Takes ownership of text. Returns 0 on failure (reported). */
static int add_rule(gsri_ctx *ctx, gsri_ruleset *set, const char *stem,
                    const char *file, int from_dir, char *text, size_t len) {
  gsri_rule r;
  memset(&r, 0, sizeof r);
  r.from_dir = from_dir;
  r.name = gsri_strdup(stem);
  r.file = gsri_strdup(file);
  r.text = text;
  r.len = len;
  int ok = r.name && r.file && text
               ? gsri_rule_parse_header(&r, report_to_ctx, ctx)
               : -1;
  if (ok <= 0) {
    if (ok < 0)
      gsri_nomem(ctx);
    gsri_rule_free(&r);
    return 0;
  }
  for (size_t i = 0; i < set->n; i++)
    if (strcmp(set->rules[i].name, r.name) == 0) {
      gsri_rule_free(&set->rules[i]);
      set->rules[i] = r;
      return 1;
    }
  gsri_rule *p = realloc(set->rules, (set->n + 1) * sizeof *p);
  if (!p) {
    gsri_rule_free(&r);
    return gsri_nomem(ctx);
  }
  set->rules = p;
  set->rules[set->n++] = r;
  return 1;
}

/* Compares two rules by name, for sorting. */
static int cmp_rule(const void *a, const void *b) {
  return strcmp(((const gsri_rule *)a)->name, ((const gsri_rule *)b)->name);
}

/* Loads the built-in rules, then those of rules_dir (may be NULL). */
gsr_status gsri_rules_load(gsri_ctx *ctx, const char *rules_dir,
                           gsri_ruleset *out) {
  memset(out, 0, sizeof *out);
  for (const gsri_embedded_rule *e = gsri_embedded_rules; e->name; e++) {
    gsri_buf file = {0};
    gsri_buf_printf(&file, "<built-in>/%s.cl", e->name);
    int ok = add_rule(ctx, out, e->name, gsri_buf_text(ctx, &file), 0,
                      gsri_strndup(e->text, e->len), e->len);
    gsri_buf_free(&file);
    /* The build checked every built-in rule (check-rules.c): one that
     * fails here is the tool's defect, not the user's. */
    if (!ok)
      return ctx->nomem ? GSR_ERR_NOMEM : GSR_ERR_INTERNAL;
  }
  if (rules_dir) {
    DIR *d = opendir(rules_dir);
    if (!d) {
      gsri_report(ctx, GSR_ERROR, 0, 0, "cannot open rules directory '%s': %s",
                  rules_dir, strerror(errno));
      return GSR_ERR_OPTIONS;
    }
    struct dirent *de;
    int ok = 1;
    while (ok && (de = readdir(d)) != NULL) {
      size_t nl = strlen(de->d_name);
      if (nl < 4 || strcmp(de->d_name + nl - 3, ".cl") != 0)
        continue;
      gsri_buf path = {0};
      gsri_buf_printf(&path, "%s/%s", rules_dir, de->d_name);
      size_t len = 0;
      const char *why = "out of memory";
      char *text = path.data ? gsri_read_file(path.data, GSR_RULE_FILE_MAX,
                                              RULE_TOO_LARGE, &len, &why)
                             : NULL;
      char *stem = gsri_strndup(de->d_name, nl - 3);
      if (!text) {
        gsri_report(ctx, GSR_ERROR, 0, 0, "cannot read rule file '%s': %s",
                    path.data ? path.data : de->d_name,
                    why ? why : strerror(errno));
        ok = 0;
      } else {
        ok = stem ? add_rule(ctx, out, stem, path.data, 1, text, len)
                  : (free(text), gsri_nomem(ctx));
      }
      free(stem);
      gsri_buf_free(&path);
    }
    closedir(d);
    if (!ok)
      return GSR_ERR_OPTIONS;
  }
  if (out->n)
    qsort(out->rules, out->n, sizeof *out->rules, cmp_rule);
  for (size_t i = 0; i < out->n; i++)
    out->rules[i].is_barrier = strncmp(out->rules[i].name, "barrier-", 8) == 0;
  return GSR_OK;
}

/* Returns the rule "KIND-NAME" (or "KIND" when name is NULL), or NULL. */
const gsri_rule *gsri_rules_find(const gsri_ruleset *set, const char *kind,
                                 const char *name) {
  size_t kl = strlen(kind);
  for (size_t i = 0; i < set->n; i++) {
    const char *n = set->rules[i].name;
    if (strncmp(n, kind, kl) != 0)
      continue;
    if (!name ? n[kl] == '\0' : n[kl] == '-' && strcmp(n + kl + 1, name) == 0)
      return &set->rules[i];
  }
  return NULL;
}

/* Frees every rule of the set. */
void gsri_rules_free(gsri_ruleset *set) {
  for (size_t i = 0; i < set->n; i++)
    gsri_rule_free(&set->rules[i]);
  free(set->rules);
  memset(set, 0, sizeof *set);
}
