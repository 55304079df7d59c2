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
 * File names: prelude.cl, barrier-NAME.cl, discovery-NAME.cl. Headers are
 * checked as they are read (gsr_rule_parse_header), so that a rule from
 * --rules-dir that libgsync or a terminal would trip over is refused with
 * its file, line and column.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Parses an unsigned decimal number of at most 9 digits; returns 0 if s
 * is not one. */
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

/* Nonzero if the len bytes at s are one of the strings of the NULL-ended
 * list. */
static int one_of(const char *s, size_t len, const char *const *list) {
  for (; *list; list++)
    if (strlen(*list) == len && memcmp(*list, s, len) == 0)
      return 1;
  return 0;
}

/* Nonzero if the len bytes at s are letters, digits and the characters
 * of extra, at least one. */
static int is_word(const char *s, size_t len, const char *extra) {
  if (len == 0)
    return 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || (c && strchr(extra, c))))
      return 0;
  }
  return 1;
}

/* The offset of the first control character (other than tab) in the len
 * bytes at s, or len if there is none. */
static size_t control_at(const char *s, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
      return i;
  return len;
}

/* Reports a problem with a rule file at line:col through the callback. */
static void rule_error(gsr_diag_fn diag, void *user, const char *file,
                       unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void rule_error(gsr_diag_fn diag, void *user, const char *file,
                       unsigned line, unsigned col, const char *fmt, ...) {
  gsr_buf msg = {0};
  va_list ap;
  va_start(ap, fmt);
  gsr_buf_vprintf(&msg, fmt, ap);
  va_end(ap);
  gsr_diagnostic d = {GSR_ERROR, file, line, col,
                      msg.data ? msg.data : "out of memory"};
  if (diag)
    diag(user, &d);
  gsr_buf_free(&msg);
}

static const char *const opencl_c_versions[] = {"1.0", "1.1", "1.2", "2.0",
                                                "3.0", NULL};
static const char *const atomic_capabilities[] = {
    "relaxed",          "acq_rel",      "seq_cst",           "work_item_scope",
    "work_group_scope", "device_scope", "all_devices_scope", NULL};

/* Checks one "@key value" line's value (the len bytes at v) and stores it
 * in r. Returns NULL when it is good, else what is wrong with it (or
 * "out of memory"). */
static const char *take_value(gsr_rule *r, const char *key, const char *v,
                              size_t vl) {
  size_t ctl = control_at(v, vl);
  if (ctl < vl)
    return "holds a control character";
  if (!strcmp(key, "summary")) {
    if (r->summary)
      return "is given twice";
    if (vl > GSR_RULE_SUMMARY_MAX)
      return "is longer than " GSR_STR(GSR_RULE_SUMMARY_MAX) " bytes";
    return (r->summary = gsr_strndup(v, vl)) ? NULL : "out of memory";
  }
  if (!strcmp(key, "opencl-c")) {
    if (r->opencl_c)
      return "is given twice";
    if (!one_of(v, vl, opencl_c_versions))
      return "must be one of 1.0, 1.1, 1.2, 2.0 and 3.0";
    return (r->opencl_c = gsr_strndup(v, vl)) ? NULL : "out of memory";
  }
  if (!strcmp(key, "extension")) {
    if (!is_word(v, vl, "_"))
      return "must be an extension's name: letters, digits and '_'";
    return push_str(&r->extensions, &r->n_extensions, v, vl)
               ? NULL
               : "out of memory";
  }
  if (!strcmp(key, "atomic-capability")) {
    if (!one_of(v, vl, atomic_capabilities))
      return "must be one of relaxed, acq_rel, seq_cst, work_item_scope, "
             "work_group_scope, device_scope and all_devices_scope";
    return push_str(&r->capabilities, &r->n_capabilities, v, vl)
               ? NULL
               : "out of memory";
  }
  if (!strcmp(key, "state-fixed")) {
    if (r->has_state_fixed++)
      return "is given twice";
    if (!parse_uint(v, vl, &r->state_fixed) ||
        r->state_fixed > GSR_RULE_STATE_FIXED_MAX || r->state_fixed % 4)
      return "must be a number of bytes that is a multiple of 4, at most "
             GSR_STR(GSR_RULE_STATE_FIXED_MAX);
    return NULL;
  }
  if (!strcmp(key, "state-per-group")) {
    if (r->has_state_per_group++)
      return "is given twice";
    if (!parse_uint(v, vl, &r->state_per_group) ||
        r->state_per_group > GSR_RULE_STATE_PER_GROUP_MAX)
      return "must be a number of bytes, at most "
             GSR_STR(GSR_RULE_STATE_PER_GROUP_MAX);
    return NULL;
  }
  return "";
}

/* Reads and checks the name and header of a rule file into r (whose
 * name, file, text and len are set): the name of letters, digits, '-'
 * and '_'; no NUL byte; a first comment whose "@key value" lines know
 * their keys, give each single key once and have values of the right
 * form. Reports through diag at file:line:col and returns 0 on the
 * first problem. Needs no gsr_ctx, so that a check of the built-in rules
 * at build time can call it too. */
int gsr_rule_parse_header(gsr_rule *r, gsr_diag_fn diag, void *user) {
  const char *nul = memchr(r->text, '\0', r->len);
  if (!is_word(r->name, strlen(r->name), "-_")) {
    rule_error(diag, user, r->file, 1, 1,
               "the rule's name '%s' (its file's name) must be letters, "
               "digits, '-' and '_'",
               r->name);
    return 0;
  }
  if (nul) {
    unsigned line = 1, col = 1;
    for (const char *p = r->text; p < nul; p++) {
      if (*p == '\n')
        line++, col = 1;
      else
        col++;
    }
    rule_error(diag, user, r->file, line, col,
               "a rule file must not hold a NUL byte");
    return 0;
  }
  const char *end = strstr(r->text, "*/");
  if (strncmp(r->text, "/*", 2) != 0 || !end) {
    rule_error(diag, user, r->file, 1, 1,
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
      char key[24] = "";
      size_t kl = (size_t)(ke - k);
      if (kl < sizeof key)
        memcpy(key, k, kl);
      unsigned col = (unsigned)(at - p) + 1;
      const char *why = kl < sizeof key
                            ? take_value(r, key, v, (size_t)(ve - v))
                            : "";
      if (why && !*why) {
        size_t shown = control_at(k, kl) < 40 ? control_at(k, kl) : 40;
        rule_error(diag, user, r->file, line, col,
                   "unknown rule key '@%.*s'", (int)shown, k);
        return 0;
      }
      if (why) {
        rule_error(diag, user, r->file, line, col, "'@%s' %s", key, why);
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
  if (!r->summary || !r->opencl_c) {
    rule_error(diag, user, r->file, 0, 0, "out of memory");
    return 0;
  }
  return 1;
}

/* Passes a diagnostic about a rule file on to the rewrite's callback. */
static void report_to_ctx(void *user, const gsr_diagnostic *d) {
  gsr_report_at(user, d->severity, d->file, d->line, d->col, "%s",
                d->message);
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
  if (!r.name || !r.file || !text ||
      !gsr_rule_parse_header(&r, report_to_ctx, ctx)) {
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

/* Reads a rule file into a malloc'd NUL-terminated buffer: only a
 * regular file of at most GSR_RULE_FILE_MAX bytes (a link to /dev/zero
 * would be read without end; opening a FIFO would wait for a writer, so it
 * is opened without waiting). Returns NULL with *why set (a static
 * string, or NULL for errno's). */
static char *read_file(const char *path, size_t *len, const char **why) {
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  struct stat st;
  *why = NULL;
  if (fd < 0)
    return NULL;
  gsr_buf b = {0};
  if (fstat(fd, &st) != 0) {
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "it is a directory"
                               : "it is not a regular file";
    close(fd);
    return NULL;
  }
  char chunk[4096];
  ssize_t n;
  while ((n = read(fd, chunk, sizeof chunk)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || b.len + (size_t)n > GSR_RULE_FILE_MAX) {
      *why = n < 0 ? NULL : "it is larger than " GSR_STR(GSR_RULE_FILE_MAX)
                            " bytes";
      close(fd);
      gsr_buf_free(&b);
      return NULL;
    }
    gsr_buf_append(&b, chunk, (size_t)n);
  }
  close(fd);
  if (b.failed) {
    gsr_buf_free(&b);
    *why = "out of memory";
    return NULL;
  }
  *len = b.len;
  if (!b.data)
    return gsr_strdup("");
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
      const char *why = "out of memory";
      char *text = path.data ? read_file(path.data, &len, &why) : NULL;
      char *stem = gsr_strndup(de->d_name, nl - 3);
      if (!text) {
        gsr_report(ctx, GSR_ERROR, 0, 0, "cannot read rule file '%s': %s",
                   path.data ? path.data : de->d_name,
                   why ? why : strerror(errno));
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
