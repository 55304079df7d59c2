/* Part of the plan stage: the checks that let a work-group leave the kernel
 * after a launch was aborted (--spin-limit).
 *
 * A barrier that gives up returns normally, with gsync_aborted() true for
 * every work-item of the group. What must not run on is the code after it,
 * so every statement that can abort, one that calls global_barrier() or a
 * function that reaches it, is followed by
 *     if (gsync_aborted(gsync_ctx)) return;
 * In a helper the return hands the check to its caller's statement, and so
 * on up to the kernel. The check goes after the statement that holds the
 * call in a block of the input's own text (a macro expansion is checked
 * after the whole expansion), in braces when that statement is the body
 * of an if, a loop or a case; after a return there is nothing to check. A
 * loop whose condition or increment can abort also checks at the top of
 * its body, so that a condition that keeps it going cannot keep it going
 * after an abort. Every check reads a local word: cheap, and uniform
 * across the work-group.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char check[] = "if (gsync_aborted(gsync_ctx)) ";

typedef struct awalk {
  gsr_ctx *ctx;
  const unsigned char *abortable; /* per node: a call that can abort */
  char *leave; /* the check and its return, for this function */
} awalk;

/* Where a child sits in its parent: in an expression or a header (the
 * check goes further out), as a statement of a block, or as the body of a
 * control statement (it needs braces around it and its check). */
enum role { INSIDE, IN_BLOCK, AS_BODY };

/* The role of child i of n of a cursor of kind k. libclang lists only the
 * children that are present: a for loop's body is always its last, a do
 * loop's its first, an if's then and else follow its condition. */
static enum role role_of(enum CXCursorKind k, unsigned i, unsigned n) {
  switch (k) {
  case CXCursor_CompoundStmt:
    return IN_BLOCK;
  case CXCursor_IfStmt:
    return i >= 1 ? AS_BODY : INSIDE;
  case CXCursor_DoStmt:
    return i == 0 ? AS_BODY : INSIDE;
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_SwitchStmt:
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
  case CXCursor_LabelStmt:
    return i + 1 == n ? AS_BODY : INSIDE;
  default:
    return INSIDE;
  }
}

/* Nonzero if statement c is written in the input where it stands, not
 * produced by a macro: only there can text go around its statements.
 * (libclang 14 reports a location in a macro body at the expansion, so
 * the test is that the text there is the statement's own first token.) */
static int written_here(const gsr_ctx *ctx, CXCursor c, enum CXCursorKind k) {
  static const struct {
    enum CXCursorKind kind;
    const char *token;
  } first[] = {{CXCursor_CompoundStmt, "{"},   {CXCursor_IfStmt, "if"},
               {CXCursor_ForStmt, "for"},      {CXCursor_WhileStmt, "while"},
               {CXCursor_DoStmt, "do"},        {CXCursor_SwitchStmt, "switch"},
               {CXCursor_CaseStmt, "case"},    {CXCursor_DefaultStmt, "default"},
               {CXCursor_LabelStmt, NULL}};
  for (size_t i = 0; i < sizeof first / sizeof first[0]; i++) {
    if (first[i].kind != k)
      continue;
    CXFile f;
    unsigned off;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)),
                               &f, NULL, NULL, &off);
    if (!f || !gsr_same_file(ctx, f, ctx->main_file))
      return 0;
    CXString label = clang_getCursorSpelling(c);
    const char *t = first[i].token ? first[i].token : clang_getCString(label);
    size_t n = strlen(t);
    int ok = n && off + n <= ctx->src_len && !memcmp(ctx->src + off, t, n);
    clang_disposeString(label);
    return ok;
  }
  return 0;
}

/* The input span of statement s, with the ';' that ends it. Returns 0 if
 * it does not lie in the input. */
static int statement_span(const gsr_ctx *ctx, CXCursor s, size_t *begin,
                          size_t *end) {
  CXSourceRange r = clang_getCursorExtent(s);
  CXFile bf, ef;
  unsigned b, e;
  clang_getExpansionLocation(clang_getRangeStart(r), &bf, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &e);
  if (!bf || !ef || !gsr_same_file(ctx, bf, ctx->main_file) ||
      !gsr_same_file(ctx, ef, ctx->main_file) || e <= b ||
      e > ctx->src_len)
    return 0;
  size_t next = gsr_skip_blank(ctx, e);
  *begin = b;
  *end = next < ctx->src_len && ctx->src[next] == ';' ? next + 1 : e;
  return 1;
}

/* Plans the check after statement s, or first thing in it (a loop body)
 * when at_top. Reports if s cannot be edited. */
static void plan_check(awalk *w, CXCursor s, enum role role, int at_top) {
  gsr_ctx *ctx = w->ctx;
  if (!at_top && clang_getCursorKind(s) == CXCursor_ReturnStmt)
    return; /* the caller checks */
  size_t begin, end;
  if (!statement_span(ctx, s, &begin, &end)) {
    unsigned line, col;
    clang_getExpansionLocation(clang_getCursorLocation(s), NULL, &line, &col,
                               NULL);
    gsr_report(ctx, GSR_ERROR, line, col,
               "cannot place the check that leaves the kernel after an "
               "aborted barrier after this statement: a macro argument holds "
               "the whole statement (--spin-limit=0 needs no check)");
    return;
  }
  if (at_top && written_here(ctx, s, clang_getCursorKind(s)) &&
      clang_getCursorKind(s) == CXCursor_CompoundStmt) {
    gsr_buf text = {0};
    gsr_buf_printf(&text, " %s", w->leave);
    gsr_add_edit(ctx, begin + 1, 0, text.data);
    gsr_buf_free(&text);
    return;
  }
  gsr_buf text = {0};
  if (at_top) {
    gsr_buf_printf(&text, "{ %s ", w->leave);
    gsr_add_edit(ctx, begin, 0, text.data);
    gsr_add_edit(ctx, end, 0, " }");
  } else {
    if (role == AS_BODY)
      gsr_add_edit(ctx, begin, 0, "{ ");
    gsr_buf_printf(&text, " %s%s", w->leave, role == AS_BODY ? " }" : "");
    gsr_add_edit(ctx, end, 0, text.data);
  }
  gsr_buf_free(&text);
}

/* Walks node n after its children (so that inner checks come first where
 * two meet). Returns nonzero if n holds a call that can abort whose
 * statement lies further out. */
static int walk(awalk *w, unsigned n) {
  gsr_ctx *ctx = w->ctx;
  const gsr_node *node = &ctx->nodes[n];
  const unsigned *kids = ctx->kids + node->kids;
  enum CXCursorKind k = node->kind;
  int pending = w->abortable[n];
  int here = written_here(ctx, node->c, k), header = 0;
  for (unsigned i = 0; i < node->n_kids; i++) {
    if (!walk(w, kids[i]))
      continue;
    enum role r = role_of(k, i, node->n_kids);
    if (here && r != INSIDE) {
      plan_check(w, ctx->nodes[kids[i]].c, r, 0);
      continue;
    }
    pending = 1;
    header |= here && (k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
                       k == CXCursor_DoStmt);
  }
  if (header && node->n_kids > 0) {
    unsigned body = kids[k == CXCursor_DoStmt ? 0 : node->n_kids - 1];
    plan_check(w, ctx->nodes[body].c, AS_BODY, 1);
  }
  return pending;
}

/* The statement that leaves fn: a plain return, or one with a value of
 * the function's type (the caller's check discards it). */
static char *leave_text(const gsr_func *fn) {
  CXType t = clang_getCursorResultType(fn->def);
  gsr_buf b = {0};
  if (t.kind == CXType_Void) {
    gsr_buf_printf(&b, "%sreturn;", check);
  } else {
    CXString s = clang_getTypeSpelling(t);
    gsr_buf_printf(&b, "%sreturn (%s){0};", check, clang_getCString(s));
    clang_disposeString(s);
  }
  return gsr_buf_take(&b);
}

/* Nonzero if fn is defined in the text being rewritten (a definition in
 * an included file is an error of its own: plan.c reports it). */
static int defined_here(const gsr_func *fn) {
  for (size_t d = 0; d < fn->n_decls; d++)
    if (fn->decls[d].is_def)
      return fn->decls[d].in_main;
  return 0;
}

/* Plans the checks in every function that reaches a barrier. The calls
 * that can abort are the call sites of global_barrier() and of functions
 * that reach it; find recorded the node of each. */
void gsr_plan_abort_checks(gsr_ctx *ctx) {
  unsigned char *abortable = calloc(ctx->n_nodes ? ctx->n_nodes : 1, 1);
  if (!abortable) {
    ctx->errors++;
    return;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
      const gsr_site *site = &ctx->funcs[i].sites[s];
      if (site->kind == GSR_SITE_BARRIER ||
          (site->kind == GSR_SITE_CALL &&
           ctx->funcs[site->callee].reaches_barrier))
        abortable[site->node] = 1;
    }
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsr_func *fn = &ctx->funcs[i];
    if (!fn->has_def || !fn->reaches_barrier || !defined_here(fn))
      continue;
    awalk w = {ctx, abortable, leave_text(fn)};
    if (!w.leave) {
      ctx->errors++;
      continue;
    }
    if (walk(&w, fn->root))
      gsr_report(ctx, GSR_ERROR, fn->line, fn->col,
                 "cannot place the checks that leave '%s' after an aborted "
                 "barrier: its body is written by a macro",
                 fn->name);
    free(w.leave);
  }
  free(abortable);
}
