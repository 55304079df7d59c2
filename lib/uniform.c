/* The barrier uniformity checker, part of the plan stage (the rules, as
 * users read them, are in docs/barriers.md).
 *
 * Every work-item that takes part must reach the same sequence of
 * global_barrier() calls, or the barrier hangs. This pass reports a call of
 * global_barrier() (or of a function that reaches one) that is
 *   - under a condition, or in a loop whose trip count, depends on a
 *     work-item or group id, directly or through variables computed from
 *     one (including variables changed under such a condition, parameters
 *     passed such a value, and the results of atomics that modify), or on
 *     a read of global memory that a write of the same place can reach, or
 *     be reached from, with no barrier between (a race);
 *   - after a return, or in a loop with a break or continue, that only some
 *     work-items take.
 * A variable changes by any assignment, ++ or --, and through a pointer:
 * an element of a private or local array, a field, what a helper given its
 * address stores there, what a built-in stores through a pointer. It
 * varies when the change stores, or indexes with, a value that varies, or
 * runs under a control that varies: a condition (if, switch, ?:, && and
 * ||), a loop whose trip count varies (its condition and increment too),
 * or after an exit that only some work-items take.
 * A condition that reads memory before any barrier of its function can be
 * uniform or not depending on the data: that is a warning, with the reason.
 * Other values read from global memory, plainly or with an atomic that only
 * reads (atomic_or(p, 0), atomic_load), are taken as uniform: every
 * work-item reads them between the same two barriers. A grid-stride loop
 * whose bound is a multiple of its stride runs equally often in every
 * work-item, so does a loop over a chunk from s to s + m (s may vary, m may
 * not), and so does a loop under '#pragma gsync uniform' (pragma.c), by the
 * user's word.
 *
 * The analysis is flow-insensitive within a function and propagates through
 * calls (arguments to parameters, return values to call results, changes
 * through pointer parameters) until nothing changes. Variables that a
 * pointer can reach together are one class (find_writes()), which varies
 * as a whole.
 *
 * It walks the nodes that the find stage recorded for each definition. They
 * are in preorder, so a node's subtree is the index range [n, end) and its
 * ancestors are found through the parent links: every walk here is a loop.
 * A function is walked again only when something it consulted changed: a
 * declaration of its own marked after it was read, a parameter marked by a
 * caller, a callee's result or its changes through a pointer parameter, a
 * declaration shared between functions, or a loop that an exit only some
 * work-items take turned out to leave.
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
  int write;             /* an expression that changes a variable (=, a
                            compound assignment, ++, --, a built-in given a
                            pointer): a declaration of the class it changes
                            (find_writes()), else -1 */
  unsigned char deref;   /* write: through a pointer (*p, p[i], p->x) */
  unsigned char generic; /* write: through a pointer that may point to
                            global memory (generic, or no address space) */
  unsigned char varying_call; /* CallExpr: of a built-in that varies */
  unsigned char barrier_call; /* CallExpr: global_barrier() or a function
                                 that reaches it */
  unsigned char governed;     /* runs under its parent's condition */
  unsigned char repeats;      /* a loop's condition or increment: runs as
                                 often as the loop goes round */
  unsigned char logic;        /* && or ||: the right side runs under the
                                 left one */
  unsigned char site;         /* CallExpr: a call site of the find stage */
  unsigned char varies;       /* propagation: its condition varies */
  unsigned char exits;        /* propagation: a loop that a break, continue
                                 or return under a varying condition leaves */
  unsigned char reads_mem;    /* reads memory: p[i], *p, s->x, or an atomic
                                 that only reads (atomic_or(p, 0)) */
  unsigned char racy;         /* such a read of global memory that the
                                 function also writes between the same two
                                 barriers: it varies */
  unsigned char loop;         /* a loop: what its trip count is (LOOP_) */
  unsigned char use;          /* DeclRefExpr: what it reads (REF_), once
                                 asked */
  unsigned under;  /* propagation: the innermost control whose condition
                      varies, or exit taken by only some work-items, that
                      decides whether it runs, or NO_NODE */
  unsigned factor; /* LOOP_ROUNDED: the bound's other factor; LOOP_CHUNK
                      and LOOP_CHUNK_CUT: the chunk's length. It must not
                      vary. */
  unsigned step;   /* LOOP_CHUNK, LOOP_CHUNK_CUT: the step, which must not
                      vary, or NO_NODE for 1 */
  unsigned cut;    /* LOOP_CHUNK_CUT: the other part of the condition */
} node_info;

/* What is known of a loop's trip count. */
enum {
  LOOP_OTHER,       /* nothing */
  LOOP_GRID_STRIDE, /* starts at an id, steps by its size: varies */
  LOOP_ROUNDED,     /* also ends below a multiple of that size: uniform if
                       the multiplier is */
  LOOP_CHUNK,       /* runs from s to s + m, s the same expression twice:
                       uniform if m and the step are */
  LOOP_CHUNK_CUT,   /* the same, '&&' another test that can end it early */
  LOOP_ASSERTED     /* '#pragma gsync uniform' (pragma.c) */
};

/* node_info.use: what a reference to a variable reads. */
enum {
  REF_UNKNOWN,
  REF_VALUE,   /* what the variable holds, or what the pointer it holds
                  points to (x, a[i], *p, p->f, s.f) */
  REF_POINTER, /* the address a pointer variable holds (f(p), q = p) */
  REF_FIXED    /* the address of a variable (&x, an array passed on):
                  never a cause of variation */
};

#define NO_NODE GSR_NO_NODE
#define UNRESOLVED (-2)

/* That something varies between work-items, and why. */
typedef struct taint {
  unsigned char on; /* it varies */
  unsigned cause;   /* the node of the value that made it vary, or NO_NODE
                       (a change under a control) */
  unsigned write;   /* the node that changed it, or NO_NODE (a parameter
                       passed a varying value) */
  unsigned control; /* the varying control, or exit, that the change ran
                       under, or NO_NODE */
} taint;

/* A declaration that the nodes name. Declarations that a pointer can
 * reach together (p = &x, a parameter passed &x) form a class, a
 * union-find tree: a change through one is a change of all, so what they
 * hold varies as a whole (the root's `value`). The address a pointer
 * variable holds is its own (`address`): passing p on reads only that. */
typedef struct decl_info {
  CXCursor c;              /* canonical */
  taint value;             /* root: what the class holds varies */
  taint address;           /* a pointer variable: the address it holds varies */
  int owner;               /* the function whose nodes name it, or SHARED */
  unsigned read_in;        /* the walk that last consulted it */
  unsigned char single;    /* 0 not asked; 1 a variable of its function that
                              only its initializer sets; 2 not */
  unsigned char storage;   /* root: 0 not asked; 1 the class holds a
                              variable (not only pointers that may point to
                              global memory); 2 not */
  unsigned char pointer;   /* a pointer */
  unsigned char addressed; /* its address is taken (&p): a pointer may
                              reach it */
  unsigned init;           /* single == 1: the initializer's node */
  int up;                  /* union-find: the parent, itself at the root */
  int next;                /* the next member of its class, in a ring */
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
  gsri_table decl_index;     /* clang_hashCursor of each declaration */
  unsigned char *ret;        /* per function: its result varies */
  unsigned char *dirty;      /* per function: walk it (again) */
  unsigned char *out_params; /* per function: it may change what a pointer
                                parameter points to */
  unsigned **callers;        /* per function: the functions that call it */
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
  d = &d[u->n_decls];
  memset(d, 0, sizeof *d);
  d->c = decl;
  d->value.cause = d->value.write = d->value.control = NO_NODE;
  d->address = d->value;
  d->pointer =
      clang_getCanonicalType(clang_getCursorType(decl)).kind == CXType_Pointer;
  d->owner = (int)u->cur_fn;
  d->up = d->next = (int)u->n_decls;
  return (int)u->n_decls++;
}

/* The root of the class of declaration id. */
static int class_of(ucheck *u, int id) {
  while (u->decls[id].up != id) {
    u->decls[id].up = u->decls[u->decls[id].up].up; /* path halving */
    id = u->decls[id].up;
  }
  return id;
}

/* Nonzero if what the class of declaration id holds varies; notes that
 * the current walk asked. */
static int tainted(ucheck *u, int id) {
  u->decls[id].read_in = u->walk;
  return u->decls[class_of(u, id)].value.on;
}

/* Marks the functions that consulted declaration id as to be walked again,
 * now that it varies. */
static void dirty_reader(ucheck *u, int id) {
  const decl_info *d = &u->decls[id];
  if (d->owner == SHARED)
    memset(u->dirty, 1, u->ctx->n_funcs);
  else if (d->owner != (int)u->cur_fn || d->read_in == u->walk)
    u->dirty[d->owner] = 1;
}

/* Marks what the class of declaration id holds as varying: because of
 * value node cause, or (cause NO_NODE) because node write changed it
 * under control node `control`; and the functions that consulted a
 * member as to be walked again. */
static void mark(ucheck *u, int id, unsigned cause, unsigned write,
                 unsigned control) {
  if (id < 0)
    return;
  int r = class_of(u, id);
  decl_info *d = &u->decls[r];
  if (d->value.on)
    return;
  d->value = (taint){1, cause, write, control};
  int m = r;
  do {
    dirty_reader(u, m);
    m = u->decls[m].next;
  } while (m != r);
}

/* Marks the address that pointer variable id holds as varying, as mark()
 * does; a pointer that reaches it reads that address, so what its class
 * holds varies too. */
static void mark_address(ucheck *u, int id, unsigned cause, unsigned write,
                         unsigned control) {
  if (id < 0 || u->decls[id].address.on)
    return;
  u->decls[id].address = (taint){1, cause, write, control};
  dirty_reader(u, id);
  if (u->decls[id].addressed)
    mark(u, id, cause, write, control);
}

/* Puts declarations a and b (either may be -1) in one class: a pointer can
 * reach both. Returns a member of the class, or -1 if both are -1. */
static int join(ucheck *u, int a, int b) {
  if (a < 0 || b < 0)
    return a < 0 ? b : a;
  int ra = class_of(u, a), rb = class_of(u, b);
  if (ra == rb)
    return ra;
  decl_info *da = &u->decls[ra], *db = &u->decls[rb];
  if (da->value.on != db->value.on) {
    /* The members that did not vary now do. */
    int fresh = da->value.on ? rb : ra, m = fresh;
    do {
      dirty_reader(u, m);
      m = u->decls[m].next;
    } while (m != fresh);
    if (!da->value.on)
      da->value = db->value;
  }
  db->up = ra;
  int t = da->next;
  da->next = db->next;
  db->next = t;
  da->storage = 0;
  return ra;
}

/* Marks the callers of function fi as to be walked again: what they
 * learn from it changed. */
static void dirty_callers(ucheck *u, size_t fi) {
  for (size_t i = 0; i < u->n_callers[fi]; i++)
    u->dirty[u->callers[fi][i]] = 1;
}

/* Records that the result of function fi varies. */
static void mark_result(ucheck *u, size_t fi) {
  u->ret[fi] = 1;
  dirty_callers(u, fi);
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

/* control_parts() for node n, which knows && and || too: their left side
 * decides whether the right one runs. */
static int node_parts(const ucheck *u, unsigned n, size_t *from, size_t *to) {
  if (u->info[n].logic) {
    *from = 0;
    *to = 1;
    return 1;
  }
  return control_parts(u->nodes[n].kind, u->nodes[n].n_kids, from, to);
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

static int ref_use(ucheck *u, unsigned ref);

/* What makes DeclRefExpr node ref vary, or NULL if it does not: the
 * address its pointer holds, or what the class of what it names holds,
 * as the reference reads them (ref_use()). Notes that the walk asked. */
static const taint *ref_taint(ucheck *u, unsigned ref) {
  int id = node_decl(u, ref);
  if (id < 0)
    return NULL;
  int use = ref_use(u, ref);
  const decl_info *d = &u->decls[id];
  u->decls[id].read_in = u->walk;
  if (use == REF_FIXED)
    return NULL;
  if (d->address.on)
    return &d->address;
  if (use == REF_POINTER)
    return NULL;
  d = &u->decls[class_of(u, id)];
  return d->value.on ? &d->value : NULL;
}

/* Does expression n vary between work-items, or read memory? Looks at n
 * and everything below it in preorder; the cause is the first that
 * varies, a racy read only when nothing else does. A variable that varies
 * only because it changes in loop `self` (NO_NODE: none) does not count:
 * that loop's own trip count cannot depend on it alone (see cond_of()). */
static expr_scan scan_in(ucheck *u, unsigned n, unsigned self) {
  expr_scan e = {0, NO_NODE, 0};
  unsigned race = NO_NODE; /* a racy read: the cause if nothing else is */
  for (unsigned i = n; i < u->nodes[n].end; i++) {
    const node_info *in = &u->info[i];
    switch (u->nodes[i].kind) {
    case CXCursor_DeclRefExpr:
      if (!e.varying) {
        const taint *t = ref_taint(u, i);
        if (t && (self == NO_NODE || t->control != self)) {
          e.varying = 1;
          e.cause = i;
        }
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

/* Does expression n vary between work-items, or read memory? */
static expr_scan scan(ucheck *u, unsigned n) { return scan_in(u, n, NO_NODE); }

/* Scans children [from, to) of node n as one condition: varying if any
 * part is, with the first part's cause. A loop's condition leaves out what
 * varies only because it changes in that loop. */
static expr_scan scan_parts(ucheck *u, unsigned n, size_t from, size_t to,
                            unsigned self) {
  expr_scan all = {0, NO_NODE, 0};
  for (size_t j = from; j < to; j++) {
    expr_scan e = scan_in(u, kid(u, n, j), self);
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

/* The keyword of a statement that leaves (return, break, continue), or
 * NULL for another kind. */
static const char *exit_word(enum CXCursorKind k) {
  return k == CXCursor_ReturnStmt     ? "return"
         : k == CXCursor_BreakStmt    ? "break"
         : k == CXCursor_ContinueStmt ? "continue"
                                      : NULL;
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

/* The operators of C that take two operands, longest first: the first
 * that the text after a left side starts with is its operator. (Taking
 * every operator character would read 'x=-1' as '=-'.) */
static const char *const binary_ops[] = {
    "<<=", ">>=", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||",
    "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "=",  "<",
    ">",   "+",   "-",  "*",  "/",  "%",  "&",  "|",  "^",  ","};

/* Copies the operator of binary (or compound assignment) node n into op,
 * read after its left side where both are written in the input. */
static void node_binary_op(const ucheck *u, unsigned n, char *op, size_t size) {
  size_t lb, le;
  op[0] = '\0';
  if (u->nodes[n].n_kids != 2)
    return;
  unsigned lhs = kid(u, n, 0);
  if (spelled_range(u, lhs, &lb, &le)) {
    size_t at = gsri_skip_blank(u->ctx, le);
    for (size_t i = 0; i < sizeof binary_ops / sizeof *binary_ops; i++) {
      size_t len = strlen(binary_ops[i]);
      if (len < size && at + len <= u->ctx->src_len &&
          memcmp(u->ctx->src + at, binary_ops[i], len) == 0) {
        memcpy(op, binary_ops[i], len + 1);
        return;
      }
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

/* ---- Changes: what an expression may change, through pointers too ---- */

/* Address spaces, as libclang numbers clang's OpenCL ones (generic is 5,
 * none 0). */
enum { AS_GLOBAL = 1, AS_LOCAL = 2, AS_CONSTANT = 3, AS_PRIVATE = 4 };

/* The canonical type of node n. */
static CXType node_type(const ucheck *u, unsigned n) {
  return clang_getCanonicalType(clang_getCursorType(u->nodes[n].c));
}

/* Nonzero if canonical type kind k is an array's. */
static int is_array(enum CXTypeKind k) {
  return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
         k == CXType_VariableArray;
}

/* Nonzero if expression node n is an lvalue: in OpenCL C an object's type
 * names its address space (__private int), a value's does not. An
 * operand that stays an lvalue is one that the operator changes (x = y,
 * x++) or takes the address of (&x); C converts every other operand,
 * x in x < y or -x or x, y, to its value. */
static int is_lvalue(const ucheck *u, unsigned n) {
  return clang_getAddressSpace(clang_getCursorType(u->nodes[n].c)) != 0;
}

/* What a unary operator does: unary_kind(). */
enum { UNARY_OTHER, UNARY_CHANGE, UNARY_ADDRESS, UNARY_DEREF };

/* What unary operator node n does (UNARY_), told by the types of it and
 * its operand: libclang 14 cannot say, and the spelling is out of reach
 * in a macro's body, where the types are not. */
static int unary_kind(const ucheck *u, unsigned n) {
  if (u->nodes[n].kind != CXCursor_UnaryOperator || u->nodes[n].n_kids != 1)
    return UNARY_OTHER;
  unsigned x = kid(u, n, 0);
  CXType t = node_type(u, n), xt = node_type(u, x);
  if (is_lvalue(u, x)) /* &x is a pointer to x; ++ and -- give x's type */
    return t.kind == CXType_Pointer &&
                   clang_equalTypes(
                       clang_getCanonicalType(clang_getPointeeType(t)), xt)
               ? UNARY_ADDRESS
               : UNARY_CHANGE;
  /* *p is an lvalue of what p points to; -x, !x, ~x are values */
  return xt.kind == CXType_Pointer && is_lvalue(u, n) ? UNARY_DEREF
                                                      : UNARY_OTHER;
}

/* What DeclRefExpr node ref reads (REF_), worked out when first asked.
 * An address (a pointer's, an array's, &x) read through on its way up the
 * expression (*p, p[i], p->f, *(p + 1)) reads what it points to; an
 * address that only goes on (f(p), q = p + 1, p == q) reads no more than
 * a pointer's own value, and an array's or &x's is fixed. */
static int ref_use(ucheck *u, unsigned ref) {
  node_info *in = &u->info[ref];
  if (in->use != REF_UNKNOWN)
    return in->use;
  enum CXTypeKind t = node_type(u, ref).kind;
  unsigned p = u->nodes[ref].parent;
  if (t != CXType_Pointer && !is_array(t)) {
    while (p != NO_NODE && u->nodes[p].kind == CXCursor_ParenExpr)
      p = u->nodes[p].parent;
    if (p == NO_NODE || unary_kind(u, p) != UNARY_ADDRESS)
      return in->use = REF_VALUE;
    p = u->nodes[p].parent; /* &x, an address */
  }
  int through = 0;
  while (!through && p != NO_NODE && clang_isExpression(u->nodes[p].kind)) {
    enum CXCursorKind pk = u->nodes[p].kind;
    through = pk == CXCursor_ArraySubscriptExpr ||
              pk == CXCursor_MemberRefExpr || unary_kind(u, p) == UNARY_DEREF;
    enum CXTypeKind pt = node_type(u, p).kind;
    if (pt != CXType_Pointer && !is_array(pt))
      break;
    p = u->nodes[p].parent;
  }
  in->use = through ? REF_VALUE : t == CXType_Pointer ? REF_POINTER : REF_FIXED;
  return in->use;
}

/* Nonzero if objects of address space `as` are the same for every
 * work-group: global or constant memory. What is stored there is memory,
 * read alike by every work-item between two barriers unless a write of
 * the same place races with the read (find_races()); a variable is not. */
static int shared_space(unsigned as) {
  return as == AS_GLOBAL || as == AS_CONSTANT;
}

/* Nonzero if a value of canonical type t can carry the address of a
 * variable: a pointer that need not point to shared memory, an array
 * (which becomes a pointer to its first element), or a struct or union
 * (which may hold a pointer). */
static int carries_address(CXType t) {
  switch (t.kind) {
  case CXType_Pointer:
    return !shared_space(clang_getAddressSpace(clang_getPointeeType(t)));
  case CXType_ConstantArray:
  case CXType_IncompleteArray:
  case CXType_VariableArray:
  case CXType_Record:
    return !shared_space(clang_getAddressSpace(t));
  default:
    return 0;
  }
}

/* How deep the search for the variables behind an address follows &
 * inside * inside &: past it, every variable named counts (see
 * value_root()), so that a pathological expression cannot exhaust the
 * stack. */
#define ADDRESS_DEPTH_MAX 32

static int value_root(ucheck *u, unsigned n, int depth);

/* The class of the variables that a change of lvalue node n changes: the
 * variable it names (x, x.f, x[i] of an array x), or those that the
 * pointer it goes through can reach (*p, p[i], p->f), joined in one class.
 * Returns -1 for an lvalue in shared memory, which is no variable, or of
 * another form. Sets *deref when it goes through a pointer, and *generic
 * when that pointer may point to shared memory (a generic one). */
static int lvalue_root(ucheck *u, unsigned n, int *deref, int *generic,
                       int depth) {
  for (;;) {
    n = strip(u, n);
    const gsri_node *p = &u->nodes[n];
    unsigned ptr;
    if (p->kind == CXCursor_DeclRefExpr) {
      int d = node_decl(u, n);
      return d >= 0 && !shared_space(clang_getAddressSpace(node_type(u, n)))
                 ? d
                 : -1;
    } else if (p->kind == CXCursor_MemberRefExpr && p->n_kids == 1) {
      ptr = kid(u, n, 0);
      if (node_type(u, ptr).kind != CXType_Pointer) {
        n = ptr; /* s.f changes s */
        continue;
      }
    } else if (p->kind == CXCursor_ArraySubscriptExpr && p->n_kids == 2) {
      /* The base is the operand that is a pointer: a[i], or i[a]. */
      ptr = node_type(u, kid(u, n, 0)).kind == CXType_Pointer ? kid(u, n, 0)
                                                              : kid(u, n, 1);
    } else if (p->kind == CXCursor_UnaryOperator && p->n_kids == 1) {
      ptr = kid(u, n, 0); /* *p */
    } else {
      return -1;
    }
    CXType t = node_type(u, ptr);
    if (t.kind != CXType_Pointer)
      return -1;
    unsigned as = clang_getAddressSpace(clang_getPointeeType(t));
    if (shared_space(as))
      return -1;
    *deref = 1;
    if (as != AS_LOCAL && as != AS_PRIVATE)
      *generic = 1;
    return value_root(u, ptr, depth + 1);
  }
}

/* The class of the variables whose address the value of node n may be or
 * hold: every variable of a type that carries an address that it names,
 * and every variable whose address it takes (&x, &a[i], &s.f), joined in
 * one class; -1 if none. What cannot carry an address (an index, a
 * count, the result of a call that returns none) is skipped. */
static int value_root(ucheck *u, unsigned n, int depth) {
  int root = -1;
  for (unsigned i = n; i < u->nodes[n].end;) {
    const gsri_node *p = &u->nodes[i];
    if (depth > ADDRESS_DEPTH_MAX) {
      if (p->kind == CXCursor_DeclRefExpr)
        root = join(u, root, node_decl(u, i));
      i++;
      continue;
    }
    CXType t = node_type(u, i);
    if (i != n && clang_isExpression(p->kind) && t.kind != CXType_Pointer &&
        !carries_address(t)) {
      i = p->end;
      continue;
    }
    if (p->kind == CXCursor_DeclRefExpr && carries_address(t)) {
      root = join(u, root, node_decl(u, i));
    } else if (unary_kind(u, i) == UNARY_ADDRESS) {
      int deref = 0, generic = 0;
      int x = lvalue_root(u, kid(u, i, 0), &deref, &generic, depth + 1);
      if (x >= 0 && !deref)
        u->decls[x].addressed = 1; /* &x, &s.f, &a[i] */
      root = join(u, root, x);
      i = p->end;
      continue;
    }
    i++;
  }
  return root;
}

/* Nonzero if the class of declaration id holds a variable: a member that
 * is not a pointer, or a pointer to local or private memory. A class of
 * generic pointers alone (no caller passed the address of a variable)
 * points to memory, and a change through it is a write of memory. */
static int holds_variable(ucheck *u, int id) {
  int r = class_of(u, id);
  if (!u->decls[r].storage) {
    int m = r, found = 0;
    do {
      CXType t = clang_getCanonicalType(clang_getCursorType(u->decls[m].c));
      unsigned as = t.kind == CXType_Pointer
                        ? clang_getAddressSpace(clang_getPointeeType(t))
                        : AS_PRIVATE;
      found = as == AS_LOCAL || as == AS_PRIVATE;
      m = u->decls[m].next;
    } while (!found && m != r);
    u->decls[r].storage = found ? 1 : 2;
  }
  return u->decls[r].storage == 1;
}

/* Nonzero if a parameter of function fi is in the class of declaration
 * id: a change of that class reaches the caller's variables. */
static int has_param(ucheck *u, size_t fi, int id) {
  int r = class_of(u, id);
  for (unsigned i = u->params[fi]; i < u->params[fi + 1]; i++)
    if (u->param_ids[i] >= 0 && class_of(u, u->param_ids[i]) == r)
      return 1;
  return 0;
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
 * the global address space. Local memory differs between work-groups and
 * a work-group barrier orders it, so it is not judged here. */
static int in_global(const ucheck *u, unsigned n) {
  CXType t = clang_getCanonicalType(clang_getCursorType(u->nodes[n].c));
  if (t.kind != CXType_Pointer)
    return 0;
  return clang_getAddressSpace(clang_getPointeeType(t)) == AS_GLOBAL;
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

/* Nonzero if node kind k jumps: control may leave at it for elsewhere. */
static int is_jump(enum CXCursorKind k) {
  return exit_word(k) || k == CXCursor_GotoStmt ||
         k == CXCursor_IndirectGotoStmt;
}

/* Nonzero if control may enter statement n elsewhere than at its start: a
 * label in it, or a case or default of a switch around it. */
static int entered_inside(const ucheck *u, unsigned n) {
  for (unsigned c = n; c < u->nodes[n].end; c++) {
    enum CXCursorKind k = u->nodes[c].kind;
    if (k == CXCursor_LabelStmt)
      return 1;
    if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
      unsigned s = u->nodes[c].parent;
      while (s != NO_NODE && u->nodes[s].kind != CXCursor_SwitchStmt)
        s = u->nodes[s].parent;
      if (s == NO_NODE || s < n)
        return 1;
    }
  }
  return 0;
}

/* Nonzero if call node c, in statement n, runs on every run of n that
 * gets as far: no node between them is under a condition (a branch, ?:,
 * the right side of && or ||), in a loop's body or increment (a while's
 * condition runs at least once), or in sizeof. */
static int evaluated_with(const ucheck *u, unsigned c, unsigned n) {
  for (unsigned p = c; p != n; p = u->nodes[p].parent) {
    const node_info *in = &u->info[p];
    unsigned up = u->nodes[p].parent;
    if (u->nodes[p].kind == CXCursor_UnaryExpr || in->governed ||
        (in->repeats &&
         !(u->nodes[up].kind == CXCursor_WhileStmt && p == kid(u, up, 0))))
      return 0;
  }
  return 1;
}

/* Nonzero if statement n passes a barrier whenever it runs to its end: it
 * calls global_barrier() or a function that reaches one on every run. That
 * is the statement itself, or a call in its expressions, in a
 * declaration's initialiser, in the condition of an if, switch or while,
 * in a for's initialiser, or in a block, before any jump and with no way
 * in but its start. */
static int is_barrier_stmt(const ucheck *u, unsigned n) {
  if (entered_inside(u, n))
    return 0;
  unsigned end = u->nodes[n].end;
  for (unsigned c = n; c < end; c++) {
    if (u->nodes[c].kind == CXCursor_CallExpr && u->info[c].barrier_call &&
        evaluated_with(u, c, n))
      return 1;
    /* Past a jump only what it evaluates first (return's value) runs. */
    if (is_jump(u->nodes[c].kind) && u->nodes[c].end < end)
      end = u->nodes[c].end;
  }
  return 0;
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
    /* A read stops at its first race, and the whole walk at the budget:
     * the loops' own conditions. The writes are tried nearest first (the
     * list is in node order within a place: r's own entry, those after
     * it, then those before), since separated() walks what lies between
     * the two; so a place read and written thousands of times costs what
     * its races cost, not its count squared (40,000 'a[i] += 1' in one
     * kernel once took 6 s here, 94 % of the rewrite). */
    for (size_t r = i; r < j && budget; r++) {
      unsigned rn = w.list[r].node;
      for (size_t k = 0; k < j - i && (w.list[r].use & USE_READ) &&
                         !u->info[rn].racy && budget;
           k++) {
        size_t x = k < j - r ? r + k : r - 1 - (k - (j - r));
        unsigned wn = w.list[x].node;
        if (!(w.list[x].use & USE_WRITE) ||
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

/* Nonzero if declaration d is alone in its class: no pointer can reach
 * it, so only what names it changes it. */
static int alone(ucheck *u, int d) {
  return class_of(u, d) == d && u->decls[d].next == d;
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
      int ok = init != NO_NODE && alone(u, d) &&
               !changed_in(u, d, root, u->nodes[root].end, 0, 0);
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

/* The step of for-loop increment node inc over variable var: s for
 * i += s, i = i + s or i = s + i; NO_NODE for i++ or ++i, with *unit set;
 * NO_NODE with *unit clear for anything else. */
static unsigned loop_step(ucheck *u, unsigned inc, int var, int *unit) {
  const gsri_node *p = &u->nodes[inc];
  *unit = 0;
  if (p->n_kids == 0)
    return NO_NODE;
  unsigned v = strip(u, kid(u, inc, 0));
  if (u->nodes[v].kind != CXCursor_DeclRefExpr || node_decl(u, v) != var)
    return NO_NODE;
  if (p->kind == CXCursor_UnaryOperator) {
    *unit = unary_is(u, inc, "++");
    return NO_NODE;
  }
  if (p->n_kids != 2)
    return NO_NODE;
  if (p->kind == CXCursor_CompoundAssignOperator && binary_is(u, inc, "+="))
    return kid(u, inc, 1);
  if (p->kind != CXCursor_BinaryOperator || !binary_is(u, inc, "="))
    return NO_NODE;
  unsigned sum = strip(u, kid(u, inc, 1));
  if (u->nodes[sum].n_kids != 2 ||
      u->nodes[sum].kind != CXCursor_BinaryOperator || !binary_is(u, sum, "+"))
    return NO_NODE;
  for (size_t side = 0; side < 2; side++) {
    unsigned w = strip(u, kid(u, sum, side));
    if (u->nodes[w].kind == CXCursor_DeclRefExpr && node_decl(u, w) == var)
      return kid(u, sum, 1 - side);
  }
  return NO_NODE;
}

/* Nonzero if expression nodes a and b (a variable that only its
 * initializer sets stands for that) have the same value wherever the
 * function evaluates them: the same text and shape, naming the same
 * variables, none of which anything changes, and calling only the
 * work-item functions (get_...), which give the same answer each time.
 * No memory read: another work-item may write it in between. */
static int same_value(ucheck *u, unsigned a, unsigned b, unsigned root) {
  a = resolve(u, a, root);
  b = resolve(u, b, root);
  size_t ab, ae, bb, be, size = u->nodes[a].end - a;
  if (u->nodes[b].end - b != size || !spelled_range(u, a, &ab, &ae) ||
      !spelled_range(u, b, &bb, &be))
    return 0;
  gsri_buf ta = {0}, tb = {0};
  place_text(u->ctx, ab, ae, &ta);
  place_text(u->ctx, bb, be, &tb);
  if (ta.failed || tb.failed)
    gsri_nomem(u->ctx); /* not proved: the check fails closed */
  int same = !ta.failed && !tb.failed && ta.len == tb.len &&
             (ta.len == 0 || memcmp(ta.data, tb.data, ta.len) == 0);
  gsri_buf_free(&ta);
  gsri_buf_free(&tb);
  for (size_t i = 0; same && i < size; i++) {
    unsigned x = a + (unsigned)i, y = b + (unsigned)i;
    enum CXCursorKind k = u->nodes[x].kind;
    if (k != u->nodes[y].kind || u->info[x].reads_mem ||
        u->info[x].write >= 0) {
      same = 0;
    } else if (k == CXCursor_DeclRefExpr) {
      int d = node_decl(u, x);
      same = d == node_decl(u, y) &&
             (d < 0 || (alone(u, d) &&
                        !changed_in(u, d, root, u->nodes[root].end, 0, 0)));
    } else if (k == CXCursor_CallExpr) {
      CXString name = clang_getCursorSpelling(u->nodes[x].c);
      same = u->info[x].callee < 0 &&
             strncmp(clang_getCString(name), "get_", 4) == 0;
      clang_disposeString(name);
    }
  }
  return same;
}

/* If condition node c of a for loop over var that starts at node start
 * reads i < s + m, i <= s + m, s + m > i or s + m >= i, where s has the
 * start's value (same_value()), returns m; else NO_NODE. From s up by a
 * step that does not vary, such a loop goes round the same number of
 * times in every work-item, whatever s is, if m does not vary. */
static unsigned chunk_length(ucheck *u, unsigned c, int var, unsigned start,
                             unsigned root) {
  static const char *const ops[2][2] = {{"<", "<="}, {">", ">="}};
  c = strip(u, c);
  if (u->nodes[c].kind != CXCursor_BinaryOperator || u->nodes[c].n_kids != 2)
    return NO_NODE;
  unsigned bound = NO_NODE;
  for (size_t side = 0; side < 2 && bound == NO_NODE; side++) {
    unsigned v = strip(u, kid(u, c, side));
    if (u->nodes[v].kind == CXCursor_DeclRefExpr && node_decl(u, v) == var &&
        (binary_is(u, c, ops[side][0]) || binary_is(u, c, ops[side][1])))
      bound = kid(u, c, 1 - side);
  }
  if (bound == NO_NODE)
    return NO_NODE;
  unsigned sum = resolve(u, bound, root);
  if (u->nodes[sum].kind != CXCursor_BinaryOperator ||
      u->nodes[sum].n_kids != 2 || !binary_is(u, sum, "+"))
    return NO_NODE;
  for (size_t side = 0; side < 2; side++)
    if (same_value(u, kid(u, sum, side), start, root))
      return kid(u, sum, 1 - side);
  return NO_NODE;
}

/* Classifies for-loop node n of the function whose definition is root,
 * when nothing but its increment changes its variable (and no pointer
 * reaches it):
 *   LOOP_GRID_STRIDE if it starts at an id and steps by that id's size;
 *   LOOP_ROUNDED if it also runs while below a multiple of the size: for
 *     ids 0..T-1 (the size T) and a bound m * T, every work-item runs it
 *     exactly m times;
 *   LOOP_CHUNK if it runs from s while below s + m (chunk_length()): each
 *     work-item runs it as often as m and the step say, wherever its
 *     chunk s starts;
 *   LOOP_CHUNK_CUT if the condition is such a test && another.
 * Assumes the bound's arithmetic does not wrap around. */
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
  int unit;
  unsigned step = loop_step(u, inc, var, &unit);
  if (step == NO_NODE && !unit)
    return;
  int id = step == NO_NODE ? 0 : stride_call(u, resolve(u, start, root), 0);
  if (id && stride_call(u, resolve(u, step, root), 1) == id)
    u->info[n].loop = LOOP_GRID_STRIDE;
  if (!alone(u, var) ||
      changed_in(u, var, kid(u, n, 1), u->nodes[n].end, inc, u->nodes[inc].end))
    return;
  /* i < U or U > i, with U = m * T or T * m */
  unsigned bound = NO_NODE;
  for (size_t side = 0; u->info[n].loop == LOOP_GRID_STRIDE && side < 2 &&
                        u->nodes[cond].kind == CXCursor_BinaryOperator &&
                        u->nodes[cond].n_kids == 2;
       side++) {
    unsigned v = strip(u, kid(u, cond, side));
    if (u->nodes[v].kind == CXCursor_DeclRefExpr && node_decl(u, v) == var &&
        binary_is(u, cond, side == 0 ? "<" : ">"))
      bound = kid(u, cond, 1 - side);
  }
  unsigned product = bound == NO_NODE ? NO_NODE : resolve(u, bound, root);
  if (product != NO_NODE && u->nodes[product].kind == CXCursor_BinaryOperator &&
      u->nodes[product].n_kids == 2 && binary_is(u, product, "*"))
    for (size_t side = 0; side < 2; side++)
      if (stride_call(u, resolve(u, kid(u, product, side), root), 1) == id) {
        u->info[n].loop = LOOP_ROUNDED;
        u->info[n].factor = kid(u, product, 1 - side);
        return;
      }
  /* i < s + m, or i < s + m && another test */
  unsigned length = chunk_length(u, cond, var, start, root), cut = NO_NODE;
  if (length == NO_NODE && u->nodes[cond].kind == CXCursor_BinaryOperator &&
      u->nodes[cond].n_kids == 2 && binary_is(u, cond, "&&"))
    for (size_t side = 0; side < 2 && length == NO_NODE; side++) {
      length = chunk_length(u, kid(u, cond, side), var, start, root);
      cut = kid(u, cond, 1 - side);
    }
  if (length == NO_NODE)
    return;
  u->info[n].loop = cut == NO_NODE ? LOOP_CHUNK : LOOP_CHUNK_CUT;
  u->info[n].factor = length;
  u->info[n].step = step;
  u->info[n].cut = cut;
}

/* Nonzero if chunked loop node n (LOOP_CHUNK, LOOP_CHUNK_CUT) steps
 * through chunks of a length that does not vary, by a step that does not. */
static int chunk_uniform(ucheck *u, unsigned n) {
  const node_info *in = &u->info[n];
  return !scan(u, in->factor).varying &&
         (in->step == NO_NODE || !scan(u, in->step).varying);
}

/* Nonzero if loop node n runs equally often in every work-item: the user
 * says so, or it is a rounded grid-stride loop whose multiplier does not
 * vary, or a chunked loop whose length and step do not. */
static int uniform_loop(ucheck *u, unsigned n) {
  const node_info *in = &u->info[n];
  return in->loop == LOOP_ASSERTED ||
         (in->loop == LOOP_ROUNDED && !scan(u, in->factor).varying) ||
         (in->loop == LOOP_CHUNK && chunk_uniform(u, n));
}

/* The arguments of call node n of a defined function reach its
 * parameters: a parameter that can carry an address joins the class of
 * what its argument's address reaches, so that a change through it
 * changes the caller's variables. */
static void pass_addresses(ucheck *u, unsigned n) {
  const node_info *in = &u->info[n];
  unsigned np = u->params[in->callee + 1] - u->params[in->callee];
  for (unsigned a = 0; a < in->n_args && a < np; a++) {
    unsigned arg = u->args[in->args + a];
    int param = u->param_ids[u->params[in->callee] + a];
    if (arg != NO_NODE && param >= 0 &&
        carries_address(
            clang_getCanonicalType(clang_getCursorType(u->decls[param].c))))
      join(u, param, value_root(u, arg, 0));
  }
}

/* Finds, in the function whose definition is node root, the expressions
 * that change a variable (node_info.write: an assignment, ++ or --, or a
 * built-in given a pointer) and joins in one class the declarations that
 * a pointer can reach together: a pointer and the variable whose address
 * it is given (p = &x, q = p, s.p = &x), a parameter and its arguments'
 * addresses. Operators are told apart by their operands' types, so a
 * change that a macro writes counts too. */
static void find_writes(ucheck *u, unsigned root) {
  for (unsigned n = root; n < u->nodes[root].end; n++) {
    const gsri_node *p = &u->nodes[n];
    node_info *in = &u->info[n];
    int deref = 0, generic = 0, w = -1;
    switch (p->kind) {
    case CXCursor_UnaryOperator:
      if (unary_kind(u, n) == UNARY_CHANGE)
        w = lvalue_root(u, kid(u, n, 0), &deref, &generic, 0);
      break;
    case CXCursor_BinaryOperator: /* an assignment (see is_lvalue()) */
    case CXCursor_CompoundAssignOperator:
      if (p->n_kids != 2 || !is_lvalue(u, kid(u, n, 0)))
        break;
      w = lvalue_root(u, kid(u, n, 0), &deref, &generic, 0);
      if (w >= 0 && p->kind == CXCursor_BinaryOperator &&
          carries_address(node_type(u, kid(u, n, 0))))
        join(u, w, value_root(u, kid(u, n, 1), 0));
      break;
    case CXCursor_VarDecl: {
      unsigned init = initializer(u, n);
      if (init != NO_NODE && carries_address(node_type(u, n)))
        join(u, node_decl(u, n), value_root(u, init, 0));
      break;
    }
    case CXCursor_CallExpr:
      if (in->callee >= 0) {
        pass_addresses(u, n);
      } else if (!in->site && !in->reads_mem) {
        /* A built-in may store through any pointer it is given (vstore,
         * sincos, an atomic on a local variable, ...), except those that
         * only read. */
        CXString name = clang_getCursorSpelling(p->c);
        const char *s = clang_getCString(name);
        int reads =
            strncmp(s, "vload", 5) == 0 || strncmp(s, "read_image", 10) == 0;
        clang_disposeString(name);
        for (size_t a = 1; !reads && a < p->n_kids; a++)
          if (node_type(u, kid(u, n, a)).kind == CXType_Pointer)
            w = join(u, w, value_root(u, kid(u, n, a), 0));
        deref = generic = 1;
      }
      break;
    default:
      break;
    }
    in->write = w;
    in->deref = (unsigned char)deref;
    in->generic = (unsigned char)generic;
  }
}

/* Nonzero if the init child of a 'for' node n is there: libclang lists
 * only the parts written, so with fewer than four children the first
 * one's place against the header's first ';' tells. When that cannot be
 * read (a macro), 0: the part is taken to repeat, which can only make the
 * check stricter. */
static int for_has_init(const ucheck *u, unsigned n) {
  const gsri_node *p = &u->nodes[n];
  if (p->n_kids == 4)
    return 1;
  if (p->n_kids < 2)
    return 0;
  unsigned first = kid(u, n, 0);
  if (u->nodes[first].kind == CXCursor_DeclStmt)
    return 1;
  size_t b, e, fb, fe, semi, n_semis;
  if (!spelled_range(u, n, &b, &e) || !spelled_range(u, first, &fb, &fe))
    return 0;
  size_t lp = gsri_skip_blank(u->ctx, b + 3); /* after "for" */
  return lp < e && u->ctx->src[lp] == '(' &&
         gsri_scan_parens(u->ctx, lp, &semi, 1, &n_semis) != NO_OFF &&
         n_semis == 1 && fe <= semi;
}

/* qsort callback: orders offsets. */
static int by_offset(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* Nonzero if node n's text holds the expansion of a macro: offsets are
 * where the input's macros expand, sorted, n_offsets of them. */
static int holds_macro(const ucheck *u, unsigned n, const size_t *offsets,
                       size_t n_offsets) {
  CXSourceRange r = clang_getCursorExtent(u->nodes[n].c);
  unsigned b, e;
  clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
  size_t lo = 0, hi = n_offsets; /* the first offset at b or after */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] < b)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n_offsets && offsets[lo] <= e;
}

/* Works out which parts of the constructs run under which: a loop's
 * condition and increment as often as the loop goes round
 * (node_info.repeats), and the right side of && and || only when the left
 * one lets it (node_info.logic, which makes it governed). Only an
 * operator whose right side changes something or calls a function is
 * asked which it is, which may lex; one whose text holds a macro is taken
 * to be && or ||, which can only make the check stricter, since what a
 * macro writes cannot be read for sure. effect is scratch space, one byte
 * per node. Returns 0 when out of memory. */
static int annotate_flow(ucheck *u, unsigned char *effect) {
  gsri_ctx *ctx = u->ctx;
  size_t *offsets =
      malloc((ctx->n_expansions ? ctx->n_expansions : 1) * sizeof *offsets);
  if (!offsets)
    return 0;
  for (size_t i = 0; i < ctx->n_expansions; i++)
    offsets[i] = ctx->expansions[i].offset;
  qsort(offsets, ctx->n_expansions, sizeof *offsets, by_offset);
  memset(effect, 0, ctx->n_nodes);
  for (size_t n = ctx->n_nodes; n-- > 0;) {
    const gsri_node *p = &u->nodes[n];
    effect[n] |= u->info[n].write >= 0 || p->kind == CXCursor_CallExpr;
    if (p->parent != NO_NODE)
      effect[p->parent] |= effect[n];
  }
  for (unsigned n = 0; n < ctx->n_nodes; n++) {
    const gsri_node *p = &u->nodes[n];
    size_t first = 0, last = p->n_kids; /* the parts that repeat */
    if (p->kind == CXCursor_WhileStmt)
      last = p->n_kids - 1;
    else if (p->kind == CXCursor_DoStmt)
      first = 1;
    else if (p->kind == CXCursor_ForStmt)
      first = (size_t)for_has_init(u, n), last = p->n_kids - 1;
    if (!is_loop(p->kind) || p->n_kids == 0)
      last = 0;
    for (size_t i = first; i < last; i++)
      u->info[kid(u, n, i)].repeats = 1;
    /* && and || give an int and read their operands' values. */
    if (p->kind == CXCursor_BinaryOperator && p->n_kids == 2 &&
        effect[kid(u, n, 1)] && !is_lvalue(u, kid(u, n, 0)) &&
        node_type(u, n).kind == CXType_Int) {
      char op[4];
      node_binary_op(u, n, op, sizeof op);
      if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0 ||
          holds_macro(u, n, offsets, ctx->n_expansions)) {
        u->info[n].logic = 1;
        u->info[kid(u, n, 1)].governed = 1;
      }
    }
  }
  free(offsets);
  return 1;
}

/* Works out, once, what the checks ask of memory, changes and loops:
 * which reads race with a write, what each expression may change and
 * which variables a pointer can reach together, what runs under what,
 * which loops are known to run uniformly. Returns 0 when out of memory. */
static int analyse_bodies(ucheck *u) {
  gsri_ctx *ctx = u->ctx;
  for (size_t i = 0; i < ctx->n_pragma_loops; i++)
    u->info[ctx->pragma_loops[i]].loop = LOOP_ASSERTED;
  /* An element of a private or local array, or what a pointer to one
   * points to, is part of a variable, which the propagation follows (a
   * change of it changes the variable); only shared and generic memory
   * is memory. */
  for (size_t n = 0; n < ctx->n_nodes; n++) {
    enum CXCursorKind k = u->nodes[n].kind;
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_UnaryOperator ||
        k == CXCursor_MemberRefExpr) {
      unsigned as = clang_getAddressSpace(clang_getCursorType(u->nodes[n].c));
      u->info[n].reads_mem =
          (unsigned char)(as != AS_PRIVATE && as != AS_LOCAL &&
                          is_memory(u, (unsigned)n));
    }
    u->info[n].write = -1;
  }
  /* Every call joins the classes before a loop's variable is asked about
   * (classify_for()): a callee may be written after its caller. */
  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].root != NO_NODE) {
      u->cur_fn = i;
      find_writes(u, ctx->funcs[i].root);
    }
  unsigned char *effect = malloc(ctx->n_nodes ? ctx->n_nodes : 1);
  if (!effect)
    return 0;
  int ok = annotate_flow(u, effect);
  free(effect);
  if (!ok)
    return 0;
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
  return !u->failed;
}

/* A span of nodes that follows an exit only some work-items take, up to
 * the end of what it leaves: [from, to), under exit node `exit`. */
typedef struct exit_span {
  unsigned from, to, exit;
} exit_span;

/* Propagation: break, continue or return node x of function fi (whose
 * definition is node root) runs under a varying control, so only some
 * work-items take it. The loops a break or return leaves go round a
 * number of times that varies (node_info.exits: their walk must be done
 * again; a continue's loop goes round as often as ever), and the nodes
 * after it, up to the end of what it leaves, run in only some work-items:
 * *span grows to hold them. */
static void exit_taken(ucheck *u, size_t fi, unsigned root, unsigned x,
                       exit_span *span) {
  enum CXCursorKind k = u->nodes[x].kind;
  unsigned end = u->nodes[root].end;
  for (unsigned a = u->nodes[x].parent; a != NO_NODE; a = u->nodes[a].parent) {
    enum CXCursorKind ak = u->nodes[a].kind;
    if (k == CXCursor_BreakStmt && ak == CXCursor_SwitchStmt) {
      end = u->nodes[a].end;
      break;
    }
    if (!is_loop(ak))
      continue;
    if (k != CXCursor_ContinueStmt && !u->info[a].exits) {
      u->info[a].exits = 1;
      u->dirty[fi] = 1;
    }
    if (k != CXCursor_ReturnStmt) {
      end = u->nodes[a].end;
      break;
    }
  }
  if (x < span->to) { /* inside the span of an earlier exit */
    if (end > span->to)
      span->to = end;
  } else {
    span->from = x + 1;
    span->to = end;
    span->exit = x;
  }
}

/* Propagation: write node n (node_info.write) of function fi runs under
 * control `under` (NO_NODE: none that varies). What the class it changes
 * holds varies if the change runs under a varying control, or stores a
 * value, or indexes a place, that varies (x[id] = 0 makes x differ); a
 * pointer variable written itself (p = q + id) holds an address that
 * varies. A change through a pointer parameter tells the callers
 * (ucheck.out_params). */
static void propagate_change(ucheck *u, size_t fi, unsigned n, unsigned under) {
  node_info *in = &u->info[n];
  int d = in->write;
  if (in->deref && !u->out_params[fi] && has_param(u, fi, d)) {
    u->out_params[fi] = 1;
    dirty_callers(u, fi);
  }
  int address = !in->deref && u->decls[d].pointer;
  u->decls[d].read_in = u->walk;
  if (address ? u->decls[d].address.on : tainted(u, d))
    return;
  expr_scan e = {0, NO_NODE, 0};
  if ((under == NO_NODE && !(e = scan(u, n)).varying) ||
      (in->generic && !holds_variable(u, d)))
    return;
  if (address)
    mark_address(u, d, under == NO_NODE ? e.cause : NO_NODE, n, under);
  else
    mark(u, d, under == NO_NODE ? e.cause : NO_NODE, n, under);
}

/* Propagation: call node n of function fi calls a defined function that
 * may change what its pointer parameters point to. Under control `under`
 * (NO_NODE: none that varies), that changes the caller's variables
 * whose addresses it passes under a varying control; passing its own
 * parameters on, fi changes what they point to too. */
static void propagate_out_call(ucheck *u, size_t fi, unsigned n,
                               unsigned under) {
  const node_info *in = &u->info[n];
  unsigned np = u->params[in->callee + 1] - u->params[in->callee];
  for (unsigned a = 0; a < in->n_args && a < np; a++) {
    int param = u->param_ids[u->params[in->callee] + a];
    if (param < 0 || !u->decls[param].pointer)
      continue;
    if (!u->out_params[fi] && has_param(u, fi, param)) {
      u->out_params[fi] = 1;
      dirty_callers(u, fi);
    }
    if (under != NO_NODE && holds_variable(u, param))
      mark(u, param, NO_NODE, n, under);
  }
}

/* Pass 1: propagates variation through the body of function fi, whose
 * definition is node root, in preorder. A node runs under a varying
 * control if its parent does, or if it runs under its parent's condition
 * (or is a loop's condition or increment) and that varies, or if it
 * follows an exit that only some work-items take. */
static void propagate_body(ucheck *u, size_t fi, unsigned root) {
  exit_span span = {0, 0, NO_NODE};
  for (unsigned n = root; n < u->nodes[root].end; n++) {
    const gsri_node *p = &u->nodes[n];
    node_info *in = &u->info[n];
    enum CXCursorKind k = p->kind;
    size_t nk = p->n_kids;
    const node_info *up = n == root ? NULL : &u->info[p->parent];
    unsigned under = NO_NODE;
    if (up)
      under =
          (in->governed || in->repeats) && up->varies ? p->parent : up->under;
    if (under == NO_NODE && span.from <= n && n < span.to)
      under = span.exit;
    in->under = under;

    if (exit_word(k) && under != NO_NODE)
      exit_taken(u, fi, root, n, &span);
    if (k == CXCursor_VarDecl) {
      for (size_t i = 0; i < nk; i++) {
        if (!clang_isExpression(u->nodes[kid(u, n, i)].kind))
          continue;
        expr_scan e = scan(u, kid(u, n, i));
        int d = node_decl(u, n);
        if ((under != NO_NODE || e.varying) && d >= 0)
          (u->decls[d].pointer ? mark_address : mark)(
              u, d, under != NO_NODE ? NO_NODE : e.cause, n, under);
      }
    } else if (in->write >= 0) {
      propagate_change(u, fi, n, under);
    } else if (k == CXCursor_ReturnStmt && nk == 1) {
      if (!u->ret[fi] && (under != NO_NODE || scan(u, kid(u, n, 0)).varying))
        mark_result(u, fi);
    } else if (k == CXCursor_CallExpr && in->callee >= 0) {
      unsigned np = u->params[in->callee + 1] - u->params[in->callee];
      for (size_t a = 0; a < in->n_args; a++) {
        unsigned arg = u->args[in->args + a];
        expr_scan e = arg != NO_NODE && a < np ? scan(u, arg)
                                               : (expr_scan){0, NO_NODE, 0};
        int param = u->param_ids[u->params[in->callee] + a];
        if (e.varying && param >= 0)
          (u->decls[param].pointer ? mark_address : mark)(u, param, e.cause,
                                                          NO_NODE, NO_NODE);
      }
      if (u->out_params[in->callee])
        propagate_out_call(u, fi, n, under);
    }

    /* The condition of if/while/for/do/switch/?:/&&/|| decides what runs
     * under; a loop that only some work-items leave early varies too. */
    size_t from, to;
    in->varies =
        (unsigned char)(node_parts(u, n, &from, &to) &&
                        ((scan_parts(u, n, from, to, NO_NODE).varying &&
                          !(in->loop && uniform_loop(u, n))) ||
                         in->exits));
  }
}

/* The condition of control node a, scanned once the propagation is done. */
static const expr_scan *cond_of(ucheck *u, unsigned a) {
  if (!u->cond_done[a]) {
    size_t from, to;
    node_parts(u, a, &from, &to);
    u->cond[a] =
        scan_parts(u, a, from, to, is_loop(u->nodes[a].kind) ? a : NO_NODE);
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

/* The cause of the varying condition of control node c, or of the
 * control that exit node c is under; NO_NODE if it has none (a loop that
 * varies only because an exit leaves it early). */
static unsigned control_cause(ucheck *u, unsigned c) {
  if (exit_word(u->nodes[c].kind))
    c = varying_control(u, c);
  return c == NO_NODE ? NO_NODE : cond_of(u, c)->cause;
}

/* The racy read that node cause (the cause of a varying condition)
 * varies through, following the variables that carried it and the
 * controls they were changed under, or NO_NODE if it varies for another
 * reason: a condition on a variable set from a racy read is a race, not
 * an id dependence. */
static unsigned racy_origin(ucheck *u, unsigned cause) {
  for (int steps = 0; cause != NO_NODE && steps < 64; steps++) {
    if (u->info[cause].racy)
      return cause;
    const taint *t = u->nodes[cause].kind == CXCursor_DeclRefExpr
                         ? ref_taint(u, cause)
                         : NULL;
    if (!t)
      return NO_NODE;
    cause = t->cause != NO_NODE || t->control == NO_NODE
                ? t->cause
                : control_cause(u, t->control);
  }
  return NO_NODE;
}

/* Nonzero if the left side of write node w names declaration id itself
 * (x = ..., x[i] = ..., s.f = ...), not a pointer that reaches it. */
static int names_itself(ucheck *u, unsigned w, int id) {
  if (u->nodes[w].kind == CXCursor_VarDecl)
    return node_decl(u, w) == id;
  if (u->nodes[w].kind == CXCursor_CallExpr || u->nodes[w].n_kids == 0)
    return 0;
  unsigned lhs = kid(u, w, 0);
  for (unsigned i = lhs; i < u->nodes[lhs].end; i++)
    if (u->nodes[i].kind == CXCursor_DeclRefExpr && node_decl(u, i) == id)
      return 1;
  return 0;
}

/* Notes where the variable that node ref (the cause of a varying
 * condition) was changed so that it varies, unless that is its
 * declaration's initializer: 't++' under a condition on the id, or
 * '*p = id' through a pointer to it, may be far from the condition that
 * reads it. `why` says what the cause's condition or value does. */
static void note_change(ucheck *u, unsigned ref, const char *why) {
  const taint *t = ref != NO_NODE && u->nodes[ref].kind == CXCursor_DeclRefExpr
                       ? ref_taint(u, ref)
                       : NULL;
  if (!t || t->write == NO_NODE ||
      (u->nodes[t->write].kind == CXCursor_VarDecl && t->control == NO_NODE))
    return;
  int id = node_decl(u, ref);
  unsigned w = t->write, c = t->control;
  enum CXCursorKind wk = u->nodes[w].kind;
  const char *what = !names_itself(u, w, id)  ? "may be changed here through "
                                                "a pointer"
                     : wk == CXCursor_VarDecl ? "is set here"
                                              : "is changed here";
  CXString name = clang_getCursorSpelling(u->nodes[ref].c);
  gsri_buf msg = {0};
  gsri_buf_printf(&msg, "'%s' %s", clang_getCString(name), what);
  clang_disposeString(name);
  unsigned lhs = wk == CXCursor_VarDecl || wk == CXCursor_CallExpr ||
                         u->nodes[w].n_kids == 0
                     ? NO_NODE
                     : kid(u, w, 0);
  if (c == NO_NODE && lhs != NO_NODE && t->cause >= lhs &&
      t->cause < u->nodes[lhs].end)
    gsri_buf_printf(&msg, " at a place that %s", why); /* x[id] = 0 */
  else if (c == NO_NODE)
    gsri_buf_printf(&msg, " to a value that %s", why);
  else if (exit_word(u->nodes[c].kind))
    gsri_buf_printf(&msg, " after a '%s' that %s", exit_word(u->nodes[c].kind),
                    why);
  else if (is_loop(u->nodes[c].kind))
    gsri_buf_printf(&msg, " in a loop whose trip count %s", why);
  else
    gsri_buf_printf(&msg, " under a condition that %s", why);
  report_at(u, GSR_NOTE, w, "%s", gsri_buf_text(u->ctx, &msg));
  gsri_buf_free(&msg);
}

/* Notes, for chunked loop node v whose other test can end it early
 * (LOOP_CHUNK_CUT), that this test is what keeps its trip count from
 * being the same in every work-item, and how to keep the barrier out of
 * it. */
static void note_cut(ucheck *u, unsigned v) {
  unsigned cut = u->info[v].cut;
  size_t b, e;
  gsri_buf text = {0};
  if (spelled_range(u, cut, &b, &e) && e - b <= 60)
    gsri_buf_printf(&text, "'%.*s'", (int)(e - b), u->ctx->src + b);
  else
    gsri_buf_puts(&text, "the rest of the condition");
  gsri_buf_puts(&text, " can end this chunked loop early in some work-items, "
                       "though its chunk bound gives every work-item the same "
                       "number of passes: test it inside the loop, around the "
                       "work, and leave global_barrier() outside that test");
  report_at(u, GSR_NOTE, cut, "%s", gsri_buf_text(u->ctx, &text));
  gsri_buf_free(&text);
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
  /* global_barrier() or one of its halves: its own name in the messages */
  int direct = gsri_barrier_half(name) >= 0;
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
                      "%s() in a loop whose trip count %s; not every "
                      "work-item reaches it equally often",
                      name, why);
    else if (direct)
      gsri_report_loc(u->ctx, GSR_ERROR,
                      clang_getCursorLocation(u->nodes[call].c),
                      "%s() under a condition that %s; not every work-item "
                      "reaches it",
                      name, why);
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
    note_change(u, cond_of(u, v)->cause, why);
    if (loop && u->info[v].loop == LOOP_CHUNK_CUT && chunk_uniform(u, v))
      note_cut(u, v);
    else if (loop && (u->info[v].loop == LOOP_GRID_STRIDE ||
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
    const char *what = exit_word(u->nodes[x->stmt].kind);
    gsri_buf what_call = {0};
    if (direct)
      gsri_buf_printf(&what_call, "%s()", name);
    else
      gsri_buf_puts(&what_call, "this call of a barrier function");
    report_at(u, GSR_ERROR, call,
              "%s is not reached by every work-item: an earlier exit is "
              "taken by only some of them",
              gsri_buf_text(u->ctx, &what_call));
    gsri_buf_free(&what_call);
    unsigned cause = reported_cause(u, x->control);
    int race = cause != NO_NODE && u->info[cause].racy;
    report_at(u, GSR_NOTE, x->stmt,
              race ? "this '%s' depends on a read that can give work-items "
                     "different values"
                   : "this '%s' depends on the work-item or group id",
              what);
    if (race)
      note_race(u, cause);
    note_change(u, cond_of(u, x->control)->cause,
                race ? "can differ between work-items"
                     : "depends on the work-item or group id");
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
    expr_scan e = scan_parts(u, n, from, to, is_loop(k) ? n : NO_NODE);
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
  free(u->out_params);
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
  u.out_params = calloc(nf, 1);
  /* Every defined function takes part in the propagation: variation flows
   * through calls from code that does not take part too. */
  if (!u.ret || !u.dirty || !u.params || !u.callers || !u.n_callers ||
      !u.info || !u.cond || !u.cond_done || !index_params(&u) ||
      !u.out_params || !index_callers(&u) || !annotate(&u) ||
      !analyse_bodies(&u))
    goto out_of_memory;

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
