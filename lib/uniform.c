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
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Work-item functions whose result differs between work-items. */
static const char *const varying_fns[] = {
    "get_global_id",      "get_local_id",          "get_group_id",
    "get_global_linear_id", "get_local_linear_id", "get_sub_group_id",
    "get_sub_group_local_id"};

/* What the passes ask of each node of the function trees (find.c records
 * them), worked out once. */
typedef struct node_info {
  int decl;   /* DeclRefExpr: the declaration it names; VarDecl: itself */
  int callee; /* CallExpr: the defined function called, or -1 */
  unsigned args, n_args;      /* CallExpr arguments: u->args[args ..) */
  unsigned char varying_call; /* CallExpr: of a built-in that varies */
  unsigned char barrier_call; /* CallExpr: global_barrier() or a function
                                 that reaches it */
} node_info;

#define NO_NODE GSR_NO_NODE

/* A declaration that the nodes name. */
typedef struct decl_info {
  CXCursor c;  /* canonical */
  int tainted; /* its value varies between work-items */
} decl_info;

typedef struct ucheck {
  gsr_ctx *ctx;
  const gsr_node *nodes; /* ctx->nodes */
  node_info *info;       /* per node */
  unsigned *args;        /* node indices */
  size_t n_args, cap_args;
  unsigned *params; /* per function: where its parameters' ids start */
  int *param_ids;   /* declaration ids of every function's parameters */
  size_t n_param_ids, cap_param_ids;
  decl_info *decls; /* declarations that the nodes name, by id */
  size_t n_decls, cap_decls;
  gsr_table decl_index;  /* clang_hashCursor of each declaration */
  gsr_table defs;        /* function definitions: clang_hashCursor(def) */
  unsigned char *ret;    /* per function: its result varies */
  int changed;
  int failed; /* out of memory: the check is skipped */
} ucheck;

/* One enclosing control construct during the check walk. */
typedef struct control {
  unsigned stmt;      /* the if/loop/switch/?: */
  int varying;        /* its condition varies between work-items */
  unsigned cause;     /* where the variation comes from, or NO_NODE */
  int is_loop;
} control;

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

/* Table callback: is the definition of function pos the cursor sought? */
static int def_eq(const void *user, size_t pos) {
  const cursor_key *k = user;
  return clang_equalCursors(k->u->ctx->funcs[pos].def, k->c);
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
  if (i != (size_t)-1)
    return (int)i;
  decl_info *d = gsr_grow(u->decls, &u->cap_decls, u->n_decls, sizeof *d);
  if (!d || !gsr_table_add(&u->decl_index, h, u->n_decls)) {
    u->failed = 1;
    return -1;
  }
  u->decls = d;
  d[u->n_decls].c = decl;
  d[u->n_decls].tainted = 0;
  return (int)u->n_decls++;
}

/* Marks a declaration as varying; records that something changed. */
static void mark(ucheck *u, int id) {
  if (id < 0 || u->decls[id].tainted)
    return;
  u->decls[id].tainted = 1;
  u->changed = 1;
}

/* Returns the index of the defined function a call refers to, or -1. */
static int callee_index(ucheck *u, CXCursor call) {
  CXCursor ref = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(ref))
    return -1;
  CXCursor def = clang_getCursorDefinition(ref);
  if (clang_Cursor_isNull(def))
    return -1;
  cursor_key k = {def, u};
  size_t i = gsr_table_find(&u->defs, clang_hashCursor(def), def_eq, &k);
  return i == (size_t)-1 ? -1 : (int)i;
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

/* Works out what the passes ask of node n. Returns 0 when out of memory. */
static int annotate(ucheck *u, unsigned n) {
  const gsr_node *p = &u->nodes[n];
  node_info *in = &u->info[n];
  in->decl = -1;
  in->callee = -1;
  if (p->kind == CXCursor_DeclRefExpr) {
    in->decl = decl_id(u, clang_getCursorReferenced(p->c));
  } else if (p->kind == CXCursor_VarDecl) {
    in->decl = decl_id(u, p->c);
  } else if (p->kind == CXCursor_CallExpr) {
    /* The call's spelling is its callee's name. */
    CXString s = clang_getCursorSpelling(p->c);
    const char *name = clang_getCString(s);
    CXCursor ref = clang_getCursorReferenced(p->c);
    in->callee = callee_index(u, p->c);
    in->varying_call = (unsigned char)varying_builtin(name);
    in->barrier_call =
        !clang_Cursor_isNull(ref) &&
        ((strcmp(name, "global_barrier") == 0 && gsr_is_builtin_barrier(ref)) ||
         (in->callee >= 0 && u->ctx->funcs[in->callee].reaches_barrier));
    clang_disposeString(s);
    /* The arguments, among the call's children (its callee comes first). */
    int na = clang_Cursor_getNumArguments(p->c);
    in->args = (unsigned)u->n_args;
    for (int a = 0; a < na; a++) {
      CXCursor arg = clang_Cursor_getArgument(p->c, (unsigned)a);
      unsigned at = NO_NODE;
      for (unsigned k = 0; k < p->n_kids && at == NO_NODE; k++)
        if (clang_equalCursors(u->nodes[u->ctx->kids[p->kids + k]].c, arg))
          at = u->ctx->kids[p->kids + k];
      unsigned *args = gsr_grow(u->args, &u->cap_args, u->n_args, sizeof *args);
      if (!args)
        return 0;
      u->args = args;
      u->args[u->n_args++] = at;
      in->n_args++;
    }
  }
  return !u->failed;
}

/* The i-th child of node n. */
static unsigned kid(const ucheck *u, unsigned n, size_t i) {
  return u->ctx->kids[u->nodes[n].kids + i];
}

typedef struct expr_scan {
  int varying;
  unsigned cause;
  int reads_memory;
} expr_scan;

/* Does an expression vary between work-items, or read memory? Walks n and
 * everything below it in preorder; the cause is the first that varies. */
static void scan_rec(const ucheck *u, unsigned n, expr_scan *e) {
  const gsr_node *p = &u->nodes[n];
  const node_info *in = &u->info[n];
  if (p->kind == CXCursor_DeclRefExpr) {
    if (in->decl >= 0 && u->decls[in->decl].tainted && !e->varying) {
      e->varying = 1;
      e->cause = n;
    }
  } else if (p->kind == CXCursor_ArraySubscriptExpr) {
    e->reads_memory = 1;
  } else if (p->kind == CXCursor_CallExpr) {
    int vary = in->varying_call || (in->callee >= 0 && u->ret[in->callee]);
    if (vary && !e->varying) {
      e->varying = 1;
      e->cause = n;
    }
  }
  for (size_t i = 0; i < p->n_kids; i++)
    scan_rec(u, kid(u, n, i), e);
}

/* Scans expression n (itself included). */
static expr_scan scan(const ucheck *u, unsigned n) {
  expr_scan e = {0, NO_NODE, 0};
  scan_rec(u, n, &e);
  return e;
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

/* Scans children [from, to) of node n as one condition: varying if any
 * part is, with the first part's cause. */
static expr_scan scan_parts(const ucheck *u, unsigned n, size_t from,
                            size_t to) {
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
      !clang_File_isEqual(lhs_file, ctx->main_file) ||
      !clang_File_isEqual(begin_file, ctx->main_file))
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
static unsigned assigned_var(const ucheck *u, unsigned lhs) {
  for (int depth = 0; depth < 8; depth++) {
    const gsr_node *p = &u->nodes[lhs];
    if (p->kind == CXCursor_DeclRefExpr)
      return u->info[lhs].decl >= 0 ? lhs : NO_NODE;
    if ((p->kind != CXCursor_UnexposedExpr && p->kind != CXCursor_ParenExpr) ||
        p->n_kids != 1)
      break;
    lhs = kid(u, lhs, 0);
  }
  return NO_NODE;
}

/* Pass 1: propagates variation through one function body. under is
 * nonzero inside a construct whose condition varies. */
static void propagate_walk(ucheck *u, size_t fi, unsigned n, int under) {
  const gsr_node *p = &u->nodes[n];
  const node_info *in = &u->info[n];
  enum CXCursorKind k = p->kind;
  size_t nk = p->n_kids;

  if (k == CXCursor_VarDecl) {
    for (size_t i = 0; i < nk; i++)
      if (clang_isExpression(u->nodes[kid(u, n, i)].kind) &&
          (under || scan(u, kid(u, n, i)).varying))
        mark(u, in->decl);
  } else if ((k == CXCursor_BinaryOperator ||
              k == CXCursor_CompoundAssignOperator) &&
             nk == 2) {
    /* Lexing for '=' costs most, so it is asked last. */
    unsigned var = assigned_var(u, kid(u, n, 0));
    if (var != NO_NODE && !u->decls[u->info[var].decl].tainted &&
        (under || scan(u, kid(u, n, 1)).varying) &&
        (k == CXCursor_CompoundAssignOperator ||
         is_assignment(u->ctx, p->c, u->nodes[kid(u, n, 0)].c)))
      mark(u, u->info[var].decl);
  } else if (k == CXCursor_ReturnStmt && nk == 1) {
    if (!u->ret[fi] && (under || scan(u, kid(u, n, 0)).varying)) {
      u->ret[fi] = 1;
      u->changed = 1;
    }
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
  int varies =
      control_parts(k, nk, &from, &to) && scan_parts(u, n, from, to).varying;
  for (size_t i = 0; i < nk; i++) {
    int governed = varies && (i < from || i >= to);
    propagate_walk(u, fi, kid(u, n, i), under || governed);
  }
}

typedef struct exit_site {
  unsigned stmt; /* the return/break/continue */
  size_t offset;
  unsigned loop; /* break/continue: the loop it leaves; else NO_NODE */
} exit_site;

typedef struct check_walk {
  ucheck *u;
  control *stack;
  size_t depth, cap;
  exit_site *exits;
  size_t n_exits, cap_exits;
  int collecting;          /* first walk: collect exits; second: check */
  size_t first_barrier;    /* offset of the function's first barrier */
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

/* The innermost enclosing loop on the stack, or NO_NODE. */
static unsigned innermost_loop(const check_walk *w, int for_break) {
  for (size_t i = w->depth; i-- > 0;) {
    if (w->stack[i].is_loop)
      return w->stack[i].stmt;
    if (for_break && w->u->nodes[w->stack[i].stmt].kind == CXCursor_SwitchStmt)
      return NO_NODE; /* break leaves the switch */
  }
  return NO_NODE;
}

/* The innermost varying control on the stack, or NULL. */
static const control *varying_control(const check_walk *w) {
  for (size_t i = w->depth; i-- > 0;)
    if (w->stack[i].varying)
      return &w->stack[i];
  return NULL;
}

/* Checks one barrier call against the controls and exits around it. */
static void check_barrier(check_walk *w, unsigned call) {
  const ucheck *u = w->u;
  CXString n = clang_getCursorSpelling(u->nodes[call].c);
  const char *name = clang_getCString(n);
  int direct = strcmp(name, "global_barrier") == 0;
  const control *v = varying_control(w);
  if (v) {
    if (direct)
      report_at(u, GSR_ERROR, call, "global_barrier() %s",
                v->is_loop ? "in a loop whose trip count depends on the "
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
    report_at(u, GSR_NOTE, v->cause == NO_NODE ? v->stmt : v->cause, "%s",
              "the condition depends on the work-item or group id here");
    if (v->is_loop)
      gsr_report(u->ctx, GSR_NOTE, 0, 0,
                 "put the barrier outside the grid-stride loop: run the loop "
                 "to its end, then call global_barrier()");
    clang_disposeString(n);
    return;
  }
  size_t off = node_offset(u, call);
  for (size_t i = 0; i < w->n_exits; i++) {
    exit_site *x = &w->exits[i];
    int hits;
    if (x->loop == NO_NODE) {
      hits = x->offset < off; /* a return before the barrier */
    } else {
      hits = 0; /* a break/continue in a loop that holds the barrier */
      for (size_t d = 0; d < w->depth; d++)
        hits |= w->stack[d].stmt == x->loop;
    }
    if (!hits)
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

/* Records a return/break/continue under a varying condition (first walk). */
static void add_exit(check_walk *w, unsigned n) {
  enum CXCursorKind k = w->u->nodes[n].kind;
  if (!varying_control(w) || w->n_exits >= 1u << 20)
    return;
  unsigned loop = k == CXCursor_ReturnStmt
                      ? NO_NODE
                      : innermost_loop(w, k == CXCursor_BreakStmt);
  if (k != CXCursor_ReturnStmt && loop == NO_NODE)
    return; /* a break out of a switch */
  exit_site *p = gsr_grow(w->exits, &w->cap_exits, w->n_exits, sizeof *p);
  if (!p)
    return;
  w->exits = p;
  exit_site *x = &p[w->n_exits++];
  x->stmt = n;
  x->offset = node_offset(w->u, n);
  x->loop = loop;
}

/* Pass 2: walks a body with a stack of enclosing controls. */
static void check_walk_rec(check_walk *w, unsigned n) {
  ucheck *u = w->u;
  const gsr_node *p = &u->nodes[n];
  enum CXCursorKind k = p->kind;

  if (k == CXCursor_CallExpr && u->info[n].barrier_call) {
    if (!w->collecting)
      check_barrier(w, n);
    else if (w->first_barrier == (size_t)-1)
      w->first_barrier = node_offset(u, n);
  }
  if (w->collecting && (k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
                        k == CXCursor_ContinueStmt))
    add_exit(w, n);

  int is_loop = k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
                k == CXCursor_DoStmt;
  size_t from, to;
  int is_ctl = control_parts(k, p->n_kids, &from, &to);
  expr_scan cond = {0, NO_NODE, 0};
  if (is_ctl)
    cond = scan_parts(u, n, from, to);
  for (size_t i = 0; i < p->n_kids; i++) {
    unsigned child = kid(u, n, i);
    /* The children that run under the construct's condition. */
    int governed = is_ctl && (i < from || i >= to);
    if (governed) {
      control *st = gsr_grow(w->stack, &w->cap, w->depth, sizeof *st);
      if (!st)
        break;
      w->stack = st;
      control *ctl = &st[w->depth++];
      ctl->stmt = n;
      ctl->is_loop = is_loop;
      ctl->varying = cond.varying;
      ctl->cause = cond.cause;
      check_walk_rec(w, child);
      w->depth--;
    } else {
      check_walk_rec(w, child);
    }
  }
}

/* Warns once per function for its first barrier when it sits under a
 * condition that reads memory before any barrier has run: an if/loop
 * whose condition reads memory, placed before the first barrier and
 * holding it. Walks the nodes below n in preorder; returns nonzero once
 * it has warned. */
static int check_data_conditions(check_walk *w, unsigned n) {
  const ucheck *u = w->u;
  for (size_t i = 0; i < u->nodes[n].n_kids; i++) {
    unsigned c = kid(u, n, i);
    const gsr_node *p = &u->nodes[c];
    enum CXCursorKind k = p->kind;
    if ((k == CXCursor_IfStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_ForStmt || k == CXCursor_DoStmt) &&
        w->first_barrier != (size_t)-1 &&
        node_offset(u, c) <= w->first_barrier && p->n_kids > 1) {
      size_t cond = k == CXCursor_DoStmt ? p->n_kids - 1 : 0;
      expr_scan e = scan(u, kid(u, c, cond));
      /* Does the construct hold the first barrier? */
      CXSourceRange r = clang_getCursorExtent(p->c);
      unsigned b, end;
      clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
      clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
      if (e.reads_memory && !e.varying && b <= w->first_barrier &&
          w->first_barrier < end) {
        report_at(u, GSR_WARNING, kid(u, c, cond), "%s",
                  "global_barrier() under a condition that reads "
                  "memory before any barrier: every work-item "
                  "reaches it only if they all read the same value "
                  "(--no-uniformity-check silences this)");
        return 1;
      }
    }
    if (check_data_conditions(w, c))
      return 1;
  }
  return 0;
}

/* Runs both passes of the check over the participating code. */
void gsr_check_uniformity(gsr_ctx *ctx) {
  ucheck u;
  memset(&u, 0, sizeof u);
  u.ctx = ctx;
  u.nodes = ctx->nodes;
  size_t nf = ctx->n_funcs;
  u.ret = calloc(nf ? nf : 1, 1);
  u.params = calloc(nf + 1, sizeof *u.params);
  u.info = calloc(ctx->n_nodes ? ctx->n_nodes : 1, sizeof *u.info);
  if (!u.ret || !u.params || !u.info)
    goto free_all;
  for (size_t i = 0; i < nf; i++)
    if (ctx->funcs[i].has_def &&
        !gsr_table_add(&u.defs, clang_hashCursor(ctx->funcs[i].def), i))
      goto free_all;
  /* Every defined function's parameters and nodes: variation flows through
   * calls from code that does not take part too. */
  for (size_t i = 0; i < nf && !u.failed; i++) {
    u.params[i] = (unsigned)u.n_param_ids;
    if (!ctx->funcs[i].has_def)
      continue;
    CXCursor def = ctx->funcs[i].def;
    int np = clang_Cursor_getNumArguments(def);
    for (int a = 0; a < np && !u.failed; a++) {
      int *ids =
          gsr_grow(u.param_ids, &u.cap_param_ids, u.n_param_ids, sizeof *ids);
      if (!ids) {
        u.failed = 1;
        break;
      }
      u.param_ids = ids;
      ids[u.n_param_ids++] =
          decl_id(&u, clang_Cursor_getArgument(def, (unsigned)a));
    }
  }
  u.params[nf] = (unsigned)u.n_param_ids;
  for (size_t n = 0; n < ctx->n_nodes && !u.failed; n++)
    if (!annotate(&u, (unsigned)n))
      u.failed = 1;
  if (u.failed)
    goto free_all;

  do {
    u.changed = 0;
    for (size_t i = 0; i < nf; i++)
      if (ctx->funcs[i].root != NO_NODE)
        propagate_walk(&u, i, ctx->funcs[i].root, 0);
  } while (u.changed);

  for (size_t i = 0; i < nf; i++) {
    gsr_func *fn = &ctx->funcs[i];
    if (fn->root == NO_NODE || !fn->reaches_barrier)
      continue;
    check_walk w;
    memset(&w, 0, sizeof w);
    w.u = &u;
    w.first_barrier = (size_t)-1;
    w.collecting = 1;
    check_walk_rec(&w, fn->root);
    w.collecting = 0;
    check_walk_rec(&w, fn->root);
    check_data_conditions(&w, fn->root);
    free(w.stack);
    free(w.exits);
  }

free_all:
  gsr_table_free(&u.defs);
  gsr_table_free(&u.decl_index);
  free(u.decls);
  free(u.info);
  free(u.args);
  free(u.param_ids);
  free(u.params);
  free(u.ret);
}
