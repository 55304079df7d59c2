/* The split-phase global barrier: global_barrier_arrive() and
 * global_barrier_wait() (docs/split.md). The rewrite turns each into its
 * half of the chosen barrier; this pass checks that the halves make pairs
 * that every work-item runs through whole, as the rule's halves need:
 *   - each global_barrier_arrive() is a statement of its own, and a
 *     global_barrier_wait() follows it as a later statement of the same
 *     block; each wait has such an arrive before it, with no other arrive
 *     between (pairs neither nest nor overlap);
 *   - nothing between the two reaches a global barrier (global_barrier(),
 *     a half, a function that reaches one);
 *   - nothing between the two leaves the pair (return, goto, or a break
 *     or continue of a loop or switch around the pair).
 * The uniformity checker (uniform.c) checks each half as it checks a
 * global_barrier(), so a pair in code that only some work-items run is
 * refused there. gsri_check_split_rule refuses the halves where the
 * chosen barrier has no split form (its header has no @split).
 */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* What the pass reads: per node, the half it calls plus one (0: none of
 * them) and whether it reaches a barrier at all. */
typedef struct split_check {
  gsri_ctx *ctx;
  unsigned char *half;  /* GSR_WHOLE + 1 .. GSR_WAIT + 1, or 0 */
  unsigned char *calls; /* gsri_barrier_calls() */
} split_check;

/* Reports sev at node n's position. */
static void report_node(split_check *sc, gsr_severity sev, unsigned n,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report_node(split_check *sc, gsr_severity sev, unsigned n,
                        const char *fmt, ...) {
  gsri_buf msg = {0};
  va_list ap;
  va_start(ap, fmt);
  gsri_buf_vprintf(&msg, fmt, ap);
  va_end(ap);
  gsri_report_loc(sc->ctx, sev, clang_getCursorLocation(sc->ctx->nodes[n].c),
                  "%s", gsri_buf_text(sc->ctx, &msg));
  gsri_buf_free(&msg);
}

/* Notes where the global_barrier_arrive() at node open is. */
static void note_arrive(split_check *sc, unsigned open) {
  report_node(sc, GSR_NOTE, open, "the global_barrier_arrive() is here");
}

/* Nonzero if kind is a loop. */
static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt;
}

/* Reports the global_barrier_arrive() at node open, whose block has no
 * global_barrier_wait() for it. */
static void report_unpaired(split_check *sc, unsigned open) {
  report_node(sc, GSR_ERROR, open,
              "global_barrier_arrive() without a global_barrier_wait() after "
              "it in the same block; every work-item must run the wait "
              "before it leaves the block");
}

/* The first node of the subtree of n that calls a barrier or a function
 * that reaches one, or GSR_NO_NODE. */
static unsigned first_barrier(const split_check *sc, unsigned n) {
  for (unsigned j = n; j < sc->ctx->nodes[n].end; j++)
    if (sc->calls[j])
      return j;
  return GSR_NO_NODE;
}

/* The first node of the subtree of n that leaves it: a return, a goto, or
 * a break or continue whose loop (or switch) is outside n; GSR_NO_NODE
 * if none. */
static unsigned first_exit(const split_check *sc, unsigned n) {
  const gsri_node *nodes = sc->ctx->nodes;
  for (unsigned j = n; j < nodes[n].end; j++) {
    enum CXCursorKind k = nodes[j].kind;
    if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt ||
        k == CXCursor_IndirectGotoStmt)
      return j;
    if (k != CXCursor_BreakStmt && k != CXCursor_ContinueStmt)
      continue;
    unsigned t = nodes[j].parent;
    while (t != GSR_NO_NODE && !is_loop(nodes[t].kind) &&
           !(k == CXCursor_BreakStmt && nodes[t].kind == CXCursor_SwitchStmt))
      t = nodes[t].parent;
    if (t == GSR_NO_NODE || t < n || t >= nodes[n].end)
      return j;
  }
  return GSR_NO_NODE;
}

/* The name of what node n calls, for a message: a half's, or that of the
 * function called. malloc'd; NULL when out of memory. */
static char *callee_of(const split_check *sc, unsigned n) {
  if (sc->half[n])
    return gsri_strdup(gsri_barrier_names[sc->half[n] - 1]);
  CXString s = clang_getCursorSpelling(sc->ctx->nodes[n].c);
  char *name = gsri_strdup(clang_getCString(s));
  clang_disposeString(s);
  return name;
}

/* Checks statement k, which lies between the global_barrier_arrive() at
 * node open and its wait: it may neither reach a barrier nor leave the
 * pair. Returns 0 after reporting. */
static int check_between(split_check *sc, unsigned open, unsigned k) {
  unsigned b = first_barrier(sc, k);
  if (b != GSR_NO_NODE && sc->half[b] > GSR_WHOLE + 1) {
    /* A half inside a statement of this block: not this arrive's wait
     * (its own block's check says what it is). */
    report_unpaired(sc, open);
    return 0;
  }
  if (b != GSR_NO_NODE) {
    char *name = callee_of(sc, b);
    if (!name)
      return gsri_nomem(sc->ctx);
    if (sc->half[b])
      report_node(sc, GSR_ERROR, b,
                  "%s() between global_barrier_arrive() and its "
                  "global_barrier_wait(); no global barrier may come "
                  "between the two halves",
                  name);
    else
      report_node(sc, GSR_ERROR, b,
                  "call of '%s', which reaches a global barrier, between "
                  "global_barrier_arrive() and its global_barrier_wait(); "
                  "no global barrier may come between the two halves",
                  name);
    free(name);
    note_arrive(sc, open);
    return 0;
  }
  unsigned x = first_exit(sc, k);
  if (x != GSR_NO_NODE) {
    enum CXCursorKind kind = sc->ctx->nodes[x].kind;
    const char *what = kind == CXCursor_ReturnStmt     ? "return"
                       : kind == CXCursor_BreakStmt    ? "break"
                       : kind == CXCursor_ContinueStmt ? "continue"
                                                       : "goto";
    report_node(sc, GSR_ERROR, x,
                "'%s' between global_barrier_arrive() and its "
                "global_barrier_wait(): a work-item that takes it skips the "
                "wait",
                what);
    note_arrive(sc, open);
    return 0;
  }
  return 1;
}

/* Checks the statements of compound statement node b: pairs in order,
 * nothing that reaches a barrier between the halves. */
static void check_block(split_check *sc, unsigned b) {
  const gsri_ctx *ctx = sc->ctx;
  const gsri_node *block = &ctx->nodes[b];
  unsigned open = GSR_NO_NODE;
  for (unsigned i = 0; i < block->n_kids; i++) {
    unsigned k = ctx->kids[block->kids + i];
    int half = sc->half[k] ? sc->half[k] - 1 : -1;
    if (half == GSR_ARRIVE) {
      if (open != GSR_NO_NODE) {
        report_node(sc, GSR_ERROR, k,
                    "global_barrier_arrive() again before the "
                    "global_barrier_wait() of the one before it; each "
                    "arrive needs its wait first, and pairs do not nest");
        note_arrive(sc, open);
        return;
      }
      open = k;
    } else if (half == GSR_WAIT) {
      if (open == GSR_NO_NODE) {
        report_node(sc, GSR_ERROR, k,
                    "global_barrier_wait() without a global_barrier_arrive() "
                    "before it in the same block");
        return;
      }
      open = GSR_NO_NODE;
    } else if (open != GSR_NO_NODE && !check_between(sc, open, k)) {
      return;
    }
  }
  if (open != GSR_NO_NODE)
    report_unpaired(sc, open);
}

void gsri_check_split(gsri_ctx *ctx) {
  size_t halves = 0;
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++)
      halves += ctx->funcs[i].sites[s].kind == GSR_SITE_BARRIER &&
                ctx->funcs[i].sites[s].half != GSR_WHOLE;
  if (!halves)
    return;
  split_check sc = {ctx, calloc(ctx->n_nodes ? ctx->n_nodes : 1, 1),
                    gsri_barrier_calls(ctx)};
  if (!sc.half || !sc.calls) {
    gsri_nomem(ctx);
    goto done;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
      const gsri_site *site = &ctx->funcs[i].sites[s];
      if (site->kind == GSR_SITE_BARRIER)
        sc.half[site->node] = (unsigned char)(site->half + 1);
    }
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    const gsri_func *fn = &ctx->funcs[i];
    if (!fn->has_def)
      continue;
    /* Halves out of place first, then the blocks' pairs: a half out of
     * place leaves its block's other half unpaired too. */
    for (unsigned n = fn->root; n < ctx->nodes[fn->root].end; n++) {
      unsigned p = ctx->nodes[n].parent;
      int half = sc.half[n] ? sc.half[n] - 1 : -1;
      if ((half == GSR_ARRIVE || half == GSR_WAIT) &&
          (p == GSR_NO_NODE || ctx->nodes[p].kind != CXCursor_CompoundStmt))
        report_node(&sc, GSR_ERROR, n,
                    "%s() must be a statement of its own in a block (the "
                    "other half a later statement of the same block)",
                    gsri_barrier_names[half]);
    }
    for (unsigned n = fn->root; n < ctx->nodes[fn->root].end; n++)
      if (ctx->nodes[n].kind == CXCursor_CompoundStmt)
        check_block(&sc, n);
  }
done:
  free(sc.half);
  free(sc.calls);
}

void gsri_check_split_rule(gsri_ctx *ctx) {
  if (!ctx->barrier || ctx->barrier->splits)
    return;
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
      const gsri_site *site = &ctx->funcs[i].sites[s];
      if (site->kind != GSR_SITE_BARRIER || site->half == GSR_WHOLE)
        continue;
      gsri_buf which = {0};
      if (ctx->n_auto) {
        gsri_auto_non_splitting(ctx, &which);
        gsri_report_in(ctx, GSR_ERROR, site->file, site->line, site->col,
                       "--barrier=auto holds %s, which does not split into "
                       "global_barrier_arrive() and global_barrier_wait() "
                       "(its rule has no '@split'); name a barrier that "
                       "splits with --barrier=NAME",
                       gsri_buf_text(ctx, &which));
        gsri_buf_free(&which);
        return;
      }
      for (size_t r = 0; r < ctx->rules.n; r++)
        if (ctx->rules.rules[r].is_barrier && ctx->rules.rules[r].splits)
          gsri_buf_printf(&which, "%s%s", which.len ? ", " : "",
                          ctx->rules.rules[r].name + 8);
      gsri_report_in(ctx, GSR_ERROR, site->file, site->line, site->col,
                     "barrier '%s' does not split into global_barrier_arrive() "
                     "and global_barrier_wait() (its rule has no '@split'); "
                     "barriers that do: %s",
                     ctx->barrier->name + 8,
                     which.len ? gsri_buf_text(ctx, &which) : "none");
      gsri_buf_free(&which);
      return; /* once: the choice of barrier is the one fix */
    }
}
