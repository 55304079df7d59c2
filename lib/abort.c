/* Part of the plan stage: the guards that end a work-group's loops after a
 * launch was aborted (--spin-limit).
 *
 * A barrier that gives up returns normally, with gsync_aborted() true for
 * every work-item of the group, and from then on no barrier of that group
 * waits (prelude.cl). What could still keep the group in the kernel is a
 * loop that goes on because of what the barriers were to synchronise: a
 * convergence or work-list loop may never end once the other groups stop
 * taking part. So every loop that can abort (its body, condition or
 * increment calls global_barrier() or a function that reaches it) gets a
 * guard in its condition,
 *     while (c)            ->  while (gsync_running(gsync_ctx) && (c))
 *     for (i; c; n)        ->  for (i; gsync_running(gsync_ctx) && (c); n)
 *     for (i; ; n)         ->  for (i; gsync_running(gsync_ctx); n)
 *     do s while (c);      ->  do s while (gsync_running(gsync_ctx) && (c));
 * and the rest of the kernel runs to its end with barriers that no longer
 * wait. The guard reads a local word: cheap, and uniform across the group.
 *
 * The guards are the only edits: the rewritten code has no early return.
 * An earlier form returned after every statement that could abort, and
 * PoCL 3.1 compiles a kernel with such a return between work-group
 * barriers wrongly (work after the return that is never taken is lost;
 * docs/pocl.md has the reduced kernel), which the guards avoid. The cost
 * is that code after an aborted barrier runs once more with data the
 * barrier did not synchronise (docs/barriers.md).
 *
 * A loop that never repeats (do { ... } while (0), as macros write them,
 * or while (0)) needs no guard. A loop written with goto (a jump back to a
 * label) cannot be guarded and is refused where it can abort; so is a loop
 * that a macro writes whole, header and body.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char guard[] = "gsync_running(gsync_ctx)";

/* Wraps the condition between lparen and rparen (a while or do loop's)
 * in the guard. */
static void guard_condition(gsri_ctx *ctx, size_t lparen, size_t rparen) {
  gsri_buf text = {0};
  gsri_buf_printf(&text, "%s && (", guard);
  gsri_add_edit(ctx, lparen + 1, 0, gsri_buf_text(ctx, &text));
  gsri_add_edit(ctx, rparen, 0, ")");
  gsri_buf_free(&text);
}

/* Guards loop node n in its header (the form the block comment shows):
 * the fallback for a body that cannot be edited. Returns 0 (after
 * reporting) if the header is not written in the input where the edits
 * can go. */
static int guard_header(gsri_ctx *ctx, unsigned n) {
  const gsri_node *node = &ctx->nodes[n];
  size_t at = gsri_written_at(ctx, node->c), kw = at, lparen, rparen;
  if (node->kind == CXCursor_DoStmt && at != NO_OFF && node->n_kids > 0) {
    /* do BODY while (COND); the keyword follows the body. */
    size_t body_end =
        gsri_written_end(ctx, ctx->nodes[ctx->kids[node->kids]].c);
    kw = body_end == NO_OFF ? NO_OFF : gsri_skip_blank(ctx, body_end);
    if (kw != NO_OFF && kw < ctx->src_len && ctx->src[kw] == ';')
      kw = gsri_skip_blank(ctx, kw + 1); /* a body that is one statement */
  }
  const char *word = node->kind == CXCursor_ForStmt ? "for" : "while";
  if (kw != NO_OFF && gsri_word_at(ctx, kw, word)) {
    lparen = gsri_skip_blank(ctx, kw + strlen(word));
    if (lparen < ctx->src_len && ctx->src[lparen] == '(') {
      size_t semis[2], n_semis = 0;
      rparen = gsri_scan_parens(ctx, lparen, semis, 2, &n_semis);
      if (rparen != NO_OFF && node->kind != CXCursor_ForStmt) {
        guard_condition(ctx, lparen, rparen);
        return 1;
      }
      if (rparen != NO_OFF && n_semis == 2) {
        size_t cond = gsri_skip_blank(ctx, semis[0] + 1);
        gsri_buf text = {0};
        if (cond == semis[1]) {
          gsri_buf_printf(&text, " %s", guard);
          gsri_add_edit(ctx, semis[0] + 1, 0, gsri_buf_text(ctx, &text));
        } else {
          gsri_buf_printf(&text, "%s && (", guard);
          gsri_add_edit(ctx, cond, 0, gsri_buf_text(ctx, &text));
          gsri_add_edit(ctx, semis[1], 0, ")");
        }
        gsri_buf_free(&text);
        return 1;
      }
    }
  }
  unsigned line, col;
  clang_getExpansionLocation(clang_getCursorLocation(node->c), NULL, &line,
                             &col, NULL);
  gsri_report(ctx, GSR_ERROR, line, col,
              "cannot guard this loop, which a barrier can abort: a macro "
              "writes both its header and its body (--spin-limit=0 needs no "
              "guard)");
  return 0;
}

/* Collects into *conts (up to max) the continue statements of loop node
 * n's body that continue n itself, not a loop inside it. Returns how many
 * there are, or -1 if one is not written in the input (a macro's). */
static int own_continues(const gsri_ctx *ctx, unsigned n, size_t *conts,
                         int max) {
  int count = 0;
  const gsri_node *loop = &ctx->nodes[n];
  for (unsigned i = n + 1; i < loop->end; i++) {
    enum CXCursorKind k = ctx->nodes[i].kind;
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
        k == CXCursor_DoStmt) {
      i = ctx->nodes[i].end - 1; /* its continues are its own */
      continue;
    }
    if (k != CXCursor_ContinueStmt)
      continue;
    size_t at = gsri_written_at(ctx, ctx->nodes[i].c);
    if (at == NO_OFF || !gsri_word_at(ctx, at, "continue"))
      return -1;
    if (count < max)
      conts[count] = at;
    count++;
  }
  return count;
}

/* Plans the guard of loop node n. A while or for loop is guarded at the
 * end of its body,
 *     while (c) { s }  ->  while (c) { s if (!gsync_running(gsync_ctx)) break;
 * } with a continue of the loop turned into a jump to the guard; a do loop in
 * its condition, which is at the end already. PoCL 3.1 miscompiles some loops
 * guarded in a for header (a for (;;) that calls the barrier through a helper
 * lost work at -O2; docs/pocl.md), and the end of the body is where the loop
 * decides to go round again in every compiler. A body that a macro writes, or a
 * continue that one does, keeps the header guard. Returns 0 (after reporting)
 * if the loop cannot be guarded. */
static int guard_loop(gsri_ctx *ctx, unsigned n, unsigned *labels) {
  const gsri_node *node = &ctx->nodes[n];
  if (node->kind == CXCursor_DoStmt || node->n_kids == 0)
    return guard_header(ctx, n);
  /* The body is the last child: libclang leaves out a for's empty parts. */
  unsigned body = ctx->kids[node->kids + node->n_kids - 1];
  size_t start, end;
  enum { MAX_CONTINUES = 64 };
  size_t conts[MAX_CONTINUES];
  int n_conts = own_continues(ctx, n, conts, MAX_CONTINUES);
  if (!gsri_stmt_span(ctx, body, &start, &end) || n_conts < 0 ||
      n_conts > MAX_CONTINUES)
    return guard_header(ctx, n);
  int compound = ctx->nodes[body].kind == CXCursor_CompoundStmt;
  if (compound && ctx->src[end - 1] != '}')
    return guard_header(ctx, n);
  /* " if (...) break;" before the closing brace (where the body has none,
   * braces around it): no new line, so the lines after it keep their
   * numbers. */
  unsigned label = n_conts > 0 ? ++*labels : 0;
  gsri_buf text = {0};
  const char *lead = compound && gsri_brace_after_blank(ctx, end) ? "" : " ";
  if (n_conts > 0)
    gsri_buf_printf(&text, "%sgsync_next_%u:", lead, label), lead = " ";
  gsri_buf_printf(&text, "%sif (!%s) break;%s", lead, guard,
                  compound ? " " : "");
  if (compound) {
    gsri_insert_at_end(ctx, start + 1, end - 1, gsri_buf_text(ctx, &text));
  } else {
    gsri_wrap(ctx, start, end);
    gsri_insert_at_end(ctx, start, end, gsri_buf_text(ctx, &text));
  }
  gsri_buf_free(&text);
  for (int i = 0; i < n_conts; i++) {
    gsri_buf jump = {0};
    gsri_buf_printf(&jump, "goto gsync_next_%u", label);
    gsri_add_edit(ctx, conts[i], strlen("continue"), jump.data);
    gsri_buf_free(&jump);
  }
  return 1;
}

/* Reports goto node n if it jumps back, to a label before it: a loop the
 * guards cannot end. */
static void check_goto(gsri_ctx *ctx, unsigned n) {
  const gsri_node *node = &ctx->nodes[n];
  CXCursor label = gsri_goto_label(ctx, n);
  if (clang_Cursor_isNull(label))
    return;
  CXFile f, lf;
  unsigned off, loff, line, col;
  clang_getExpansionLocation(clang_getCursorLocation(node->c), &f, &line, &col,
                             &off);
  clang_getExpansionLocation(clang_getCursorLocation(label), &lf, NULL, NULL,
                             &loff);
  if (f && lf && clang_File_isEqual(f, lf) && loff < off)
    gsri_report(ctx, GSR_ERROR, line, col,
                "a goto back to an earlier label makes a loop that a barrier "
                "can abort, and that cannot be ended after an aborted launch: "
                "write it as a for, while or do loop (or rewrite with "
                "--spin-limit=0)");
}

/* Walks node n after its children. Returns nonzero if n's subtree holds a
 * call that can abort; guards every loop that does. *labels counts the
 * guards' labels (gsync_next_1, 2, ... in the order planned). */
static int walk(gsri_ctx *ctx, const unsigned char *abortable, unsigned n,
                unsigned *labels) {
  const gsri_node *node = &ctx->nodes[n];
  const unsigned *kids = ctx->kids + node->kids;
  int can_abort = abortable[n];
  for (unsigned i = 0; i < node->n_kids; i++)
    can_abort |= walk(ctx, abortable, kids[i], labels);
  if (can_abort &&
      (node->kind == CXCursor_ForStmt || node->kind == CXCursor_WhileStmt ||
       node->kind == CXCursor_DoStmt) &&
      !gsri_never_repeats(ctx, n))
    guard_loop(ctx, n, labels);
  return can_abort;
}

/* Plans the guards in every function that reaches a barrier. The calls
 * that can abort are the call sites of global_barrier() and of functions
 * that reach it; find recorded the node of each. */
void gsri_plan_abort_checks(gsri_ctx *ctx) {
  unsigned char *abortable = gsri_barrier_calls(ctx);
  if (!abortable)
    return;
  unsigned labels = 0;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    const gsri_func *fn = &ctx->funcs[i];
    if (!fn->has_def || !fn->reaches_barrier || !gsri_defined_here(fn))
      continue;
    walk(ctx, abortable, fn->root, &labels);
    const gsri_node *root = &ctx->nodes[fn->root];
    for (unsigned n = fn->root; n < root->end; n++)
      if (ctx->nodes[n].kind == CXCursor_GotoStmt)
        check_goto(ctx, n);
  }
  free(abortable);
}
