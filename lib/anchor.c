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

/* Nonzero if node n's subtree calls what reaches a global barrier. */
static int reaches_global(const walk *w, unsigned n) {
  for (unsigned k = n; k < w->ctx->nodes[n].end; k++)
    if (w->global[k])
      return 1;
  return 0;
}

/* Nonzero for a statement where other ways come in: a label or a case. */
static int is_entry(enum CXCursorKind k) {
  return k == CXCursor_LabelStmt || k == CXCursor_CaseStmt ||
         k == CXCursor_DefaultStmt;
}

/* Nonzero if ways come in inside node n's subtree past its top: a label,
 * or a case of a switch around n. */
static int holds_entry(const gsri_ctx *ctx, unsigned n) {
  const gsri_node *nodes = ctx->nodes;
  for (unsigned d = n; d < nodes[n].end; d++) {
    unsigned a = d;
    if (nodes[d].kind == CXCursor_CaseStmt ||
        nodes[d].kind == CXCursor_DefaultStmt)
      while (a != GSR_NO_NODE && nodes[a].kind != CXCursor_SwitchStmt)
        a = nodes[a].parent;
    if (nodes[d].kind == CXCursor_LabelStmt || a == GSR_NO_NODE || a < n)
      return 1;
  }
  return 0;
}

/* The statement that label or case node n stands before, past every label
 * and case of a chain; n itself if it is neither. */
static unsigned labelled(const gsri_ctx *ctx, unsigned n) {
  while (is_entry(ctx->nodes[n].kind) && ctx->nodes[n].n_kids)
    n = ctx->kids[ctx->nodes[n].kids + ctx->nodes[n].n_kids - 1];
  return n;
}

/* Node b's kid number i. */
static unsigned kid(const gsri_ctx *ctx, unsigned b, unsigned i) {
  return ctx->kids[ctx->nodes[b].kids + i];
}

/* The number of node b's kid that is or holds node n (n_kids if none). */
static unsigned kid_index(const gsri_ctx *ctx, unsigned b, unsigned n) {
  unsigned i = 0;
  while (i < ctx->nodes[b].n_kids &&
         !(kid(ctx, b, i) <= n && n < ctx->nodes[kid(ctx, b, i)].end))
    i++;
  return i;
}

/* Where the ways of jump node j meet if it is late: the innermost block
 * around it, up to block top, in which a statement before the one that
 * holds j (or the test of an if or switch that j is in) reaches a
 * barrier, where no statement after that one in a block up to top (in top,
 * before its kid number limit) reaches one, and no loop that reaches one
 * lies between. *path is the number of the block's kid that holds j.
 * GSR_NO_NODE where j is not late. */
static unsigned meeting(const walk *w, unsigned j, unsigned top, unsigned limit,
                        unsigned *path) {
  const gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  unsigned meet = GSR_NO_NODE;
  int in_branch = 0; /* of an if or switch whose test reaches a barrier */
  for (unsigned c = j, b = nodes[j].parent; b != GSR_NO_NODE;
       c = b, b = nodes[b].parent) {
    if ((nodes[b].kind == CXCursor_IfStmt ||
         nodes[b].kind == CXCursor_SwitchStmt) &&
        nodes[b].n_kids && c != kid(ctx, b, 0) && w->reach[kid(ctx, b, 0)])
      in_branch = 1;
    /* A do ... while (0) is no loop. */
    if (is_loop(nodes[b].kind) && w->reach[b] && !gsri_never_repeats(ctx, b))
      return GSR_NO_NODE;
    if (nodes[b].kind == CXCursor_CompoundStmt) {
      unsigned i = kid_index(ctx, b, c);
      unsigned n = b == top ? limit : nodes[b].n_kids;
      int before = in_branch;
      /* Ways that come in at a label or a case passed none before it. */
      for (unsigned k = 0; k <= i; k++)
        if (is_entry(nodes[kid(ctx, b, k)].kind))
          before = k == i ? in_branch : w->reach[kid(ctx, b, k)];
        else if (k < i)
          before |= w->reach[kid(ctx, b, k)];
      for (unsigned k = i + 1; k < n; k++)
        if (w->reach[kid(ctx, b, k)])
          return GSR_NO_NODE;
      in_branch = 0;
      if (meet == GSR_NO_NODE && before) {
        meet = b;
        *path = i;
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

/* A late jump, where it goes and where its ways meet. */
typedef struct late {
  unsigned jump;   /* the return, continue, break or goto */
  unsigned target; /* the function's body, the loop, the switch, the label */
  unsigned scope;  /* the block where the code it skips ends: the body, the
                      loop's or the switch's body, the label's block */
  unsigned limit;  /* the number of scope's kid where that code ends */
  unsigned meet;   /* its meeting block (meeting()) */
  unsigned path;   /* the number of meet's kid that holds it */
  unsigned at;     /* the number of meet's kid its ways meet before: the
                      first label or case after path, or meet's end */
  unsigned point;  /* its label: a number into the points */
  unsigned id;     /* the value it gives gsync_jump (0: none) */
  int route;       /* it becomes a goto to its label */
} late;

/* A label where late jumps' ways meet: before kid number at of block meet
 * (at its end if at is its number of kids). */
typedef struct point {
  unsigned meet, at;
  unsigned jump;   /* the first jump that goes there, which names it */
  unsigned number; /* 0: gsync_<kind>, n: gsync_<kind>_<n+1> */
  size_t from;     /* where the statement that holds that jump starts */
  int body_end;    /* the returns' at the body's end: gsync_return, which
                      the body's end writes */
} point;

/* Block kids [from, to) that a routed jump's ways skip, from a label or a
 * case (the statement after it), or from the statement after a meeting
 * block or a block around one; in 'if (!gsync_jump) { ... }'. */
typedef struct segment {
  unsigned block, from, to;
} segment;

/* A label, or a run's '}', at the end of a run or a block. */
typedef struct closing {
  size_t at, from; /* where; where what it closes starts */
  int label;       /* a point's label, or a run's '}' */
  size_t which;    /* the point or the run */
} closing;

/* What late_jumps() collects about one function. */
typedef struct routes {
  late *jumps;
  size_t n_jumps;
  point *points;
  size_t n_points;
  segment *segs;
  size_t n_segs;
} routes;

/* Grows the array at *p of *n items of size each by one (zeroed); NULL
 * when out of memory. */
static void *grow(gsri_ctx *ctx, void *p, size_t *n, size_t size) {
  char *q = realloc(*(void **)p, (*n + 1) * size);
  if (!q) {
    gsri_nomem(ctx);
    return NULL;
  }
  *(void **)p = q;
  memset(q + *n * size, 0, size);
  return q + (*n)++ * size;
}

/* Adds the runs of block b's kids [from, to) to r's segments (segs: 0
 * to check them only), split where a label or a case starts one, and sets
 * *code where one holds more than empty statements. 0, and *why, where
 * one cannot be skipped as a whole: it holds a label or a case of a switch
 * around it, or a declaration that a label or case after it would take
 * out of scope, or is not written in the input. */
static int add_runs(walk *w, unsigned b, unsigned from, unsigned to, routes *r,
                    int segs, int *code, const char **why) {
  const gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  for (unsigned i = from; i < to;) {
    unsigned s = i++;
    while (i < to && !is_entry(nodes[kid(ctx, b, i)].kind))
      i++;
    int some = 0;
    for (unsigned k = s; k < i; k++) {
      unsigned st = labelled(ctx, kid(ctx, b, k));
      if (holds_entry(ctx, st)) {
        *why = "a label or case comes after it inside a statement";
        return 0;
      }
      if (nodes[st].kind == CXCursor_DeclStmt && i < nodes[b].n_kids &&
          is_entry(nodes[kid(ctx, b, i)].kind)) {
        *why = "a declaration before a label or case after it";
        return 0;
      }
      /* A void function's final 'return;' goes where the body ends. */
      some |= nodes[st].kind != CXCursor_NullStmt &&
              !(st == kid(ctx, b, nodes[b].n_kids - 1) &&
                nodes[st].kind == CXCursor_ReturnStmt && !nodes[st].n_kids &&
                nodes[b].parent != GSR_NO_NODE &&
                nodes[nodes[b].parent].kind == CXCursor_FunctionDecl);
    }
    if (!some)
      continue;
    size_t s0, e0;
    if (!anchorable(w, labelled(ctx, kid(ctx, b, s)), &s0, &e0) ||
        !anchorable(w, kid(ctx, b, i - 1), &s0, &e0)) {
      *why = "code after it is written by a macro";
      return 0;
    }
    *code = 1;
    if (!segs)
      continue;
    size_t k = 0;
    while (k < r->n_segs && !(r->segs[k].block == b && r->segs[k].from == s))
      k++;
    if (k < r->n_segs)
      continue;
    segment *g = grow(w->ctx, &r->segs, &r->n_segs, sizeof *g);
    if (!g)
      return 0;
    *g = (segment){b, s, i};
  }
  return 1;
}

/* The code late jump l's ways skip on the way to its target, from its
 * meeting point out through the blocks around it to l->scope, added to
 * r's segments as add_runs() does. */
static int skips(walk *w, const late *l, routes *r, int segs, int *code,
                 const char **why) {
  const gsri_node *nodes = w->ctx->nodes;
  *code = 0;
  for (unsigned b = l->meet, from = l->at;;) {
    if (nodes[b].kind == CXCursor_CompoundStmt &&
        !add_runs(w, b, from, b == l->scope ? l->limit : nodes[b].n_kids, r,
                  segs, code, why))
      return 0;
    if (b == l->scope || nodes[b].parent == GSR_NO_NODE)
      return 1;
    unsigned c = b;
    b = nodes[b].parent;
    from = kid_index(w->ctx, b, c) + 1;
  }
}

/* The kinds of jump late_jumps() routes, by number (kind_of()). */
static const char *const JUMP_KINDS[] = {"return", "continue", "break", "goto"};

/* The number of jump node j's kind in JUMP_KINDS. */
static unsigned kind_of(const gsri_ctx *ctx, unsigned j) {
  switch (ctx->nodes[j].kind) {
  case CXCursor_ReturnStmt:
    return 0;
  case CXCursor_ContinueStmt:
    return 1;
  case CXCursor_BreakStmt:
    return 2;
  default:
    return 3;
  }
}

/* The name of jump node j's kind. */
static const char *jump_kind(const gsri_ctx *ctx, unsigned j) {
  return JUMP_KINDS[kind_of(ctx, j)];
}

/* Point p's label, with a space before it. */
static void point_name(const gsri_ctx *ctx, const point *p, char *out,
                       size_t size) {
  int n = snprintf(out, size, " gsync_%s", jump_kind(ctx, p->jump));
  if (p->number && n > 0 && (size_t)n < size)
    snprintf(out + n, size - (size_t)n, "_%u", p->number + 1);
}

/* Marks the late jumps of r to target as not routed; with why, a warning
 * about the first. */
static void unroute(walk *w, routes *r, unsigned target, const char *why) {
  int warned = !why;
  for (size_t i = 0; i < r->n_jumps; i++)
    if (r->jumps[i].target == target && r->jumps[i].route) {
      if (!warned++)
        unrouted(w, r->jumps[i].jump, jump_kind(w->ctx, r->jumps[i].jump), why);
      r->jumps[i].route = 0;
    }
}

/* Finds jump node j's target, the block where what it skips ends and
 * that block's kid where that is (late); 0 where j is not a jump that
 * late_jumps() routes. */
static int target_of(walk *w, unsigned body, unsigned j, late *l) {
  gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  switch (nodes[j].kind) {
  case CXCursor_ReturnStmt:
    l->target = l->scope = body;
    l->limit = nodes[body].n_kids;
    return 1;
  case CXCursor_ContinueStmt: {
    /* A continue of a loop with a global barrier is one the whole group
     * takes (the uniformity check), and abort.c's guard is where it
     * goes. */
    unsigned loop = jump_target(w, j);
    if (loop == GSR_NO_NODE || !w->reach[loop] || reaches_global(w, loop) ||
        (l->scope = loop_body(ctx, loop)) == GSR_NO_NODE)
      return 0;
    l->target = loop;
    l->limit = nodes[l->scope].n_kids;
    return 1;
  }
  case CXCursor_BreakStmt: {
    /* A break that leaves a loop with a barrier leaves the others at its
     * next barrier: not one of the whole group is undefined. */
    unsigned s = jump_target(w, j);
    if (s == GSR_NO_NODE || nodes[s].kind != CXCursor_SwitchStmt ||
        nodes[s].n_kids < 2)
      return 0;
    l->scope = kid(ctx, s, nodes[s].n_kids - 1);
    if (nodes[l->scope].kind != CXCursor_CompoundStmt)
      return 0;
    l->target = s;
    l->limit = nodes[l->scope].n_kids;
    return 1;
  }
  case CXCursor_GotoStmt: {
    CXCursor label = gsri_goto_label(ctx, j);
    unsigned at = GSR_NO_NODE;
    for (unsigned k = body; k < nodes[body].end && !clang_Cursor_isNull(label);
         k++)
      if (nodes[k].kind == CXCursor_LabelStmt &&
          clang_equalLocations(clang_getCursorLocation(nodes[k].c),
                               clang_getCursorLocation(label))) {
        at = k;
        break;
      }
    unsigned a = at == GSR_NO_NODE ? GSR_NO_NODE : nodes[at].parent;
    if (a == GSR_NO_NODE || nodes[a].kind != CXCursor_CompoundStmt || j < a ||
        j >= nodes[a].end || kid_index(ctx, a, at) <= kid_index(ctx, a, j)) {
      unsigned path;
      if (meeting(w, j, body, nodes[body].n_kids, &path) != GSR_NO_NODE)
        unrouted(w, j, "goto",
                 "its label is not after it in a block around it");
      return 0;
    }
    l->target = at;
    l->scope = a;
    l->limit = kid_index(ctx, a, at);
    return 1;
  }
  default:
    return 0;
  }
}

/* A jump that only some work-items take after the last barrier before its
 * target (a return after the function's last, a continue after its
 * loop's, a switch's break after the last in its case, a goto after the
 * last before its label: a *late jump*) goes where a way that passed no
 * barrier also goes: the exit after an early return or discovery's, the
 * loop's next turn, the switch's end after another case, the label. PoCL
 * takes such a branch as one the whole group takes, and runs what the
 * others run after it in every work-item (docs/pocl.md, section 8). So
 * every late jump (meeting()) becomes a goto to a label where the ways of
 * its meeting block meet, before any other comes in: before the first
 * label or case after it there, else at the block's end; an anchor
 * follows the label.
 *   - 'return;', 'continue;', 'break;', 'goto L;' become 'goto
 *     gsync_<kind>[_n];'; 'return e;' becomes '{ gsync_ret = (e); goto
 *     gsync_return; }', with gsync_ret declared at the top of the body and
 *     returned after the label at its end;
 *   - where code lies between that label and the jump's target, the jump
 *     also sets gsync_jump (1 for a return, 2 on for each other target),
 *     and that code is put in 'if (!gsync_jump) { ... }', one for each
 *     run of statements between labels and cases; the target sets
 *     gsync_jump back to 0 (the loop body's top, after the switch, after
 *     the label), with 'gsync_jump *= gsync_jump != K;' where another
 *     target's value may pass: arithmetic, no branch at any optimisation
 *     level. A conditional expression is branches and a phi at
 *     -cl-opt-disable, and PoCL 5.0 lost a return's flag through one
 *     after a switch (docs/pocl.md, section 8).
 * A jump is routed where its meeting point has another, or it is in a
 * statement of its block (only some take it); then so is every late jump
 * to its target. Where that cannot be done (a goto to a label that is not
 * after it in a block around it, a label inside the code to skip, a
 * declaration a label would take out of scope), nothing changes for that
 * target: a warning. Sets *end_written where a label ends the body. */
static void late_jumps(walk *w, unsigned root, unsigned body,
                       int *end_written) {
  gsri_ctx *ctx = w->ctx;
  const gsri_node *nodes = ctx->nodes;
  CXType result = clang_getResultType(clang_getCursorType(nodes[root].c));
  int value = result.kind != CXType_Void;
  size_t body_start, body_end;
  if (!anchorable(w, body, &body_start, &body_end))
    return;
  unsigned n_body = nodes[body].n_kids;
  routes r = {0};
  gsri_buf text = {0};
  closing *closings = NULL;
  size_t n_closings = 0;
  /* The late jumps, and where their ways meet. */
  for (unsigned j = body + 1; j < nodes[body].end; j++) {
    late l = {.jump = j};
    if (!target_of(w, body, j, &l) ||
        (l.meet = meeting(w, j, l.scope, l.limit, &l.path)) == GSR_NO_NODE)
      continue;
    unsigned end = l.meet == l.scope ? l.limit : nodes[l.meet].n_kids;
    l.at = l.path + 1;
    while (l.at < end && !holds_entry(ctx, kid(ctx, l.meet, l.at)))
      l.at++;
    if (l.at == end && nodes[j].kind != CXCursor_GotoStmt)
      l.at = nodes[l.meet].n_kids;
    late *slot = grow(ctx, &r.jumps, &r.n_jumps, sizeof *slot);
    if (!slot)
      goto done;
    *slot = l;
  }
  /* Which are routed: a jump that only some take, or one whose ways meet
   * another's; then every jump to its target. */
  for (size_t i = 0; i < r.n_jumps; i++) {
    late *l = &r.jumps[i];
    int need = nodes[l->jump].parent != l->meet;
    for (size_t k = 0; k < r.n_jumps && !need; k++)
      need = k != i && r.jumps[k].meet == l->meet && r.jumps[k].at == l->at;
    for (size_t k = 0; k < r.n_jumps && need; k++)
      if (r.jumps[k].target == l->target)
        r.jumps[k].route = 1;
  }
  /* Once a return is, so is the function's final one where it is not
   * late (a label before it): every routed way leaves by the label at the
   * body's end. */
  unsigned final =
      n_body ? labelled(ctx, kid(ctx, body, n_body - 1)) : GSR_NO_NODE;
  int final_seen = 0, returns_routed = 0;
  for (size_t i = 0; i < r.n_jumps; i++) {
    final_seen |= r.jumps[i].jump == final;
    returns_routed |= r.jumps[i].route && r.jumps[i].target == body;
  }
  if (returns_routed && !final_seen && final != GSR_NO_NODE &&
      nodes[final].kind == CXCursor_ReturnStmt) {
    late *slot = grow(ctx, &r.jumps, &r.n_jumps, sizeof *slot);
    if (!slot)
      goto done;
    *slot = (late){.jump = final,
                   .target = body,
                   .scope = body,
                   .limit = n_body,
                   .meet = body,
                   .path = n_body - 1,
                   .at = n_body,
                   .route = 1};
  }
  /* Those that cannot be: their targets stay as they are. */
  for (size_t i = 0; i < r.n_jumps; i++) {
    late *l = &r.jumps[i];
    size_t s, e, ms, me;
    const char *why = NULL;
    int code;
    if (!l->route)
      continue;
    if (!anchorable(w, l->jump, &s, &e) || !anchorable(w, l->meet, &ms, &me) ||
        (nodes[l->jump].kind == CXCursor_ReturnStmt &&
         (e - s < 6 || memcmp(ctx->src + s, "return", 6) ||
          (value && nodes[l->jump].n_kids != 1))) ||
        !anchorable(w, l->scope, &s, &e) ||
        (nodes[l->target].kind == CXCursor_SwitchStmt &&
         !anchorable(w, l->target, &s, &e)) ||
        (nodes[l->target].kind == CXCursor_LabelStmt &&
         (!nodes[l->target].n_kids ||
          !anchorable(w, kid(ctx, l->target, 0), &s, &e)))) {
      miss(w, l->jump);
      unroute(w, &r, l->target, NULL);
      continue;
    }
    if (!skips(w, l, &r, 0, &code, &why))
      unroute(w, &r, l->target, why);
  }
  /* The code each skips; gsync_jump's values; the meeting points. */
  int returns = 0, flags = 0;
  /* gsync_return is the body's end's: a nested one is gsync_return_2. */
  unsigned next_id = 2, numbers[4] = {1, 0, 0, 0};
  for (size_t i = 0; i < r.n_jumps; i++) {
    late *l = &r.jumps[i];
    const char *why;
    int code;
    if (!l->route)
      continue;
    int ret = nodes[l->jump].kind == CXCursor_ReturnStmt;
    returns |= ret;
    if (!skips(w, l, &r, 1, &code, &why))
      goto done;
    if (code) {
      flags = 1;
      l->id = ret ? 1 : 0;
      for (size_t k = 0; k < r.n_jumps && !l->id; k++)
        if (r.jumps[k].target == l->target && r.jumps[k].id)
          l->id = r.jumps[k].id;
      if (!l->id)
        l->id = next_id++;
    }
    size_t p = 0;
    while (p < r.n_points &&
           !(r.points[p].meet == l->meet && r.points[p].at == l->at))
      p++;
    size_t ps = 0, pe;
    anchorable(w, kid(ctx, l->meet, l->path), &ps, &pe);
    if (p == r.n_points) {
      point *pt = grow(ctx, &r.points, &r.n_points, sizeof *pt);
      if (!pt)
        goto done;
      *pt = (point){.meet = l->meet, .at = l->at, .jump = l->jump, .from = ps};
      pt->body_end = ret && l->meet == body && l->at == n_body;
      if (!pt->body_end)
        pt->number = numbers[kind_of(ctx, l->jump)]++;
    } else if (ps < r.points[p].from) {
      r.points[p].from = ps;
    }
    l->point = (unsigned)p;
  }
  /* The declarations. */
  if ((returns && value) || flags) {
    if (returns && value) {
      /* 'const int f()' returns an int. */
      CXString spelling = clang_getTypeSpelling(result);
      const char *type = clang_getCString(spelling);
      if (clang_isConstQualifiedType(result) && !strncmp(type, "const ", 6))
        type += 6;
      gsri_buf_printf(&text, " %s gsync_ret;", type);
      clang_disposeString(spelling);
    }
    if (flags)
      gsri_buf_puts(&text, " int gsync_jump = 0;");
    gsri_insert_at_top(ctx, body_start + 1, body_end - 1,
                       gsri_buf_text(ctx, &text));
  }
  /* The jumps, and their targets' resets. */
  for (size_t i = 0; i < r.n_jumps; i++) {
    const late *l = &r.jumps[i];
    if (!l->route)
      continue;
    char label[48], set[48] = "";
    point_name(ctx, &r.points[l->point], label, sizeof label);
    if (l->id)
      snprintf(set, sizeof set, " gsync_jump = %u;", l->id);
    size_t start, end;
    anchorable(w, l->jump, &start, &end);
    empty(&text);
    if (nodes[l->jump].kind == CXCursor_ReturnStmt && value) {
      size_t e0 = gsri_skip_blank(ctx, start + 6);
      gsri_add_edit(ctx, start, e0 - start, "{ gsync_ret = (");
      gsri_buf_printf(&text, ");%s goto%s; }", set, label);
      gsri_add_edit(ctx, end - 1, 1, gsri_buf_text(ctx, &text));
    } else {
      if (l->id)
        gsri_buf_printf(&text, "{%s goto%s; }", set, label);
      else
        gsri_buf_printf(&text, "goto%s;", label);
      gsri_add_edit(ctx, start, end - start, gsri_buf_text(ctx, &text));
    }
    /* The target's reset, once. */
    int first = l->id >= 2;
    for (size_t k = 0; k < i && first; k++)
      first = !(r.jumps[k].route && r.jumps[k].target == l->target &&
                r.jumps[k].id);
    if (!first)
      continue;
    size_t ts, te;
    unsigned t = l->target;
    empty(&text);
    if (nodes[t].kind == CXCursor_LabelStmt) {
      /* After the label, before what skips the code after it. */
      size_t as, ae;
      anchorable(w, kid(ctx, t, 0), &ts, &te);
      anchorable(w, l->scope, &as, &ae);
      gsri_buf_printf(&text, "gsync_jump *= gsync_jump != %u; ", l->id);
      gsri_insert_before_top(ctx, ts, ae, gsri_buf_text(ctx, &text));
    } else if (nodes[t].kind == CXCursor_SwitchStmt) {
      anchorable(w, t, &ts, &te);
      unsigned parent = nodes[t].parent;
      if (parent == GSR_NO_NODE || nodes[parent].kind != CXCursor_CompoundStmt)
        gsri_wrap(ctx, ts, te);
      gsri_buf_printf(&text, " gsync_jump *= gsync_jump != %u;", l->id);
      gsri_insert_at_end(ctx, ts, te, gsri_buf_text(ctx, &text));
    } else {
      /* A loop body's top, where no other way has gsync_jump set;
       * plan_function() puts braces around one that has none. */
      anchorable(w, l->scope, &ts, &te);
      if (nodes[l->scope].kind == CXCursor_CompoundStmt) {
        ts++;
        te--;
      }
      gsri_buf_puts(&text, " gsync_jump = 0;");
      gsri_insert_at_top(ctx, ts, te, gsri_buf_text(ctx, &text));
    }
  }
  /* The code the jumps skip: 'if (!gsync_jump) {' before each run, and
   * the labels and the runs' '}' where they end, inner ones first. */
  for (size_t g = 0; g < r.n_segs; g++) {
    const segment *sg = &r.segs[g];
    size_t s0, e0, s1, e1, bs, be;
    anchorable(w, labelled(ctx, kid(ctx, sg->block, sg->from)), &s0, &e0);
    anchorable(w, kid(ctx, sg->block, sg->to - 1), &s1, &e1);
    anchorable(w, sg->block, &bs, &be);
    gsri_insert_before_top(ctx, s0, e1, "if (!gsync_jump) { ");
    closing *c = grow(ctx, &closings, &n_closings, sizeof *c);
    if (!c)
      goto done;
    *c = (closing){sg->to == nodes[sg->block].n_kids ? be - 1 : e1, s0, 0, g};
  }
  for (size_t p = 0; p < r.n_points; p++) {
    const point *pt = &r.points[p];
    if (pt->body_end)
      continue; /* below */
    size_t s0, e0;
    if (pt->at == nodes[pt->meet].n_kids) {
      anchorable(w, pt->meet, &s0, &e0);
      e0--;
    } else {
      anchorable(w, kid(ctx, pt->meet, pt->at - 1), &s0, &e0);
    }
    closing *c = grow(ctx, &closings, &n_closings, sizeof *c);
    if (!c)
      goto done;
    *c = (closing){e0, pt->from, 1, p};
  }
  for (size_t i = 0; i < n_closings; i++) {
    /* Inner ones first: a label before the '}' of a run that holds its
     * first jump, after the '}' of one that does not. */
    size_t first = i;
    for (size_t k = i + 1; k < n_closings; k++) {
      const closing *a = &closings[k], *b = &closings[first];
      if (a->at < b->at ||
          (a->at == b->at &&
           (a->from > b->from || (a->from == b->from && a->label))))
        first = k;
    }
    closing t = closings[i];
    closings[i] = closings[first];
    closings[first] = t;
  }
  for (size_t i = 0; i < n_closings;) {
    const closing *c = &closings[i];
    int block_end = ctx->src[c->at] == '}';
    int space = block_end && gsri_brace_after_blank(ctx, c->at + 1);
    empty(&text);
    if (c->label) {
      const point *pt = &r.points[c->which];
      char label[48];
      point_name(ctx, pt, label, sizeof label);
      /* The anchor that ends a branch follows, unless a '}' comes
       * first. */
      int anchored = block_end && pt->at == nodes[pt->meet].n_kids &&
                     ends_anchored(w, pt->meet) &&
                     !(i + 1 < n_closings && closings[i + 1].at == c->at);
      gsri_buf_printf(&text, "%s:%s", label + space,
                      anchored ? (space ? " " : "")
                      : space  ? w->both
                               : w->trail);
      gsri_insert_before_end(ctx, c->from, c->at, gsri_buf_text(ctx, &text));
      i++;
      continue;
    }
    /* A run of '}' at one place is one insert (two alike would be one). */
    size_t k = i;
    for (; k < n_closings && !closings[k].label && closings[k].at == c->at; k++)
      gsri_buf_puts(&text, space ? "} " : " }");
    gsri_insert_at_end(ctx, closings[k - 1].from, c->at,
                       gsri_buf_text(ctx, &text));
    i = k;
  }
  /* The body's end. */
  int at_body = 0;
  for (size_t p = 0; p < r.n_points; p++)
    at_body |= r.points[p].body_end;
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
done:
  gsri_buf_free(&text);
  free(closings);
  free(r.jumps);
  free(r.points);
  free(r.segs);
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
