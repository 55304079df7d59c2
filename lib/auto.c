/* --barrier=auto: one output that carries several barrier rules, each
 * under a preprocessor guard of its own, of which a build compiles exactly
 * one: libgsync defines GSYNC_BARRIER_<NAME> for the device at hand
 * (docs/auto.md). The candidates are include/gsync-auto.def's.
 *
 * The rest of the engine sees one barrier rule, "barrier-auto", made here:
 * its text is the guarded candidates, and its header values are what the
 * output as a whole needs: the highest OpenCL C version, every extension
 * and atomic capability any candidate names, the largest state (fixed and
 * per group alike, so that one buffer fits whichever is built), the
 * smallest @max-groups, and @split only if every candidate splits. The
 * constraints list each candidate's own values too ("auto", emit.c).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const candidates[] = {
#define GSYNC_AUTO_RULE(name) name,
#define GSYNC_AUTO_DEVICE(kind, name, text)
#include "gsync-auto.def"
#undef GSYNC_AUTO_RULE
#undef GSYNC_AUTO_DEVICE
};
#define N_CANDIDATES (sizeof candidates / sizeof candidates[0])
_Static_assert(N_CANDIDATES >= 1 && N_CANDIDATES <= GSR_AUTO_MAX,
               "gsync-auto.def: from 1 to GSR_AUTO_MAX candidates");

size_t gsr_auto_rules(const char *const **names) {
  if (names)
    *names = candidates;
  return N_CANDIDATES;
}

/* Appends the guard macro of the barrier rule "barrier-NAME" or "NAME":
 * GSYNC_BARRIER_ and NAME in upper case, '-' as '_'. */
void gsri_auto_macro(gsri_buf *out, const char *name) {
  if (strncmp(name, "barrier-", 8) == 0)
    name += 8;
  gsri_buf_puts(out, "GSYNC_BARRIER_");
  for (const char *c = name; *c; c++) {
    char u = *c == '-' ? '_' : *c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c;
    gsri_buf_append(out, &u, 1);
  }
}

/* Adds the strings of from to the array *to (*n of them) that it lacks.
 * Returns 0 when out of memory. */
static int add_missing(char ***to, size_t *n, char *const *from, size_t nf) {
  for (size_t i = 0; i < nf; i++) {
    size_t k = 0;
    while (k < *n && strcmp((*to)[k], from[i]) != 0)
      k++;
    if (k < *n)
      continue;
    char **p = realloc(*to, (*n + 1) * sizeof *p);
    if (!p)
      return 0;
    *to = p;
    if (!(p[*n] = gsri_strdup(from[i])))
      return 0;
    ++*n;
  }
  return 1;
}

/* Appends the candidates' names, "tree, atomic-or", or their macros. */
static void list_candidates(const gsri_ctx *ctx, gsri_buf *out, int macros) {
  for (size_t i = 0; i < ctx->n_auto; i++) {
    if (i)
      gsri_buf_puts(out, i + 1 == ctx->n_auto && !macros ? " and " : ", ");
    if (macros)
      gsri_auto_macro(out, ctx->auto_rules[i]->name);
    else
      gsri_buf_puts(out, ctx->auto_rules[i]->name + 8);
  }
}

/* Writes the rule's text: each candidate under its guard, an #error where
 * none or more than one guard is defined. */
static void auto_text(const gsri_ctx *ctx, gsri_buf *t) {
  gsri_buf_puts(t, "/* barrier-auto (--barrier=auto): the barrier rules ");
  list_candidates(ctx, t, 0);
  gsri_buf_puts(t, ", of which a build compiles\n * the one whose macro it "
                   "defines; libgsync's gsync_program_build_options()\n"
                   " * defines the one it chooses for the device "
                   "(docs/auto.md). */\n#if ");
  for (size_t i = 0; i < ctx->n_auto; i++) {
    gsri_buf_puts(t, i ? " + defined(" : "defined(");
    gsri_auto_macro(t, ctx->auto_rules[i]->name);
    gsri_buf_puts(t, ")");
  }
  gsri_buf_puts(t, " > 1\n#error \"gsync: define only one of ");
  list_candidates(ctx, t, 1);
  gsri_buf_puts(t, " (--barrier=auto)\"\n");
  for (size_t i = 0; i < ctx->n_auto; i++) {
    const gsri_rule *r = ctx->auto_rules[i];
    gsri_buf_puts(t, "#elif defined(");
    gsri_auto_macro(t, r->name);
    gsri_buf_puts(t, ")\n");
    gsri_buf_append(t, r->text, r->len);
    if (r->len && r->text[r->len - 1] != '\n')
      gsri_buf_puts(t, "\n");
  }
  gsri_buf_puts(t, "#else\n#error \"gsync: this output holds the barriers ");
  list_candidates(ctx, t, 0);
  gsri_buf_puts(t, " (--barrier=auto): build it with one of -D");
  for (size_t i = 0; i < ctx->n_auto; i++) {
    if (i)
      gsri_buf_puts(t, ", -D");
    gsri_auto_macro(t, ctx->auto_rules[i]->name);
  }
  gsri_buf_puts(t, ", as libgsync's gsync_program_build_options() "
                   "does\"\n#endif\n");
}

/* Makes ctx->auto_rule from the candidates and points ctx->barrier at it.
 * A candidate missing from the rules (none is, but for a rules directory
 * that cannot remove one) is the tool's defect. */
gsr_status gsri_auto_rule(gsri_ctx *ctx) {
  gsri_rule *a = &ctx->auto_rule;
  for (size_t i = 0; i < N_CANDIDATES; i++) {
    const gsri_rule *r = gsri_rules_find(&ctx->rules, "barrier", candidates[i]);
    if (!r) {
      gsri_report(ctx, GSR_ERROR, 0, 0,
                  "--barrier=auto needs the barrier rule '%s', which is "
                  "missing",
                  candidates[i]);
      return GSR_ERR_INTERNAL;
    }
    ctx->auto_rules[ctx->n_auto++] = r;
  }
  memset(a, 0, sizeof *a);
  a->name = gsri_strdup("barrier-auto");
  a->file = gsri_strdup("<built-in>/barrier-auto.cl");
  gsri_buf summary = {0}, text = {0};
  gsri_buf_puts(&summary, "one of ");
  list_candidates(ctx, &summary, 0);
  gsri_buf_puts(&summary, ", chosen per device by libgsync");
  a->summary = gsri_buf_take(&summary);
  a->runs_on = gsri_strdup("every device one of them runs on");
  auto_text(ctx, &text);
  a->len = text.len;
  a->text = gsri_buf_take(&text);
  a->splits = 1;
  int ok = a->name && a->file && a->summary && a->runs_on && a->text;
  for (size_t i = 0; ok && i < ctx->n_auto; i++) {
    const gsri_rule *r = ctx->auto_rules[i];
    if (!a->opencl_c || strcmp(r->opencl_c, a->opencl_c) > 0) {
      free(a->opencl_c);
      ok = (a->opencl_c = gsri_strdup(r->opencl_c)) != NULL;
    }
    ok = ok &&
         add_missing(&a->extensions, &a->n_extensions, r->extensions,
                     r->n_extensions) &&
         add_missing(&a->capabilities, &a->n_capabilities, r->capabilities,
                     r->n_capabilities);
    if (r->state_fixed > a->state_fixed)
      a->state_fixed = r->state_fixed;
    if (r->state_per_group > a->state_per_group)
      a->state_per_group = r->state_per_group;
    if (r->max_groups && (!a->max_groups || r->max_groups < a->max_groups))
      a->max_groups = r->max_groups;
    a->splits &= r->splits != 0;
  }
  if (!ok) {
    gsri_nomem(ctx);
    return GSR_ERR_NOMEM;
  }
  ctx->barrier = a;
  return GSR_OK;
}

/* Appends, for an error, the candidates that do not split. */
void gsri_auto_non_splitting(const gsri_ctx *ctx, gsri_buf *out) {
  size_t n = 0;
  for (size_t i = 0; i < ctx->n_auto; i++)
    if (!ctx->auto_rules[i]->splits)
      gsri_buf_printf(out, "%s%s", n++ ? ", " : "",
                      ctx->auto_rules[i]->name + 8);
}
