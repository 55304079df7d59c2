/* '#pragma gsync uniform': the user's word, at one loop, that every
 * work-item runs it the same number of times, for a loop whose trip count
 * the uniformity checker cannot prove (uniform.c then takes the loop's
 * condition as uniform; what is inside it is still checked).
 *
 * Like '#pragma unroll' it stands on the line before the loop it speaks
 * for. A driver ignores a pragma it does not know, but some say so in the
 * build log (clang with -Wall: "unknown pragma ignored"), so the output
 * keeps it as a comment of the same line. Anything else after
 * '#pragma gsync', or the pragma anywhere but right before a for, while or
 * do loop, is an error; before a loop that reaches no barrier it is a
 * warning, since it says nothing there.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define PRAGMA_GONE "/* #pragma gsync uniform */"

/* Nonzero if offset off of the input lies in a branch the preprocessor
 * skipped. */
static int in_skipped(const CXSourceRangeList *skipped, unsigned off) {
  for (unsigned r = 0; skipped && r < skipped->count; r++) {
    unsigned b, e;
    clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[r]), NULL,
                              NULL, NULL, &b);
    clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[r]), NULL, NULL,
                              NULL, &e);
    if (b <= off && off < e)
      return 1;
  }
  return 0;
}

/* Offset of token t, and its line in *line when line is not NULL. */
static unsigned token_at(gsri_ctx *ctx, CXToken t, unsigned *line) {
  unsigned off;
  clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, t), NULL, line,
                            NULL, &off);
  return off;
}

/* Nonzero if token t spells s. */
static int token_is(gsri_ctx *ctx, CXToken t, const char *s) {
  CXString sp = clang_getTokenSpelling(ctx->tu, t);
  int r = strcmp(clang_getCString(sp), s) == 0;
  clang_disposeString(sp);
  return r;
}

/* The offset of the first token after the line that ends at eol: blanks,
 * comments, preprocessor directives and skipped branches do not count, as
 * they do not for the compiler's '#pragma unroll'. */
static size_t next_token(const gsri_ctx *ctx, const CXSourceRangeList *skipped,
                         size_t eol) {
  size_t at = gsri_skip_blank(ctx, eol);
  for (int guard = 0; at < ctx->src_len && guard < 1000; guard++) {
    int found = 0;
    for (unsigned r = 0; skipped && r < skipped->count && !found; r++) {
      unsigned b, e;
      clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[r]), NULL,
                                NULL, NULL, &b);
      clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[r]), NULL,
                                NULL, NULL, &e);
      if (b <= at && at < e) {
        at = gsri_skip_blank(ctx, e);
        found = 1;
      }
    }
    if (found)
      continue;
    if (ctx->src[at] != '#')
      break;
    while (at < ctx->src_len && ctx->src[at] != '\n')
      at += ctx->src[at] == '\\' && at + 1 < ctx->src_len ? 2 : 1;
    at = gsri_skip_blank(ctx, at);
  }
  return at;
}

/* The loop node that starts at offset off of the input, or GSR_NO_NODE. */
static unsigned loop_at(gsri_ctx *ctx, size_t off) {
  for (size_t n = 0; n < ctx->n_nodes; n++) {
    enum CXCursorKind k = ctx->nodes[n].kind;
    if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt &&
        k != CXCursor_DoStmt)
      continue;
    CXFile f;
    unsigned at;
    clang_getExpansionLocation(clang_getCursorLocation(ctx->nodes[n].c), &f,
                               NULL, NULL, &at);
    if (at == off && gsri_same_file(ctx, f, ctx->main_file))
      return (unsigned)n;
  }
  return GSR_NO_NODE;
}

/* Nonzero if a barrier call lies inside loop node n. */
static int loop_reaches_barrier(const gsri_ctx *ctx, unsigned n) {
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
      const gsri_site *site = &ctx->funcs[i].sites[s];
      if (site->node > n && site->node < ctx->nodes[n].end &&
          (site->kind == GSR_SITE_BARRIER ||
           (site->kind == GSR_SITE_CALL &&
            ctx->funcs[site->callee].reaches_barrier)))
        return 1;
    }
  return 0;
}

/* Handles one '#pragma gsync' whose '#' is token i of n (all on line
 * `line`): records the loop it speaks for and plans the comment that
 * replaces it. Returns the index of the token after the directive. */
static unsigned one_pragma(gsri_ctx *ctx, const CXSourceRangeList *skipped,
                           CXToken *toks, unsigned i, unsigned n,
                           unsigned line) {
  unsigned hash_off = token_at(ctx, toks[i], NULL);
  unsigned col;
  clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                            NULL, &col, NULL);
  unsigned j = i + 3, l = 0;
  if (i + 3 < n)
    token_at(ctx, toks[i + 3], &l);
  if (i + 3 >= n || l != line || !token_is(ctx, toks[i + 3], "uniform")) {
    int has_word = i + 3 < n && l == line;
    CXString w = clang_getTokenSpelling(ctx->tu, toks[has_word ? i + 3 : i]);
    gsri_report(ctx, GSR_ERROR, line, col,
                "unknown '#pragma gsync' directive '%s' (the one there is: "
                "'#pragma gsync uniform')",
                has_word ? clang_getCString(w) : "");
    clang_disposeString(w);
  } else {
    j = i + 4;
    CXSourceRange r = clang_getTokenExtent(ctx->tu, toks[i + 3]);
    unsigned end;
    clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
    /* The statement after the directive's line. */
    size_t eol = end;
    while (eol < ctx->src_len && ctx->src[eol] != '\n')
      eol++;
    unsigned loop = loop_at(ctx, next_token(ctx, skipped, eol));
    int extra = j < n && (token_at(ctx, toks[j], &l), l == line);
    if (extra)
      gsri_report(ctx, GSR_ERROR, line, col,
                  "'#pragma gsync uniform' takes nothing after 'uniform'");
    else if (loop == GSR_NO_NODE)
      gsri_report(ctx, GSR_ERROR, line, col,
                  "'#pragma gsync uniform' must come right before a for, while "
                  "or do loop");
    else if (!loop_reaches_barrier(ctx, loop))
      gsri_report(ctx, GSR_WARNING, line, col,
                  "'#pragma gsync uniform' has no effect: the loop after it "
                  "reaches no global_barrier()");
    if (loop != GSR_NO_NODE && !extra) {
      unsigned *p =
          realloc(ctx->pragma_loops, (ctx->n_pragma_loops + 1) * sizeof *p);
      if (p) {
        ctx->pragma_loops = p;
        p[ctx->n_pragma_loops++] = loop;
      }
    }
    gsri_add_edit(ctx, hash_off, end - hash_off, PRAGMA_GONE);
  }
  while (j < n && (token_at(ctx, toks[j], &l), l == line))
    j++;
  return j;
}

/* Reads the '#pragma gsync' directives of the input (outside skipped
 * branches): the loops they speak for go to ctx->pragma_loops, mistakes
 * are reported, and each becomes a comment in the output. */
void gsri_read_pragmas(gsri_ctx *ctx) {
  if (!gsri_input_mentions(ctx, "gsync"))
    return;
  CXToken *toks;
  unsigned n = gsri_tokenize_input(ctx, &toks);
  CXSourceRangeList *skipped = clang_getSkippedRanges(ctx->tu, ctx->main_file);
  for (unsigned i = 0; i + 2 < n;) {
    unsigned line, l1, l2;
    unsigned off = token_at(ctx, toks[i], &line);
    token_at(ctx, toks[i + 1], &l1);
    token_at(ctx, toks[i + 2], &l2);
    unsigned before = 0;
    if (i > 0)
      token_at(ctx, toks[i - 1], &before);
    if ((i == 0 || before != line) && l1 == line && l2 == line &&
        token_is(ctx, toks[i], "#") && token_is(ctx, toks[i + 1], "pragma") &&
        token_is(ctx, toks[i + 2], "gsync") && !in_skipped(skipped, off))
      i = one_pragma(ctx, skipped, toks, i, n, line);
    else
      i++;
  }
  if (skipped)
    clang_disposeSourceRangeList(skipped);
  clang_disposeTokens(ctx->tu, toks, n);
}
