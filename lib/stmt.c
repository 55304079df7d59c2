/* Part of the plan stage: where statements are written, and inserts that
 * nest, for the parts of the plan that add code around the user's
 * statements (abort.c's loop guards, anchor.c's anchors).
 *
 * Several of them may add text at one offset: an anchor after the last
 * statement of a loop body goes where the loop's guard goes, and a
 * statement that is the whole body of a loop without braces is wrapped in
 * braces once for the guard and once more for its own anchor. Inserts at
 * one offset are ordered by rank (apply.c), and the ranks here make them
 * nest as the statements do: at an offset where constructs end, the
 * innermost closes first and an insert after a statement comes before the
 * brace that closes a wrap of that statement; where constructs begin, the
 * outermost opens first and an insert at the top of a body comes right
 * after its opening brace; everything that closes comes before everything
 * that opens.
 */
#include "internal.h"

#include <stdlib.h>

/* Ranks are offsets doubled, on either side of 0 (the rank of every other
 * edit); inputs are far below 2^60 bytes. */
#define NEST (1ll << 61)

size_t gsri_written_at(const gsri_ctx *ctx, CXCursor c) {
  CXFile f;
  unsigned off;
  CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
  clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
  if (!f || !gsri_same_file(ctx, f, ctx->main_file) || off >= ctx->src_len)
    return NO_OFF;
  CXFile sf;
  unsigned soff;
  clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
  return sf && gsri_same_file(ctx, sf, ctx->main_file) && soff == off ? off
                                                                      : NO_OFF;
}

size_t gsri_written_end(const gsri_ctx *ctx, CXCursor c) {
  CXFile f;
  unsigned off;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &f,
                             NULL, NULL, &off);
  if (!f || !gsri_same_file(ctx, f, ctx->main_file) || off > ctx->src_len)
    return NO_OFF;
  return off;
}

int gsri_stmt_span(const gsri_ctx *ctx, unsigned n, size_t *start,
                   size_t *end) {
  const gsri_node *node = &ctx->nodes[n];
  size_t s = gsri_written_at(ctx, node->c), e = gsri_written_end(ctx, node->c);
  if (s == NO_OFF || e == NO_OFF || e <= s)
    return 0;
  if (ctx->src[e - 1] != '}' && ctx->src[e - 1] != ';') {
    /* A statement's extent leaves out its ';' (break;, x = 1;, and an if
     * or a loop whose last statement is one). */
    size_t semi = gsri_skip_blank(ctx, e);
    if (semi >= ctx->src_len || ctx->src[semi] != ';')
      return 0;
    e = semi + 1;
  }
  *start = s;
  *end = e;
  return 1;
}

void gsri_insert_at_top(gsri_ctx *ctx, size_t start, size_t end,
                        const char *text) {
  gsri_add_insert(ctx, start, text, NEST - 2 * (long long)end + 1);
}

void gsri_insert_at_end(gsri_ctx *ctx, size_t start, size_t end,
                        const char *text) {
  gsri_add_insert(ctx, end, text, -NEST - 2 * (long long)start - 1);
}

void gsri_insert_before_top(gsri_ctx *ctx, size_t start, size_t end,
                            const char *text) {
  gsri_add_insert(ctx, start, text, NEST - 2 * (long long)end);
}

void gsri_insert_before_end(gsri_ctx *ctx, size_t start, size_t end,
                            const char *text) {
  gsri_add_insert(ctx, end, text, -NEST - 2 * (long long)start - 2);
}

void gsri_wrap(gsri_ctx *ctx, size_t start, size_t end) {
  gsri_add_insert(ctx, start, "{ ", NEST - 2 * (long long)end);
  gsri_add_insert(ctx, end, " }", -NEST - 2 * (long long)start);
}

unsigned char *gsri_barrier_calls(gsri_ctx *ctx) {
  unsigned char *calls = calloc(ctx->n_nodes ? ctx->n_nodes : 1, 1);
  if (!calls) {
    gsri_nomem(ctx);
    return NULL;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
      const gsri_site *site = &ctx->funcs[i].sites[s];
      if (site->kind == GSR_SITE_BARRIER ||
          (site->kind == GSR_SITE_CALL &&
           ctx->funcs[site->callee].reaches_barrier))
        calls[site->node] = 1;
    }
  return calls;
}

int gsri_defined_here(const gsri_func *fn) {
  for (size_t d = 0; d < fn->n_decls; d++)
    if (fn->decls[d].is_def)
      return fn->decls[d].in_main;
  return 0;
}

int gsri_never_repeats(const gsri_ctx *ctx, unsigned n) {
  const gsri_node *node = &ctx->nodes[n];
  unsigned cond;
  if (node->kind == CXCursor_DoStmt && node->n_kids == 2)
    cond = ctx->kids[node->kids + 1];
  else if (node->kind == CXCursor_WhileStmt && node->n_kids == 2)
    cond = ctx->kids[node->kids];
  else
    return 0;
  CXEvalResult r = clang_Cursor_Evaluate(ctx->nodes[cond].c);
  if (!r)
    return 0;
  int zero = clang_EvalResult_getKind(r) == CXEval_Int &&
             clang_EvalResult_getAsLongLong(r) == 0;
  clang_EvalResult_dispose(r);
  return zero;
}

int gsri_brace_after_blank(const gsri_ctx *ctx, size_t end) {
  char before = end >= 2 ? ctx->src[end - 2] : '\0';
  return before == ' ' || before == '\t' || before == '\n';
}

CXCursor gsri_goto_label(const gsri_ctx *ctx, unsigned n) {
  const gsri_node *node = &ctx->nodes[n];
  for (unsigned k = 0; k < node->n_kids; k++) {
    const gsri_node *kid = &ctx->nodes[ctx->kids[node->kids + k]];
    if (kid->kind == CXCursor_LabelRef)
      return clang_getCursorReferenced(kid->c);
  }
  return clang_getNullCursor();
}
