/* Rules: the OpenCL C files that implement barriers and discovery.
 *
 * They are data. The built-in ones are embedded at build time (see
 * cmake/embed-rules.cmake); a rules directory given by the user adds rules
 * or replaces built-in ones of the same name, for rule development. A
 * rule's metadata sits in its header comment as "@key value" lines:
 *   @summary            one line for --list-barriers
 *   @opencl-c           the lowest OpenCL C version it builds with
 *   @extension          an OpenCL extension it needs (repeatable)
 *   @atomic-capability  a CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES bit it needs
 *   @state-fixed        bytes of state it needs besides the shared header
 *   @state-per-group    bytes of state per launched work-group
 * File names: prelude.cl, barrier-NAME.cl, discovery-NAME.cl.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends s to a malloc'd string array. Returns 0 on failure. */
static int push_str(char ***arr, size_t *n, const char *s, size_t len) {
  char **p = realloc(*arr, (*n + 1) * sizeof *p);
  if (!p)
    return 0;
  *arr = p;
  p[*n] = gsr_strndup(s, len);
  if (!p[*n])
    return 0;
  (*n)++;
  return 1;
}

/* Parses an unsigned decimal number; returns 0 if s is not one. */
static int parse_uint(const char *s, size_t len, unsigned *out) {
  unsigned long v = 0;
  if (len == 0 || len > 9)
    return 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return 0;
    v = v * 10 + (unsigned long)(s[i] - '0');
  }
  *out = (unsigned)v;
  return 1;
}

/* Reads the @key value lines of the rule's first comment. Returns 0 and
 * reports if a line is malformed. */
static int parse_metadata(gsr_ctx *ctx, gsr_rule *r) {
  const char *end = strstr(r->text, "*/");
  if (strncmp(r->text, "/*", 2) != 0 || !end) {
    gsr_report_at(ctx, GSR_ERROR, r->file, 1, 1,
                  "a rule file must open with a header comment");
    return 0;
  }
  const char *p = r->text;
  unsigned line = 1;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
      eol = end;
    const char *at = memchr(p, '@', (size_t)(eol - p));
    if (at) {
      const char *k = at + 1, *ke = k;
      while (ke < eol && *ke != ' ' && *ke != '\t')
        ke++;
      const char *v = ke;
      while (v < eol && (*v == ' ' || *v == '\t'))
        v++;
      const char *ve = eol;
      while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r'))
        ve--;
      size_t kl = (size_t)(ke - k), vl = (size_t)(ve - v);
      int ok = 1;
      if (kl == 7 && !memcmp(k, "summary", 7))
        ok = (r->summary = gsr_strndup(v, vl)) != NULL;
      else if (kl == 8 && !memcmp(k, "opencl-c", 8))
        ok = (r->opencl_c = gsr_strndup(v, vl)) != NULL;
      else if (kl == 9 && !memcmp(k, "extension", 9))
        ok = push_str(&r->extensions, &r->n_extensions, v, vl);
      else if (kl == 17 && !memcmp(k, "atomic-capability", 17))
        ok = push_str(&r->capabilities, &r->n_capabilities, v, vl);
      else if (kl == 11 && !memcmp(k, "state-fixed", 11))
        ok = parse_uint(v, vl, &r->state_fixed);
      else if (kl == 15 && !memcmp(k, "state-per-group", 15))
        ok = parse_uint(v, vl, &r->state_per_group);
      else {
        gsr_report_at(ctx, GSR_ERROR, r->file, line,
                      (unsigned)(at - p) + 1, "unknown rule key '@%.*s'",
                      (int)kl, k);
        return 0;
      }
      if (!ok) {
        gsr_report_at(ctx, GSR_ERROR, r->file, line,
                      (unsigned)(at - p) + 1, "bad value for '@%.*s'",
                      (int)kl, k);
        return 0;
      }
    }
    p = eol + 1;
    line++;
  }
  if (!r->summary)
    r->summary = gsr_strdup("");
  if (!r->opencl_c)
    r->opencl_c = gsr_strdup("1.2");
  return 1;
}

/* Frees one rule's fields. */
static void rule_free(gsr_rule *r) {
  free(r->name);
  free(r->file);
  free(r->text);
  free(r->summary);
  free(r->opencl_c);
  for (size_t i = 0; i < r->n_extensions; i++)
    free(r->extensions[i]);
  free(r->extensions);
  for (size_t i = 0; i < r->n_capabilities; i++)
    free(r->capabilities[i]);
  free(r->capabilities);
  memset(r, 0, sizeof *r);
}

/* Adds (or replaces) the rule named by file stem with the given text.
 * Takes ownership of text. Returns 0 on failure (reported). */
static int add_rule(gsr_ctx *ctx, gsr_ruleset *set, const char *stem,
                    const char *file, int from_dir, char *text, size_t len) {
  gsr_rule r;
  memset(&r, 0, sizeof r);
  r.from_dir = from_dir;
  r.name = gsr_strdup(stem);
  r.file = gsr_strdup(file);
  r.text = text;
  r.len = len;
  if (!r.name || !r.file || !text || !parse_metadata(ctx, &r)) {
    rule_free(&r);
    return 0;
  }
  for (size_t i = 0; i < set->n; i++)
    if (strcmp(set->rules[i].name, r.name) == 0) {
      rule_free(&set->rules[i]);
      set->rules[i] = r;
      return 1;
    }
  gsr_rule *p = realloc(set->rules, (set->n + 1) * sizeof *p);
  if (!p) {
    rule_free(&r);
    return 0;
  }
  set->rules = p;
  set->rules[set->n++] = r;
  return 1;
}

/* Reads a whole file into a malloc'd NUL-terminated buffer. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  gsr_buf b = {0};
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    gsr_buf_append(&b, chunk, n);
  int err = ferror(f);
  fclose(f);
  if (err) {
    gsr_buf_free(&b);
    return NULL;
  }
  *len = b.len;
  return gsr_buf_take(&b);
}

/* Compares two rules by name, for sorting. */
static int cmp_rule(const void *a, const void *b) {
  return strcmp(((const gsr_rule *)a)->name, ((const gsr_rule *)b)->name);
}

/* Loads the built-in rules, then those of rules_dir (may be NULL). */
gsr_status gsr_rules_load(gsr_ctx *ctx, const char *rules_dir,
                          gsr_ruleset *out) {
  memset(out, 0, sizeof *out);
  for (const gsr_embedded_rule *e = gsr_embedded_rules; e->name; e++) {
    gsr_buf file = {0};
    gsr_buf_printf(&file, "<built-in>/%s.cl", e->name);
    int ok = add_rule(ctx, out, e->name, file.data ? file.data : "", 0,
                      gsr_strndup(e->text, e->len), e->len);
    gsr_buf_free(&file);
    if (!ok)
      return GSR_ERR_OPTIONS;
  }
  if (rules_dir) {
    DIR *d = opendir(rules_dir);
    if (!d) {
      gsr_report(ctx, GSR_ERROR, 0, 0, "cannot open rules directory '%s': %s",
                 rules_dir, strerror(errno));
      return GSR_ERR_OPTIONS;
    }
    struct dirent *de;
    int ok = 1;
    while (ok && (de = readdir(d)) != NULL) {
      size_t nl = strlen(de->d_name);
      if (nl < 4 || strcmp(de->d_name + nl - 3, ".cl") != 0)
        continue;
      gsr_buf path = {0};
      gsr_buf_printf(&path, "%s/%s", rules_dir, de->d_name);
      size_t len = 0;
      char *text = path.data ? read_file(path.data, &len) : NULL;
      char *stem = gsr_strndup(de->d_name, nl - 3);
      if (!text) {
        gsr_report(ctx, GSR_ERROR, 0, 0, "cannot read rule file '%s'",
                   path.data ? path.data : de->d_name);
        ok = 0;
      } else {
        ok = stem && add_rule(ctx, out, stem, path.data, 1, text, len);
      }
      free(stem);
      gsr_buf_free(&path);
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
const gsr_rule *gsr_rules_find(const gsr_ruleset *set, const char *kind,
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
void gsr_rules_free(gsr_ruleset *set) {
  for (size_t i = 0; i < set->n; i++)
    rule_free(&set->rules[i]);
  free(set->rules);
  memset(set, 0, sizeof *set);
}
