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

typedef struct tainted_set {
  CXCursor *decls;
  size_t n, cap;
  gsr_table index; /* clang_hashCursor of each decl */
} tainted_set;

typedef struct ucheck {
  gsr_ctx *ctx;
  tainted_set vars;      /* variables and parameters that vary */
  unsigned char *ret;    /* per function: its result varies */
  gsr_table defs;        /* function definitions: clang_hashCursor(def) */
  int changed;
} ucheck;

/* One enclosing control construct during the check walk. */
typedef struct control {
  CXCursor stmt;      /* the if/loop/switch/?: */
  int varying;        /* its condition varies between work-items */
  CXCursor cause;     /* where the variation comes from */
  int is_loop;
} control;

/* Collects a cursor's children in order. */
typedef struct kids {
  CXCursor c[8];
  CXCursor *more;
  size_t n, cap;
} kids;

/* Visitor that appends each child to a kids list. */
static enum CXChildVisitResult collect(CXCursor c, CXCursor parent,
                                       CXClientData data) {
  (void)parent;
  kids *k = data;
  if (k->n < 8) {
    k->c[k->n++] = c;
    return CXChildVisit_Continue;
  }
  if (k->n - 8 == k->cap) {
    size_t cap = k->cap ? k->cap * 2 : 8;
    CXCursor *p = realloc(k->more, cap * sizeof *p);
    if (!p)
      return CXChildVisit_Break;
    k->more = p;
    k->cap = cap;
  }
  k->more[k->n - 8] = c;
  k->n++;
  return CXChildVisit_Continue;
}

/* The i-th child collected. */
static CXCursor kid(const kids *k, size_t i) {
  return i < 8 ? k->c[i] : k->more[i - 8];
}

/* Fills k with c's children. */
static void children(CXCursor c, kids *k) {
  memset(k, 0, sizeof *k);
  clang_visitChildren(c, collect, k);
}

/* What a table lookup compares with: the cursor sought, and where. */
typedef struct cursor_key {
  CXCursor c;
  const ucheck *u;
} cursor_key;

/* Table callback: is tainted variable pos the cursor sought? */
static int var_eq(const void *user, size_t pos) {
  const cursor_key *k = user;
  return clang_equalCursors(k->u->vars.decls[pos], k->c);
}

/* Table callback: is the definition of function pos the cursor sought? */
static int def_eq(const void *user, size_t pos) {
  const cursor_key *k = user;
  return clang_equalCursors(k->u->ctx->funcs[pos].def, k->c);
}

/* Nonzero if decl is a variable or parameter that varies. */
static int is_tainted(const ucheck *u, CXCursor decl) {
  cursor_key k = {decl, u};
  return gsr_table_find(&u->vars.index, clang_hashCursor(decl), var_eq, &k) !=
         (size_t)-1;
}

/* Adds decl to the set; records that something changed. */
static void mark(ucheck *u, CXCursor decl) {
  decl = clang_getCanonicalCursor(decl);
  if (is_tainted(u, decl))
    return;
  if (u->vars.n == u->vars.cap) {
    size_t cap = u->vars.cap ? u->vars.cap * 2 : 32;
    CXCursor *p = realloc(u->vars.decls, cap * sizeof *p);
    if (!p)
      return;
    u->vars.decls = p;
    u->vars.cap = cap;
  }
  if (!gsr_table_add(&u->vars.index, clang_hashCursor(decl), u->vars.n))
    return;
  u->vars.decls[u->vars.n++] = decl;
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

/* The spelling of a call's callee. Caller disposes of it. */
static CXString callee_name(CXCursor call) { return clang_getCursorSpelling(call); }

/* Nonzero if name is a work-item function that varies, or an atomic whose
 * result differs per work-item. */
static int varying_builtin(const char *name) {
  for (size_t i = 0; i < sizeof varying_fns / sizeof *varying_fns; i++)
    if (strcmp(name, varying_fns[i]) == 0)
      return 1;
  return strncmp(name, "atomic_", 7) == 0 || strncmp(name, "atom_", 5) == 0 ||
         strncmp(name, "work_group_scan", 15) == 0;
}

typedef struct expr_scan {
  ucheck *u;
  int varying;
  CXCursor cause;
  int reads_memory;
} expr_scan;

/* Visitor: does an expression vary between work-items, or read memory? */
static enum CXChildVisitResult scan_expr(CXCursor c, CXCursor parent,
                                         CXClientData data) {
  (void)parent;
  expr_scan *e = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor ref = clang_getCursorReferenced(c);
    if (!clang_Cursor_isNull(ref) &&
        is_tainted(e->u, clang_getCanonicalCursor(ref)) && !e->varying) {
      e->varying = 1;
      e->cause = c;
    }
  } else if (k == CXCursor_ArraySubscriptExpr) {
    e->reads_memory = 1;
  } else if (k == CXCursor_CallExpr) {
    CXString n = callee_name(c);
    int vary = varying_builtin(clang_getCString(n));
    clang_disposeString(n);
    int idx = callee_index(e->u, c);
    if (idx >= 0 && e->u->ret[idx])
      vary = 1;
    if (vary && !e->varying) {
      e->varying = 1;
      e->cause = c;
    }
  }
  return CXChildVisit_Recurse;
}

/* Scans expression c (itself included). */
static expr_scan scan(ucheck *u, CXCursor c) {
  expr_scan e = {u, 0, clang_getNullCursor(), 0};
  scan_expr(c, clang_getNullCursor(), &e);
  clang_visitChildren(c, scan_expr, &e);
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

/* Scans children [from, to) of ch as one condition: varying if any part
 * is, with the first part's cause. */
static expr_scan scan_parts(ucheck *u, const kids *ch, size_t from,
                            size_t to) {
  expr_scan all = {u, 0, clang_getNullCursor(), 0};
  for (size_t j = from; j < to; j++) {
    expr_scan e = scan(u, kid(ch, j));
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

/* The variable an assignment's left side names, or a null cursor. Only a
 * plain variable counts: an element written by some work-items is memory,
 * and memory read after a barrier is taken as uniform. */
static CXCursor assigned_var(CXCursor lhs) {
  for (int depth = 0; depth < 8; depth++) {
    enum CXCursorKind k = clang_getCursorKind(lhs);
    if (k == CXCursor_DeclRefExpr)
      return clang_getCursorReferenced(lhs);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
      break;
    kids ch;
    children(lhs, &ch);
    int one = ch.n == 1;
    if (one)
      lhs = kid(&ch, 0);
    free(ch.more);
    if (!one)
      break;
  }
  return clang_getNullCursor();
}

/* Pass 1: propagates variation through one function body. under is
 * nonzero inside a construct whose condition varies. */
static void propagate_walk(ucheck *u, size_t fi, CXCursor c, int under) {
  gsr_ctx *ctx = u->ctx;
  enum CXCursorKind k = clang_getCursorKind(c);
  kids ch;
  children(c, &ch);

  if (k == CXCursor_VarDecl) {
    for (size_t i = 0; i < ch.n; i++)
      if (clang_isExpression(clang_getCursorKind(kid(&ch, i))) &&
          (under || scan(u, kid(&ch, i)).varying))
        mark(u, c);
  } else if ((k == CXCursor_BinaryOperator ||
              k == CXCursor_CompoundAssignOperator) &&
             ch.n == 2) {
    /* Lexing for '=' costs most, so it is asked last. */
    CXCursor var = assigned_var(kid(&ch, 0));
    if (!clang_Cursor_isNull(var) &&
        !is_tainted(u, clang_getCanonicalCursor(var)) &&
        (under || scan(u, kid(&ch, 1)).varying) &&
        (k == CXCursor_CompoundAssignOperator ||
         is_assignment(ctx, c, kid(&ch, 0))))
      mark(u, var);
  } else if (k == CXCursor_ReturnStmt && ch.n == 1) {
    if (!u->ret[fi] && (under || scan(u, kid(&ch, 0)).varying)) {
      u->ret[fi] = 1;
      u->changed = 1;
    }
  } else if (k == CXCursor_CallExpr) {
    int idx = callee_index(u, c);
    int nargs = clang_Cursor_getNumArguments(c);
    for (int a = 0; idx >= 0 && a < nargs; a++)
      if (scan(u, clang_Cursor_getArgument(c, (unsigned)a)).varying) {
        CXCursor parm =
            clang_Cursor_getArgument(ctx->funcs[idx].def, (unsigned)a);
        if (!clang_Cursor_isNull(parm))
          mark(u, parm);
      }
  }

  /* The condition of if/while/for/do/switch/?: decides what runs under. */
  size_t from, to;
  int varies = control_parts(k, ch.n, &from, &to) &&
               scan_parts(u, &ch, from, to).varying;
  for (size_t i = 0; i < ch.n; i++) {
    int governed = varies && (i < from || i >= to);
    propagate_walk(u, fi, kid(&ch, i), under || governed);
  }
  free(ch.more);
}

typedef struct exit_site {
  CXCursor stmt;     /* the return/break/continue */
  size_t offset;
  CXCursor loop;     /* break/continue: the loop it leaves; else null */
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

/* Offset (expansion) of a cursor's start in the input. */
static size_t cursor_offset(CXCursor c) {
  unsigned off;
  clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL,
                             &off);
  return off;
}

/* Reports at a cursor's expansion position. */
static void report_at(gsr_ctx *ctx, gsr_severity sev, CXCursor c,
                      const char *fmt, const char *arg) {
  gsr_report_loc(ctx, sev, clang_getCursorLocation(c), fmt, arg);
}

/* Nonzero if call is global_barrier() or a call of a function that
 * reaches it. */
static int is_barrier_call(ucheck *u, CXCursor call) {
  CXCursor ref = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(ref))
    return 0;
  if (gsr_is_builtin_barrier(ref))
    return 1;
  int idx = callee_index(u, call);
  return idx >= 0 && u->ctx->funcs[idx].reaches_barrier;
}

/* The innermost enclosing loop on the stack, or a null cursor. */
static CXCursor innermost_loop(const check_walk *w, int for_break) {
  for (size_t i = w->depth; i-- > 0;) {
    if (w->stack[i].is_loop)
      return w->stack[i].stmt;
    if (for_break && clang_getCursorKind(w->stack[i].stmt) == CXCursor_SwitchStmt)
      return clang_getNullCursor(); /* break leaves the switch */
  }
  return clang_getNullCursor();
}

/* The innermost varying control on the stack, or NULL. */
static const control *varying_control(const check_walk *w) {
  for (size_t i = w->depth; i-- > 0;)
    if (w->stack[i].varying)
      return &w->stack[i];
  return NULL;
}

/* Checks one barrier call against the controls and exits around it. */
static void check_barrier(check_walk *w, CXCursor call) {
  gsr_ctx *ctx = w->u->ctx;
  CXString n = clang_getCursorSpelling(call);
  const char *name = clang_getCString(n);
  int direct = strcmp(name, "global_barrier") == 0;
  const control *v = varying_control(w);
  if (v) {
    if (direct)
      report_at(ctx, GSR_ERROR, call,
                "global_barrier() %s",
                v->is_loop ? "in a loop whose trip count depends on the "
                             "work-item or group id; not every work-item "
                             "reaches it equally often"
                           : "under a condition that depends on the "
                             "work-item or group id; not every work-item "
                             "reaches it");
    else
      report_at(ctx, GSR_ERROR, call,
                "call of '%s', which reaches global_barrier(), under a "
                "condition that depends on the work-item or group id",
                name);
    report_at(ctx, GSR_NOTE, clang_Cursor_isNull(v->cause) ? v->stmt : v->cause,
              "%s", "the condition depends on the work-item or group id here");
    if (v->is_loop)
      gsr_report(ctx, GSR_NOTE, 0, 0,
                 "put the barrier outside the grid-stride loop: run the loop "
                 "to its end, then call global_barrier()");
    clang_disposeString(n);
    return;
  }
  size_t off = cursor_offset(call);
  for (size_t i = 0; i < w->n_exits; i++) {
    exit_site *x = &w->exits[i];
    int hits;
    if (clang_Cursor_isNull(x->loop)) {
      hits = x->offset < off; /* a return before the barrier */
    } else {
      hits = 0; /* a break/continue in a loop that holds the barrier */
      for (size_t d = 0; d < w->depth; d++)
        hits |= clang_equalCursors(w->stack[d].stmt, x->loop);
    }
    if (!hits)
      continue;
    const char *what = clang_getCursorKind(x->stmt) == CXCursor_ReturnStmt
                           ? "return"
                       : clang_getCursorKind(x->stmt) == CXCursor_BreakStmt
                           ? "break"
                           : "continue";
    report_at(ctx, GSR_ERROR, call,
              "%s is not reached by every work-item: an earlier exit is "
              "taken by only some of them",
              direct ? "global_barrier()" : "this call of a barrier function");
    report_at(ctx, GSR_NOTE, x->stmt,
              "this '%s' depends on the work-item or group id", what);
    if (clang_Cursor_isNull(x->loop))
      gsr_report(ctx, GSR_NOTE, 0, 0,
                 "instead of 'if (id >= n) return;', loop in grid-stride "
                 "style: for (i = get_global_id(0); i < n; i += "
                 "get_global_size(0))");
    break;
  }
  clang_disposeString(n);
}

/* Pass 2: walks a body with a stack of enclosing controls. */
static void check_walk_rec(check_walk *w, CXCursor c) {
  ucheck *u = w->u;
  enum CXCursorKind k = clang_getCursorKind(c);
  kids ch;
  children(c, &ch);

  if (k == CXCursor_CallExpr && is_barrier_call(u, c)) {
    if (!w->collecting)
      check_barrier(w, c);
    else if (w->first_barrier == (size_t)-1)
      w->first_barrier = cursor_offset(c);
  }
  if (w->collecting &&
      (k == CXCursor_ReturnStmt || k == CXCursor_BreakStmt ||
       k == CXCursor_ContinueStmt)) {
    const control *v = varying_control(w);
    if (v && w->n_exits < 1u << 20) {
      exit_site *p = w->n_exits == w->cap_exits
                         ? realloc(w->exits, (w->cap_exits * 2 + 8) * sizeof *p)
                         : w->exits;
      if (p) {
        if (w->n_exits == w->cap_exits)
          w->cap_exits = w->cap_exits * 2 + 8;
        w->exits = p;
        exit_site *x = &p[w->n_exits++];
        x->stmt = c;
        x->offset = cursor_offset(c);
        x->loop = k == CXCursor_ReturnStmt
                      ? clang_getNullCursor()
                      : innermost_loop(w, k == CXCursor_BreakStmt);
        if (k != CXCursor_ReturnStmt && clang_Cursor_isNull(x->loop))
          w->n_exits--; /* a break out of a switch */
      }
    }
  }

  int is_loop = k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
                k == CXCursor_DoStmt;
  size_t from, to;
  int is_ctl = control_parts(k, ch.n, &from, &to);
  expr_scan cond = {u, 0, clang_getNullCursor(), 0};
  if (is_ctl)
    cond = scan_parts(u, &ch, from, to);
  for (size_t i = 0; i < ch.n; i++) {
    CXCursor child = kid(&ch, i);
    /* The children that run under the construct's condition. */
    int governed = is_ctl && (i < from || i >= to);
    if (governed && w->depth == w->cap) {
      size_t cap = w->cap ? w->cap * 2 : 16;
      control *p = realloc(w->stack, cap * sizeof *p);
      if (!p)
        break;
      w->stack = p;
      w->cap = cap;
    }
    if (governed) {
      control *ctl = &w->stack[w->depth++];
      memset(ctl, 0, sizeof *ctl);
      ctl->stmt = c;
      ctl->is_loop = is_loop;
      ctl->varying = cond.varying;
      ctl->cause = cond.cause;
      check_walk_rec(w, child);
      w->depth--;
    } else {
      check_walk_rec(w, child);
    }
  }
  free(ch.more);
}

static void check_data_conditions(check_walk *w, CXCursor c);

/* Runs both passes of the check over the participating code. */
void gsr_check_uniformity(gsr_ctx *ctx) {
  ucheck u;
  memset(&u, 0, sizeof u);
  u.ctx = ctx;
  u.ret = calloc(ctx->n_funcs ? ctx->n_funcs : 1, 1);
  if (!u.ret)
    return;
  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].has_def &&
        !gsr_table_add(&u.defs, clang_hashCursor(ctx->funcs[i].def), i))
      goto free_tables;
  do {
    u.changed = 0;
    for (size_t i = 0; i < ctx->n_funcs; i++)
      if (ctx->funcs[i].has_def)
        propagate_walk(&u, i, ctx->funcs[i].def, 0);
  } while (u.changed);

  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsr_func *fn = &ctx->funcs[i];
    if (!fn->has_def || !fn->reaches_barrier)
      continue;
    check_walk w;
    memset(&w, 0, sizeof w);
    w.u = &u;
    w.first_barrier = (size_t)-1;
    w.collecting = 1;
    check_walk_rec(&w, fn->def);
    w.collecting = 0;
    check_walk_rec(&w, fn->def);
    check_data_conditions(&w, fn->def);
    free(w.stack);
    free(w.exits);
  }
free_tables:
  gsr_table_free(&u.defs);
  gsr_table_free(&u.vars.index);
  free(u.vars.decls);
  free(u.ret);
}

typedef struct data_walk {
  check_walk *w;
  int warned;
} data_walk;

/* Visitor for check_data_conditions: an if/loop whose condition reads
 * memory, placed before the first barrier and holding one. */
static enum CXChildVisitResult data_visit(CXCursor c, CXCursor parent,
                                          CXClientData d) {
  (void)parent;
  data_walk *dw = d;
  check_walk *w = dw->w;
  gsr_ctx *ctx = w->u->ctx;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (dw->warned)
    return CXChildVisit_Break;
  if (k != CXCursor_IfStmt && k != CXCursor_WhileStmt &&
      k != CXCursor_ForStmt && k != CXCursor_DoStmt)
    return CXChildVisit_Recurse;
  if (w->first_barrier == (size_t)-1 || cursor_offset(c) > w->first_barrier)
    return CXChildVisit_Recurse;
  kids ch;
  children(c, &ch);
  int reads = 0, varying = 0;
  size_t cond = k == CXCursor_DoStmt ? ch.n - 1 : 0;
  if (ch.n > 1) {
    expr_scan e = scan(w->u, kid(&ch, cond));
    reads = e.reads_memory;
    varying = e.varying;
  }
  /* Does the construct hold the first barrier? */
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned b, e;
  clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
  if (reads && !varying && b <= w->first_barrier && w->first_barrier < e) {
    report_at(ctx, GSR_WARNING, kid(&ch, cond),
              "%s", "global_barrier() under a condition that reads memory "
                    "before any barrier: every work-item reaches it only if "
                    "they all read the same value (--no-uniformity-check "
                    "silences this)");
    dw->warned = 1;
  }
  free(ch.more);
  return CXChildVisit_Recurse;
}

/* Warns once per function for its first barrier when it sits under a
 * condition that reads memory before any barrier has run. */
static void check_data_conditions(check_walk *w, CXCursor c) {
  data_walk dw = {w, 0};
  clang_visitChildren(c, data_visit, &dw);
}
