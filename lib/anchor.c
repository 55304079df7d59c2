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
 * and the entry writes one after discovery's exit. In a function that
 * returns nothing, a return after the last barrier becomes an if, so that
 * its way meets the others at the anchor at the body's end and not at
 * the exit that an earlier return reaches (returns_to_branches()). Every
 * place the climb
 * can end then starts with an anchor, and every barrier is followed by
 * one: no block holds a barrier and nothing else, so every barrier PoCL
 * adds is one that every work-item reaches.
 *
 * An anchor that cannot be written (a statement a macro writes) is a
 * warning: the kernel is then right on PoCL only built with
 * -cl-opt-disable, which turns off the pass that adds barriers.
 */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
  gsri_ctx *ctx;
  unsigned char *reach; /* nodes whose subtree calls a barrier, or a
                           function that reaches one */
  int kernel;           /* the function is a kernel with discovery */
  /* The anchor the function writes: gsync_anchor(gsync_ctx) where a
   * context is in scope, gsync_anchor_here() in a helper that reaches
   * only work-group barriers; with a space after (lead) or before
   * (trail). */
  char lead[32], trail[32], both[32];
  unsigned missed; /* anchors that could not be written */
  unsigned missed_line, missed_col;
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
    char before = w->ctx->src[end - 2]; /* what the '}' follows */
    if (top)
      gsri_insert_at_top(w->ctx, start + 1, end - 1, w->trail);
    gsri_insert_at_end(
        w->ctx, start + 1, end - 1,
        before == ' ' || before == '\t' || before == '\n' ? w->lead : w->both);
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

/* The branch of if node n if it is only 'return;' (in braces or not) and
 * the if has no else; else GSR_NO_NODE. */
static unsigned bare_return_branch(const gsri_ctx *ctx, unsigned n) {
  const gsri_node *nodes = ctx->nodes;
  if (nodes[n].kind != CXCursor_IfStmt || nodes[n].n_kids != 2)
    return GSR_NO_NODE;
  unsigned branch = ctx->kids[nodes[n].kids + 1], r = branch;
  if (nodes[r].kind == CXCursor_CompoundStmt && nodes[r].n_kids == 1)
    r = ctx->kids[nodes[r].kids];
  return nodes[r].kind == CXCursor_ReturnStmt && nodes[r].n_kids == 0
             ? branch
             : GSR_NO_NODE;
}

/* A return after a function's last barrier that only some work-items
 * take jumps to the function's exit, which a return before the barriers
 * (one the whole group takes) also reaches; PoCL takes a branch to that
 * block as one the whole group takes, and runs what follows it in every
 * work-item (docs/pocl.md, section 8). So, in a function that returns
 * nothing, an 'if (c) return;' among the body's statements with no barrier
 * in it or after it becomes 'if (c) {} else { ... }' around the rest of
 * the body: the ways meet after it, at the anchor at the body's end (or
 * before a final return). Nothing changes where no statement follows or
 * the function has a label to jump to. */
static void returns_to_branches(walk *w, unsigned root, unsigned body) {
  gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  CXType result = clang_getResultType(clang_getCursorType(nodes[root].c));
  if (result.kind != CXType_Void)
    return;
  for (unsigned n = root; n < nodes[root].end; n++)
    if (nodes[n].kind == CXCursor_LabelStmt)
      return;
  const gsri_node *b = &nodes[body];
  const unsigned *kids = ctx->kids + b->kids;
  if (b->n_kids < 2)
    return;
  unsigned last = kids[b->n_kids - 1];
  size_t body_start, body_end, last_start, last_end;
  if (!anchorable(w, body, &body_start, &body_end) ||
      !anchorable(w, last, &last_start, &last_end))
    return;
  /* A final return takes the braces before it; else they go before the
   * body's '}', apart from a statement that ends right there. */
  int at_return = nodes[last].kind == CXCursor_ReturnStmt;
  gsri_buf closing = {0};
  if (!at_return && !isspace((unsigned char)ctx->src[body_end - 2]))
    gsri_buf_puts(&closing, " ");
  size_t lead = closing.len;
  /* From the last statement back: a statement that reaches a barrier
   * ends the part after every barrier. */
  for (size_t i = b->n_kids - 1; i-- > 0 && !w->reach[kids[i + 1]];) {
    unsigned branch = bare_return_branch(ctx, kids[i]);
    size_t start, end;
    if (branch == GSR_NO_NODE || w->reach[kids[i]] ||
        !anchorable(w, branch, &start, &end))
      continue;
    gsri_add_edit(ctx, start, end - start, "{} else {");
    gsri_buf_puts(&closing, "} ");
  }
  /* One insert for every brace (inserts alike at one place are one), and
   * before the anchor that end_of_body() writes there. */
  if (closing.len > lead) {
    const char *text = gsri_buf_text(ctx, &closing);
    if (at_return)
      gsri_insert_before_top(ctx, last_start, last_end, text);
    else
      gsri_insert_before_end(ctx, body_start + 1, body_end - 1, text);
  }
  gsri_buf_free(&closing);
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
  for (unsigned k = 0; k < nodes[root].n_kids; k++) {
    unsigned kid = ctx->kids[nodes[root].kids + k];
    if (nodes[kid].kind == CXCursor_CompoundStmt)
      returns_to_branches(w, root, kid);
  }
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
  walk w = {.ctx = ctx, .reach = gsri_barrier_calls(ctx)};
  if (!w.reach)
    return;
  /* PoCL runs whatever a kernel calls as one function: a helper that
   * reaches only work-group barriers, called where a global barrier's
   * kernel runs, needs anchors as much (docs/pocl.md, section 8). */
  unsigned char *group = group_barriers(&w);
  if (!group) {
    free(w.reach);
    return;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    const gsri_func *fn = &ctx->funcs[i];
    if (!fn->has_def || !gsri_defined_here(fn) ||
        !(fn->reaches_barrier || (group[i] && fn->in_participating)))
      continue;
    w.missed = 0;
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
  }
  free(group);
  free(w.reach);
}
