/* Part of the plan stage: anchors, which keep PoCL's work-group compiler
 * from putting a barrier where not every work-item goes.
 *
 * PoCL (docs/pocl.md, section 6) runs a kernel's work-items one after
 * another between work-group barriers, and before that adds barriers of
 * its own: for every barrier that not every path through the kernel
 * reaches (one in a loop, after an exit, or in any kernel with
 * discovery's exit at its entry), it climbs from the barrier's block
 * through the blocks that lead only to it and puts a barrier at the top of
 * the last one. The climb ends early at a block that holds a barrier and
 * nothing else. If that block ends in a branch that not every work-item
 * takes (a test that clang computed before the barrier), the new barrier
 * lands inside the branch, or inside a loop whose trip count differs
 * between work-items; PoCL then runs that branch, or that loop's exit, for
 * every work-item as work-item 0 takes it. A block of that kind forms in
 * two ways: a barrier followed at once by such a branch, and a barrier
 * PoCL itself put at the top of a block that holds nothing but such a
 * branch, which the climb for a later barrier then stops at.
 *
 * An anchor, gsync_anchor(gsync_ctx), is a statement no compiler can move
 * or delete (a volatile read on PoCL, prelude.cl; nothing elsewhere), so a
 * block that holds one holds more than a barrier. The plan writes one, in
 * every function that reaches a global barrier, and in every function that
 * reaches a work-group barrier and is called where a kernel with a global
 * barrier runs (PoCL inlines it there; docs/pocl.md, section 8), which
 * writes gsync_anchor_here(),
 *   - after every work-group barrier() and work_group_barrier() call (the
 *     rules write theirs after their own barriers);
 *   - at the top of the body of every for and while loop, and of every
 *     branch of an if, and after every case label of a switch, that
 *     reaches a barrier of either kind: where the climb from a barrier
 *     inside ends, at the top of the way in (a do loop's body is entered
 *     without a test, and the climb goes on past it);
 *   - after every if, switch and loop statement that holds a return or a
 *     goto, or a break or continue of a loop that reaches a barrier: where
 *     the climb from a barrier after it ends, at the top of the way on;
 *   - before every label, where a goto's way meets the others;
 * and the entry writes one after discovery's exit. A return after the
 * last barrier, and a continue after its loop's last, becomes a goto to a
 * label where its ways meet the others after the barrier, which an anchor
 * follows, and not at the exit (or the loop's next turn) that a way
 * before the barrier also reaches (late_jumps()). Every place the climb
 * can end then starts with an anchor, and every barrier is followed by
 * one: no block holds a barrier and nothing else, so every barrier PoCL
 * adds is one that every work-item reaches, and the ways that leave
 * after a barrier meet before they meet one that passed none.
 *
 * An anchor that cannot be written (a statement a macro writes) is a
 * warning: the kernel is then right on PoCL only built with
 * -cl-opt-disable, which turns off the pass that adds barriers.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
  gsri_ctx *ctx;
  unsigned char *global; /* calls that reach a global barrier */
  unsigned char *reach;  /* nodes whose subtree calls a barrier, or a
                            function that reaches one */
  int kernel;            /* the function is a kernel with discovery */
  /* The anchor the function writes: gsync_anchor(gsync_ctx) where a
   * context is in scope, gsync_anchor_here() in a helper that reaches
   * only work-group barriers; with a space after (lead) or before
   * (trail). */
  char lead[32], trail[32], both[32];
  unsigned missed; /* anchors that could not be written */
  unsigned missed_line, missed_col;
  unsigned unrouted; /* late jumps late_jumps() leaves as they are */
  unsigned unrouted_line, unrouted_col;
  const char *unrouted_kind, *unrouted_why; /* the first one's */
} walk;

/* Notes an anchor that cannot be written at node n. */
static void miss(walk *w, unsigned n) {
  if (w->missed++ == 0)
    clang_getExpansionLocation(clang_getCursorLocation(w->ctx->nodes[n].c),
                               NULL, &w->missed_line, &w->missed_col, NULL);
}

/* Nonzero if block node n is written in the input, braces and all. */
static int written_block(walk *w, unsigned n) {
  size_t start, end;
  return gsri_stmt_span(w->ctx, n, &start, &end) && w->ctx->src[start] == '{' &&
         w->ctx->src[end - 1] == '}';
}

/* Statement node n's text [*start, *end), if anchors can go around it:
 * it and every block around it are written in the input. libclang gives a
 * statement of a macro's body the extent of the whole expansion, which
 * would put an anchor after the macro instead of after the statement;
 * the block around such a statement is the macro's, and not written. */
static int anchorable(walk *w, unsigned n, size_t *start, size_t *end) {
  const gsri_node *nodes = w->ctx->nodes;
  if (!gsri_stmt_span(w->ctx, n, start, end) ||
      (nodes[n].kind == CXCursor_CompoundStmt && !written_block(w, n)))
    return 0;
  for (unsigned a = nodes[n].parent; a != GSR_NO_NODE; a = nodes[a].parent)
    if (nodes[a].kind == CXCursor_CompoundStmt && !written_block(w, a))
      return 0;
  return 1;
}

/* Anchors at the top of statement node n (a loop body, a branch), if top,
 * and at its end: after its '{' and before its '}', or in braces put
 * around it. */
static void anchor_ends(walk *w, unsigned n, int top) {
  size_t start, end;
  if (!anchorable(w, n, &start, &end)) {
    miss(w, n);
    return;
  }
  if (w->ctx->nodes[n].kind == CXCursor_CompoundStmt) {
    if (top)
      gsri_insert_at_top(w->ctx, start + 1, end - 1, w->trail);
    gsri_insert_at_end(w->ctx, start + 1, end - 1,
                       gsri_brace_after_blank(w->ctx, end) ? w->lead : w->both);
  } else {
    gsri_wrap(w->ctx, start, end);
    if (top)
      gsri_insert_at_top(w->ctx, start, end, w->lead);
    gsri_insert_at_end(w->ctx, start, end, w->trail);
  }
}

/* An anchor after statement node n: right after it in a block, or in
 * braces put around it where it is a branch or a body of its own. */
static void anchor_after(walk *w, unsigned n) {
  size_t start, end;
  if (!anchorable(w, n, &start, &end)) {
    miss(w, n);
    return;
  }
  unsigned parent = w->ctx->nodes[n].parent;
  if (parent == GSR_NO_NODE ||
      w->ctx->nodes[parent].kind != CXCursor_CompoundStmt)
    gsri_wrap(w->ctx, start, end);
  gsri_insert_at_end(w->ctx, start, end, w->trail);
}

static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt;
}

/* Nonzero if call node n calls a work-group barrier built-in (not a
 * function of the user's of that name). */
static int is_group_barrier(walk *w, unsigned n) {
  CXCursor callee = clang_getCursorReferenced(w->ctx->nodes[n].c);
  if (clang_getCursorKind(callee) != CXCursor_FunctionDecl)
    return 0;
  CXString spelling = clang_getCursorSpelling(callee);
  const char *name = clang_getCString(spelling);
  int yes = name && (strcmp(name, "barrier") == 0 ||
                     strcmp(name, "work_group_barrier") == 0);
  if (yes) {
    const gsri_func *fn = gsri_func_named(w->ctx, name);
    yes = !fn || !fn->has_def;
  }
  clang_disposeString(spelling);
  return yes;
}

/* The statement that holds expression node n: its nearest ancestor whose
 * parent is a block, a branch or a body (where a statement stands). */
static unsigned statement_of(walk *w, unsigned n) {
  const gsri_node *nodes = w->ctx->nodes;
  while (nodes[n].parent != GSR_NO_NODE) {
    enum CXCursorKind pk = nodes[nodes[n].parent].kind;
    if (pk == CXCursor_CompoundStmt || pk == CXCursor_IfStmt || is_loop(pk) ||
        pk == CXCursor_CaseStmt || pk == CXCursor_DefaultStmt ||
        pk == CXCursor_LabelStmt)
      return n;
    n = nodes[n].parent;
  }
  return n;
}

/* Anchors after every if, switch and loop between jump node j and node
 * top (exclusive): the ways on after a jump past a barrier. */
static void anchor_jump(walk *w, unsigned j, unsigned top) {
  const gsri_node *nodes = w->ctx->nodes;
  for (unsigned a = nodes[j].parent; a != GSR_NO_NODE && a != top;
       a = nodes[a].parent)
    if (nodes[a].kind == CXCursor_IfStmt ||
        nodes[a].kind == CXCursor_SwitchStmt || is_loop(nodes[a].kind))
      anchor_after(w, a);
}

/* The loop (or, for a break, the switch) that jump node j leaves. */
static unsigned jump_target(walk *w, unsigned j) {
  const gsri_node *nodes = w->ctx->nodes;
  int brk = nodes[j].kind == CXCursor_BreakStmt;
  for (unsigned a = nodes[j].parent; a != GSR_NO_NODE; a = nodes[a].parent)
    if (is_loop(nodes[a].kind) || (brk && nodes[a].kind == CXCursor_SwitchStmt))
      return a;
  return GSR_NO_NODE;
}

/* The end of function node root's body, where the ways through it meet,
 * needs an anchor where a way that passes none of its barriers meets them
 * there: in a kernel with discovery's exit at its entry, and in a function
 * that returns before its end. Then the ways out of a branch after its
 * last barrier meet in the anchor's block first, which the barrier
 * dominates, and leave it as one. A final return is that end. */
static void end_of_body(walk *w, unsigned root) {
  const gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  unsigned body = GSR_NO_NODE;
  for (unsigned k = 0; k < nodes[root].n_kids; k++)
    if (nodes[ctx->kids[nodes[root].kids + k]].kind == CXCursor_CompoundStmt)
      body = ctx->kids[nodes[root].kids + k];
  if (body == GSR_NO_NODE)
    return;
  const gsri_node *b = &nodes[body];
  unsigned last = b->n_kids ? ctx->kids[b->kids + b->n_kids - 1] : GSR_NO_NODE;
  int early = 0;
  for (unsigned n = body; n < b->end; n++)
    early |= nodes[n].kind == CXCursor_ReturnStmt && n != last;
  if (!early && !w->kernel)
    return;
  size_t start, end;
  if (last != GSR_NO_NODE && nodes[last].kind == CXCursor_ReturnStmt) {
    if (anchorable(w, last, &start, &end))
      gsri_insert_at_top(w->ctx, start, end, w->lead);
    else
      miss(w, last);
    return;
  }
  anchor_ends(w, body, 0);
}

/* The body of loop node n (GSR_NO_NODE if it has none). */
static unsigned loop_body(const gsri_ctx *ctx, unsigned n) {
  const gsri_node *node = &ctx->nodes[n];
  if (!node->n_kids)
    return GSR_NO_NODE;
  return ctx->kids[node->kids +
                   (node->kind == CXCursor_DoStmt ? 0 : node->n_kids - 1)];
}

/* Nonzero if node n is or holds a label (a goto's target) or a case. */
static int holds_label(const gsri_ctx *ctx, unsigned n) {
  for (unsigned k = n; k < ctx->nodes[n].end; k++)
    if (ctx->nodes[k].kind == CXCursor_LabelStmt ||
        ctx->nodes[k].kind == CXCursor_CaseStmt ||
        ctx->nodes[k].kind == CXCursor_DefaultStmt)
      return 1;
  return 0;
}

/* Nonzero if node n's subtree calls what reaches a global barrier. */
static int reaches_global(const walk *w, unsigned n) {
  for (unsigned k = n; k < w->ctx->nodes[n].end; k++)
    if (w->global[k])
      return 1;
  return 0;
}

/* What a late jump's ways meet with after its meeting block. */
enum { MEET_ALONE, MEET_CODE, MEET_LABEL, MEET_SWITCH };

/* Where the ways of jump node j meet if it is late: a return after which
 * no barrier can run, or a continue after which none can run in its
 * loop's body (top: the function's body, or that loop body). That is the
 * innermost block around j in which a statement before j's, or the test
 * of an if or switch that j is in, reaches a barrier; GSR_NO_NODE where j
 * is not late. *after is MEET_CODE where
 * code follows that block in top (other than a function's final
 * 'return;'), which the jump's ways must skip, and MEET_LABEL or
 * MEET_SWITCH where ways that need not pass the barrier come in: a label
 * or case follows j, or the block is a switch's (every case's way ends
 * there). */
static unsigned meeting_block(walk *w, unsigned j, unsigned top, int *after) {
  const gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  unsigned meet = GSR_NO_NODE;
  int in_branch = 0; /* of an if or switch whose test reaches a barrier */
  *after = MEET_ALONE;
  for (unsigned c = j, b = nodes[j].parent; b != GSR_NO_NODE;
       c = b, b = nodes[b].parent) {
    if ((nodes[b].kind == CXCursor_IfStmt ||
         nodes[b].kind == CXCursor_SwitchStmt) &&
        nodes[b].n_kids && c != ctx->kids[nodes[b].kids] &&
        w->reach[ctx->kids[nodes[b].kids]])
      in_branch = 1;
    /* Only a return gets here (a do ... while (0) is no loop). */
    if (is_loop(nodes[b].kind) && w->reach[b] && !gsri_never_repeats(ctx, b))
      return GSR_NO_NODE;
    if (nodes[b].kind == CXCursor_CompoundStmt) {
      const unsigned *kids = ctx->kids + nodes[b].kids;
      unsigned i = 0, n = nodes[b].n_kids;
      while (i < n && kids[i] != c)
        i++;
      int before = in_branch;
      in_branch = 0;
      for (unsigned k = 0; k < i; k++)
        before |= w->reach[kids[k]];
      for (unsigned k = i + 1; k < n; k++) {
        if (w->reach[kids[k]])
          return GSR_NO_NODE;
        if (holds_label(ctx, kids[k]))
          *after = MEET_LABEL;
        else if (meet != GSR_NO_NODE && *after == MEET_ALONE &&
                 nodes[kids[k]].kind != CXCursor_NullStmt &&
                 !(b == top && k == n - 1 &&
                   nodes[kids[k]].kind == CXCursor_ReturnStmt &&
                   nodes[kids[k]].n_kids == 0))
          *after = MEET_CODE;
      }
      if (meet == GSR_NO_NODE && before) {
        meet = b;
        if (nodes[b].parent != GSR_NO_NODE &&
            nodes[nodes[b].parent].kind == CXCursor_SwitchStmt)
          *after = MEET_SWITCH;
      }
    }
    if (b == top)
      return meet;
  }
  return GSR_NO_NODE;
}

/* Notes late jump node j, of kind, that late_jumps() leaves as it is,
 * and why: a warning. */
static void unrouted(walk *w, unsigned j, const char *kind, const char *why) {
  if (w->unrouted++ == 0) {
    clang_getExpansionLocation(clang_getCursorLocation(w->ctx->nodes[j].c),
                               NULL, &w->unrouted_line, &w->unrouted_col, NULL);
    w->unrouted_kind = kind;
    w->unrouted_why = why;
  }
}

/* Nonzero if a goto in body node body other than g, and not late (no
 * meeting block), goes to g's label. */
static int early_goto_alike(walk *w, unsigned body, unsigned g) {
  const gsri_ctx *ctx = w->ctx;
  CXCursor label = gsri_goto_label(ctx, g);
  if (clang_Cursor_isNull(label))
    return 0;
  for (unsigned k = body; k < ctx->nodes[body].end; k++) {
    int after;
    if (k != g && ctx->nodes[k].kind == CXCursor_GotoStmt &&
        clang_equalCursors(gsri_goto_label(ctx, k), label) &&
        meeting_block(w, k, body, &after) == GSR_NO_NODE)
      return 1;
  }
  return 0;
}

/* Nonzero if the anchors of plan_function() end block node b: a branch of
 * an if, a loop's body, a case's statements (b reaches a barrier). */
static int ends_anchored(walk *w, unsigned b) {
  const gsri_ctx *ctx = w->ctx;
  unsigned p = ctx->nodes[b].parent;
  if (p == GSR_NO_NODE)
    return 0;
  const gsri_node *parent = &ctx->nodes[p];
  switch (parent->kind) {
  case CXCursor_IfStmt:
    return b != ctx->kids[parent->kids];
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt:
    return b == ctx->kids[parent->kids + parent->n_kids - 1];
  case CXCursor_DoStmt:
    return b == ctx->kids[parent->kids] && !gsri_never_repeats(ctx, p);
  default:
    return 0;
  }
}

/* Empties b for the next text. */
static void empty(gsri_buf *b) {
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

/* A late jump, the block where its ways meet, and its label's number
 * (0: gsync_return or gsync_continue, n: gsync_return_<n+1>, ...). */
typedef struct late {
  unsigned jump, meet, label;
  int skip; /* the ways skip code after the meeting block (MEET_CODE) */
} late;

/* The label of late jump l, with a space before it. */
static void label_name(const gsri_ctx *ctx, const late *l, char *out,
                       size_t size) {
  int n = snprintf(
      out, size, " gsync_%s",
      ctx->nodes[l->jump].kind == CXCursor_ReturnStmt ? "return" : "continue");
  if (l->label && n > 0 && (size_t)n < size)
    snprintf(out + n, size - (size_t)n, "_%u", l->label + 1);
}

/* Nonzero if the jumps [0, n) hold one with the meeting block and kind of
 * l, before l; its label then is l's. */
static int seen_meet(const gsri_ctx *ctx, const late *jumps, size_t n,
                     late *l) {
  for (size_t i = 0; i < n; i++)
    if (jumps[i].meet == l->meet &&
        ctx->nodes[jumps[i].jump].kind == ctx->nodes[l->jump].kind) {
      l->label = jumps[i].label;
      return 1;
    }
  return 0;
}

/* A return after a function's last barrier that only some work-items take
 * jumps to the function's exit, which a return before the barriers (one
 * the whole group takes) also reaches, and so does a continue to its
 * loop's next turn; PoCL takes such a branch as one the whole group takes,
 * and runs what the others run after it in every work-item
 * (docs/pocl.md, section 8). So every late jump (meeting_block()) becomes
 * a goto to a label at the end of the block where its ways meet, which an
 * anchor follows, and there the ways meet before they meet any other:
 *   - 'return;' and 'continue;' become 'goto gsync_return;' and
 *     'goto gsync_continue;';
 *   - 'return e;' becomes '{ gsync_ret = (e); goto gsync_return; }', with
 *     gsync_ret declared at the top of the body and returned after the
 *     label at its end;
 *   - where code follows the meeting block, the return also sets
 *     gsync_returned, and that code is put in 'if (!gsync_returned)';
 *   - a function's final return is one of them once another is.
 * Where other ways come in after a late jump (a label, a switch's cases),
 * or code follows a late continue's block, nothing changes: a warning; so
 * for a late goto to a label that a goto before the barriers goes to.
 * Sets *end_written where the labels end the function's body. */
static void late_jumps(walk *w, unsigned root, unsigned body,
                       int *end_written) {
  gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  CXType result = clang_getResultType(clang_getCursorType(nodes[root].c));
  int value = result.kind != CXType_Void;
  size_t body_start, body_end;
  if (!anchorable(w, body, &body_start, &body_end))
    return;
  unsigned last = nodes[body].n_kids
                      ? ctx->kids[nodes[body].kids + nodes[body].n_kids - 1]
                      : GSR_NO_NODE;
  /* The late jumps. */
  late *jumps = NULL;
  size_t n_jumps = 0;
  unsigned labels[2] = {0, 0}; /* the last return's, continue's */
  int early_end = 0;           /* a late return other than the final one */
  int skip = 0;
  for (unsigned j = body; j < nodes[body].end; j++) {
    int ret = nodes[j].kind == CXCursor_ReturnStmt;
    if (nodes[j].kind == CXCursor_GotoStmt) {
      /* A goto goes where it says: where a goto before the barriers goes
       * too, the ways cannot meet first. */
      int after;
      if (meeting_block(w, j, body, &after) != GSR_NO_NODE &&
          early_goto_alike(w, body, j))
        unrouted(w, j, "goto",
                 "a goto taken before the barriers goes to the same label");
      continue;
    }
    if (!ret && nodes[j].kind != CXCursor_ContinueStmt)
      continue;
    unsigned top = body;
    if (!ret) {
      /* A continue of a loop with a global barrier is one the whole group
       * takes (the uniformity check), and abort.c's guard is where it
       * goes. */
      unsigned loop = jump_target(w, j);
      if (loop == GSR_NO_NODE || !w->reach[loop] || reaches_global(w, loop) ||
          (top = loop_body(ctx, loop)) == GSR_NO_NODE)
        continue;
    }
    int after;
    late l = {.jump = j, .meet = meeting_block(w, j, top, &after)};
    if (l.meet == GSR_NO_NODE)
      continue;
    size_t start, end, meet_start, meet_end;
    if (after > MEET_CODE || (!ret && after == MEET_CODE)) {
      unrouted(w, j, ret ? "return" : "continue",
               after == MEET_LABEL    ? "a label or case follows it"
               : after == MEET_SWITCH ? "it leaves a switch's case"
                                      : "code follows the branch it leaves");
      continue;
    }
    if (!anchorable(w, j, &start, &end) ||
        !anchorable(w, l.meet, &meet_start, &meet_end) ||
        (ret && (end - start < 6 || memcmp(ctx->src + start, "return", 6))) ||
        (ret && value && nodes[j].n_kids != 1)) {
      miss(w, j);
      continue;
    }
    l.skip = after == MEET_CODE;
    skip |= l.skip;
    early_end |= ret && j != last;
    /* gsync_return is the body's; gsync_continue the first loop's. */
    if (!seen_meet(ctx, jumps, n_jumps, &l))
      l.label = !ret ? labels[1]++ : l.meet == body ? 0 : ++labels[0];
    late *grown = realloc(jumps, (n_jumps + 1) * sizeof *jumps);
    if (!grown) {
      gsri_nomem(ctx);
      free(jumps);
      return;
    }
    jumps = grown;
    jumps[n_jumps++] = l;
  }
  /* A final return alone is where its ways meet already. */
  size_t keep = 0;
  for (size_t i = 0; i < n_jumps; i++)
    if (nodes[jumps[i].jump].kind != CXCursor_ReturnStmt || early_end)
      jumps[keep++] = jumps[i];
  n_jumps = keep;
  int returns = 0, at_body = 0;
  for (size_t i = 0; i < n_jumps; i++) {
    returns |= nodes[jumps[i].jump].kind == CXCursor_ReturnStmt;
    at_body |= jumps[i].meet == body;
  }
  gsri_buf text = {0};
  if (returns && (value || skip)) {
    if (value) {
      /* 'const int f()' returns an int. */
      CXString spelling = clang_getTypeSpelling(result);
      const char *type = clang_getCString(spelling);
      if (clang_isConstQualifiedType(result) && !strncmp(type, "const ", 6))
        type += 6;
      gsri_buf_printf(&text, " %s gsync_ret;", type);
      clang_disposeString(spelling);
    }
    if (skip)
      gsri_buf_puts(&text, " int gsync_returned = 0;");
    gsri_insert_at_top(ctx, body_start + 1, body_end - 1,
                       gsri_buf_text(ctx, &text));
  }
  /* The jumps, and the code after a meeting block in 'if
   * (!gsync_returned)': one '{' before the first statement after each
   * block on the way up, and as many '}' at the end of the block around
   * them (inserts alike at one place are one). */
  unsigned *opens = NULL; /* blocks that get '}', with repeats */
  size_t n_opens = 0;
  for (size_t i = 0; i < n_jumps; i++) {
    const late *l = &jumps[i];
    int ret = nodes[l->jump].kind == CXCursor_ReturnStmt;
    char label[48];
    label_name(ctx, l, label, sizeof label);
    size_t start, end;
    anchorable(w, l->jump, &start, &end);
    empty(&text);
    if (ret && value) {
      size_t e0 = gsri_skip_blank(ctx, start + 6);
      gsri_add_edit(ctx, start, e0 - start, "{ gsync_ret = (");
      gsri_buf_printf(&text, ");%s goto%s; }",
                      l->skip ? " gsync_returned = 1;" : "", label);
      gsri_add_edit(ctx, end - 1, 1, gsri_buf_text(ctx, &text));
    } else {
      gsri_buf_printf(&text, "%sgoto%s;%s",
                      l->skip ? "{ gsync_returned = 1; " : "", label,
                      l->skip ? " }" : "");
      gsri_add_edit(ctx, start, end - start, gsri_buf_text(ctx, &text));
    }
    if (!l->skip)
      continue;
    for (unsigned c = l->meet, b = nodes[c].parent; c != body;
         c = b, b = nodes[b].parent) {
      if (nodes[b].kind != CXCursor_CompoundStmt)
        continue;
      const unsigned *kids = ctx->kids + nodes[b].kids;
      unsigned k = 0, n = nodes[b].n_kids;
      while (k < n && kids[k] != c)
        k++;
      while (++k < n && nodes[kids[k]].kind == CXCursor_NullStmt)
        ;
      size_t s0, e0;
      if (k == n || !anchorable(w, kids[k], &s0, &e0))
        continue;
      unsigned *grown = realloc(opens, (n_opens + 2) * sizeof *opens);
      if (!grown) {
        gsri_nomem(ctx);
        break;
      }
      opens = grown;
      size_t o = 0;
      while (o < n_opens && opens[o + 1] != kids[k])
        o += 2;
      if (o < n_opens)
        continue;
      opens[n_opens++] = b;
      opens[n_opens++] = kids[k];
      gsri_insert_before_top(ctx, s0, e0, "if (!gsync_returned) { ");
    }
  }
  for (size_t o = 0; o < n_opens; o += 2) {
    size_t count = 0, first = n_opens, bs, be;
    for (size_t p = 0; p < n_opens; p += 2)
      if (opens[p] == opens[o]) {
        count++;
        first = p < first ? p : first;
      }
    if (first != o || !anchorable(w, opens[o], &bs, &be))
      continue;
    int space = gsri_brace_after_blank(ctx, be);
    empty(&text);
    for (size_t c = 0; c < count; c++)
      gsri_buf_puts(&text, space ? "} " : " }");
    gsri_insert_before_end(ctx, bs + 1, be - 1, gsri_buf_text(ctx, &text));
  }
  free(opens);
  /* The labels: at the end of each meeting block, after the braces. */
  for (size_t i = 0; i < n_jumps; i++) {
    const late *l = &jumps[i];
    late first = *l;
    if (seen_meet(ctx, jumps, i, &first) || l->meet == body)
      continue;
    char label[48];
    label_name(ctx, l, label, sizeof label);
    size_t ms, me;
    anchorable(w, l->meet, &ms, &me);
    int space = gsri_brace_after_blank(ctx, me);
    empty(&text);
    gsri_buf_printf(&text, "%s:%s", label + space,
                    ends_anchored(w, l->meet) ? (space ? " " : "") : w->trail);
    gsri_insert_before_end(ctx, ms + 1, me - 1, gsri_buf_text(ctx, &text));
  }
  if (at_body || (returns && value)) {
    *end_written = 1;
    int space = gsri_brace_after_blank(ctx, body_end);
    const char *label = " gsync_return";
    empty(&text);
    gsri_buf_printf(&text, "%s: %s%s", label + space, w->lead,
                    value ? "return gsync_ret; " : "");
    gsri_insert_before_end(ctx, body_start + 1, body_end - 1,
                           gsri_buf_text(ctx, &text));
  }
  gsri_buf_free(&text);
  free(jumps);
}

/* Plans the anchors of one function, whose nodes are [root, end). */
static void plan_function(walk *w, unsigned root) {
  gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  /* A node reaches a barrier if one of its descendants is a site that
   * does; children follow their parent in preorder, so a backward sweep
   * sees every child before its parent. */
  for (unsigned n = nodes[root].end; n-- > root + 1;)
    if (w->reach[n] && nodes[n].parent != GSR_NO_NODE)
      w->reach[nodes[n].parent] = 1;
  int end_written = 0;
  for (unsigned k = 0; k < nodes[root].n_kids; k++) {
    unsigned kid = ctx->kids[nodes[root].kids + k];
    if (nodes[kid].kind == CXCursor_CompoundStmt)
      late_jumps(w, root, kid, &end_written);
  }
  if (!end_written)
    end_of_body(w, root);
  for (unsigned n = root; n < nodes[root].end; n++) {
    const gsri_node *node = &nodes[n];
    const unsigned *kids = ctx->kids + node->kids;
    switch (node->kind) {
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
      /* The body is the last child (libclang leaves out a for's empty
       * parts). */
      if (w->reach[n] && node->n_kids > 0)
        anchor_ends(w, kids[node->n_kids - 1], 1);
      break;
    case CXCursor_DoStmt:
      /* Its body is entered without a test: the climb goes on past its
       * top, which needs no anchor. A do { ... } while (0), as macros
       * write it, is no loop. */
      if (w->reach[n] && node->n_kids == 2 && !gsri_never_repeats(ctx, n))
        anchor_ends(w, kids[0], 0);
      break;
    case CXCursor_IfStmt:
      if (w->reach[n])
        for (unsigned k = 1; k < node->n_kids; k++)
          anchor_ends(w, kids[k], 1);
      break;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
      if (w->reach[n] && node->n_kids > 0)
        anchor_ends(w, kids[node->n_kids - 1], 1);
      break;
    case CXCursor_ReturnStmt:
    case CXCursor_GotoStmt:
      anchor_jump(w, n, root);
      break;
    case CXCursor_LabelStmt: {
      /* A goto's way meets the others here: theirs meet first, at an
       * anchor before the label. */
      size_t start, end;
      if (node->parent != GSR_NO_NODE &&
          nodes[node->parent].kind == CXCursor_CompoundStmt &&
          anchorable(w, n, &start, &end))
        gsri_insert_before_top(ctx, start, end, w->lead);
      else
        miss(w, n);
      break;
    }
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt: {
      unsigned target = jump_target(w, n);
      if (target != GSR_NO_NODE && w->reach[target])
        anchor_jump(w, n, target);
      break;
    }
    case CXCursor_CallExpr:
      if (is_group_barrier(w, n))
        anchor_after(w, statement_of(w, n));
      break;
    default:
      break;
    }
  }
}

/* Marks in w->reach, and returns per function, what reaches a work-group
 * barrier: a barrier() or work_group_barrier() call, a call of a function
 * that reaches one, and every function that makes such a call. NULL when
 * out of memory. */
static unsigned char *group_barriers(walk *w) {
  gsri_ctx *ctx = w->ctx;
  unsigned char *group = calloc(ctx->n_funcs ? ctx->n_funcs : 1, 1);
  if (!group) {
    gsri_nomem(ctx);
    return NULL;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    const gsri_func *fn = &ctx->funcs[i];
    if (!fn->has_def || fn->root == GSR_NO_NODE)
      continue;
    for (unsigned n = fn->root; n < ctx->nodes[fn->root].end; n++)
      if (ctx->nodes[n].kind == CXCursor_CallExpr && is_group_barrier(w, n))
        group[i] = w->reach[n] = 1;
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < ctx->n_funcs; i++)
      for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
        const gsri_site *site = &ctx->funcs[i].sites[s];
        if (site->kind != GSR_SITE_CALL || !group[site->callee] ||
            w->reach[site->node])
          continue;
        w->reach[site->node] = 1;
        changed |= !group[i];
        group[i] = 1;
      }
  }
  return group;
}

void gsri_plan_anchors(gsri_ctx *ctx) {
  walk w = {.ctx = ctx,
            .reach = gsri_barrier_calls(ctx),
            .global = gsri_barrier_calls(ctx)};
  if (!w.reach || !w.global) {
    free(w.reach);
    free(w.global);
    return;
  }
  /* PoCL runs whatever a kernel calls as one function: a helper that
   * reaches only work-group barriers, called where a global barrier's
   * kernel runs, needs anchors as much (docs/pocl.md, section 8). */
  unsigned char *group = group_barriers(&w);
  if (!group) {
    free(w.reach);
    free(w.global);
    return;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    const gsri_func *fn = &ctx->funcs[i];
    if (!fn->has_def || !gsri_defined_here(fn) ||
        !(fn->reaches_barrier || (group[i] && fn->in_participating)))
      continue;
    w.missed = w.unrouted = 0;
    w.kernel = fn->is_kernel && fn->reaches_barrier && !ctx->no_discovery;
    /* A helper that reaches no global barrier may run in a kernel that
     * does not take part (the relaunch kernels of apps/graph/), whose
     * context has no local words to read: it writes the anchor that
     * needs none. */
    const char *call = fn->reaches_barrier ? "gsync_anchor(gsync_ctx);"
                                           : "gsync_anchor_here();";
    snprintf(w.lead, sizeof w.lead, "%s ", call);
    snprintf(w.trail, sizeof w.trail, " %s", call);
    snprintf(w.both, sizeof w.both, " %s ", call);
    plan_function(&w, fn->root);
    if (w.missed)
      gsri_report_in(ctx, GSR_WARNING, fn->file, w.missed_line, w.missed_col,
                     "'%s' has code written by a macro where PoCL needs an "
                     "anchor (%u place%s): PoCL can run it wrong at any "
                     "optimisation level; write that code without the "
                     "macro (docs/pocl.md)",
                     fn->name, w.missed, w.missed == 1 ? "" : "s");
    if (w.unrouted)
      gsri_report_in(ctx, GSR_WARNING, fn->file, w.unrouted_line,
                     w.unrouted_col,
                     "'%s' leaves after its last barrier by a %s whose ways "
                     "cannot meet before others come in: %s (%u place%s); "
                     "PoCL can run the code after it in every work-item "
                     "(docs/pocl.md, section 8)",
                     fn->name, w.unrouted_kind, w.unrouted_why, w.unrouted,
                     w.unrouted == 1 ? "" : "s");
  }
  free(group);
  free(w.reach);
  free(w.global);
}
