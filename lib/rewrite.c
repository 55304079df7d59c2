/* The engine's entry point: runs parse -> find -> plan -> render -> apply ->
 * emit over one input and hands back the output and the constraints. It
 * only drives the stages; the diagnostics they report through are in
 * diag.c, below all of them.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gsr_result {
  char *output;
  size_t output_len;
  char *constraints;
  unsigned warnings;
  char **deps;
  size_t n_deps;
};

#define DEFAULT_BARRIER "tree"
#define DEFAULT_DISCOVERY "lockfree"
#define DEFAULT_SPIN_LIMIT 5000ul

/* The default barrier: correct on every device class, and the fastest of
 * those that are (see docs/barriers.md and docs/gpu.md). */
const char *gsr_default_barrier(void) { return DEFAULT_BARRIER; }

/* The default discovery protocol: admits every co-resident group for a few
 * microseconds (docs/gpu.md). */
const char *gsr_default_discovery(void) { return DEFAULT_DISCOVERY; }

/* The default spin limit, 5 s: far longer than a healthy barrier waits on
 * any device measured, and short enough that a hung launch ends within
 * seconds (docs/barriers.md). */
unsigned long gsr_default_spin_limit(void) { return DEFAULT_SPIN_LIMIT; }

/* A stage boundary: a stage's status, or GSR_ERR_NOMEM if an allocation
 * failed anywhere so far, whatever the stage made of it. */
static gsr_status boundary(const gsri_ctx *ctx, gsr_status st) {
  return ctx->nomem ? GSR_ERR_NOMEM : st;
}

/* What a status means, for a message (see gsync_rewrite.h). */
const char *gsr_status_str(gsr_status st) {
  switch (st) {
  case GSR_OK:
    return "ok";
  case GSR_ERR_INPUT:
    return "the input has errors";
  case GSR_ERR_OPTIONS:
    return "bad options";
  case GSR_ERR_PARSER:
    return "libclang could not parse";
  case GSR_ERR_NOMEM:
    return "out of memory";
  case GSR_ERR_INTERNAL:
    return "internal error";
  }
  return "unknown status";
}

/* Frees what the find and plan stages allocated. */
static void free_tables(gsri_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    for (size_t s = 0; s < fn->n_sites; s++)
      free(fn->sites[s].callee_name);
    free(fn->sites);
    free(fn->decls);
    free(fn->usr);
    free(fn->name);
  }
  free(ctx->funcs);
  gsri_table_free(&ctx->funcs_by_decl);
  gsri_table_free(&ctx->funcs_by_usr);
  gsri_table_free(&ctx->defs_by_name);
  gsri_table_free(&ctx->macros_by_name);
  free(ctx->nodes);
  free(ctx->kids);
  for (size_t i = 0; i < ctx->n_macros; i++) {
    gsri_macro *m = &ctx->macros[i];
    for (size_t u = 0; u < m->n_uses; u++)
      free(m->uses[u].name);
    free(m->uses);
    for (size_t r = 0; r < m->n_refs; r++)
      free(m->refs[r]);
    free(m->refs);
    free(m->inner);
    free(m->name);
  }
  free(ctx->macros);
  for (size_t i = 0; i < ctx->n_expansions; i++)
    free(ctx->expansions[i].name);
  free(ctx->expansions);
  free(ctx->gsync_includes);
  free(ctx->pragma_loops);
  free(ctx->bsites);
  for (size_t i = 0; i < ctx->n_edits; i++)
    free(ctx->edits[i].text);
  free(ctx->edits);
}

/* Frees an array of strings. */
static void free_strings(char **s, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(s[i]);
  free(s);
}

/* Lists the rule files this rewrite uses that came from the rules
 * directory: they are inputs of the output as much as the includes are. */
static gsr_status list_rule_files(gsri_ctx *ctx) {
  const gsri_rule *used[] = {gsri_rules_find(&ctx->rules, "prelude", NULL),
                             ctx->barrier, ctx->discovery};
  for (size_t i = 0; i < sizeof used / sizeof used[0]; i++)
    if (used[i] && used[i]->from_dir &&
        !gsri_add_dependency(ctx, used[i]->file))
      return GSR_ERR_NOMEM;
  for (size_t i = 0; i < ctx->n_auto; i++)
    if (ctx->auto_rules[i]->from_dir &&
        !gsri_add_dependency(ctx, ctx->auto_rules[i]->file))
      return GSR_ERR_NOMEM;
  return GSR_OK;
}

/* Chooses the barrier and discovery rules named by the options, and the
 * spin limit. */
static gsr_status choose_rules(gsri_ctx *ctx) {
  unsigned long limit = ctx->opt->spin_limit;
  if (limit != GSR_SPIN_UNBOUNDED && limit > GSR_SPIN_LIMIT_MAX) {
    gsri_report(ctx, GSR_ERROR, 0, 0,
                "spin limit %lu ms is above the largest, %lu ms", limit,
                GSR_SPIN_LIMIT_MAX);
    return GSR_ERR_OPTIONS;
  }
  ctx->spin_limit = limit == GSR_SPIN_UNBOUNDED ? 0
                    : limit == 0                ? DEFAULT_SPIN_LIMIT
                                                : limit;
  const char *name = ctx->opt->barrier ? ctx->opt->barrier : DEFAULT_BARRIER;
  if (strcmp(name, "auto") == 0) {
    gsr_status st = gsri_auto_rule(ctx);
    if (st != GSR_OK)
      return st;
  } else
    ctx->barrier = gsri_rules_find(&ctx->rules, "barrier", name);
  if (!ctx->barrier) {
    gsri_report(ctx, GSR_ERROR, 0, 0,
                "unknown barrier '%s' (see --list-barriers)", name);
    return GSR_ERR_OPTIONS;
  }
  const char *disc = ctx->opt->no_discovery ? "none"
                     : ctx->opt->discovery  ? ctx->opt->discovery
                                            : DEFAULT_DISCOVERY;
  ctx->discovery = gsri_rules_find(&ctx->rules, "discovery", disc);
  if (!ctx->discovery) {
    gsri_report(ctx, GSR_ERROR, 0, 0,
                "unknown discovery protocol '%s' (see --list-barriers)", disc);
    return GSR_ERR_OPTIONS;
  }
  ctx->no_discovery = strcmp(ctx->discovery->name, "discovery-none") == 0;
  return GSR_OK;
}

/* Passes the parse's diagnostics on (gsri_parse_diagnostics); after an
 * error, a note on the names that a later OpenCL C version or a feature
 * would declare. */
static gsr_status diagnose(gsri_ctx *ctx, int only_errors) {
  gsr_status st = gsri_parse_diagnostics(ctx, only_errors);
  if (st == GSR_ERR_INPUT)
    gsri_language_hint(ctx);
  return st;
}

/* --inline-includes: writes the text of the included files into the input
 * (into flat) and parses that instead, so that the later stages see one
 * file. Diagnostics of the first parse were held back unless they were
 * errors; those of the second are reported, mapped back to the files and
 * lines they come from. */
static gsr_status parse_inlined(gsri_ctx *ctx, gsri_buf *flat) {
  gsr_status st = gsri_inline_includes(ctx, flat);
  if (st != GSR_OK)
    return st;
  if (flat->len == ctx->src_len &&
      (!flat->len || memcmp(flat->data, ctx->src, flat->len) == 0))
    return diagnose(ctx, 0); /* it includes nothing */
  gsri_parse_dispose(ctx);
  ctx->src = flat->data;
  ctx->src_len = flat->len;
  ctx->inlined = 1;
  st = gsri_parse(ctx);
  return st == GSR_OK ? diagnose(ctx, 0) : st;
}

/* Runs the whole pipeline. See gsync_rewrite.h. */
gsr_status gsr_rewrite(const gsr_options *options, gsr_result **out) {
  *out = NULL;
  if (!options || options->size < sizeof options->size)
    return GSR_ERR_OPTIONS;
  /* Fields past the caller's size (an older header's) count as zero. */
  gsr_options o;
  memset(&o, 0, sizeof o);
  memcpy(&o, options, options->size < sizeof o ? options->size : sizeof o);
  o.size = sizeof o;
  const gsr_options *opt = &o;
  if (!opt->source && opt->source_len)
    return GSR_ERR_OPTIONS;
  gsri_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.opt = opt;
  ctx.name = opt->input_name ? opt->input_name : "<stdin>";
  ctx.src = opt->source ? opt->source : "";
  ctx.src_len = opt->source_len;
  ctx.diag = opt->diag;
  ctx.diag_user = opt->diag_user;

  gsri_buf output = {0}, json = {0}, flat = {0};
  gsr_result *res = NULL;
  /* Every stage's status goes through boundary(): an allocation that
   * failed inside a stage fails the rewrite there. */
  gsr_status st =
      boundary(&ctx, gsri_rules_load(&ctx, opt->rules_dir, &ctx.rules));
  if (st != GSR_OK)
    goto free_rules;
  st = boundary(&ctx, choose_rules(&ctx));
  if (st == GSR_OK)
    st = boundary(&ctx, gsri_language_options(&ctx));
  if (st != GSR_OK)
    goto free_rules;

  st = boundary(&ctx, gsri_prescan_includes(&ctx));
  if (st == GSR_OK)
    st = boundary(&ctx, gsri_parse(&ctx));
  if (st == GSR_OK)
    st = boundary(&ctx, diagnose(&ctx, opt->inline_includes));
  if (st == GSR_OK)
    st = boundary(&ctx, gsri_list_includes(&ctx));
  if (st == GSR_OK)
    st = boundary(&ctx, list_rule_files(&ctx));
  if (st == GSR_OK && opt->inline_includes)
    st = boundary(&ctx, parse_inlined(&ctx, &flat));
  if (st != GSR_OK)
    goto dispose_tu;
  st = boundary(&ctx, gsri_find(&ctx));
  if (st != GSR_OK)
    goto dispose_tu;
  st = boundary(&ctx, gsri_plan(&ctx));
  if (st != GSR_OK)
    goto dispose_tu;
  st = boundary(&ctx, gsri_check_blocks(&ctx) ? GSR_ERR_INPUT : GSR_OK);
  if (st != GSR_OK)
    goto dispose_tu;
  gsri_find_features(&ctx);

  /* A file that calls no global_barrier() passes through untouched. */
  if (ctx.n_barrier_sites) {
    st = gsri_render(&ctx, &output);
    if (st == GSR_OK)
      st = gsri_apply(&ctx, &output);
  } else {
    if (ctx.inlined) /* name the input before the first inlined file */
      gsri_buf_line_directive(&output, 1, ctx.name);
    gsri_buf_append(&output, ctx.src, ctx.src_len);
  }
  st = boundary(&ctx, st);
  if (st == GSR_OK) {
    st = boundary(&ctx, gsri_emit_constraints(&ctx, &output,
                                              ctx.n_barrier_sites != 0, &json));
  }
  if (st == GSR_OK && (output.failed || json.failed))
    st = GSR_ERR_NOMEM;
  if (st != GSR_OK)
    goto free_output;

  res = calloc(1, sizeof *res);
  if (!res) {
    st = GSR_ERR_NOMEM;
    goto free_output;
  }
  res->output_len = output.len;
  res->output = gsri_buf_take(&output);
  res->constraints = gsri_buf_take(&json);
  res->warnings = ctx.warnings;
  res->deps = ctx.deps;
  res->n_deps = ctx.n_deps;
  ctx.deps = NULL;
  ctx.n_deps = 0;
  if (!res->output || !res->constraints) {
    gsr_result_dispose(res);
    res = NULL;
    st = GSR_ERR_NOMEM;
  }
  *out = res;

free_output:
  gsri_buf_free(&output);
  gsri_buf_free(&json);
dispose_tu:
  gsri_parse_dispose(&ctx);
  free_tables(&ctx);
  free_strings(ctx.deps, ctx.n_deps);
  gsri_inline_dispose(&ctx);
  gsri_buf_free(&flat);
free_rules:
  gsri_language_dispose(&ctx);
  gsri_rules_free(&ctx.rules);
  gsri_rule_free(&ctx.auto_rule);
  /* One clear message, however deep the failure was (the report needs no
   * memory to say it). */
  if (st == GSR_ERR_NOMEM)
    gsri_report(&ctx, GSR_ERROR, 0, 0, "out of memory");
  return st;
}

/* The output bytes and their length. */
const char *gsr_result_output(const gsr_result *r, size_t *len) {
  *len = r->output_len;
  return r->output;
}

/* The constraints JSON text. */
const char *gsr_result_constraints(const gsr_result *r) {
  return r->constraints;
}

/* How many warnings the rewrite reported. */
unsigned gsr_result_warnings(const gsr_result *r) { return r->warnings; }

/* How many files the rewrite read besides the input. */
size_t gsr_result_num_dependencies(const gsr_result *r) { return r->n_deps; }

/* The i-th of them, or NULL past the end. */
const char *gsr_result_dependency(const gsr_result *r, size_t i) {
  return i < r->n_deps ? r->deps[i] : NULL;
}

/* Frees a result (NULL is fine). */
void gsr_result_dispose(gsr_result *r) {
  if (!r)
    return;
  free(r->output);
  free(r->constraints);
  free_strings(r->deps, r->n_deps);
  free(r);
}

/* Lists the rules of one kind ("barrier" or "discovery") through fn. */
gsr_status gsr_list_rules(const char *rules_dir, const char *kind,
                          void (*fn)(void *user, const char *name,
                                     const char *summary, const char *runs_on,
                                     int is_default),
                          void *user, gsr_diag_fn diag, void *diag_user) {
  gsri_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.name = "<rules>";
  ctx.diag = diag;
  ctx.diag_user = diag_user;
  const char *def =
      strcmp(kind, "barrier") == 0 ? DEFAULT_BARRIER : DEFAULT_DISCOVERY;
  size_t kl = strlen(kind);
  gsr_status st = boundary(&ctx, gsri_rules_load(&ctx, rules_dir, &ctx.rules));
  for (size_t i = 0; st == GSR_OK && i < ctx.rules.n; i++) {
    const char *n = ctx.rules.rules[i].name;
    if (strncmp(n, kind, kl) != 0 || n[kl] != '-')
      continue;
    const char *runs_on = ctx.rules.rules[i].runs_on;
    fn(user, n + kl + 1, ctx.rules.rules[i].summary, runs_on ? runs_on : "",
       strcmp(n + kl + 1, def) == 0);
  }
  gsri_rules_free(&ctx.rules);
  if (st == GSR_ERR_NOMEM)
    gsri_report(&ctx, GSR_ERROR, 0, 0, "out of memory");
  return st;
}
