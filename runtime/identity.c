/* Which output the constraints belong to: "fingerprint" and
 * "state_layout", checked against the file's own numbers when it is
 * loaded and against a program's source before a kernel's state is
 * made. */
#include "internal.h"

#include "gsync-state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Identity: which output the constraints belong to ----
 *
 * gsync-rewrite writes two strings into the output, as macros, and into
 * the constraints (docs/constraints.md, "Fingerprint"): "fingerprint", a
 * hash of the whole output and of the constraints, and "state_layout",
 * the rules, the state table and every size and offset of the state
 * buffer. The layout is checked against each kernel's numbers and the
 * table this library was built with when the file is loaded; both strings
 * against the program's source, and the fingerprint taken again from the
 * source and the constraints, before a state buffer is made for one of
 * its kernels.
 */

/* The state layout a "state_layout" string declares. */
typedef struct state_layout {
  size_t fixed, per_group, participants, grid, abort_at, record;
  size_t poll_cap; /* SIZE_MAX: the discovery reads no poll cap */
  char barrier[64], discovery[64], table[20];
} state_layout;

/* Matches "key=" at *s and then a value of letters, digits, '-' and '_'
 * (at most len - 1 bytes), copied into buf; advances *s past it and one
 * following space (or to the end). Returns 1 on a match. */
static int layout_word(const char **s, const char *key, char *buf, size_t len) {
  size_t kl = strlen(key), n = 0;
  const char *p = *s;
  if (strncmp(p, key, kl) != 0 || p[kl] != '=')
    return 0;
  for (p += kl + 1; (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_';
       p++) {
    if (n + 1 >= len)
      return 0;
    buf[n++] = *p;
  }
  buf[n] = '\0';
  if (n == 0 || (*p != ' ' && *p != '\0'))
    return 0;
  *s = *p == ' ' ? p + 1 : p;
  return 1;
}

/* Matches "key=N" at *s, N a decimal number of at most 9 digits. */
static int layout_number(const char **s, const char *key, size_t *out) {
  char digits[10];
  if (!layout_word(s, key, digits, sizeof digits))
    return 0;
  size_t v = 0;
  for (const char *d = digits; *d; d++) {
    if (*d < '0' || *d > '9')
      return 0;
    v = v * 10 + (size_t)(*d - '0');
  }
  *out = v;
  return 1;
}

/* The layout strings before the state table's hash: written by an older
 * gsync-rewrite, whose state words this libgsync cannot vouch for. */
static const char old_layout_head[] = "gsync-layout/1 ";

/* Parses "gsync-layout/2 barrier=B discovery=D rules=H table=T fixed=N
 * per_group=N participants=N grid=N abort=N record=N [poll_cap=N]",
 * every part in that order and nothing else. Returns 1 if s is exactly
 * that. */
static int parse_layout(const char *s, state_layout *l) {
  static const char head[] = "gsync-layout/2 ";
  char hash[20];
  if (strncmp(s, head, sizeof head - 1) != 0)
    return 0;
  s += sizeof head - 1;
  l->poll_cap = SIZE_MAX;
  return layout_word(&s, "barrier", l->barrier, sizeof l->barrier) &&
         layout_word(&s, "discovery", l->discovery, sizeof l->discovery) &&
         layout_word(&s, "rules", hash, sizeof hash) && strlen(hash) == 16 &&
         layout_word(&s, "table", l->table, sizeof l->table) &&
         strlen(l->table) == 16 && layout_number(&s, "fixed", &l->fixed) &&
         layout_number(&s, "per_group", &l->per_group) &&
         layout_number(&s, "participants", &l->participants) &&
         layout_number(&s, "grid", &l->grid) &&
         layout_number(&s, "abort", &l->abort_at) &&
         layout_number(&s, "record", &l->record) &&
         (*s == '\0' || layout_number(&s, "poll_cap", &l->poll_cap)) &&
         *s == '\0';
}

/* Returns whether s is 16 lower-case hexadecimal digits. */
static int is_fingerprint(const char *s) {
  size_t n = 0;
  for (; (s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'); n++)
    ;
  return n == 16 && s[n] == '\0';
}

/* Checks one kernel's state numbers against the declared layout. Returns
 * GSYNC_OK or GSYNC_ERR_FORMAT naming the first field that differs. */
static gsync_status check_kernel_layout(const where *w, size_t index,
                                        const kernel_info *k,
                                        const state_layout *l) {
  const struct {
    const char *field;
    size_t have, want;
  } f[] = {
      {"bytes.fixed", k->fixed_bytes, l->fixed},
      {"bytes.per_group", k->per_group_bytes, l->per_group},
      {"participants_offset", k->participants_offset, l->participants},
      {"grid_offset", k->has_grid ? k->grid_offset : SIZE_MAX, l->grid},
      {"abort_offset", k->has_abort_record ? k->abort_offset : SIZE_MAX,
       l->abort_at},
      {"abort record's size (spin_limit_ms)",
       k->has_abort_record ? k->abort_bytes : SIZE_MAX, l->record},
      {"poll_cap_offset", k->has_poll_cap ? k->poll_cap_offset : SIZE_MAX,
       l->poll_cap},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    char have[32] = "missing";
    if (f[i].have == f[i].want)
      continue;
    if (f[i].have != SIZE_MAX)
      snprintf(have, sizeof have, "%zu", f[i].have);
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"kernels[%zu].state_arg.%s\" is %s, but "
                     "\"state_layout\" says %zu: the file was edited, or mixed "
                     "from two rewrites",
                     w->file, index, f[i].field, have, f[i].want);
  }
  return GSYNC_OK;
}

/* Reads "fingerprint" and "state_layout" (needed where a kernel takes the
 * state; one without the other is refused) and checks every kernel's
 * state numbers, and the barrier and discovery named, against the
 * layout, and the layout's state table against this library's. Keeps the
 * constraints' compact form for the fingerprint. Returns GSYNC_OK,
 * GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
gsync_status gsli_load_identity(const where *w, json_object *root,
                                gsync_program *p) {
  json_object *fp, *lay;
  gsync_status st;
  state_layout l;
  for (size_t i = 0; i < p->n_kernels; i++)
    p->any_barrier |= p->kernels[i].global_barrier;
  if ((st = gsli_get_field(w, root, "fingerprint", json_type_string, 1, &fp)) ||
      (st = gsli_get_field(w, root, "state_layout", json_type_string, 1, &lay)))
    return st;
  if ((fp == NULL) != (lay == NULL))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s\" is missing", w->file,
                     fp == NULL ? "fingerprint" : "state_layout");
  if (fp == NULL && !p->any_barrier)
    return GSYNC_OK;
  if (fp == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: the constraints have no \"fingerprint\" and no "
                     "\"state_layout\" (an older gsync-rewrite wrote them, "
                     "or they were cut): nothing ties them to an output. "
                     "Rewrite the kernel again with this version and use its "
                     "output and constraints",
                     w->file);
  if (!is_fingerprint(json_object_get_string(fp)))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"fingerprint\" is not 16 hexadecimal digits",
                     w->file);
  const char *layout = json_object_get_string(lay);
  if (strncmp(layout, old_layout_head, sizeof old_layout_head - 1) == 0)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: an older gsync-rewrite wrote these constraints "
                     "(\"state_layout\" is gsync-layout/1, without the state "
                     "table's hash): rewrite the kernel again with this "
                     "version and use its output and constraints",
                     w->file);
  if (!parse_layout(layout, &l))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"state_layout\" is not of the form "
                     "\"gsync-layout/2 barrier=... record=N [poll_cap=N]\"",
                     w->file);
  if ((st = gsli_get_count(w, root, "output_bytes", 0, INT64_MAX,
                           &p->output_bytes)) != GSYNC_OK)
    return st;
  char own[20];
  snprintf(own, sizeof own, "%016llx",
           (unsigned long long)gsync_state_table_hash());
  if (strcmp(l.table, own) != 0)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: the output was written for state table %s, this "
                     "libgsync was built with table %s: use a gsync-rewrite "
                     "and a libgsync of one version",
                     w->file, l.table, own);
  if (strcmp(l.barrier, p->barrier) != 0 ||
      (strcmp(l.discovery, "none") != 0) != p->discovery)
    return gsli_fail(
        w->err, w->errlen, GSYNC_ERR_FORMAT,
        "%s: fields \"barrier\" and \"discovery\" (%s, %s) differ from "
        "\"state_layout\" (barrier %s, discovery %s)",
        w->file, p->barrier, p->discovery ? "true" : "false", l.barrier,
        l.discovery);
  for (size_t i = 0; i < p->n_kernels; i++)
    if (p->kernels[i].global_barrier &&
        (st = check_kernel_layout(w, i, &p->kernels[i], &l)) != GSYNC_OK)
      return st;
  p->fingerprint = gsli_dup_string(json_object_get_string(fp));
  p->layout = gsli_dup_string(json_object_get_string(lay));
  /* The compact form with the placeholder in place of the fingerprint,
   * which is then put back where it was. */
  if (p->fingerprint != NULL) {
    json_object_object_add(
        root, "fingerprint",
        json_object_new_string(GSYNC_FINGERPRINT_PLACEHOLDER));
    const char *canon = json_object_to_json_string_ext(
        root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    p->canon = canon != NULL ? gsli_dup_string(canon) : NULL;
    json_object_object_add(root, "fingerprint",
                           json_object_new_string(p->fingerprint));
  }
  if (p->fingerprint == NULL || p->layout == NULL || p->canon == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  return GSYNC_OK;
}

/* Finds the lines '#define NAME "VALUE"' of the source (each at the start
 * of a line, as gsync-rewrite writes them). Copies the first VALUE into
 * buf (of len bytes; a longer one is taken as absent), sets *at (if not
 * NULL) to its offset in src, and returns how many such lines there
 * are. */
static size_t find_define(const char *src, size_t n, const char *name,
                          char *buf, size_t len, size_t *at) {
  char head[64];
  size_t count = 0;
  int hl = snprintf(head, sizeof head, "#define %s \"", name);
  if (hl < 0 || (size_t)hl >= sizeof head)
    return 0;
  for (size_t i = 0; i + (size_t)hl <= n; i++) {
    if ((i > 0 && src[i - 1] != '\n') || memcmp(src + i, head, (size_t)hl))
      continue;
    const char *v = src + i + hl, *end = v;
    while (end < src + n && *end != '"' && *end != '\n')
      end++;
    if (end == src + n || *end != '"')
      continue;
    if (count++ == 0) {
      size_t vl = (size_t)(end - v);
      if (at != NULL)
        *at = (size_t)(v - src);
      if (vl >= len)
        vl = 0;
      memcpy(buf, v, vl);
      buf[vl] = '\0';
    }
  }
  return count;
}

/* Checks that source holds the identity the constraints record (see the
 * top of this section). Returns GSYNC_OK or GSYNC_ERR_MISMATCH. */
static gsync_status check_identity(const gsync_program *p, const char *src,
                                   size_t n, char *err, size_t errlen) {
  char fp[32] = "", layout[256] = "";
  size_t at = 0;
  size_t nfp = find_define(src, n, "gsync_fingerprint", fp, sizeof fp, &at);
  size_t nlay =
      find_define(src, n, "gsync_state_layout", layout, sizeof layout, NULL);
  if (nfp > 1 || nlay > 1)
    return gsli_fail(
        err, errlen, GSYNC_ERR_MISMATCH,
        "%s: the program's source holds %zu gsync_fingerprint lines: "
        "it joins the outputs of several rewrites",
        p->path, nfp > nlay ? nfp : nlay);
  if (nfp == 0) {
    /* A file with no global_barrier() passes through with no identity:
     * only constraints with a state argument need one. */
    if (p->fingerprint == NULL || !p->any_barrier)
      return GSYNC_OK;
    return gsli_fail(
        err, errlen, GSYNC_ERR_MISMATCH,
        "%s: the program's source has no gsync_fingerprint line, but "
        "these constraints belong to output %s: build the program "
        "from the output written with them",
        p->path, p->fingerprint);
  }
  if (p->fingerprint == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "%s: the constraints have no fingerprint (an older "
                     "gsync-rewrite wrote them), but the program's source is "
                     "output %s: use the constraints written with it",
                     p->path, fp);
  if (strcmp(fp, p->fingerprint) != 0)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "%s: the constraints belong to output %s, but the program "
                     "was built from output %s: use the output and the "
                     "constraints of one rewrite",
                     p->path, p->fingerprint, fp);
  if (nlay == 0 || strcmp(layout, p->layout) != 0)
    return gsli_fail(
        err, errlen, GSYNC_ERR_MISMATCH,
        "%s: the program's source declares state layout \"%s\", the "
        "constraints \"%s\": one of them was edited",
        p->path, layout, p->layout);
  /* The output is the source's first output_bytes bytes (what follows is
   * not the output's); a source that ends before that, or whose
   * fingerprint line lies past it, does not begin with the output. */
  if (n < p->output_bytes || at >= p->output_bytes)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "%s: the program's source (%zu bytes) does not begin "
                     "with the %zu-byte output the constraints were written "
                     "with: build the program from that output, as written",
                     p->path, n, p->output_bytes);
  char again[17];
  snprintf(again, sizeof again, "%016llx",
           (unsigned long long)gsync_fingerprint(src, p->output_bytes, at,
                                                 p->canon));
  if (strcmp(again, p->fingerprint) != 0)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "%s: the output and the constraints no longer hold what "
                     "their fingerprint %s was taken of (it is now %s): the "
                     "program's source or a field of the constraints "
                     "(\"build\", an offset, a kernel) was changed after "
                     "gsync-rewrite wrote them. Rewrite the kernel again and "
                     "use its output and constraints as written",
                     p->path, p->fingerprint, again);
  return GSYNC_OK;
}

/* Checks the source of the program that kernel belongs to, when the
 * program has one (a program made from binaries has none to check).
 * Returns GSYNC_OK, GSYNC_ERR_MISMATCH, or GSYNC_ERR_OPENCL/NOMEM. */
gsync_status gsli_check_kernel_program(const gsync_program *p, cl_kernel kernel,
                                       char *err, size_t errlen) {
  cl_program prog = NULL;
  size_t size = 0;
  cl_int rc =
      clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_PROGRAM)", rc);
  rc = clGetProgramInfo(prog, CL_PROGRAM_SOURCE, 0, NULL, &size);
  if (rc != CL_SUCCESS || size <= 1)
    return GSYNC_OK;
  char *src = malloc(size);
  if (src == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  rc = clGetProgramInfo(prog, CL_PROGRAM_SOURCE, size, src, NULL);
  gsync_status st =
      rc != CL_SUCCESS
          ? gsli_cl_fail(err, errlen, "clGetProgramInfo(CL_PROGRAM_SOURCE)", rc)
          : check_identity(p, src, strnlen(src, size), err, errlen);
  free(src);
  return st;
}

/* Checks a source against the constraints; see libgsync.h. */
gsync_status gsync_program_check_source(const gsync_program *program,
                                        const char *source, size_t length,
                                        char *err, size_t errlen) {
  if (program == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_check_source",
                              "program");
  if (source == NULL && length > 0)
    return gsli_null_argument(err, errlen, "gsync_program_check_source",
                              "source");
  return check_identity(program, source != NULL ? source : "", length, err,
                        errlen);
}
