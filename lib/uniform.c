/* The barrier uniformity checker, part of the plan stage (the rules, as
 * users read them, are in docs/barriers.md).
 *
 * Every work-item that takes part must reach the same sequence of
 * global_barrier() calls, or the barrier hangs. This pass reports a call of
 * global_barrier() (or of a function that reaches one) that is
 *   - under a condition, or in a loop whose trip count, depends on a
 *     work-item or group id, directly or through variables computed from
 *     one (including variables assigned under such a condition, parameters
 *     passed such a value, and the results of atomics that modify), or on
 *     a read of global memory that a write of the same place can reach, or
 *     be reached from, with no barrier between (a race);
 *   - after a return, or in a loop with a break or continue, that only some
 *     work-items take.
 * A condition that reads memory before any barrier of its function can be
 * uniform or not depending on the data: that is a warning, with the reason.
 * Other values read from memory, plainly or with an atomic that only reads
 * (atomic_or(p, 0), atomic_load), are taken as uniform: every work-item
 * reads them between the same two barriers. A grid-stride loop whose bound
 * is a multiple of its stride runs equally often in every work-item, and
 * so does a loop under '#pragma gsync uniform' (pragma.c), by the user's
 * word.
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
    "get_global_id",         "get_local_id",        "get_group_id",
    "get_global_linear_id",  "get_local_linear_id", "get_sub_group_id",
    "get_sub_group_local_id"};

/* What the passes ask of each node, worked out once, and what the current
 * pass of the propagation decided about it. */
typedef struct node_info {
  int decl;              /* DeclRefExpr: the declaration it names (a variable or
                            parameter, else -1; UNRESOLVED until asked); VarDecl: itself */
  int callee;            /* CallExpr: the defined function called, or -1 */
  unsigned args, n_args; /* CallExpr arguments: u->args[args ..) */
  unsigned char varying_call; /* CallExpr: of a built-in that varies */
  unsigned char barrier_call; /* CallExpr: global_barrier() or a function
                                 that reaches it */
  unsigned char governed;     /* runs under its parent's condition */
  unsigned char site;         /* CallExpr: a call site of the find stage */
  unsigned char under;        /* propagation: under a varying condition */
  unsigned char varies;       /* propagation: its condition varies */
  unsigned char reads_mem;    /* reads memory: p[i], *p, s->x, or an atomic
                                 that only reads (atomic_or(p, 0)) */
  unsigned char racy;         /* such a read of global memory that the
                                 function also writes between the same two
                                 barriers: it varies */
  unsigned char loop;         /* a loop: what its trip count is (LOOP_) */
  unsigned factor;            /* LOOP_ROUNDED: the bound's other factor,
                                 which must not vary */
} node_info;

/* What is known of a loop's trip count. */
enum {
  LOOP_OTHER,       /* nothing */
  LOOP_GRID_STRIDE, /* starts at an id, steps by its size: varies */
  LOOP_ROUNDED,     /* also ends below a multiple of that size: uniform if
                       the multiplier is */
  LOOP_ASSERTED     /* '#pragma gsync uniform' (pragma.c) */
};

#define NO_NODE GSR_NO_NODE
#define UNRESOLVED (-2)

/* A declaration that the nodes name. */
typedef struct decl_info {
  CXCursor c;           /* canonical */
  int tainted;          /* its value varies between work-items */
  unsigned cause;       /* tainted: the node that made it vary, or NO_NODE */
  int owner;            /* the function whose nodes name it, or SHARED */
  unsigned read_in;     /* the walk that last consulted it */
  unsigned char single; /* 0 not asked; 1 a variable of its function that
                           only its initializer sets; 2 not */
  unsigned init;        /* single == 1: the initializer's node */
} decl_info;

#define SHARED (-1)

typedef struct expr_scan {
  int varying;
  unsigned cause; /* the first node that varies, or NO_NODE */
  int reads_memory;
} expr_scan;

typedef struct ucheck {
  gsri_ctx *ctx;
  const gsri_node *nodes; /* ctx->nodes */
  node_info *info;        /* per node */
  expr_scan *cond;        /* per control node, once the propagation is done */
  unsigned char *cond_done;
  unsigned *args; /* node indices */
  size_t n_args, cap_args;
  unsigned *params; /* per function: where its parameters' ids start */
  int *param_ids;   /* declaration ids of every function's parameters */
  size_t n_param_ids, cap_param_ids;
  decl_info *decls; /* declarations that the nodes name, by id */
  size_t n_decls, cap_decls;
  gsri_table decl_index; /* clang_hashCursor of each declaration */
  unsigned char *ret;    /* per function: its result varies */
  unsigned char *dirty;  /* per function: walk it (again) */
  unsigned **callers;    /* per function: the functions that call it */
  size_t *n_callers;
  size_t cur_fn;        /* the function being walked */
  unsigned walk;        /* walks so far (decl_info.read_in) */
  unsigned (*races)[2]; /* racy read node, and a write of the same place */
  size_t n_races, cap_races;
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
  size_t i = gsri_table_find(&u->decl_index, h, decl_eq, &k);
  if (i != (size_t)-1) {
    if (u->decls[i].owner != (int)u->cur_fn)
      u->decls[i].owner = SHARED; /* a program-scope variable */
    return (int)i;
  }
  decl_info *d = gsri_grow(u->decls, &u->cap_decls, u->n_decls, sizeof *d);
  if (!d || !gsri_table_add(&u->decl_index, h, u->n_decls)) {
    u->failed = 1;
    return -1;
  }
  u->decls = d;
  d[u->n_decls].c = decl;
  d[u->n_decls].tainted = 0;
  d[u->n_decls].cause = NO_NODE;
  d[u->n_decls].owner = (int)u->cur_fn;
  d[u->n_decls].read_in = 0;
  d[u->n_decls].single = 0;
  return (int)u->n_decls++;
}

/* Nonzero if declaration id varies; notes that the current walk asked. */
static int tainted(ucheck *u, int id) {
  u->decls[id].read_in = u->walk;
  return u->decls[id].tainted;
}

/* Marks a declaration as varying because of node cause (NO_NODE: a
 * condition it is set under), and the functions that consulted it as to
 * be walked again. */
static void mark(ucheck *u, int id, unsigned cause) {
  if (id < 0 || u->decls[id].tainted)
    return;
  decl_info *d = &u->decls[id];
  d->tainted = 1;
  d->cause = cause;
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

/* Nonzero if call, of the built-in called name, is an atomic that only
 * reads: atomic_load, or an atomic or/xor/add/sub of 0 or and of all ones
 * (atomic_or(p, 0) is how a flag is read where only atomics see other
 * work-groups' stores). Its value is what every work-item that reads the
 * same place between the same two barriers sees, as for a plain read. */
static int reads_only(CXCursor call, const char *name) {
  const char *op = strncmp(name, "atomic_", 7) == 0 ? name + 7
                   : strncmp(name, "atom_", 5) == 0 ? name + 5
                                                    : NULL;
  if (!op)
    return 0;
  if (strcmp(op, "load") == 0 || strcmp(op, "load_explicit") == 0)
    return 1;
  if (strncmp(op, "fetch_", 6) == 0)
    op += 6;
  size_t len = strcspn(op, "_");
  if (op[len] && strcmp(op + len, "_explicit") != 0)
    return 0;
  int zero =
      (len == 2 && (memcmp(op, "or", 2) == 0)) ||
      (len == 3 && (memcmp(op, "xor", 3) == 0 || memcmp(op, "add", 3) == 0 ||
                    memcmp(op, "sub", 3) == 0));
  int ones = len == 3 && memcmp(op, "and", 3) == 0;
  if ((!zero && !ones) || clang_Cursor_getNumArguments(call) < 2)
    return 0;
  CXEvalResult ev = clang_Cursor_Evaluate(clang_Cursor_getArgument(call, 1));
  if (!ev)
    return 0;
  int r = 0;
  if (clang_EvalResult_getKind(ev) == CXEval_Int) {
    unsigned long long v = clang_EvalResult_getAsUnsigned(ev);
    long long sv = clang_EvalResult_getAsLongLong(ev);
    r = zero ? v == 0 : sv == -1 || v == 0xffffffffull || v == ~0ull;
  }
  clang_EvalResult_dispose(ev);
  return r;
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
static int annotate_site(ucheck *u, const gsri_site *s) {
  unsigned n = s->node;
  const gsri_node *p = &u->nodes[n];
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
    unsigned *args = gsri_grow(u->args, &u->cap_args, u->n_args, sizeof *args);
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
  gsri_ctx *ctx = u->ctx;
  for (size_t n = 0; n < ctx->n_nodes; n++) {
    const gsri_node *p = &u->nodes[n];
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
      const char *name = clang_getCString(s);
      u->info[n].reads_mem = (unsigned char)reads_only(u->nodes[n].c, name);
      u->info[n].varying_call =
          (unsigned char)(varying_builtin(name) && !u->info[n].reads_mem);
      clang_disposeString(s);
    }
  return !u->failed;
}

/* Does expression n vary between work-items, or read memory? Looks at n
 * and everything below it in preorder; the cause is the first that
 * varies, a racy read only when nothing else does. */
static expr_scan scan(ucheck *u, unsigned n) {
  expr_scan e = {0, NO_NODE, 0};
  unsigned race = NO_NODE; /* a racy read: the cause if nothing else is */
  for (unsigned i = n; i < u->nodes[n].end; i++) {
    const node_info *in = &u->info[i];
    switch (u->nodes[i].kind) {
    case CXCursor_DeclRefExpr:
      if (!e.varying && node_decl(u, i) >= 0 && tainted(u, in->decl)) {
        e.varying = 1;
        e.cause = i;
      }
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
    e.reads_memory |= in->reads_mem;
    if (in->racy && race == NO_NODE)
      race = i;
  }
  if (!e.varying && race != NO_NODE) {
    e.varying = 1;
    e.cause = race;
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

/* Lexes range and copies its first punctuation token at or after offset
 * from into op (size bytes; empty if none). Sets *count to the number of
 * tokens lexed. */
static void first_punct(gsri_ctx *ctx, CXSourceRange range, unsigned from,
                        unsigned *count, char *op, size_t size) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(ctx->tu, range, &toks, &n);
  op[0] = '\0';
  for (unsigned i = 0; i < n; i++) {
    unsigned off;
    clang_getExpansionLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                               NULL, NULL, &off);
    if (off < from || clang_getTokenKind(toks[i]) != CXToken_Punctuation)
      continue;
    CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *t = clang_getCString(s);
    size_t len = strlen(t) < size - 1 ? strlen(t) : size - 1;
    memcpy(op, t, len);
    op[len] = '\0';
    clang_disposeString(s);
    break;
  }
  clang_disposeTokens(ctx->tu, toks, n);
  *count = n;
}

/* Where the text of loc is spelled: the file and offset of the token that
 * clang_tokenize lexes first from loc. Returns 0 if there is none. */
static int spelled_at(gsri_ctx *ctx, CXSourceLocation loc, CXFile *file,
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

/* Copies the operator of a binary operator cursor into op (size bytes):
 * the first punctuation token of its extent after the left side.
 *
 * Lexing the whole extent is what defines the answer, but an operator
 * written in a macro body has an extent that starts at the #define, so
 * that lexes everything from there to the expansion: quadratic over a
 * file. When the extent starts in the input before the left side's end,
 * lexing from that end gives the same tokens from there on, unless the
 * left side ends at or past the extent's end; then a single token is lexed
 * where the whole extent lexes none after the left side, and only a single
 * token would change the answer, so that case lexes the whole extent. */
static void binary_op(gsri_ctx *ctx, CXCursor bin, CXCursor lhs, char *op,
                      size_t size) {
  CXSourceRange ext = clang_getCursorExtent(bin);
  CXFile lhs_file, begin_file = NULL;
  unsigned lhs_end, begin, n;
  clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(lhs)),
                             &lhs_file, NULL, NULL, &lhs_end);
  if (!spelled_at(ctx, clang_getRangeStart(ext), &begin_file, &begin) ||
      !lhs_file || !begin_file || begin >= lhs_end ||
      !gsri_same_file(ctx, lhs_file, ctx->main_file) ||
      !gsri_same_file(ctx, begin_file, ctx->main_file)) {
    first_punct(ctx, ext, lhs_end, &n, op, size);
    return;
  }
  CXSourceLocation from =
      clang_getLocationForOffset(ctx->tu, ctx->main_file, lhs_end);
  first_punct(ctx, clang_getRange(from, clang_getRangeEnd(ext)), lhs_end, &n,
              op, size);
  if (op[0] && n == 1)
    first_punct(ctx, ext, lhs_end, &n, op, size);
}

/* Nonzero if a binary operator cursor is a plain assignment '='. */
static int is_assignment(gsri_ctx *ctx, CXCursor bin, CXCursor lhs) {
  char op[4];
  binary_op(ctx, bin, lhs, op, sizeof op);
  return strcmp(op, "=") == 0;
}

/* The variable an assignment's left side names: the DeclRefExpr node, or
 * NO_NODE. Only a plain variable counts: an element written by some
 * work-items is memory, and memory read after a barrier is taken as
 * uniform. */
static unsigned assigned_var(ucheck *u, unsigned lhs) {
  for (int depth = 0; depth < 8; depth++) {
    const gsri_node *p = &u->nodes[lhs];
    if (p->kind == CXCursor_DeclRefExpr)
      return node_decl(u, lhs) >= 0 ? lhs : NO_NODE;
    if ((p->kind != CXCursor_UnexposedExpr && p->kind != CXCursor_ParenExpr) ||
        p->n_kids != 1)
      break;
    lhs = kid(u, lhs, 0);
  }
  return NO_NODE;
}

/* Nonzero if a control construct is a loop. */
static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt;
}

/* ---- The source of a node, its operators ---- */

/* Where node n is written in the input, [*b, *e), when its whole extent is
 * spelled where it is expanded (no macro); else returns 0. */
static int spelled_range(const ucheck *u, unsigned n, size_t *b, size_t *e) {
  const gsri_ctx *ctx = u->ctx;
  CXSourceRange r = clang_getCursorExtent(u->nodes[n].c);
  CXFile fb, fe;
  unsigned ob, oe, xb, xe;
  clang_getSpellingLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
  clang_getSpellingLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
  clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &xb);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &xe);
  if (!fb || !fe || !gsri_same_file(ctx, fb, ctx->main_file) ||
      !gsri_same_file(ctx, fe, ctx->main_file) || ob != xb || oe != xe ||
      oe < ob || oe > ctx->src_len)
    return 0;
  *b = ob;
  *e = oe;
  return 1;
}

/* Copies the operator of a unary operator node into op (size bytes): the
 * first token, or the last for a postfix ++ or --. */
static void unary_op(const ucheck *u, unsigned n, char *op, size_t size) {
  gsri_ctx *ctx = u->ctx;
  CXToken *toks = NULL;
  unsigned nt = 0;
  op[0] = '\0';
  clang_tokenize(ctx->tu, clang_getCursorExtent(u->nodes[n].c), &toks, &nt);
  for (unsigned i = 0; i < nt && nt > 0; i += nt - 1) {
    CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *t = clang_getCString(s);
    int is_op = clang_getTokenKind(toks[i]) == CXToken_Punctuation &&
                strcmp(t, "(") != 0 && strcmp(t, ")") != 0 &&
                strcmp(t, "]") != 0;
    if (is_op && strlen(t) < size)
      memcpy(op, t, strlen(t) + 1);
    clang_disposeString(s);
    if (is_op || nt == 1)
      break;
  }
  clang_disposeTokens(ctx->tu, toks, nt);
}

/* Nonzero if unary operator node n is spelled op ("*", "&", "++", ...),
 * read from the input where it is written there. */
static int unary_is(const ucheck *u, unsigned n, const char *op) {
  size_t b, e, len = strlen(op);
  if (spelled_range(u, n, &b, &e)) {
    if (e - b >= len && memcmp(u->ctx->src + b, op, len) == 0)
      return 1;
    return len == 2 && e - b >= 2 && memcmp(u->ctx->src + e - 2, op, 2) == 0;
  }
  char got[4];
  unary_op(u, n, got, sizeof got);
  return strcmp(got, op) == 0;
}

/* Copies the operator of binary (or compound assignment) node n into op,
 * read after its left side where both are written in the input. */
static void node_binary_op(const ucheck *u, unsigned n, char *op, size_t size) {
  size_t lb, le;
  op[0] = '\0';
  if (u->nodes[n].n_kids != 2)
    return;
  unsigned lhs = kid(u, n, 0);
  if (spelled_range(u, lhs, &lb, &le)) {
    size_t at = gsri_skip_blank(u->ctx, le), len = 0;
    while (at + len < u->ctx->src_len && len + 1 < size &&
           strchr("=<>!+-*/%&|^", u->ctx->src[at + len]))
      len++;
    if (len) {
      memcpy(op, u->ctx->src + at, len);
      op[len] = '\0';
      return;
    }
  }
  binary_op(u->ctx, u->nodes[n].c, u->nodes[lhs].c, op, size);
}

/* Nonzero if binary node n is spelled op. */
static int binary_is(const ucheck *u, unsigned n, const char *op) {
  char got[4];
  node_binary_op(u, n, got, sizeof got);
  return strcmp(got, op) == 0;
}

/* Node n without the implicit conversions and parentheses around it. */
static unsigned strip(const ucheck *u, unsigned n) {
  while ((u->nodes[n].kind == CXCursor_UnexposedExpr ||
          u->nodes[n].kind == CXCursor_ParenExpr) &&
         u->nodes[n].n_kids == 1)
    n = kid(u, n, 0);
  return n;
}

/* The parent of n above any parentheses, and in *child the node under it
 * on the way from n. */
static unsigned user_of(const ucheck *u, unsigned n, unsigned *child) {
  unsigned p = u->nodes[n].parent;
  while (p != NO_NODE && u->nodes[p].kind == CXCursor_ParenExpr) {
    n = p;
    p = u->nodes[p].parent;
  }
  *child = n;
  return p;
}

/* ---- Memory: reads, writes, and reads that race with a write ---- */

enum { USE_READ = 1, USE_WRITE = 2 };

/* Nonzero if n is an expression that names memory: p[i], *p or s->x. */
static int is_memory(const ucheck *u, unsigned n) {
  const gsri_node *p = &u->nodes[n];
  if (p->kind == CXCursor_ArraySubscriptExpr)
    return p->n_kids == 2;
  if (p->kind == CXCursor_UnaryOperator)
    return p->n_kids == 1 && unary_is(u, n, "*");
  if (p->kind == CXCursor_MemberRefExpr && p->n_kids == 1)
    return clang_getCanonicalType(clang_getCursorType(u->nodes[kid(u, n, 0)].c))
               .kind == CXType_Pointer;
  return 0;
}

/* How memory expression m is used: USE_READ, USE_WRITE, both, or neither
 * (its address is taken, or a member of it is named). */
static int memory_use(const ucheck *u, unsigned m) {
  unsigned c;
  unsigned p = user_of(u, m, &c);
  if (p == NO_NODE)
    return USE_READ;
  enum CXCursorKind k = u->nodes[p].kind;
  int lhs = u->nodes[p].n_kids == 2 && kid(u, p, 0) == c;
  if (k == CXCursor_CompoundAssignOperator && lhs)
    return USE_READ | USE_WRITE;
  if (k == CXCursor_BinaryOperator && lhs && binary_is(u, p, "="))
    return USE_WRITE;
  if (k == CXCursor_UnaryOperator)
    return unary_is(u, p, "&")                            ? 0
           : unary_is(u, p, "++") || unary_is(u, p, "--") ? USE_READ | USE_WRITE
                                                          : USE_READ;
  if (k == CXCursor_MemberRefExpr)
    return 0;
  return USE_READ;
}

/* Nonzero if the object that memory expression or pointer n reaches is in
 * the global address space (libclang numbers clang's OpenCL spaces:
 * 1 is global). Local memory differs between work-groups and a
 * work-group barrier orders it, so it is not judged here. */
static int in_global(const ucheck *u, unsigned n) {
  CXType t = clang_getCanonicalType(clang_getCursorType(u->nodes[n].c));
  if (t.kind != CXType_Pointer)
    return 0;
  return clang_getAddressSpace(clang_getPointeeType(t)) == 1;
}

/* Appends the text of [b, e) of the input without blanks and comments:
 * the same place is written the same way. */
static void place_text(const gsri_ctx *ctx, size_t b, size_t e, gsri_buf *out) {
  while (b < e) {
    size_t next = gsri_skip_blank(ctx, b);
    if (next != b) {
      b = next;
      continue;
    }
    gsri_buf_append(out, ctx->src + b, 1);
    b++;
  }
}

/* One access to a place in global memory. */
typedef struct access {
  unsigned node;
  int use;          /* USE_READ, USE_WRITE */
  size_t key, klen; /* the place's text, in the walk's buffer */
  const char *text; /* the same, once the buffer holds every key */
} access;

typedef struct access_walk {
  access *list;
  size_t n, cap;
  gsri_buf keys;
} access_walk;

/* Records that node reads or writes the place that expression `at` names
 * (or, with deref, the place pointer `at` points to). */
static void add_access(const ucheck *u, access_walk *w, unsigned node, int use,
                       unsigned at, int deref) {
  size_t b, e;
  if (!use || !spelled_range(u, at, &b, &e))
    return;
  access *p = gsri_grow(w->list, &w->cap, w->n, sizeof *p);
  if (!p) {
    gsri_nomem(u->ctx); /* an access left out could hide a race */
    return;
  }
  w->list = p;
  size_t key = w->keys.len;
  if (deref)
    gsri_buf_puts(&w->keys, "*");
  place_text(u->ctx, b, e, &w->keys);
  p[w->n++] = (access){node, use, key, w->keys.len - key, NULL};
}

/* Records the global-memory accesses of node n: a memory expression, or an
 * atomic call (its place is the pointer argument's). */
static void note_access(ucheck *u, access_walk *w, unsigned n) {
  const gsri_node *p = &u->nodes[n];
  if (p->kind == CXCursor_CallExpr) {
    CXString s = clang_getCursorSpelling(p->c);
    const char *name = clang_getCString(s);
    int atomic =
        (strncmp(name, "atomic_", 7) == 0 || strncmp(name, "atom_", 5) == 0) &&
        strcmp(name, "atomic_work_item_fence") != 0;
    clang_disposeString(s);
    if (!atomic || p->n_kids < 2)
      return;
    unsigned ptr = strip(u, kid(u, n, 1));
    if (!in_global(u, ptr))
      return;
    int use = u->info[n].reads_mem ? USE_READ : USE_WRITE;
    if (u->nodes[ptr].kind == CXCursor_UnaryOperator &&
        u->nodes[ptr].n_kids == 1 && unary_is(u, ptr, "&"))
      add_access(u, w, n, use, strip(u, kid(u, ptr, 0)), 0);
    else
      add_access(u, w, n, use, ptr, 1);
    return;
  }
  if (!u->info[n].reads_mem)
    return;
  /* The base as the expression uses it: a pointer (arrays decay). */
  if (!in_global(u, kid(u, n, 0)))
    return;
  add_access(u, w, n, memory_use(u, n), n, 0);
}

/* Nonzero if statement n is a call of global_barrier() or of a function
 * that reaches one. */
static int is_barrier_stmt(const ucheck *u, unsigned n) {
  return u->nodes[n].kind == CXCursor_CallExpr && u->info[n].barrier_call;
}

/* Nonzero if the nodes [from, end of c) hold a continue of a loop that
 * holds stop (or is it): a path that goes on to the loop's next iteration
 * without what follows c. */
static int continues_past(const ucheck *u, unsigned c, unsigned from,
                          unsigned stop) {
  for (unsigned j = from; j < u->nodes[c].end; j++) {
    if (u->nodes[j].kind != CXCursor_ContinueStmt)
      continue;
    unsigned t = u->nodes[j].parent;
    while (t != NO_NODE && !is_loop(u->nodes[t].kind))
      t = u->nodes[t].parent;
    if (t != NO_NODE && t <= stop && stop < u->nodes[t].end)
      return 1;
  }
  return 0;
}

/* The position of child c among the children of p: they are in preorder,
 * so a binary search finds it. */
static size_t child_index(const ucheck *u, unsigned p, unsigned c) {
  size_t lo = 0, hi = u->nodes[p].n_kids;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (kid(u, p, mid) <= c)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Nonzero if every path from node n to the end of ancestor `stop` (after,
 * nonzero) or from the start of `stop` to n (after, zero) passes a barrier
 * statement of a block between them. Blocks are climbed from n up to, not
 * including, stop. A return or break leaves and reaches nothing; a
 * continue of a loop around stop does reach its next iteration. */
static int barrier_on_way(const ucheck *u, unsigned n, unsigned stop,
                          int after) {
  unsigned c = n;
  while (u->nodes[c].parent != NO_NODE && u->nodes[c].parent != stop) {
    unsigned p = u->nodes[c].parent;
    if (u->nodes[p].kind == CXCursor_CompoundStmt) {
      size_t at = child_index(u, p, c);
      if (after) {
        if (continues_past(u, c, n + 1, stop))
          return 0;
        for (size_t i = at + 1; i < u->nodes[p].n_kids; i++) {
          unsigned sib = kid(u, p, i);
          if (is_barrier_stmt(u, sib))
            return 1;
          if (continues_past(u, sib, sib, stop))
            return 0;
        }
      } else {
        for (size_t i = 0; i < at; i++)
          if (is_barrier_stmt(u, kid(u, p, i)))
            return 1;
      }
    }
    c = p;
  }
  return 0;
}

/* The child of a that holds node n. */
static unsigned child_toward(const ucheck *u, unsigned a, unsigned n) {
  while (u->nodes[n].parent != a)
    n = u->nodes[n].parent;
  return n;
}

static int changed_in(ucheck *u, int d, unsigned from, unsigned to,
                      unsigned skip_b, unsigned skip_e);

/* Nonzero if the place that node `place` names can be another in the next
 * iteration of loop l: a variable in its text changes in the loop. */
static int moves_in_loop(ucheck *u, unsigned place, unsigned l) {
  for (unsigned n = place; n < u->nodes[place].end; n++)
    if (u->nodes[n].kind == CXCursor_DeclRefExpr && node_decl(u, n) >= 0 &&
        changed_in(u, u->info[n].decl, l, u->nodes[l].end, 0, 0))
      return 1;
  return 0;
}

/* Nonzero if a barrier separates nodes x and y of one function both ways:
 * no path from one to the other, in one iteration or around a loop, avoids
 * every barrier statement. Barriers inside conditions or loops do not
 * count, as paths may miss them. Around a loop, the place read at `place`
 * must be the same in the next iteration. */
static int separated(ucheck *u, unsigned x, unsigned y, unsigned place) {
  if (x > y) {
    unsigned t = x;
    x = y;
    y = t;
  }
  unsigned a = y; /* the nearest common ancestor */
  while (!(a <= x && x < u->nodes[a].end))
    a = u->nodes[a].parent;
  if (a == x || a == y)
    return 0; /* one inside the other: the same expression */
  unsigned cx = child_toward(u, a, x), cy = child_toward(u, a, y);
  enum CXCursorKind k = u->nodes[a].kind;
  /* The branches of an if or ?: exclude each other. */
  int direct = !((k == CXCursor_IfStmt || k == CXCursor_ConditionalOperator) &&
                 cx != kid(u, a, 0));
  if (direct) {
    int sep = barrier_on_way(u, x, a, 1) || barrier_on_way(u, y, a, 0);
    if (!sep && k == CXCursor_CompoundStmt)
      for (size_t i = child_index(u, a, cx) + 1;
           !sep && i < u->nodes[a].n_kids && kid(u, a, i) < cy; i++)
        sep = is_barrier_stmt(u, kid(u, a, i));
    if (!sep)
      return 0;
  }
  unsigned l = a;
  while (l != NO_NODE && !is_loop(u->nodes[l].kind))
    l = u->nodes[l].parent;
  return l == NO_NODE || barrier_on_way(u, y, l, 1) ||
         barrier_on_way(u, x, l, 0) || moves_in_loop(u, place, l);
}

/* qsort callback: orders accesses by place, then by node. */
static int by_place(const void *a, const void *b) {
  const access *x = a, *y = b;
  if (x->klen != y->klen)
    return x->klen < y->klen ? -1 : 1;
  int c = memcmp(x->text, y->text, x->klen);
  return c ? c : (x->node > y->node) - (x->node < y->node);
}

/* How many read-write pairs of one function find_races() looks at, at
 * most: a function that reads and writes one place thousands of times
 * would otherwise take quadratic time. Past it, reads are not marked. */
#define RACE_PAIRS_MAX 65536

/* Marks the reads of global memory in the function whose definition is
 * node root that a write of the same place (spelled the same way) can
 * reach, or be reached from, without a barrier in between: work-items
 * may read before or after another's write, so the value varies. */
static void find_races(ucheck *u, unsigned root) {
  size_t budget = RACE_PAIRS_MAX;
  access_walk w;
  memset(&w, 0, sizeof w);
  for (unsigned n = root; n < u->nodes[root].end; n++)
    note_access(u, &w, n);
  if (w.keys.failed || w.n < 2) {
    if (w.keys.failed)
      gsri_nomem(u->ctx);
    free(w.list);
    gsri_buf_free(&w.keys);
    return;
  }
  for (size_t i = 0; i < w.n; i++)
    w.list[i].text = w.keys.data + w.list[i].key;
  qsort(w.list, w.n, sizeof *w.list, by_place);
  for (size_t i = 0; i < w.n;) {
    size_t j = i;
    while (j < w.n && w.list[j].klen == w.list[i].klen &&
           memcmp(w.list[j].text, w.list[i].text, w.list[i].klen) == 0)
      j++;
    for (size_t r = i; r < j && budget; r++)
      for (size_t x = i; x < j && (w.list[r].use & USE_READ); x++) {
        unsigned rn = w.list[r].node, wn = w.list[x].node;
        if (!(w.list[x].use & USE_WRITE) || u->info[rn].racy || !budget ||
            (budget--, separated(u, rn, wn, rn)))
          continue;
        unsigned(*p)[2] =
            gsri_grow(u->races, &u->cap_races, u->n_races, sizeof *p);
        if (!p) {
          gsri_nomem(u->ctx);
          break;
        }
        u->races = p;
        p[u->n_races][0] = rn;
        p[u->n_races++][1] = wn;
        u->info[rn].racy = 1;
      }
    i = j;
  }
  free(w.list);
  gsri_buf_free(&w.keys);
}

/* ---- Loops whose trip count is the same for every work-item ---- */

/* The ids and sizes a grid-stride loop pairs: it starts at the id and
 * steps by the size. (Not the local ones: with OpenCL 2.0's non-uniform
 * work-groups the last group's local size differs.) */
static const char *const stride_pairs[][2] = {
    {"get_global_id", "get_global_size"}, {"get_group_id", "get_num_groups"}};

/* If n is a call of one of the functions of stride_pairs (column which:
 * 0 the id, 1 the size) with a constant dimension, returns a number that
 * names the pair and the dimension (from 1); else 0. */
static int stride_call(const ucheck *u, unsigned n, int which) {
  if (u->nodes[n].kind != CXCursor_CallExpr)
    return 0;
  CXCursor c = u->nodes[n].c;
  CXString s = clang_getCursorSpelling(c);
  const char *name = clang_getCString(s);
  int pair = -1;
  for (int i = 0; i < 2; i++)
    if (strcmp(name, stride_pairs[i][which]) == 0)
      pair = i;
  clang_disposeString(s);
  if (pair < 0 || clang_Cursor_getNumArguments(c) != 1)
    return 0;
  CXEvalResult ev = clang_Cursor_Evaluate(clang_Cursor_getArgument(c, 0));
  long long dim = -1;
  if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
    dim = clang_EvalResult_getAsLongLong(ev);
  if (ev)
    clang_EvalResult_dispose(ev);
  return dim >= 0 && dim < 3 ? pair * 3 + (int)dim + 1 : 0;
}

/* Nonzero if the DeclRefExpr node r may change the variable it names: it
 * is not read through a conversion to its value (an assignment, ++, --,
 * its address taken, ...). */
static int may_change(const ucheck *u, unsigned r) {
  unsigned c;
  unsigned p = user_of(u, r, &c);
  return p == NO_NODE || u->nodes[p].kind != CXCursor_UnexposedExpr;
}

/* The VarDecl node of declaration d in the function whose definition is
 * root, or NO_NODE. */
static unsigned var_node(ucheck *u, unsigned root, int d) {
  for (unsigned n = root; n < u->nodes[root].end; n++)
    if (u->nodes[n].kind == CXCursor_VarDecl && node_decl(u, n) == d)
      return n;
  return NO_NODE;
}

/* The initializer node of VarDecl node v, or NO_NODE. */
static unsigned initializer(const ucheck *u, unsigned v) {
  for (size_t i = u->nodes[v].n_kids; i-- > 0;)
    if (clang_isExpression(u->nodes[kid(u, v, i)].kind))
      return kid(u, v, i);
  return NO_NODE;
}

/* Nonzero if the function (definition node root) changes variable d in a
 * node of [from, to) other than those of [skip_b, skip_e). */
static int changed_in(ucheck *u, int d, unsigned from, unsigned to,
                      unsigned skip_b, unsigned skip_e) {
  for (unsigned n = from; n < to; n++)
    if ((n < skip_b || n >= skip_e) &&
        u->nodes[n].kind == CXCursor_DeclRefExpr && node_decl(u, n) == d &&
        may_change(u, n))
      return 1;
  return 0;
}

/* Node n, or what the variable it names holds when that is a variable of
 * the function that only its initializer sets (followed a few times). */
static unsigned resolve(ucheck *u, unsigned n, unsigned root) {
  n = strip(u, n);
  for (int depth = 0; depth < 4 && u->nodes[n].kind == CXCursor_DeclRefExpr;
       depth++) {
    int d = node_decl(u, n);
    if (d < 0 || u->decls[d].c.kind != CXCursor_VarDecl)
      break;
    decl_info *di = &u->decls[d];
    if (!di->single) {
      unsigned v = var_node(u, root, d);
      unsigned init = v == NO_NODE ? NO_NODE : initializer(u, v);
      int ok =
          init != NO_NODE && !changed_in(u, d, root, u->nodes[root].end, 0, 0);
      di = &u->decls[d];
      di->single = ok ? 1 : 2;
      di->init = init;
    }
    if (di->single != 1)
      break;
    n = strip(u, di->init);
  }
  return n;
}

/* Classifies for-loop node n of the function whose definition is root:
 * LOOP_GRID_STRIDE if it starts at an id and steps by that id's size,
 * LOOP_ROUNDED if it also runs while below a multiple of the size and
 * nothing else changes its variable: for ids 0..T-1 (the size T) and a
 * bound m * T, every work-item runs it exactly m times. Assumes the
 * bound's arithmetic does not wrap around. */
static void classify_for(ucheck *u, unsigned n, unsigned root) {
  if (u->nodes[n].n_kids != 4)
    return;
  unsigned init = kid(u, n, 0), cond = strip(u, kid(u, n, 1)),
           inc = kid(u, n, 2);
  int var = -1;
  unsigned start = NO_NODE;
  if (u->nodes[init].kind == CXCursor_DeclStmt && u->nodes[init].n_kids == 1 &&
      u->nodes[kid(u, init, 0)].kind == CXCursor_VarDecl) {
    var = node_decl(u, kid(u, init, 0));
    start = initializer(u, kid(u, init, 0));
  } else if (u->nodes[init].kind == CXCursor_BinaryOperator &&
             u->nodes[init].n_kids == 2 &&
             u->nodes[strip(u, kid(u, init, 0))].kind == CXCursor_DeclRefExpr &&
             binary_is(u, init, "=")) {
    var = node_decl(u, strip(u, kid(u, init, 0)));
    start = kid(u, init, 1);
  }
  if (var < 0 || start == NO_NODE)
    return;
  int id = stride_call(u, resolve(u, start, root), 0);
  if (!id)
    return;
  /* i += T, or i = i + T, or i = T + i */
  unsigned step = NO_NODE;
  if (u->nodes[inc].n_kids == 2 &&
      u->nodes[strip(u, kid(u, inc, 0))].kind == CXCursor_DeclRefExpr &&
      node_decl(u, strip(u, kid(u, inc, 0))) == var) {
    if (u->nodes[inc].kind == CXCursor_CompoundAssignOperator &&
        binary_is(u, inc, "+=")) {
      step = kid(u, inc, 1);
    } else if (u->nodes[inc].kind == CXCursor_BinaryOperator &&
               binary_is(u, inc, "=")) {
      unsigned sum = strip(u, kid(u, inc, 1));
      for (size_t side = 0; side < 2 && u->nodes[sum].n_kids == 2 &&
                            u->nodes[sum].kind == CXCursor_BinaryOperator &&
                            binary_is(u, sum, "+");
           side++) {
        unsigned v = strip(u, kid(u, sum, side));
        if (u->nodes[v].kind == CXCursor_DeclRefExpr && node_decl(u, v) == var)
          step = kid(u, sum, 1 - side);
      }
    }
  }
  if (step == NO_NODE || stride_call(u, resolve(u, step, root), 1) != id)
    return;
  u->info[n].loop = LOOP_GRID_STRIDE;
  /* i < U or U > i, with U = m * T or T * m */
  if (u->nodes[cond].kind != CXCursor_BinaryOperator ||
      u->nodes[cond].n_kids != 2)
    return;
  unsigned bound = NO_NODE;
  for (size_t side = 0; side < 2; side++) {
    unsigned v = strip(u, kid(u, cond, side));
    if (u->nodes[v].kind == CXCursor_DeclRefExpr && node_decl(u, v) == var &&
        binary_is(u, cond, side == 0 ? "<" : ">"))
      bound = kid(u, cond, 1 - side);
  }
  if (bound == NO_NODE)
    return;
  unsigned product = resolve(u, bound, root);
  if (u->nodes[product].kind != CXCursor_BinaryOperator ||
      u->nodes[product].n_kids != 2 || !binary_is(u, product, "*"))
    return;
  unsigned factor = NO_NODE;
  for (size_t side = 0; side < 2 && factor == NO_NODE; side++)
    if (stride_call(u, resolve(u, kid(u, product, side), root), 1) == id)
      factor = kid(u, product, 1 - side);
  if (factor == NO_NODE ||
      changed_in(u, var, kid(u, n, 1), u->nodes[n].end, inc, u->nodes[inc].end))
    return;
  u->info[n].loop = LOOP_ROUNDED;
  u->info[n].factor = factor;
}

/* Nonzero if loop node n runs equally often in every work-item: the user
 * says so, or it is a rounded grid-stride loop whose multiplier does not
 * vary. */
static int uniform_loop(ucheck *u, unsigned n) {
  const node_info *in = &u->info[n];
  return in->loop == LOOP_ASSERTED ||
         (in->loop == LOOP_ROUNDED && !scan(u, in->factor).varying);
}

/* Works out, once, what the checks ask of memory and loops: which reads
 * race with a write, which loops are known to run uniformly. */
static void analyse_bodies(ucheck *u) {
  gsri_ctx *ctx = u->ctx;
  for (size_t i = 0; i < ctx->n_pragma_loops; i++)
    u->info[ctx->pragma_loops[i]].loop = LOOP_ASSERTED;
  for (size_t n = 0; n < ctx->n_nodes; n++)
    if (u->nodes[n].kind == CXCursor_ArraySubscriptExpr ||
        u->nodes[n].kind == CXCursor_UnaryOperator ||
        u->nodes[n].kind == CXCursor_MemberRefExpr)
      u->info[n].reads_mem = (unsigned char)is_memory(u, (unsigned)n);
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    unsigned root = ctx->funcs[i].root;
    if (root == NO_NODE)
      continue;
    u->cur_fn = i;
    find_races(u, root);
    for (unsigned n = root; n < u->nodes[root].end; n++)
      if (u->nodes[n].kind == CXCursor_ForStmt && !u->info[n].loop)
        classify_for(u, n, root);
  }
}

/* Pass 1: propagates variation through the body of function fi, whose
 * definition is node root, in preorder. A node is under a varying
 * condition if its parent is, or if it runs under its parent's condition
 * and that varies. */
static void propagate_body(ucheck *u, size_t fi, unsigned root) {
  for (unsigned n = root; n < u->nodes[root].end; n++) {
    const gsri_node *p = &u->nodes[n];
    node_info *in = &u->info[n];
    enum CXCursorKind k = p->kind;
    size_t nk = p->n_kids;
    const node_info *up = n == root ? NULL : &u->info[p->parent];
    int under = up && (up->under || (in->governed && up->varies));
    in->under = (unsigned char)under;

    if (k == CXCursor_VarDecl) {
      for (size_t i = 0; i < nk; i++) {
        if (!clang_isExpression(u->nodes[kid(u, n, i)].kind))
          continue;
        expr_scan e = scan(u, kid(u, n, i));
        if (under || e.varying)
          mark(u, node_decl(u, n), under ? NO_NODE : e.cause);
      }
    } else if ((k == CXCursor_BinaryOperator ||
                k == CXCursor_CompoundAssignOperator) &&
               nk == 2) {
      /* Lexing for '=' costs most, so it is asked last. */
      unsigned var = assigned_var(u, kid(u, n, 0));
      expr_scan e = {0, NO_NODE, 0};
      if (var != NO_NODE && !tainted(u, u->info[var].decl) &&
          (under || (e = scan(u, kid(u, n, 1))).varying) &&
          (k == CXCursor_CompoundAssignOperator ||
           is_assignment(u->ctx, p->c, u->nodes[kid(u, n, 0)].c)))
        mark(u, u->info[var].decl, under ? NO_NODE : e.cause);
    } else if (k == CXCursor_ReturnStmt && nk == 1) {
      if (!u->ret[fi] && (under || scan(u, kid(u, n, 0)).varying))
        mark_result(u, fi);
    } else if (k == CXCursor_CallExpr && in->callee >= 0) {
      unsigned np = u->params[in->callee + 1] - u->params[in->callee];
      for (size_t a = 0; a < in->n_args; a++) {
        unsigned arg = u->args[in->args + a];
        expr_scan e = arg != NO_NODE && a < np ? scan(u, arg)
                                               : (expr_scan){0, NO_NODE, 0};
        if (e.varying)
          mark(u, u->param_ids[u->params[in->callee] + a], e.cause);
      }
    }

    /* The condition of if/while/for/do/switch/?: decides what runs under. */
    size_t from, to;
    in->varies = (unsigned char)(control_parts(k, nk, &from, &to) &&
                                 scan_parts(u, n, from, to).varying &&
                                 !(in->loop && uniform_loop(u, n)));
  }
}

/* The condition of control node a, scanned once the propagation is done. */
static const expr_scan *cond_of(ucheck *u, unsigned a) {
  if (!u->cond_done[a]) {
    size_t from, to;
    control_parts(u->nodes[a].kind, u->nodes[a].n_kids, &from, &to);
    u->cond[a] = scan_parts(u, a, from, to);
    if (u->info[a].loop && uniform_loop(u, a))
      u->cond[a].varying = 0;
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
  unsigned loop;    /* break/continue: the loop it leaves; else NO_NODE */
  unsigned control; /* the varying control it is under */
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
  gsri_report_loc(u->ctx, sev, clang_getCursorLocation(u->nodes[n].c), fmt,
                  arg);
}

/* Notes why a read varies: the write of the same place between the same
 * two barriers. */
static void note_race(const ucheck *u, unsigned read) {
  for (size_t i = 0; i < u->n_races; i++) {
    if (u->races[i][0] != read)
      continue;
    CXFile f;
    unsigned line, col;
    clang_getExpansionLocation(
        clang_getCursorLocation(u->nodes[u->races[i][1]].c), &f, &line, &col,
        NULL);
    char *file = gsri_same_file(u->ctx, f, u->ctx->main_file)
                     ? NULL
                     : gsri_file_name(u->ctx, f);
    const char *name = file ? file : u->ctx->name;
    if (!file && u->ctx->inlined)
      gsri_map_line(u->ctx, &name, &line);
    gsri_report_loc(u->ctx, GSR_NOTE, clang_getCursorLocation(u->nodes[read].c),
                    "this read can give work-items different values: the same "
                    "place is written at %s:%u:%u between the same two "
                    "barriers",
                    name, line, col);
    free(file);
    return;
  }
}

/* The racy read that node cause (the cause of a varying condition)
 * varies through, following the variables that carried it, or NO_NODE if
 * it varies for another reason: a condition on a variable set from a
 * racy read is a race, not an id dependence. */
static unsigned racy_origin(ucheck *u, unsigned cause) {
  for (int steps = 0; cause != NO_NODE && steps < 64; steps++) {
    if (u->info[cause].racy)
      return cause;
    if (u->nodes[cause].kind != CXCursor_DeclRefExpr)
      return NO_NODE;
    int id = node_decl(u, cause);
    if (id < 0 || !u->decls[id].tainted)
      return NO_NODE;
    cause = u->decls[id].cause;
  }
  return NO_NODE;
}

/* The cause to report for control node v's varying condition: the racy
 * read it varies through, if any, else its own cause. */
static unsigned reported_cause(ucheck *u, unsigned v) {
  unsigned cause = cond_of(u, v)->cause;
  unsigned race = racy_origin(u, cause);
  return race != NO_NODE ? race : cause;
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
    unsigned cause = reported_cause(u, v);
    int race = cause != NO_NODE && u->info[cause].racy;
    const char *why = race ? "can differ between work-items"
                           : "depends on the work-item or group id";
    if (direct && loop)
      gsri_report_loc(u->ctx, GSR_ERROR,
                      clang_getCursorLocation(u->nodes[call].c),
                      "global_barrier() in a loop whose trip count %s; not "
                      "every work-item reaches it equally often",
                      why);
    else if (direct)
      gsri_report_loc(u->ctx, GSR_ERROR,
                      clang_getCursorLocation(u->nodes[call].c),
                      "global_barrier() under a condition that %s; not every "
                      "work-item reaches it",
                      why);
    else
      gsri_report_loc(u->ctx, GSR_ERROR,
                      clang_getCursorLocation(u->nodes[call].c),
                      "call of '%s', which reaches global_barrier(), under a "
                      "condition that %s",
                      name, why);
    if (race)
      note_race(u, cause);
    else
      report_at(u, GSR_NOTE, cause == NO_NODE ? v : cause, "%s",
                "the condition depends on the work-item or group id here");
    if (loop && (u->info[v].loop == LOOP_GRID_STRIDE ||
                 u->info[v].loop == LOOP_ROUNDED))
      gsri_report(u->ctx, GSR_NOTE, 0, 0,
                  "put the barrier outside the grid-stride loop: run the loop "
                  "to its end, then call global_barrier(); or round the bound "
                  "up to a multiple of the stride, (n + T - 1) / T * T, so "
                  "that every work-item runs it equally often");
    else if (loop)
      gsri_report(u->ctx, GSR_NOTE, 0, 0,
                  "if every work-item runs this loop equally often, write "
                  "'#pragma gsync uniform' on the line before it");
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
    unsigned cause = reported_cause(u, x->control);
    int race = cause != NO_NODE && u->info[cause].racy;
    report_at(u, GSR_NOTE, x->stmt,
              race ? "this '%s' depends on a read that can give work-items "
                     "different values"
                   : "this '%s' depends on the work-item or group id",
              what);
    if (race)
      note_race(u, cause);
    if (x->loop == NO_NODE)
      gsri_report(u->ctx, GSR_NOTE, 0, 0,
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
  unsigned control = varying_control(u, n);
  if (control == NO_NODE || w->n_exits >= 1u << 20)
    return;
  unsigned loop = k == CXCursor_ReturnStmt
                      ? NO_NODE
                      : innermost_loop(u, n, k == CXCursor_BreakStmt);
  if (k != CXCursor_ReturnStmt && loop == NO_NODE)
    return; /* a break out of a switch */
  exit_site *p = gsri_grow(w->exits, &w->cap_exits, w->n_exits, sizeof *p);
  if (!p) {
    gsri_nomem(u->ctx);
    return;
  }
  w->exits = p;
  exit_site *x = &p[w->n_exits++];
  x->stmt = n;
  x->offset = node_offset(u, n);
  x->loop = loop;
  x->control = control;
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
    const gsri_node *p = &u->nodes[n];
    enum CXCursorKind k = p->kind;
    size_t from, to;
    if ((k != CXCursor_IfStmt && !is_loop(k)) || p->n_kids < 2 ||
        !control_parts(k, p->n_kids, &from, &to) ||
        (u->info[n].loop && uniform_loop(u, n)))
      continue;
    /* A do loop's condition is read after its body, past the barrier. */
    unsigned cond = kid(u, n, from);
    expr_scan e = scan_parts(u, n, from, to);
    if (!e.reads_memory || e.varying || node_offset(u, cond) > fb)
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
  gsri_ctx *ctx = u->ctx;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    u->params[i] = (unsigned)u->n_param_ids;
    u->cur_fn = i;
    int np = ctx->funcs[i].has_def
                 ? clang_Cursor_getNumArguments(ctx->funcs[i].def)
                 : 0;
    for (int a = 0; a < np; a++) {
      int *ids = gsri_grow(u->param_ids, &u->cap_param_ids, u->n_param_ids,
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
  gsri_ctx *ctx = u->ctx;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < ctx->n_funcs; i++)
      for (size_t s = 0; s < ctx->funcs[i].n_sites; s++) {
        const gsri_site *site = &ctx->funcs[i].sites[s];
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
  gsri_table_free(&u->decl_index);
  free(u->decls);
  free(u->info);
  free(u->cond);
  free(u->cond_done);
  free(u->args);
  free(u->param_ids);
  free(u->params);
  free(u->ret);
  free(u->dirty);
  free(u->races);
}

/* Runs both passes of the check over the participating code. */
void gsri_check_uniformity(gsri_ctx *ctx) {
  gsri_read_pragmas(ctx);
  if (ctx->opt->no_uniformity_check)
    return;
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
    goto out_of_memory;
  analyse_bodies(&u);

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
    goto out_of_memory;

  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].root != NO_NODE && ctx->funcs[i].reaches_barrier)
      check_body(&u, ctx->funcs[i].root);
  if (!u.failed)
    goto free_all;

  /* The check fails closed: code it could not check is not passed. */
out_of_memory:
  gsri_nomem(ctx);
free_all:
  ucheck_free(&u);
}
