/* Rule headers: the "@key value" lines of a rule file's first comment,
 * checked and read into a gsri_rule (the keys are listed in rules.c).
 * Apart from rules.c because it needs no gsri_ctx: the build runs the same
 * check over the built-in rules (check-rules.c), so that a malformed
 * built-in rule fails the build at its file, line and column instead of
 * every run of the tool. */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Appends s to a malloc'd string array. Returns 0 on failure. */
static int push_str(char ***arr, size_t *n, const char *s, size_t len) {
  char **p = realloc(*arr, (*n + 1) * sizeof *p);
  if (!p)
    return 0;
  *arr = p;
  p[*n] = gsri_strndup(s, len);
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

/* Parses an unsigned decimal number from 1 to 4294967295 (a launch's
 * work-groups are counted in 32-bit words); returns 0 if s is not one. */
static int parse_count(const char *s, size_t len, unsigned long *out) {
  unsigned long long v = 0;
  if (len == 0 || len > 10)
    return 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9')
      return 0;
    v = v * 10 + (unsigned long long)(s[i] - '0');
  }
  if (v == 0 || v > 0xffffffffull)
    return 0;
  *out = (unsigned long)v;
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
  gsri_buf msg = {0};
  va_list ap;
  va_start(ap, fmt);
  gsri_buf_vprintf(&msg, fmt, ap);
  va_end(ap);
  gsr_diagnostic d = {GSR_ERROR, file, line, col,
                      msg.data ? msg.data : "out of memory"};
  if (diag)
    diag(user, &d);
  gsri_buf_free(&msg);
}

static const char *const opencl_c_versions[] = {"1.0", "1.1", "1.2",
                                                "2.0", "3.0", NULL};
static const char *const atomic_capabilities[] = {
    "relaxed",          "acq_rel",      "seq_cst",           "work_item_scope",
    "work_group_scope", "device_scope", "all_devices_scope", NULL};

/* Checks one "@key value" line's value (the len bytes at v) and stores it
 * in r. Returns NULL when it is good, else what is wrong with it (or
 * "out of memory"). */
static const char nomem[] = "out of memory";

static const char *take_value(gsri_rule *r, const char *key, const char *v,
                              size_t vl) {
  size_t ctl = control_at(v, vl);
  if (ctl < vl)
    return "holds a control character";
  if (!strcmp(key, "summary")) {
    if (r->summary)
      return "is given twice";
    if (vl > GSR_RULE_SUMMARY_MAX)
      return "is longer than " GSR_STR(GSR_RULE_SUMMARY_MAX) " bytes";
    return (r->summary = gsri_strndup(v, vl)) ? NULL : nomem;
  }
  if (!strcmp(key, "runs-on")) {
    if (r->runs_on)
      return "is given twice";
    if (vl == 0)
      return "needs a value: the devices the rule is correct on";
    if (vl > GSR_RULE_SUMMARY_MAX)
      return "is longer than " GSR_STR(GSR_RULE_SUMMARY_MAX) " bytes";
    return (r->runs_on = gsri_strndup(v, vl)) ? NULL : nomem;
  }
  if (!strcmp(key, "opencl-c")) {
    if (r->opencl_c)
      return "is given twice";
    if (!one_of(v, vl, opencl_c_versions))
      return "must be one of 1.0, 1.1, 1.2, 2.0 and 3.0";
    return (r->opencl_c = gsri_strndup(v, vl)) ? NULL : nomem;
  }
  if (!strcmp(key, "extension")) {
    if (!is_word(v, vl, "_"))
      return "must be an extension's name: letters, digits and '_'";
    return push_str(&r->extensions, &r->n_extensions, v, vl) ? NULL : nomem;
  }
  if (!strcmp(key, "atomic-capability")) {
    if (!one_of(v, vl, atomic_capabilities))
      return "must be one of relaxed, acq_rel, seq_cst, work_item_scope, "
             "work_group_scope, device_scope and all_devices_scope";
    return push_str(&r->capabilities, &r->n_capabilities, v, vl) ? NULL : nomem;
  }
  if (!strcmp(key, "state-fixed")) {
    if (r->has_state_fixed++)
      return "is given twice";
    if (!parse_uint(v, vl, &r->state_fixed) ||
        r->state_fixed > GSR_RULE_STATE_FIXED_MAX || r->state_fixed % 4)
      return "must be a number of bytes that is a multiple of 4, at "
             "most " GSR_STR(GSR_RULE_STATE_FIXED_MAX);
    return NULL;
  }
  if (!strcmp(key, "poll-cap")) {
    if (r->poll_cap++)
      return "is given twice";
    if (!strncmp(r->name, "barrier-", 8))
      return "belongs in a discovery rule, not a barrier";
    return vl ? "takes no value" : NULL;
  }
  if (!strcmp(key, "split")) {
    if (r->splits++)
      return "is given twice";
    if (strncmp(r->name, "barrier-", 8))
      return "belongs in a barrier rule, not a discovery";
    return vl ? "takes no value" : NULL;
  }
  if (!strcmp(key, "max-groups")) {
    if (r->max_groups)
      return "is given twice";
    if (!parse_count(v, vl, &r->max_groups))
      return "must be a number of work-groups from 1 to 4294967295";
    return NULL;
  }
  if (!strcmp(key, "state-per-group")) {
    if (r->has_state_per_group++)
      return "is given twice";
    if (!parse_uint(v, vl, &r->state_per_group) ||
        r->state_per_group > GSR_RULE_STATE_PER_GROUP_MAX)
      return "must be a number of bytes, at most " GSR_STR(
          GSR_RULE_STATE_PER_GROUP_MAX);
    return NULL;
  }
  return "";
}

/* Nonzero if c can be part of an identifier. */
static int ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

/* Skips blanks, comments and preprocessor lines from p; counts lines. */
static const char *skip_space(const char *p, const char *end, unsigned *line,
                              const char **bol) {
  int at_bol = p == *bol;
  while (p < end) {
    if (*p == '\n') {
      ++*line;
      *bol = ++p;
      at_bol = 1;
    } else if (*p == ' ' || *p == '\t' || *p == '\r') {
      p++;
    } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
      for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
        if (*p == '\n') {
          ++*line;
          *bol = p + 1;
        }
      p = p + 2 <= end ? p + 2 : end;
    } else if ((p + 1 < end && p[0] == '/' && p[1] == '/') ||
               (at_bol && *p == '#')) {
      while (p < end && !(*p == '\n' && p[-1] != '\\'))
        p++; /* to the end of the line, continuations included */
    } else {
      break;
    }
  }
  return p;
}

/* Checks that every work-group barrier the rule's code calls (barrier(),
 * work_group_barrier()) is followed by gsync_anchor(c); as its next
 * statement: without it PoCL's kernel compiler can run a branch that only
 * some work-items take as work-item 0 takes it (prelude.cl, gsync_anchor).
 * Comments and preprocessor lines are skipped; a call is found by its
 * name, the one after it by its first word. Returns 0 after reporting. */
static int check_anchors(const gsri_rule *r, gsr_diag_fn diag, void *user) {
  const char *p = r->text, *end = r->text + r->len, *bol = p;
  unsigned line = 1;
  while ((p = skip_space(p, end, &line, &bol)) < end) {
    if (!ident_char(*p)) {
      p++;
      continue;
    }
    const char *w = p;
    while (p < end && ident_char(*p))
      p++;
    size_t len = (size_t)(p - w);
    if (!((len == 7 && memcmp(w, "barrier", 7) == 0) ||
          (len == 18 && memcmp(w, "work_group_barrier", 18) == 0)))
      continue;
    unsigned at_line = line, at_col = (unsigned)(w - bol) + 1;
    const char *q = skip_space(p, end, &line, &bol);
    if (q >= end || *q != '(')
      continue; /* the word alone, not a call */
    int depth = 0;
    for (; q < end; q++) {
      if (*q == '\n') {
        line++;
        bol = q + 1;
      }
      depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
      if (depth == 0)
        break;
    }
    q = skip_space(q + 1 < end ? q + 1 : end, end, &line, &bol);
    if (q < end && *q == ';')
      q = skip_space(q + 1, end, &line, &bol);
    if ((size_t)(end - q) < 12 || memcmp(q, "gsync_anchor", 12) != 0 ||
        (q + 12 < end && ident_char(q[12]))) {
      rule_error(diag, user, r->file, at_line, at_col,
                 "a work-group barrier in a rule must be followed by "
                 "'gsync_anchor(c);' (prelude.cl says why)");
      return 0;
    }
    p = q;
  }
  return 1;
}

/* The line and column (1-based) of p in the rule's text. */
static void rule_position(const gsri_rule *r, const char *p, unsigned *line,
                          unsigned *col) {
  *line = 1;
  *col = 1;
  for (const char *q = r->text; q < p; q++) {
    if (*q == '\n')
      ++*line, *col = 1;
    else
      ++*col;
  }
}

/* Where the rule defines void NAME( at the start of a line, or NULL
 * (compared in place: a check that allocated could be skipped). */
static const char *definition_of(const gsri_rule *r, const char *name) {
  size_t nl = strlen(name);
  const char *end = r->text + r->len;
  for (const char *p = r->text; (size_t)(end - p) >= nl + 6; p++)
    if ((p == r->text || p[-1] == '\n') && memcmp(p, "void ", 5) == 0 &&
        memcmp(p + 5, name, nl) == 0 && p[5 + nl] == '(')
      return p;
  return NULL;
}

/* Checks that a barrier rule whose header says @split defines both halves
 * of the barrier, gsync_barrier_arrive() and gsync_barrier_wait(), and
 * that one without it defines neither: the header is the one place that
 * says whether a rule splits (the tool's refusal, rules-complete.py and
 * the docs' tables read it), so the code must agree with it. Returns 0
 * after reporting. */
static int check_split(const gsri_rule *r, gsr_diag_fn diag, void *user) {
  static const char *const halves[2] = {"gsync_barrier_arrive",
                                        "gsync_barrier_wait"};
  for (int i = 0; i < 2; i++) {
    const char *def = definition_of(r, halves[i]);
    unsigned line, col;
    if (r->splits && !def) {
      const char *key = strstr(r->text, "@split");
      rule_position(r, key ? key : r->text, &line, &col);
      rule_error(diag, user, r->file, line, col,
                 "'@split' says the barrier splits, but the rule defines no "
                 "'void %s(' at the start of a line",
                 halves[i]);
      return 0;
    }
    if (!r->splits && def) {
      rule_position(r, def, &line, &col);
      rule_error(diag, user, r->file, line, col,
                 "the rule defines %s() but its header has no '@split'",
                 halves[i]);
      return 0;
    }
  }
  return 1;
}

/* Nonzero if the len bytes at s start with the reserved prefix gsync_ in
 * any case: the tool's own names, and the rules' tunables (GSYNC_). */
int gsri_reserved_name(const char *s, size_t len) {
  size_t k = strlen(GSR_PREFIX);
  if (len < k)
    return 0;
  for (size_t i = 0; i < k; i++) {
    char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
    if (c != GSR_PREFIX[i])
      return 0;
  }
  return 1;
}

/* Checks that every macro the rule gives a default with #ifndef (a
 * tunable: GSYNC_TREE_LEAF) has the prefix gsync_ (in any case), which the
 * tool refuses in -D and -U and libgsync in a constraints file's build
 * options: a tunable of another name could be set through them, and a
 * rule reconfigured so could use more state than the constraints give
 * it. Returns 0 after reporting. */
static int check_tunables(const gsri_rule *r, gsr_diag_fn diag, void *user) {
  const char *p = r->text, *end = r->text + r->len;
  for (unsigned line = 1; p < end; line++) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (eol == NULL)
      eol = end;
    const char *q = p + strspn(p, " \t");
    if (q < eol && *q == '#') {
      q++;
      q += strspn(q, " \t");
      if ((size_t)(eol - q) > 6 && memcmp(q, "ifndef", 6) == 0 &&
          (q[6] == ' ' || q[6] == '\t')) {
        q += 6 + strspn(q + 6, " \t");
        const char *name = q;
        while (q < eol && ident_char(*q))
          q++;
        size_t n = (size_t)(q - name);
        if (n > 0 && !gsri_reserved_name(name, n)) {
          rule_error(diag, user, r->file, line, (unsigned)(name - p) + 1,
                     "the tunable '%.*s' needs the prefix '%s' (in any "
                     "case), which -D and -U may not name: a build through "
                     "the constraints could set it otherwise",
                     (int)n, name, GSR_PREFIX);
          return 0;
        }
      }
    }
    p = eol + 1;
  }
  return 1;
}

/* Reads and checks the name and header of a rule file into r (whose
 * name, file, text and len are set): the name of letters, digits, '-'
 * and '_'; no NUL byte; a first comment whose "@key value" lines know
 * their keys, give each single key once and have values of the right
 * form. Reports through diag at file:line:col and returns 0 on the
 * first problem; returns -1, reporting nothing, when out of memory (the
 * caller's failure policy decides what that is); 1 when good. Needs no
 * gsri_ctx, so that a check of the built-in rules at build time can call it
 * too. */
int gsri_rule_parse_header(gsri_rule *r, gsr_diag_fn diag, void *user) {
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
      const char *why =
          kl < sizeof key ? take_value(r, key, v, (size_t)(ve - v)) : "";
      if (why && !*why) {
        size_t shown = control_at(k, kl) < 40 ? control_at(k, kl) : 40;
        rule_error(diag, user, r->file, line, col, "unknown rule key '@%.*s'",
                   (int)shown, k);
        return 0;
      }
      if (why == nomem)
        return -1;
      if (why) {
        rule_error(diag, user, r->file, line, col, "'@%s' %s", key, why);
        return 0;
      }
    }
    p = eol + 1;
    line++;
  }
  if (!check_anchors(r, diag, user) || !check_tunables(r, diag, user) ||
      !check_split(r, diag, user))
    return 0;
  if (!r->summary)
    r->summary = gsri_strdup("");
  if (!r->opencl_c)
    r->opencl_c = gsri_strdup("1.2");
  if (!r->summary || !r->opencl_c)
    return -1;
  return 1;
}

/* Frees one rule's fields. */
void gsri_rule_free(gsri_rule *r) {
  free(r->name);
  free(r->file);
  free(r->text);
  free(r->summary);
  free(r->runs_on);
  free(r->opencl_c);
  for (size_t i = 0; i < r->n_extensions; i++)
    free(r->extensions[i]);
  free(r->extensions);
  for (size_t i = 0; i < r->n_capabilities; i++)
    free(r->capabilities[i]);
  free(r->capabilities);
  memset(r, 0, sizeof *r);
}
