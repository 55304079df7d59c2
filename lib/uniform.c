/* The barrier uniformity checker, part of the plan stage.
 *
 * Every work-item that takes part must reach the same sequence of
 * global_barrier() calls, or the barrier hangs. This pass reports a call of
 * global_barrier() (or of a function that reaches one) that is
 *   - under a condition, or in a loop whose trip count, depends on a
 *     work-item or group id, directly or through variables computed from
 *     one (including variables assigned under such a condition, parameters
 *     passed such a value, and the results of atomics);
 *   - after a return, or in a loop with a break or continue, that only some
 *     work-items take.
 * A condition that reads memory before any barrier of its function can be
 * uniform or not depending on the data: that is a warning, with the reason.
 * Values read from memory after a barrier are taken as uniform (a flag that
 * every work-item reads after the barrier that published it).
 *
 * The analysis is flow-insensitive within a function and propagates through
 * calls (arguments to parameters, return values to call results) until
 * nothing changes.
 *
 * It walks the nodes that the find stage recorded for each definition. They
 * are in preorder, so a node's subtree is the index range [n, end) and its
 * ancestors are found through the parent links: every walk here is a loop.
 * A function is walked again only when something it consulted changed: a
 * declaration of its own marked after it was read, a parameter marked by a
 * caller, a callee's result, or a declaration shared between functions.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Work-item functions whose result differs between work-items. */
static const char *const varying_fns[] = {
    "get_global_id",      "get_local_id",          "get_group_id",
    "get_global_linear_id", "get_local_linear_id", "get_sub_group_id",
    "get_sub_group_local_id"};

/* What the passes ask of each node, worked out once, and what the current
 * pass of the propagation decided about it. */
typedef struct node_info {
  int decl;   /* DeclRefExpr: the declaration it names (a variable or
                 parameter, else -1; UNRESOLVED until asked); VarDecl: itself */
  int callee; /* CallExpr: the defined function called, or -1 */
  unsigned args, n_args;      /* CallExpr arguments: u->args[args ..) */
  unsigned char varying_call; /* CallExpr: of a built-in that varies */
  unsigned char barrier_call; /* CallExpr: global_barrier() or a function
                                 that reaches it */
  unsigned char governed;     /* runs under its parent's condition */
  unsigned char site;         /* CallExpr: a call site of the find stage */
  unsigned char under;        /* propagation: under a varying condition */
  unsigned char varies;       /* propagation: its condition varies */
} node_info;

#define NO_NODE GSR_NO_NODE
#define UNRESOLVED (-2)

/* A declaration that the nodes name. */
typedef struct decl_info {
  CXCursor c;  /* canonical */
  int tainted; /* its value varies between work-items */
  int owner;   /* the function whose nodes name it, or SHARED */
  unsigned read_in; /* the walk that last consulted it */
} decl_info;

#define SHARED (-1)

typedef struct expr_scan {
  int varying;
  unsigned cause; /* the first node that varies, or NO_NODE */
  int reads_memory;
} expr_scan;

typedef struct ucheck {
  gsr_ctx *ctx;
  const gsr_node *nodes; /* ctx->nodes */
  node_info *info;       /* per node */
  expr_scan *cond;       /* per control node, once the propagation is done */
  unsigned char *cond_done;
  unsigned *args; /* node indices */
  size_t n_args, cap_args;
  unsigned *params; /* per function: where its parameters' ids start */
  int *param_ids;   /* declaration ids of every function's parameters */
  size_t n_param_ids, cap_param_ids;
  decl_info *decls; /* declarations that the nodes name, by id */
  size_t n_decls, cap_decls;
  gsr_table decl_index; /* clang_hashCursor of each declaration */
  unsigned char *ret;   /* per function: its result varies */
  unsigned char *dirty; /* per function: walk it (again) */
  unsigned **callers;   /* per function: the functions that call it */
  size_t *n_callers;
  size_t cur_fn; /* the function being walked */
  unsigned walk; /* walks so far (decl_info.read_in) */
  int failed; /* out of memory: the check is skipped */
} ucheck;

/* What a table lookup compares with: the cursor sought, and where. */
typedef struct cursor_key {
  CXCursor c;
  const ucheck *u;
} cursor_key;

/* Table callback: is declaration pos the cursor sought? */
static int decl_eq(const void *user, size_t pos) {
  const cursor_key *k = user;
  return clang_equalCursors(k->u->decls[pos].c, k->c);
}

/* The id of a declaration (canonicalized here), added if new; -1 for a
 * null cursor or when out of memory. */
static int decl_id(ucheck *u, CXCursor decl) {
  if (clang_Cursor_isNull(decl))
    return -1;
  decl = clang_getCanonicalCursor(decl);
  unsigned h = clang_hashCursor(decl);
  cursor_key k = {decl, u};
  size_t i = gsr_table_find(&u->decl_index, h, decl_eq, &k);
  if (i != (size_t)-1) {
    if (u->decls[i].owner != (int)u->cur_fn)
      u->decls[i].owner = SHARED; /* a program-scope variable */
    return (int)i;
  }
  decl_info *d = gsr_grow(u->decls, &u->cap_decls, u->n_decls, sizeof *d);
  if (!d || !gsr_table_add(&u->decl_index, h, u->n_decls)) {
    u->failed = 1;
    return -1;
  }
  u->decls = d;
  d[u->n_decls].c = decl;
  d[u->n_decls].tainted = 0;
  d[u->n_decls].owner = (int)u->cur_fn;
  d[u->n_decls].read_in = 0;
  return (int)u->n_decls++;
}

/* Nonzero if declaration id varies; notes that the current walk asked. */
static int tainted(ucheck *u, int id) {
  u->decls[id].read_in = u->walk;
  return u->decls[id].tainted;
}

/* Marks a declaration as varying, and the functions that consulted it as
 * to be walked again. */
static void mark(ucheck *u, int id) {
  if (id < 0 || u->decls[id].tainted)
    return;
  decl_info *d = &u->decls[id];
  d->tainted = 1;
  if (d->owner == SHARED)
    memset(u->dirty, 1, u->ctx->n_funcs);
  else if (d->owner != (int)u->cur_fn || d->read_in == u->walk)
    u->dirty[d->owner] = 1;
}

/* Records that the result of function fi varies: its callers are to be
 * walked again. */
static void mark_result(ucheck *u, size_t fi) {
  u->ret[fi] = 1;
  for (size_t i = 0; i < u->n_callers[fi]; i++)
    u->dirty[u->callers[fi][i]] = 1;
}

/* Nonzero if name is a work-item function that varies, or an atomic whose
 * result differs per work-item. */
static int varying_builtin(const char *name) {
  for (size_t i = 0; i < sizeof varying_fns / sizeof *varying_fns; i++)
    if (strcmp(name, varying_fns[i]) == 0)
      return 1;
  return strncmp(name, "atomic_", 7) == 0 || strncmp(name, "atom_", 5) == 0 ||
         strncmp(name, "work_group_scan", 15) == 0;
}

/* The i-th child of node n. */
static unsigned kid(const ucheck *u, unsigned n, size_t i) {
  return u->ctx->kids[u->nodes[n].kids + i];
}

/* For a control construct of kind k with n children (libclang lists only
 * the non-empty ones, the body last for 'for' and first for 'do'): sets
 * [*from, *to) to the children that decide whether, or how often, the
 * others run, and returns nonzero if k is such a construct. */
static int control_parts(enum CXCursorKind k, size_t n, size_t *from,
                         size_t *to) {
  *from = 0;
  *to = 0;
  if (k == CXCursor_ForStmt)
    *to = n - 1; /* for (;;) has no condition: nothing but the body */
  else if (k == CXCursor_DoStmt)
    *from = 1, *to = n;
  else if (k == CXCursor_IfStmt || k == CXCursor_WhileStmt ||
           k == CXCursor_SwitchStmt || k == CXCursor_ConditionalOperator)
    *to = 1;
  else
    return 0;
  return n > 0;
}

/* The declaration that DeclRefExpr or VarDecl node n names, worked out
 * when first asked: many are never read. */
static int node_decl(ucheck *u, unsigned n) {
  node_info *in = &u->info[n];
  if (in->decl == UNRESOLVED) {
    CXCursor c = u->nodes[n].c;
    if (u->nodes[n].kind == CXCursor_DeclRefExpr) {
      /* Only variables and parameters can vary (a function or enumerator
       * named here never does). */
      c = clang_getCursorReferenced(c);
      if (c.kind != CXCursor_VarDecl && c.kind != CXCursor_ParmDecl)
        c = clang_getNullCursor();
    }
    in->decl = decl_id(u, c);
  }
  return in->decl;
}

/* Records what a call site of the find stage says about its node: the
 * defined function it calls, and its arguments among the call's children
 * (the callee comes first). Returns 0 when out of memory. */
static int annotate_site(ucheck *u, const gsr_site *s) {
  unsigned n = s->node;
  const gsr_node *p = &u->nodes[n];
  node_info *in = &u->info[n];
  in->varying_call = (unsigned char)varying_builtin(s->callee_name);
  in->barrier_call =
      s->kind == GSR_SITE_BARRIER ||
      (s->kind == GSR_SITE_CALL && u->ctx->funcs[s->callee].reaches_barrier);
  if (s->kind != GSR_SITE_CALL)
    return 1;
  in->callee = s->callee;
  int na = clang_Cursor_getNumArguments(p->c);
  in->args = (unsigned)u->n_args;
  for (int a = 0; a < na; a++) {
    CXCursor arg = clang_Cursor_getArgument(p->c, (unsigned)a);
    unsigned at = NO_NODE;
    for (unsigned k = 0; k < p->n_kids && at == NO_NODE; k++)
      if (clang_equalCursors(u->nodes[kid(u, n, k)].c, arg))
        at = kid(u, n, k);
    unsigned *args = gsr_grow(u->args, &u->cap_args, u->n_args, sizeof *args);
    if (!args)
      return 0;
    u->args = args;
    u->args[u->n_args++] = at;
    in->n_args++;
  }
  return 1;
}

/* Works out what the passes ask of every node. A call that is no call site
 * (find.c records calls of defined functions, of global_barrier() and of
 * the remapped ids) calls no defined function and no barrier; only its
 * name matters. Returns 0 when out of memory. */
static int annotate(ucheck *u) {
  gsr_ctx *ctx = u->ctx;
  for (size_t n = 0; n < ctx->n_nodes; n++) {
    const gsr_node *p = &u->nodes[n];
    node_info *in = &u->info[n];
    in->decl = UNRESOLVED;
    in->callee = -1;
    size_t from, to;
    if (control_parts(p->kind, p->n_kids, &from, &to))
      for (size_t i = 0; i < p->n_kids; i++)
        u->info[kid(u, (unsigned)n, i)].governed = i < from || i >= to;
  }
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
      if (!annotate_site(u, &ctx->funcs[i].sites[s]))
        return 0;
      u->info[ctx->funcs[i].sites[s].node].site = 1;
    }
  for (size_t n = 0; n < ctx->n_nodes; n++)
    if (u->nodes[n].kind == CXCursor_CallExpr && !u->info[n].site) {
      CXString s = clang_getCursorSpelling(u->nodes[n].c);
      u->info[n].varying_call =
          (unsigned char)varying_builtin(clang_getCString(s));
      clang_disposeString(s);
    }
  return !u->failed;
}

/* Does expression n vary between work-items, or read memory? Looks at n
 * and everything below it in preorder; the cause is the first that
 * varies. */
static expr_scan scan(ucheck *u, unsigned n) {
  expr_scan e = {0, NO_NODE, 0};
  for (unsigned i = n; i < u->nodes[n].end; i++) {
    const node_info *in = &u->info[i];
    switch (u->nodes[i].kind) {
    case CXCursor_DeclRefExpr:
      if (!e.varying && node_decl(u, i) >= 0 && tainted(u, in->decl)) {
        e.varying = 1;
        e.cause = i;
      }
      break;
    case CXCursor_ArraySubscriptExpr:
      e.reads_memory = 1;
      break;
    case CXCursor_CallExpr:
      if (!e.varying &&
          (in->varying_call || (in->callee >= 0 && u->ret[in->callee]))) {
        e.varying = 1;
        e.cause = i;
      }
      break;
    default:
      break;
    }
  }
  return e;
}

/* Scans children [from, to) of node n as one condition: varying if any
 * part is, with the first part's cause. */
static expr_scan scan_parts(ucheck *u, unsigned n, size_t from, size_t to) {
  expr_scan all = {0, NO_NODE, 0};
  for (size_t j = from; j < to; j++) {
    expr_scan e = scan(u, kid(u, n, j));
    if (e.varying && !all.varying) {
      all.varying = 1;
      all.cause = e.cause;
    }
    all.reads_memory |= e.reads_memory;
  }
  return all;
}

/* Lexes range and returns nonzero if its first punctuation token at or
 * after offset from is '='. Sets *count to the number of tokens lexed. */
static int first_punct_is_assign(gsr_ctx *ctx, CXSourceRange range,
                                 unsigned from, unsigned *count) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(ctx->tu, range, &toks, &n);
  int r = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned off;
    clang_getExpansionLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                               NULL, NULL, &off);
    if (off < from || clang_getTokenKind(toks[i]) != CXToken_Punctuation)
      continue;
    CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
    r = strcmp(clang_getCString(s), "=") == 0;
    clang_disposeString(s);
    break;
  }
  clang_disposeTokens(ctx->tu, toks, n);
  *count = n;
  return r;
}

/* Where the text of loc is spelled: the file and offset of the token that
 * clang_tokenize lexes first from loc. Returns 0 if there is none. */
static int spelled_at(gsr_ctx *ctx, CXSourceLocation loc, CXFile *file,
                      unsigned *off) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(ctx->tu, clang_getRange(loc, loc), &toks, &n);
  if (n)
    clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[0]), file,
                              NULL, NULL, off);
  clang_disposeTokens(ctx->tu, toks, n);
  return n > 0;
}

/* Nonzero if a binary operator cursor is a plain assignment '=': the first
 * punctuation token of its extent after the left side is '='.
 *
 * Lexing the whole extent is what defines the answer, but an operator
 * written in a macro body has an extent that starts at the #define, so
 * that lexes everything from there to the expansion: quadratic over a
 * file. When the extent starts in the input before the left side's end,
 * lexing from that end gives the same tokens from there on, unless the
 * left side ends at or past the extent's end; then a single token is lexed
 * where the whole extent lexes none after the left side, and only a single
 * '=' would change the answer, so that case lexes the whole extent. */
static int is_assignment(gsr_ctx *ctx, CXCursor op, CXCursor lhs) {
  CXSourceRange ext = clang_getCursorExtent(op);
  CXFile lhs_file, begin_file = NULL;
  unsigned lhs_end, begin, n;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(lhs)),
                             &lhs_file, NULL, NULL, &lhs_end);
  if (!spelled_at(ctx, clang_getRangeStart(ext), &begin_file, &begin) ||
      !lhs_file || !begin_file || begin >= lhs_end ||
      !gsr_same_file(ctx, lhs_file, ctx->main_file) ||
      !gsr_same_file(ctx, begin_file, ctx->main_file))
    return first_punct_is_assign(ctx, ext, lhs_end, &n);
  CXSourceLocation from =
      clang_getLocationForOffset(ctx->tu, ctx->main_file, lhs_end);
  int r = first_punct_is_assign(
      ctx, clang_getRange(from, clang_getRangeEnd(ext)), lhs_end, &n);
  if (r && n == 1)
    return first_punct_is_assign(ctx, ext, lhs_end, &n);
  return r;
}

/* The variable an assignment's left side names: the DeclRefExpr node, or
 * NO_NODE. Only a plain variable counts: an element written by some
 * work-items is memory, and memory read after a barrier is taken as
 * uniform. */
static unsigned assigned_var(ucheck *u, unsigned lhs) {
  for (int depth = 0; depth < 8; depth++) {
    const gsr_node *p = &u->nodes[lhs];
    if (p->kind == CXCursor_DeclRefExpr)
      return node_decl(u, lhs) >= 0 ? lhs : NO_NODE;
    if ((p->kind != CXCursor_UnexposedExpr && p->kind != CXCursor_ParenExpr) ||
        p->n_kids != 1)
      break;
    lhs = kid(u, lhs, 0);
  }
  return NO_NODE;
}

/* Pass 1: propagates variation through the body of function fi, whose
 * definition is node root, in preorder. A node is under a varying
 * condition if its parent is, or if it runs under its parent's condition
 * and that varies. */
static void propagate_body(ucheck *u, size_t fi, unsigned root) {
  for (unsigned n = root; n < u->nodes[root].end; n++) {
    const gsr_node *p = &u->nodes[n];
    node_info *in = &u->info[n];
    enum CXCursorKind k = p->kind;
    size_t nk = p->n_kids;
    const node_info *up = n == root ? NULL : &u->info[p->parent];
    int under = up && (up->under || (in->governed && up->varies));
    in->under = (unsigned char)under;

    if (k == CXCursor_VarDecl) {
      for (size_t i = 0; i < nk; i++)
        if (clang_isExpression(u->nodes[kid(u, n, i)].kind) &&
            (under || scan(u, kid(u, n, i)).varying))
          mark(u, node_decl(u, n));
    } else if ((k == CXCursor_BinaryOperator ||
                k == CXCursor_CompoundAssignOperator) &&
               nk == 2) {
      /* Lexing for '=' costs most, so it is asked last. */
      unsigned var = assigned_var(u, kid(u, n, 0));
      if (var != NO_NODE && !tainted(u, u->info[var].decl) &&
          (under || scan(u, kid(u, n, 1)).varying) &&
          (k == CXCursor_CompoundAssignOperator ||
           is_assignment(u->ctx, p->c, u->nodes[kid(u, n, 0)].c)))
        mark(u, u->info[var].decl);
    } else if (k == CXCursor_ReturnStmt && nk == 1) {
      if (!u->ret[fi] && (under || scan(u, kid(u, n, 0)).varying))
        mark_result(u, fi);
    } else if (k == CXCursor_CallExpr && in->callee >= 0) {
      unsigned np = u->params[in->callee + 1] - u->params[in->callee];
      for (size_t a = 0; a < in->n_args; a++) {
        unsigned arg = u->args[in->args + a];
        if (arg != NO_NODE && scan(u, arg).varying && a < np)
          mark(u, u->param_ids[u->params[in->callee] + a]);
      }
    }

    /* The condition of if/while/for/do/switch/?: decides what runs under. */
    size_t from, to;
    in->varies = (unsigned char)(control_parts(k, nk, &from, &to) &&
                                 scan_parts(u, n, from, to).varying);
  }
}

/* The condition of control node a, scanned once the propagation is done. */
static const expr_scan *cond_of(ucheck *u, unsigned a) {
  if (!u->cond_done[a]) {
    size_t from, to;
    control_parts(u->nodes[a].kind, u->nodes[a].n_kids, &from, &to);
    u->cond[a] = scan_parts(u, a, from, to);
    u->cond_done[a] = 1;
  }
  return &u->cond[a];
}

/* The controls around node n: the ancestors whose condition decides
 * whether n runs, innermost first. Set c to n, then call next_control()
 * until it returns NO_NODE. */
static unsigned next_control(const ucheck *u, unsigned *c) {
  while (*c != NO_NODE && u->nodes[*c].parent != NO_NODE) {
    unsigned child = *c;
    *c = u->nodes[child].parent;
    if (u->info[child].governed)
      return *c;
  }
  *c = NO_NODE;
  return NO_NODE;
}

/* Nonzero if a control construct is a loop. */
static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt;
}

/* The innermost control around n whose condition varies, or NO_NODE. */
static unsigned varying_control(ucheck *u, unsigned n) {
  unsigned c = n, a;
  while ((a = next_control(u, &c)) != NO_NODE)
    if (cond_of(u, a)->varying)
      return a;
  return NO_NODE;
}

/* The innermost loop around n that a break (for_break) or continue there
 * leaves, or NO_NODE (a break inside a switch leaves the switch). */
static unsigned innermost_loop(const ucheck *u, unsigned n, int for_break) {
  unsigned c = n, a;
  while ((a = next_control(u, &c)) != NO_NODE) {
    if (is_loop(u->nodes[a].kind))
      return a;
    if (for_break && u->nodes[a].kind == CXCursor_SwitchStmt)
      return NO_NODE;
  }
  return NO_NODE;
}

/* Nonzero if control a is around node n. */
static int inside(const ucheck *u, unsigned n, unsigned a) {
  unsigned c = n, b;
  while ((b = next_control(u, &c)) != NO_NODE)
    if (b == a)
      return 1;
  return 0;
}

typedef struct exit_site {
  unsigned stmt; /* the return/break/continue */
  size_t offset;
  unsigned loop; /* break/continue: the loop it leaves; else NO_NODE */
} exit_site;

typedef struct check_walk {
  ucheck *u;
  exit_site *exits;
  size_t n_exits, cap_exits;
  size_t first_barrier; /* offset of the function's first barrier */
} check_walk;

/* Offset (expansion) of a node's start in the input. */
static size_t node_offset(const ucheck *u, unsigned n) {
  unsigned off;
  clang_getExpansionLocation(clang_getCursorLocation(u->nodes[n].c), NULL, NULL,
                             NULL, &off);
  return off;
}

/* Reports at a node's expansion position. */
static void report_at(const ucheck *u, gsr_severity sev, unsigned n,
                      const char *fmt, const char *arg) {
  gsr_report_loc(u->ctx, sev, clang_getCursorLocation(u->nodes[n].c), fmt,
                 arg);
}

/* Checks one barrier call against the controls and exits around it. */
static void check_barrier(check_walk *w, unsigned call) {
  ucheck *u = w->u;
  CXString n = clang_getCursorSpelling(u->nodes[call].c);
  const char *name = clang_getCString(n);
  int direct = strcmp(name, "global_barrier") == 0;
  unsigned v = varying_control(u, call);
  if (v != NO_NODE) {
    int loop = is_loop(u->nodes[v].kind);
    unsigned cause = cond_of(u, v)->cause;
    if (direct)
      report_at(u, GSR_ERROR, call, "global_barrier() %s",
                loop ? "in a loop whose trip count depends on the "
                       "work-item or group id; not every work-item "
                       "reaches it equally often"
                     : "under a condition that depends on the "
                       "work-item or group id; not every work-item "
                       "reaches it");
    else
      report_at(u, GSR_ERROR, call,
                "call of '%s', which reaches global_barrier(), under a "
                "condition that depends on the work-item or group id",
                name);
    report_at(u, GSR_NOTE, cause == NO_NODE ? v : cause, "%s",
              "the condition depends on the work-item or group id here");
    if (loop)
      gsr_report(u->ctx, GSR_NOTE, 0, 0,
                 "put the barrier outside the grid-stride loop: run the loop "
                 "to its end, then call global_barrier()");
    clang_disposeString(n);
    return;
  }
  size_t off = node_offset(u, call);
  for (size_t i = 0; i < w->n_exits; i++) {
    exit_site *x = &w->exits[i];
    /* A return before the barrier, or a break/continue in a loop that
     * holds the barrier. */
    if (x->loop == NO_NODE ? x->offset >= off : !inside(u, call, x->loop))
      continue;
    enum CXCursorKind xk = u->nodes[x->stmt].kind;
    const char *what = xk == CXCursor_ReturnStmt  ? "return"
                       : xk == CXCursor_BreakStmt ? "break"
                                                  : "continue";
    report_at(u, GSR_ERROR, call,
              "%s is not reached by every work-item: an earlier exit is "
              "taken by only some of them",
              direct ? "global_barrier()" : "this call of a barrier function");
    report_at(u, GSR_NOTE, x->stmt,
              "this '%s' depends on the work-item or group id", what);
    if (x->loop == NO_NODE)
      gsr_report(u->ctx, GSR_NOTE, 0, 0,
                 "instead of 'if (id >= n) return;', loop in grid-stride "
                 "style: for (i = get_global_id(0); i < n; i += "
                 "get_global_size(0))");
    break;
  }
  clang_disposeString(n);
}

/* Records a return/break/continue under a varying condition. */
static void add_exit(check_walk *w, unsigned n) {
  ucheck *u = w->u;
  enum CXCursorKind k = u->nodes[n].kind;
  if (varying_control(u, n) == NO_NODE || w->n_exits >= 1u << 20)
    return;
  unsigned loop = k == CXCursor_ReturnStmt
                      ? NO_NODE
                      : innermost_loop(u, n, k == CXCursor_BreakStmt);
  if (k != CXCursor_ReturnStmt && loop == NO_NODE)
    return; /* a break out of a switch */
  exit_site *p = gsr_grow(w->exits, &w->cap_exits, w->n_exits, sizeof *p);
  if (!p)
    return;
  w->exits = p;
  exit_site *x = &p[w->n_exits++];
  x->stmt = n;
  x->offset = node_offset(u, n);
  x->loop = loop;
}

/* Warns for the function's first barrier when it sits under a condition
 * that reads memory before any barrier has run: the first if/loop in
 * preorder whose condition reads memory (and does not vary), placed
 * before the first barrier and holding it. */
static void check_data_conditions(check_walk *w, unsigned root) {
  ucheck *u = w->u;
  size_t fb = w->first_barrier;
  if (fb == (size_t)-1)
    return;
  for (unsigned n = root + 1; n < u->nodes[root].end; n++) {
    const gsr_node *p = &u->nodes[n];
    enum CXCursorKind k = p->kind;
    if ((k != CXCursor_IfStmt && !is_loop(k)) || p->n_kids < 2)
      continue;
    unsigned cond = kid(u, n, k == CXCursor_DoStmt ? p->n_kids - 1 : 0);
    expr_scan e = scan(u, cond);
    if (!e.reads_memory || e.varying || node_offset(u, n) > fb)
      continue;
    /* Does the construct hold the first barrier? */
    CXSourceRange r = clang_getCursorExtent(p->c);
    unsigned b, end;
    clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
    if (b <= fb && fb < end) {
      report_at(u, GSR_WARNING, cond, "%s",
                "global_barrier() under a condition that reads memory "
                "before any barrier: every work-item reaches it only if "
                "they all read the same value (--no-uniformity-check "
                "silences this)");
      return;
    }
  }
}

/* Pass 2: checks the barrier calls of the function whose definition is
 * node root: first collects the exits that only some work-items take and
 * where the first barrier is, then checks each barrier call in preorder. */
static void check_body(ucheck *u, unsigned root) {
  check_walk w;
  memset(&w, 0, sizeof w);
  w.u = u;
  w.first_barrier = (size_t)-1;
  unsigned end = u->nodes[root].end;
  for (unsigned n = root; n < end; n++) {
    enum CXCursorKind k = u->nodes[n].kind;
    if (k == CXCursor_CallExpr && u->info[n].barrier_call &&
        w.first_barrier == (size_t)-1)
      w.first_barrier = node_offset(u, n);
    if (k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
        k == CXCursor_ContinueStmt)
      add_exit(&w, n);
  }
  for (unsigned n = root; n < end; n++)
    if (u->nodes[n].kind == CXCursor_CallExpr && u->info[n].barrier_call)
      check_barrier(&w, n);
  check_data_conditions(&w, root);
  free(w.exits);
}

/* The parameters of every defined function, as declaration ids. Returns 0
 * when out of memory. */
static int index_params(ucheck *u) {
  gsr_ctx *ctx = u->ctx;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    u->params[i] = (unsigned)u->n_param_ids;
    u->cur_fn = i;
    int np = ctx->funcs[i].has_def
                 ? clang_Cursor_getNumArguments(ctx->funcs[i].def)
                 : 0;
    for (int a = 0; a < np; a++) {
      int *ids = gsr_grow(u->param_ids, &u->cap_param_ids, u->n_param_ids,
                          sizeof *ids);
      if (!ids)
        return 0;
      u->param_ids = ids;
      ids[u->n_param_ids++] =
          decl_id(u, clang_Cursor_getArgument(ctx->funcs[i].def, (unsigned)a));
    }
  }
  u->params[ctx->n_funcs] = (unsigned)u->n_param_ids;
  return !u->failed;
}

/* The callers of every function, from the find stage's call sites. Returns
 * 0 when out of memory. */
static int index_callers(ucheck *u) {
  gsr_ctx *ctx = u->ctx;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < ctx->n_funcs; i++)
      for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
        const gsr_site *site = &ctx->funcs[i].sites[s];
        if (site->kind != GSR_SITE_CALL)
          continue;
        size_t f = (size_t)site->callee;
        if (pass == 1)
          u->callers[f][u->n_callers[f]] = (unsigned)i;
        u->n_callers[f]++;
      }
    for (size_t f = 0; pass == 0 && f < ctx->n_funcs; f++) {
      u->callers[f] =
          malloc((u->n_callers[f] ? u->n_callers[f] : 1) * sizeof **u->callers);
      if (!u->callers[f])
        return 0;
      u->n_callers[f] = 0;
    }
  }
  return 1;
}

/* Releases what the check allocated. */
static void ucheck_free(ucheck *u) {
  for (size_t i = 0; u->callers && i < u->ctx->n_funcs; i++)
    free(u->callers[i]);
  free(u->callers);
  free(u->n_callers);
  gsr_table_free(&u->decl_index);
  free(u->decls);
  free(u->info);
  free(u->cond);
  free(u->cond_done);
  free(u->args);
  free(u->param_ids);
  free(u->params);
  free(u->ret);
  free(u->dirty);
}

/* Runs both passes of the check over the participating code. */
void gsr_check_uniformity(gsr_ctx *ctx) {
  ucheck u;
  memset(&u, 0, sizeof u);
  u.ctx = ctx;
  u.nodes = ctx->nodes;
  size_t nf = ctx->n_funcs ? ctx->n_funcs : 1;
  size_t nn = ctx->n_nodes ? ctx->n_nodes : 1;
  u.ret = calloc(nf, 1);
  u.dirty = malloc(nf);
  u.params = calloc(nf + 1, sizeof *u.params);
  u.callers = calloc(nf, sizeof *u.callers);
  u.n_callers = calloc(nf, sizeof *u.n_callers);
  u.info = calloc(nn, sizeof *u.info);
  u.cond = malloc(nn * sizeof *u.cond);
  u.cond_done = calloc(nn, 1);
  /* Every defined function takes part in the propagation: variation flows
   * through calls from code that does not take part too. */
  if (!u.ret || !u.dirty || !u.params || !u.callers || !u.n_callers ||
      !u.info || !u.cond || !u.cond_done || !index_params(&u) ||
      !index_callers(&u) || !annotate(&u))
    goto free_all;

  /* Walk until nothing changes; the result does not depend on the order. */
  memset(u.dirty, 1, nf);
  for (int again = 1; again;) {
    again = 0;
    for (size_t i = 0; i < ctx->n_funcs; i++)
      if (u.dirty[i] && ctx->funcs[i].root != NO_NODE) {
        u.dirty[i] = 0;
        u.cur_fn = i;
        u.walk++;
        propagate_body(&u, i, ctx->funcs[i].root);
        again = 1;
      }
  }
  if (u.failed)
    goto free_all;

  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].root != NO_NODE && ctx->funcs[i].reaches_barrier)
      check_body(&u, ctx->funcs[i].root);

free_all:
  ucheck_free(&u);
}
