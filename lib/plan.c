/* Stage 3, plan: decides which functions take part in the global barrier
 * and turns that into edits over the input bytes.
 *
 *   participating kernel   a kernel that reaches global_barrier(), at any
 *                          call depth; it gets the hidden state parameter
 *                          last, and discovery at entry
 *   context function       a non-kernel function that reaches a barrier, or
 *                          that a participating kernel reaches and that uses
 *                          a remapped id; it gets a hidden context parameter
 *   call sites             of context functions pass the context, or 0 from
 *                          code that does not take part (a helper shared
 *                          with an ordinary kernel then keeps the real ids)
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const ctx_param = "private struct gsync_ctx *gsync_ctx";
static const char *const state_param = "global uint *gsync_state";

/* Propagates a flag from callees to callers until nothing changes. The flag
 * is read and written through get/set so one routine serves both. */
static void propagate(gsri_ctx *ctx, int (*get)(const gsri_func *),
                      void (*set)(gsri_func *)) {
  int changed = 1;
  while (changed) {
    changed = 0;
    for (size_t i = 0; i < ctx->n_funcs; i++) {
      gsri_func *fn = &ctx->funcs[i];
      if (get(fn))
        continue;
      for (size_t s = 0; s < fn->n_sites; s++)
        if (fn->sites[s].kind == GSR_SITE_CALL &&
            get(&ctx->funcs[fn->sites[s].callee])) {
          set(fn);
          changed = 1;
          break;
        }
    }
  }
}

static int get_barrier(const gsri_func *f) { return f->reaches_barrier; }
static void set_barrier(gsri_func *f) { f->reaches_barrier = 1; }
static int get_ids(const gsri_func *f) { return f->reaches_ids; }
static void set_ids(gsri_func *f) { f->reaches_ids = 1; }

/* Marks every function reachable from fn as in_participating. */
static void mark_reachable(gsri_ctx *ctx, gsri_func *fn) {
  if (fn->in_participating)
    return;
  fn->in_participating = 1;
  for (size_t s = 0; s < fn->n_sites; s++)
    if (fn->sites[s].kind == GSR_SITE_CALL)
      mark_reachable(ctx, &ctx->funcs[fn->sites[s].callee]);
}

/* Nonzero if the function's body runs with a context in scope. */
static int has_ctx(const gsri_func *fn) {
  return fn->takes_ctx || (fn->is_kernel && fn->reaches_barrier);
}

/* Reports a call cycle through context functions: OpenCL C forbids
 * recursion, and a barrier inside one could not be proven uniform. */
static int find_cycle(gsri_ctx *ctx, size_t i, unsigned char *state) {
  state[i] = 1;
  gsri_func *fn = &ctx->funcs[i];
  for (size_t s = 0; s < fn->n_sites; s++) {
    gsri_site *site = &fn->sites[s];
    if (site->kind != GSR_SITE_CALL)
      continue;
    size_t j = (size_t)site->callee;
    if (!has_ctx(&ctx->funcs[j]))
      continue;
    if (state[j] == 1) {
      gsri_report_in(ctx, GSR_ERROR, site->file, site->line, site->col,
                     "recursive call of '%s' on a path to global_barrier()",
                     ctx->funcs[j].name);
      return 1;
    }
    if (state[j] == 0 && find_cycle(ctx, j, state))
      return 1;
  }
  state[i] = 2;
  return 0;
}

/* The rewrites, shared by code written out and code spelled in macro
 * bodies. Offsets are those of a callee name and its parens. */

/* Notes a global_barrier() text (or one of its halves) to rewrite;
 * number_barriers() edits it. */
static void edit_barrier(gsri_ctx *ctx, gsri_half half, size_t name_off,
                         size_t rparen_off) {
  gsri_barrier_site *p =
      gsri_grow(ctx->bsites, &ctx->cap_bsites, ctx->n_bsites, sizeof *p);
  if (!p) {
    gsri_nomem(ctx);
    return;
  }
  ctx->bsites = p;
  gsri_barrier_site *b = &ctx->bsites[ctx->n_bsites++];
  memset(b, 0, sizeof *b);
  b->name_off = name_off;
  b->rparen_off = rparen_off;
  b->half = half;
}

/* Orders barrier sites by their place in the input. */
static int cmp_bsite(const void *pa, const void *pb) {
  const gsri_barrier_site *a = pa, *b = pb;
  return a->name_off < b->name_off ? -1 : a->name_off > b->name_off;
}

/* Numbers the barrier texts 1, 2, ... in input order (one text expanded
 * twice, as a macro argument, is one site) and rewrites each:
 * global_barrier() -> gsync_barrier(gsync_ctx, N), and the halves
 * global_barrier_arrive() and global_barrier_wait() -> gsync_barrier_arrive
 * and gsync_barrier_wait (each half a site of its own: an abort names the
 * wait it gave up in). */
static void number_barriers(gsri_ctx *ctx) {
  if (ctx->n_bsites)
    qsort(ctx->bsites, ctx->n_bsites, sizeof *ctx->bsites, cmp_bsite);
  size_t n = 0;
  for (size_t i = 0; i < ctx->n_bsites; i++) {
    if (n && ctx->bsites[n - 1].name_off == ctx->bsites[i].name_off)
      continue;
    gsri_barrier_site *b = &ctx->bsites[n++];
    *b = ctx->bsites[i];
    b->number = (unsigned)n;
    gsri_line_col(ctx, b->name_off, &b->line, &b->col);
    b->file = ctx->name;
    gsri_map_line(ctx, &b->file, &b->line); /* a line of an inlined file */
    gsri_buf text = {0};
    gsri_buf_printf(&text, "%s(gsync_ctx, %u)", gsri_barrier_impls[b->half],
                    b->number);
    gsri_add_edit(ctx, b->name_off, b->rparen_off + 1 - b->name_off,
                  gsri_buf_text(ctx, &text));
    gsri_buf_free(&text);
  }
  ctx->n_bsites = n;
}

/* get_global_id(1) -> gsync_get_global_id(gsync_ctx, 1), and
 * get_group_linear_id() -> gsync_get_group_linear_id(gsync_ctx). */
static void edit_id(gsri_ctx *ctx, size_t name_off, const char *name,
                    size_t lparen_off, int has_args) {
  gsri_buf b = {0};
  gsri_buf_printf(&b, GSR_PREFIX "%s", name);
  gsri_add_edit(ctx, name_off, strlen(name), gsri_buf_text(ctx, &b));
  gsri_buf_free(&b);
  gsri_add_edit(ctx, lparen_off + 1, 0, has_args ? "gsync_ctx, " : "gsync_ctx");
}

/* f(a) -> f(a, ARG); f() -> f(ARG): for arguments and parameters alike. */
static void append_in_parens(gsri_ctx *ctx, size_t rparen_off, int has_args,
                             const char *arg) {
  gsri_buf b = {0};
  gsri_buf_printf(&b, "%s%s", has_args ? ", " : "", arg);
  gsri_add_edit(ctx, rparen_off, 0, gsri_buf_text(ctx, &b));
  gsri_buf_free(&b);
}

/* Appends the hidden parameter to every declaration of fn. */
static void plan_params(gsri_ctx *ctx, gsri_func *fn, const char *param) {
  for (size_t d = 0; d < fn->n_decls; d++) {
    struct gsri_decl *dc = &fn->decls[d];
    if (!dc->in_main) {
      gsri_report_in(ctx, GSR_ERROR, dc->file, dc->line, dc->col,
                     "'%s' is declared in an included file but needs the "
                     "hidden parameter '%s'",
                     fn->name, param);
      gsri_hint_inline(ctx, dc->file, dc->line, dc->col);
      continue;
    }
    if (dc->rparen_off == NO_OFF) {
      gsri_report_in(
          ctx, GSR_ERROR, dc->file, dc->line, dc->col,
          "cannot add the hidden parameter to '%s': its parameter list "
          "is written by a macro",
          fn->name);
      continue;
    }
    if (dc->void_params)
      gsri_add_edit(ctx, dc->void_off, 4, param);
    else
      append_in_parens(ctx, dc->rparen_off, dc->num_params > 0, param);
  }
}

/* Nonzero if the input's macro called name spells a call of callee, in
 * its own body or in that of another macro of the input it uses, at any
 * depth. A walk that reads each macro once: following every reference
 * costs 2^N for N macros that each use the one before twice, and a depth
 * limit cut off deep but ordinary nesting. */
static int macro_spells(gsri_ctx *ctx, const char *name, const char *callee) {
  gsri_macro *m = gsri_macro_named(ctx, name);
  if (!m)
    return 0;
  unsigned char *seen = calloc(ctx->n_macros, 1);
  size_t *work = malloc(ctx->n_macros * sizeof *work), n = 0;
  int found = 0;
  if (seen && work) {
    seen[m - ctx->macros] = 1;
    work[n++] = (size_t)(m - ctx->macros);
  } else {
    gsri_nomem(ctx);
  }
  while (n && !found) {
    m = &ctx->macros[work[--n]];
    for (size_t u = 0; u < m->n_uses && !found; u++)
      found = strcmp(m->uses[u].name, callee) == 0;
    for (size_t r = 0; r < m->n_inner; r++)
      if (!seen[m->inner[r]]) {
        seen[m->inner[r]] = 1;
        work[n++] = m->inner[r];
      }
  }
  free(seen);
  free(work);
  return found;
}

/* Where a call that libclang places at the expansion of a macro is
 * spelled: MACRO_SPELLS_CALL in a macro of the input, where
 * gsri_plan_macros() edits it; MACRO_OF_INPUT when the expansion is a
 * macro of the input that does not spell the call whole (it names the
 * function, say, and the parentheses follow it outside); MACRO_INCLUDED
 * when it comes from a macro of an included file. */
enum { MACRO_INCLUDED, MACRO_OF_INPUT, MACRO_SPELLS_CALL };
static int spelled_in_input_macro(gsri_ctx *ctx, const gsri_site *s) {
  size_t b = s->name_off, e = b;
  while (e < ctx->src_len && gsri_ident_char(ctx->src[e]))
    e++;
  char *name = gsri_strndup(ctx->src + b, e - b);
  int r = !name                                     ? MACRO_INCLUDED
          : macro_spells(ctx, name, s->callee_name) ? MACRO_SPELLS_CALL
          : gsri_macro_named(ctx, name)             ? MACRO_OF_INPUT
                                                    : MACRO_INCLUDED;
  free(name);
  return r;
}

/* Reports that the call at s, which needs an edit (what), cannot be
 * edited: its text is in an included file (included) or is assembled by a
 * macro. */
static void not_editable(gsri_ctx *ctx, const gsri_site *s, const char *what,
                         int included) {
  gsri_report_in(ctx, GSR_ERROR, s->file, s->line, s->col, "cannot %s: %s",
                 what,
                 included ? "it is spelled in an included file"
                          : "it is assembled by a macro");
  if (included)
    gsri_hint_inline(ctx, s->file, s->line, s->col);
}

/* Plans the edits for one site in a function that has a context in scope
 * (or, with in_ctx 0, in one that does not). */
static void plan_site(gsri_ctx *ctx, gsri_site *s, int in_ctx) {
  int editable =
      s->in_main && s->lparen_off != NO_OFF && s->rparen_off != NO_OFF;
  int included =
      s->spelled_in && !gsri_same_file(ctx, s->spelled_in, ctx->main_file);
  /* Calls spelled in a macro body of the input are edited there, once, by
   * gsri_plan_macros(). One spelled in a macro of an included file cannot
   * be edited at all. Without discovery the ids are the real ones: they
   * stay as written. */
  if (s->kind == GSR_SITE_ID && ctx->no_discovery)
    return;
  int needs_edit = s->kind == GSR_SITE_BARRIER ? !s->num_args
                   : s->kind == GSR_SITE_ID    ? in_ctx
                                            : ctx->funcs[s->callee].takes_ctx;
  int spelled = s->in_macro && needs_edit ? spelled_in_input_macro(ctx, s)
                                          : MACRO_SPELLS_CALL;
  if (s->in_macro && spelled == MACRO_INCLUDED)
    included = 1;
  else if (s->in_macro && spelled == MACRO_SPELLS_CALL)
    return;
  switch (s->kind) {
  case GSR_SITE_BARRIER:
    if (s->num_args) /* libclang already said so */
      return;
    if (!editable) {
      gsri_buf what = {0};
      gsri_buf_printf(&what, "rewrite this %s()", gsri_barrier_names[s->half]);
      not_editable(ctx, s, gsri_buf_text(ctx, &what), included);
      gsri_buf_free(&what);
      return;
    }
    edit_barrier(ctx, s->half, s->name_off, s->rparen_off);
    return;
  case GSR_SITE_ID: {
    if (!in_ctx && !s->in_macro) {
      /* Keep it: if a macro body shared with participating code would be
       * edited here too, apply reports the conflict. */
      if (s->in_main)
        gsri_add_edit(ctx, s->name_off, s->name_len, NULL);
      return;
    }
    if (!editable) {
      gsri_buf what = {0};
      gsri_buf_printf(&what, "remap this '%s'", s->callee_name);
      not_editable(ctx, s, what.data ? what.data : "remap this id", included);
      gsri_buf_free(&what);
      return;
    }
    edit_id(ctx, s->name_off, s->callee_name, s->lparen_off, s->num_args > 0);
    return;
  }
  case GSR_SITE_CALL: {
    gsri_func *callee = &ctx->funcs[s->callee];
    if (!callee->takes_ctx)
      return;
    if (!editable) {
      gsri_buf what = {0};
      gsri_buf_printf(&what, "pass the hidden context to '%s'", callee->name);
      not_editable(ctx, s, what.data ? what.data : "pass the hidden context",
                   included);
      gsri_buf_free(&what);
      return;
    }
    append_in_parens(ctx, s->rparen_off, s->num_args > 0,
                     in_ctx ? "gsync_ctx" : "0");
    callee->called_plain |= !in_ctx;
    return;
  }
  }
}

/* Inserts text just after fn's '{', on that line so that user line
 * numbers do not move; what says what it is for, in the error when a
 * macro writes the body. */
static void insert_at_entry(gsri_ctx *ctx, gsri_func *fn, const char *what,
                            const char *text) {
  if (fn->body_lbrace == NO_OFF) {
    gsri_report_in(ctx, GSR_ERROR, fn->file, fn->line, fn->col,
                   "cannot %s '%s': its body is written by a macro", what,
                   fn->name);
    return;
  }
  gsri_add_edit(ctx, fn->body_lbrace, 0, text);
}

/* Plans the code inserted at a participating kernel's entry: the context,
 * then discovery; a group that does not take part returns as a whole.
 * Without discovery every group takes part, so the entry has no return:
 * PoCL 3.1 miscompiles some kernels with a return between work-group
 * barriers (docs/pocl.md), and a branch that is never taken costs that
 * risk for nothing. The one exception is the probe launch that measures
 * how many groups fit, in which no group takes part: gsync_join_all has
 * its return only in a build with -Dgsync_fit_probe, which libgsync's options
 * give; that exit is anchored as discovery's is (discovery-none.cl).
 * Without discovery the virtual grid is the launch's (gsync_ctx_launch):
 * no grid search, whose barriers under a branch PoCL's compile of the
 * whole kernel paid for (bench/pocl-build.py). */
static void plan_entry(gsri_ctx *ctx, gsri_func *fn) {
#define ENTRY_CTX                                                              \
  " local uint gsync_shared[GSYNC_SHARED_WORDS];"                              \
  " struct gsync_ctx gsync_ctx_v;"                                             \
  " private struct gsync_ctx *gsync_ctx = &gsync_ctx_v;"
  insert_at_entry(
      ctx, fn, "insert discovery into kernel",
      ctx->no_discovery ? ENTRY_CTX
          " gsync_join_all(gsync_state, gsync_shared, gsync_ctx);"
          " gsync_ctx_launch(gsync_ctx);"
                        : ENTRY_CTX
          " if (!gsync_join(gsync_state, gsync_shared, gsync_ctx) ||"
          " !gsync_ctx_grid(gsync_ctx, gsync_shared)) return;"
          " gsync_anchor(gsync_ctx);");
#undef ENTRY_CTX
}

/* Plans the start of a context function that code without a context
 * calls (passing 0): there it makes itself a context of the real ids
 * (prelude.cl's gsync_ctx_or_real), so the virtual-id queries never see a
 * null one. */
static void plan_real_ctx(gsri_ctx *ctx, gsri_func *fn) {
  insert_at_entry(
      ctx, fn,
      "give the real ids, for its calls from code that does not take part, to",
      " struct gsync_ctx gsync_ctx_real;"
      " gsync_ctx = gsync_ctx_or_real(gsync_ctx, &gsync_ctx_real);");
}

/* The functions with a body in the input, by where the body opens, so that
 * gsri_plan_macros() finds the one holding an offset by binary search. */
typedef struct body_lookup {
  gsri_ctx *ctx;
  gsri_func **bodies;
  size_t n_bodies;
  int overlap; /* bodies overlap (macro tricks): scan them all */
} body_lookup;

/* Orders functions by where their bodies open. */
static int cmp_body(const void *a, const void *b) {
  const gsri_func *x = *(gsri_func *const *)a, *y = *(gsri_func *const *)b;
  return x->body_begin < y->body_begin ? -1 : x->body_begin > y->body_begin;
}

/* Returns the function whose body holds offset off, or NULL. */
static gsri_func *func_at(body_lookup *ml, size_t off) {
  gsri_ctx *ctx = ml->ctx;
  if (ml->overlap) {
    for (size_t i = 0; i < ctx->n_funcs; i++) {
      gsri_func *fn = &ctx->funcs[i];
      if (fn->body_begin != NO_OFF && fn->body_begin <= off &&
          (off < fn->body_end || off == fn->body_begin))
        return fn;
    }
    return NULL;
  }
  /* The last body that opens at or before off, if it holds off. */
  size_t lo = 0, hi = ml->n_bodies;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ml->bodies[mid]->body_begin <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  gsri_func *fn = lo ? ml->bodies[lo - 1] : NULL;
  /* A body that a macro writes whole opens and ends at its expansion. */
  return fn && (off < fn->body_end || off == fn->body_begin) ? fn : NULL;
}

/* Sets up the lookup. Returns 0 when out of memory. */
static int body_lookup_init(body_lookup *ml, gsri_ctx *ctx) {
  memset(ml, 0, sizeof *ml);
  ml->ctx = ctx;
  ml->bodies = malloc((ctx->n_funcs ? ctx->n_funcs : 1) * sizeof *ml->bodies);
  if (!ml->bodies)
    return 0;
  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].body_begin != NO_OFF)
      ml->bodies[ml->n_bodies++] = &ctx->funcs[i];
  qsort(ml->bodies, ml->n_bodies, sizeof *ml->bodies, cmp_body);
  for (size_t i = 0; i + 1 < ml->n_bodies; i++)
    ml->overlap |= ml->bodies[i]->body_end > ml->bodies[i + 1]->body_begin ||
                   ml->bodies[i]->body_begin == ml->bodies[i + 1]->body_begin;
  return 1;
}

/* A macro that a body names expands wherever that body does: spreads
 * in_ctx and in_plain from each macro to the macros it names, at any
 * depth. A macro is queued again only when it gains a flag, so a chain of
 * N macros costs N steps where passes over all of them until nothing
 * changes cost N^2. Returns 0 when out of memory. */
static int spread_to_inner_macros(gsri_ctx *ctx) {
  size_t n = ctx->n_macros, top = 0;
  size_t *work = malloc((n ? n : 1) * sizeof *work);
  unsigned char *queued = calloc(n ? n : 1, 1);
  if (work && queued)
    for (size_t i = 0; i < n; i++)
      if (ctx->macros[i].in_ctx || ctx->macros[i].in_plain)
        queued[i] = 1, work[top++] = i;
  while (work && queued && top) {
    size_t i = work[--top];
    const gsri_macro *m = &ctx->macros[i];
    queued[i] = 0;
    for (size_t r = 0; r < m->n_inner; r++) {
      size_t j = m->inner[r];
      gsri_macro *inner = &ctx->macros[j];
      if ((!m->in_ctx || inner->in_ctx) && (!m->in_plain || inner->in_plain))
        continue;
      inner->in_ctx |= m->in_ctx;
      inner->in_plain |= m->in_plain;
      if (!queued[j])
        queued[j] = 1, work[top++] = j;
    }
  }
  int ok = work && queued;
  free(work);
  free(queued);
  return ok;
}

/* Plans the edits inside the input's macro bodies. A macro expanded only in
 * code with a context gets the same edits as code written out; one that
 * also expands elsewhere and spells an id or a call that would need the
 * context there is an error, since one text cannot serve both. */
void gsri_plan_macros(gsri_ctx *ctx) {
  body_lookup ml;
  if (!body_lookup_init(&ml, ctx)) {
    gsri_nomem(ctx);
    goto free_lookup;
  }
  for (size_t i = 0; i < ctx->n_expansions; i++) {
    gsri_macro *m = gsri_macro_named(ctx, ctx->expansions[i].name);
    gsri_func *fn = m ? func_at(&ml, ctx->expansions[i].offset) : NULL;
    if (fn) {
      m->in_ctx |= has_ctx(fn);
      m->in_plain |= !has_ctx(fn);
    }
  }
  if (!spread_to_inner_macros(ctx)) {
    gsri_nomem(ctx);
    goto free_lookup;
  }
  for (size_t i = 0; i < ctx->n_macros; i++) {
    gsri_macro *m = &ctx->macros[i];
    for (size_t u = 0; u < m->n_uses; u++) {
      gsri_macro_use *use = &m->uses[u];
      gsri_func *callee =
          use->kind == GSR_SITE_CALL ? gsri_func_named(ctx, use->name) : NULL;
      int needs_ctx = (use->kind == GSR_SITE_ID && !ctx->no_discovery) ||
                      (callee && callee->takes_ctx);
      if (use->kind == GSR_SITE_BARRIER) {
        if (m->in_ctx && !use->num_args)
          edit_barrier(ctx, use->half, use->name_off, use->rparen_off);
        continue;
      }
      if (!needs_ctx || !m->in_ctx)
        continue;
      if (m->in_plain) {
        unsigned line, col;
        gsri_line_col(ctx, use->name_off, &line, &col);
        gsri_report(ctx, GSR_ERROR, line, col,
                    "macro '%s' calls '%s' and expands both in code that takes "
                    "part in a global barrier and in code that does not; one "
                    "text cannot serve both, so split the macro",
                    m->name, use->name);
        continue;
      }
      if (use->kind == GSR_SITE_ID)
        edit_id(ctx, use->name_off, use->name, use->lparen_off,
                use->num_args > 0);
      else
        append_in_parens(ctx, use->rparen_off, use->num_args > 0, "gsync_ctx");
    }
  }
free_lookup:
  free(ml.bodies);
}

/* Runs the plan stage. Returns GSR_ERR_INPUT if it reported errors. */
gsr_status gsri_plan(gsri_ctx *ctx) {
  unsigned before = ctx->errors;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    for (size_t s = 0; s < fn->n_sites; s++) {
      fn->reaches_barrier |= fn->sites[s].kind == GSR_SITE_BARRIER;
      fn->reaches_ids |= fn->sites[s].kind == GSR_SITE_ID && !ctx->no_discovery;
    }
  }
  propagate(ctx, get_barrier, set_barrier);
  propagate(ctx, get_ids, set_ids);
  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].is_kernel && ctx->funcs[i].reaches_barrier)
      mark_reachable(ctx, &ctx->funcs[i]);
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    if (!fn->is_kernel)
      fn->takes_ctx =
          fn->reaches_barrier || (fn->reaches_ids && fn->in_participating);
  }

  gsri_check_uniformity(ctx);
  gsri_check_split_rule(ctx);
  gsri_check_split(ctx);
  gsri_check_strides(ctx);

  unsigned char *state = calloc(ctx->n_funcs ? ctx->n_funcs : 1, 1);
  if (!state)
    return GSR_ERR_NOMEM;
  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (has_ctx(&ctx->funcs[i]) && state[i] == 0 && find_cycle(ctx, i, state))
      break;
  free(state);

  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    int in_ctx = has_ctx(fn);
    /* A definition in an included file cannot be edited; the error about
     * its declaration says so, once for the whole function. */
    int def_included = fn->has_def && fn->file &&
                       !gsri_same_file(ctx, fn->file, ctx->main_file);
    if (fn->is_kernel && fn->reaches_barrier) {
      plan_params(ctx, fn, state_param);
      if (fn->has_def && !def_included)
        plan_entry(ctx, fn);
    } else if (fn->takes_ctx) {
      plan_params(ctx, fn, ctx_param);
      if (!fn->in_participating && fn->has_def)
        gsri_report_in(ctx, GSR_WARNING, fn->file, fn->line, fn->col,
                       "'%s' reaches global_barrier() but no kernel calls it",
                       fn->name);
    }
    for (size_t s = 0; s < fn->n_sites && !(def_included && in_ctx); s++)
      plan_site(ctx, &fn->sites[s], in_ctx);
  }
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    if (fn->takes_ctx && fn->called_plain && fn->has_def && fn->file &&
        gsri_same_file(ctx, fn->file, ctx->main_file))
      plan_real_ctx(ctx, fn);
  }
  gsri_plan_macros(ctx);
  number_barriers(ctx);
  if (ctx->spin_limit)
    gsri_plan_abort_checks(ctx);
  gsri_plan_anchors(ctx);
  for (size_t i = 0; i < ctx->n_gsync_includes; i++)
    gsri_add_edit(ctx, ctx->gsync_includes[i][0],
                  ctx->gsync_includes[i][1] - ctx->gsync_includes[i][0],
                  GSR_GSYNC_H_GONE);
  return ctx->errors > before ? GSR_ERR_INPUT : GSR_OK;
}
