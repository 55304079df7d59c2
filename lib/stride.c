/* Part of the plan stage: the warning for a kernel that is not written in
 * grid-stride style.
 *
 * With discovery only the co-resident work-groups take part, and the ids
 * are remapped to them: a kernel that handles element get_global_id(0) and
 * no other covers only as many elements as the groups that take part have
 * work-items, however many were launched, and leaves the rest of its data
 * as it was, with no error. So in the functions a participating kernel
 * reaches, a memory access (p[i], *p, p->x, on global, constant or generic
 * memory) whose address depends on get_global_id, get_group_id or
 * get_global_linear_id is a warning, unless
 *   - the id reaches it only through the variable of a loop around it that
 *     steps by get_global_size or get_num_groups (or a variable, parameter
 *     or result holding one): a grid-stride loop;
 *   - or the address is also divided by such a size: the data is cut
 *     into shares by the number of work-items that take part
 *     (start = id * (n / get_global_size(0))); a size as a factor, as in
 *     y * get_global_size(0) + x, still gives one element per work-item;
 *   - or it is a group id in a kernel that asks get_num_groups: a slot per
 *     group that takes part (partial[get_group_id(0)]), read back by that
 *     count, is right with any number of groups.
 * An id reaches an address through variables initialized or assigned from
 * it, arguments and results; not through the condition of ?: (a work-item
 * that picks between two places), and an id in a condition of if or a
 * loop decides no address (if (get_global_id(0) == 0), one work-item
 * doing a write).
 *
 * Within a function the analysis is flow-insensitive, like the uniformity
 * check, and walks the nodes the find stage recorded: preorder, so a
 * subtree is an index range, and every walk is a loop. Across calls it
 * keeps each function's parameters apart: a function says which of its
 * parameters reach an address and which reach its result, and each call
 * puts its own arguments in their place, so a helper that a grid-stride
 * loop calls with its variable is right where another kernel calls it
 * with a bare id. One warning per kernel, at the first such access it
 * reaches (notes along the calls), and a note showing the grid-stride
 * form. Without discovery every launched group takes part, and there is
 * nothing to warn of.
 */
#include "internal.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_NODE GSR_NO_NODE
#define UNRESOLVED (-2)

/* Parameters of a function kept apart, at most: later ones are taken as
 * not reaching anything (a function with more is rare). */
#define MAX_PARAMS 64

/* What a call node is to this check. */
enum {
  CALL_NONE,
  CALL_GLOBAL_ID, /* get_global_id, get_global_linear_id */
  CALL_GROUP_ID,  /* get_group_id */
  CALL_SIZE,      /* get_global_size: a grid-stride step */
  CALL_GROUPS,    /* get_num_groups: a grid-stride step too */
  CALL_USER       /* a function defined in the unit */
};

/* The kinds of id: bits of value.id, and 1 << index of value.cause. */
enum { ID_GLOBAL = 1, ID_GROUP = 2 };

/* What a value depends on. */
typedef struct value {
  unsigned char id;    /* ids (ID_) that reach it, not through a grid-stride
                          loop's variable */
  unsigned char sized; /* phase 0: get_global_size or get_num_groups reach
                          it; phase 1: it is divided by one, or is a tile
                          of a grid-stride loop (a share of the data) */
  unsigned cause[2];   /* the global and the group id call it comes from,
                          or NO_NODE */
  uint64_t params;     /* phase 1: the parameters of its function that
                          reach it (bit k: the k-th) */
} value;

static const value no_value = {0, 0, {NO_NODE, NO_NODE}, 0};

/* A variable or parameter that the nodes name. */
typedef struct sdecl {
  CXCursor c; /* canonical */
  value v[2]; /* what its value depends on in each phase */
} sdecl;

/* An access that is not grid-stride, and how a function reaches it: the
 * access, the call it goes through (NO_NODE: the function's own), the
 * callee's parameter the call passes it on in (-1: the callee's own), and
 * the id call it comes from. */
typedef struct reach {
  unsigned at, via;
  int param;
  unsigned cause;
} reach;

typedef struct scheck {
  gsri_ctx *ctx;
  const gsri_node *nodes;
  unsigned char *call;    /* per node: CALL_ */
  int *callee;            /* per node: CALL_USER's function */
  int *decl;              /* per node: the declaration a DeclRefExpr, VarDecl
                             or ParmDecl names, -1, or UNRESOLVED */
  unsigned char *in_gs;   /* per node: a DeclRefExpr inside a grid-stride
                             loop over the variable it names */
  unsigned char *divides; /* per node: a division by a size (2), not (1),
                             not asked yet (0) */
  unsigned char *walked;  /* per function: it takes part */
  unsigned char *groups;  /* per function: it calls get_num_groups */
  value *ret[2];          /* per phase and function: its result */
  size_t *first_param;    /* per function: its parameters' entries below */
  uint64_t *reaching;     /* per function: the parameters reaching an
                             address (not through a size) */
  reach *by_param;        /* per parameter: how it reaches one */
  unsigned char *summed;  /* per function: 1 being summed up, 2 done */
  reach *bad[2];          /* per function, for kernels that do not [0] and
                             that do [1] ask get_num_groups: its first access
                             that is not grid-stride (at NO_NODE: none) */
  unsigned char *bad_done[2]; /* 1 being asked, 2 done */
  sdecl *decls;
  size_t n_decls, cap_decls;
  gsri_table decl_index;
  int phase;   /* 0: every reference counted, to find the grid-stride
                  loops; 1: what addresses depend on, through them */
  int changed; /* the current round marked something */
  int failed;  /* out of memory */
} scheck;

/* What a table lookup compares with. */
typedef struct cursor_key {
  CXCursor c;
  const scheck *s;
} cursor_key;

/* Table callback: is declaration pos the cursor sought? */
static int decl_eq(const void *user, size_t pos) {
  const cursor_key *k = user;
  return clang_equalCursors(k->s->decls[pos].c, k->c);
}

/* The i-th child of node n. */
static unsigned kid(const scheck *s, unsigned n, size_t i) {
  return s->ctx->kids[s->nodes[n].kids + i];
}

/* Node n without the implicit conversions and parentheses around it. */
static unsigned strip(const scheck *s, unsigned n) {
  while ((s->nodes[n].kind == CXCursor_UnexposedExpr ||
          s->nodes[n].kind == CXCursor_ParenExpr) &&
         s->nodes[n].n_kids == 1)
    n = kid(s, n, 0);
  return n;
}

/* Nonzero if node kind k is a loop. */
static int is_loop(enum CXCursorKind k) {
  return k == CXCursor_ForStmt || k == CXCursor_WhileStmt ||
         k == CXCursor_DoStmt;
}

/* The id of the variable or parameter that node n names or declares,
 * worked out when first asked; -1 for anything else. */
static int node_decl(scheck *s, unsigned n) {
  if (s->decl[n] != UNRESOLVED)
    return s->decl[n];
  s->decl[n] = -1;
  CXCursor c = s->nodes[n].c;
  if (s->nodes[n].kind == CXCursor_DeclRefExpr)
    c = clang_getCursorReferenced(c);
  if (c.kind != CXCursor_VarDecl && c.kind != CXCursor_ParmDecl)
    return -1;
  c = clang_getCanonicalCursor(c);
  unsigned h = clang_hashCursor(c);
  cursor_key k = {c, s};
  size_t i = gsri_table_find(&s->decl_index, h, decl_eq, &k);
  if (i == (size_t)-1) {
    sdecl *d = gsri_grow(s->decls, &s->cap_decls, s->n_decls, sizeof *d);
    if (!d || !gsri_table_add(&s->decl_index, h, s->n_decls)) {
      s->failed = 1;
      return -1;
    }
    s->decls = d;
    d[s->n_decls].c = c;
    d[s->n_decls].v[0] = d[s->n_decls].v[1] = no_value;
    i = s->n_decls++;
  }
  return s->decl[n] = (int)i;
}

/* The node of the i-th parameter of function fi (its definition's i-th
 * ParmDecl child), or NO_NODE. */
static unsigned param_node(const scheck *s, size_t fi, size_t i) {
  unsigned root = s->ctx->funcs[fi].root;
  for (size_t k = 0; k < s->nodes[root].n_kids; k++) {
    unsigned p = kid(s, root, k);
    if (s->nodes[p].kind == CXCursor_ParmDecl && i-- == 0)
      return p;
  }
  return NO_NODE;
}

/* Nonzero if binary node n is spelled op. */
static int binary_is(const scheck *s, unsigned n, const char *op) {
  char got[4];
  gsri_binary_op(s->ctx, n, got, sizeof got);
  return strcmp(got, op) == 0;
}

/* Nonzero if unary operator node n is a dereference, *p: its first token
 * is '*' (a prefix operator comes first; p++ starts with its operand). */
static int is_deref(const scheck *s, unsigned n) {
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(s->ctx->tu, clang_getCursorExtent(s->nodes[n].c), &toks, &nt);
  int star = 0;
  if (nt > 0 && clang_getTokenKind(toks[0]) == CXToken_Punctuation) {
    CXString t = clang_getTokenSpelling(s->ctx->tu, toks[0]);
    star = strcmp(clang_getCString(t), "*") == 0;
    clang_disposeString(t);
  }
  clang_disposeTokens(s->ctx->tu, toks, nt);
  return star;
}

/* The variable that node n, an assignment's left side, names; -1 if it is
 * not a plain variable (an element, a field: memory, not followed). */
static int assigned_decl(scheck *s, unsigned lhs) {
  lhs = strip(s, lhs);
  return s->nodes[lhs].kind == CXCursor_DeclRefExpr ? node_decl(s, lhs) : -1;
}

/* Adds what value from depends on to *v. */
static void add(value *v, const value *from) {
  for (int b = 0; b < 2; b++)
    if ((from->id & (1 << b)) && !(v->id & (1 << b)))
      v->cause[b] = from->cause[b];
  v->id |= from->id;
  v->sized |= from->sized;
  v->params |= from->params;
}

static value scan(scheck *s, unsigned n);

/* What call node c of a defined function returns, in phase 1: its
 * result, with each parameter that reaches it replaced by the argument
 * this call passes. */
static value call_result(scheck *s, unsigned c) {
  const value *r = &s->ret[1][s->callee[c]];
  value v = *r;
  v.params = 0;
  /* The callee comes first among the children, then the arguments. */
  for (size_t k = 0; k < MAX_PARAMS && k + 1 < s->nodes[c].n_kids; k++)
    if (r->params & ((uint64_t)1 << k)) {
      value a = scan(s, kid(s, c, k + 1));
      add(&v, &a);
    }
  return v;
}

/* Nonzero if node n divides by a size: x / T, T holding get_global_size
 * or get_num_groups (asked once phase 0 is done). */
static int divides_by_size(scheck *s, unsigned n) {
  if (!s->divides[n]) {
    int phase = s->phase;
    s->phase = 0;
    s->divides[n] = s->nodes[n].kind == CXCursor_BinaryOperator &&
                            s->nodes[n].n_kids == 2 &&
                            scan(s, kid(s, n, 1)).sized && binary_is(s, n, "/")
                        ? 2
                        : 1;
    s->phase = phase;
  }
  return s->divides[n] == 2;
}

/* What expression n depends on, in the current phase: looks at n and
 * everything below it, but not the condition of a ?: (it picks a value,
 * it is none). In phase 1 a call's arguments count only as far as its
 * result depends on them; a size counts only as a divisor (a share of the
 * data per work-item, n / T), not as a factor (y * get_global_size(0) + x
 * is one element per work-item); and the variable of a grid-stride loop
 * around it brings no id: where the variable starts at an id, the loop
 * covers that id's dimension, and where it does not (base = 0; base += T,
 * then base + id), it is a share. */
static value scan(scheck *s, unsigned n) {
  value v = no_value;
  for (unsigned j = n; j < s->nodes[n].end; j++) {
    unsigned p = s->nodes[j].parent;
    if (j != n && p != NO_NODE &&
        s->nodes[p].kind == CXCursor_ConditionalOperator &&
        s->nodes[p].n_kids == 3 && kid(s, p, 0) == j) {
      j = s->nodes[j].end - 1;
      continue;
    }
    value r;
    switch (s->call[j]) {
    case CALL_GLOBAL_ID:
    case CALL_GROUP_ID:
      r = no_value;
      r.id = s->call[j] == CALL_GLOBAL_ID ? ID_GLOBAL : ID_GROUP;
      r.cause[r.id - 1] = j;
      add(&v, &r);
      continue;
    case CALL_SIZE:
    case CALL_GROUPS:
      v.sized |= s->phase == 0;
      continue;
    case CALL_USER:
      if (s->phase == 0) {
        add(&v, &s->ret[0][s->callee[j]]);
        continue;
      }
      r = call_result(s, j);
      add(&v, &r);
      j = s->nodes[j].end - 1;
      continue;
    default:
      break;
    }
    if (s->phase == 1 && s->nodes[j].kind == CXCursor_BinaryOperator &&
        divides_by_size(s, j))
      v.sized = 1;
    if (s->nodes[j].kind != CXCursor_DeclRefExpr || node_decl(s, j) < 0)
      continue;
    const sdecl *d = &s->decls[s->decl[j]];
    if (s->phase == 1 && s->in_gs[j])
      v.sized |= !d->v[0].id;
    else
      add(&v, &d->v[s->phase]);
  }
  return v;
}

/* Nonzero if v adds something to *into. */
static int adds(const value *into, const value *v) {
  return (v->id & ~into->id) || (v->sized && !into->sized) ||
         (v->params & ~into->params);
}

/* Merges v into *into; notes a change. */
static void merge(scheck *s, value *into, const value *v) {
  if (adds(into, v)) {
    add(into, v);
    s->changed = 1;
  }
}

/* One round of the propagation over the body of function fi (definition
 * node root): variables and the function's result take in what the values
 * assigned to them depend on; in phase 0 the parameters of callees too. */
static void propagate(scheck *s, size_t fi, unsigned root) {
  for (unsigned n = root; n < s->nodes[root].end && !s->failed; n++) {
    const gsri_node *p = &s->nodes[n];
    int d;
    value v;
    switch (p->kind) {
    case CXCursor_VarDecl:
      for (size_t i = 0; i < p->n_kids; i++)
        if (clang_isExpression(s->nodes[kid(s, n, i)].kind) &&
            node_decl(s, n) >= 0) {
          v = scan(s, kid(s, n, i));
          merge(s, &s->decls[s->decl[n]].v[s->phase], &v);
        }
      break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
      /* Lexing for '=' costs most, so it is asked last. */
      if (p->n_kids == 2 && (d = assigned_decl(s, kid(s, n, 0))) >= 0 &&
          (v = scan(s, kid(s, n, 1)), adds(&s->decls[d].v[s->phase], &v)) &&
          (p->kind == CXCursor_CompoundAssignOperator || binary_is(s, n, "=")))
        merge(s, &s->decls[d].v[s->phase], &v);
      break;
    case CXCursor_ReturnStmt:
      if (p->n_kids == 1) {
        v = scan(s, kid(s, n, 0));
        merge(s, &s->ret[s->phase][fi], &v);
      }
      break;
    case CXCursor_CallExpr:
      if (s->phase != 0 || s->call[n] != CALL_USER)
        break;
      for (size_t a = 1; a < p->n_kids; a++) {
        unsigned pn = param_node(s, (size_t)s->callee[n], a - 1);
        if (pn != NO_NODE && (d = node_decl(s, pn)) >= 0) {
          v = scan(s, kid(s, n, a));
          merge(s, &s->decls[d].v[0], &v);
        }
      }
      break;
    default:
      break;
    }
  }
}

/* Runs the propagation of the current phase over every function that
 * takes part until nothing changes. */
static void propagate_all(scheck *s) {
  gsri_ctx *ctx = s->ctx;
  do {
    s->changed = 0;
    for (size_t i = 0; i < ctx->n_funcs && !s->failed; i++)
      if (s->walked[i])
        propagate(s, i, ctx->funcs[i].root);
  } while (s->changed && !s->failed);
}

/* If node n steps a variable by a size (v += T, v -= T, v = v + T, T
 * holding get_global_size or get_num_groups), returns the variable; else
 * -1. */
static int stepped_decl(scheck *s, unsigned n) {
  const gsri_node *p = &s->nodes[n];
  if ((p->kind != CXCursor_CompoundAssignOperator &&
       p->kind != CXCursor_BinaryOperator) ||
      p->n_kids != 2)
    return -1;
  int d = assigned_decl(s, kid(s, n, 0));
  if (d < 0 || !scan(s, kid(s, n, 1)).sized)
    return -1;
  if (p->kind == CXCursor_CompoundAssignOperator)
    return binary_is(s, n, "+=") || binary_is(s, n, "-=") ? d : -1;
  unsigned rhs = kid(s, n, 1);
  for (unsigned j = rhs; j < s->nodes[rhs].end; j++)
    if (s->nodes[j].kind == CXCursor_DeclRefExpr && node_decl(s, j) == d)
      return binary_is(s, n, "=") ? d : -1;
  return -1;
}

/* Marks the references to each variable that a loop steps by a size as
 * inside a grid-stride loop: the step, in the loop's increment or body,
 * has that loop as the innermost around it. */
static void mark_grid_stride(scheck *s) {
  gsri_ctx *ctx = s->ctx;
  for (size_t i = 0; i < ctx->n_funcs && !s->failed; i++) {
    if (!s->walked[i])
      continue;
    unsigned root = ctx->funcs[i].root;
    for (unsigned n = root; n < s->nodes[root].end; n++) {
      int d = stepped_decl(s, n);
      unsigned l = s->nodes[n].parent;
      while (d >= 0 && l != NO_NODE && !is_loop(s->nodes[l].kind))
        l = s->nodes[l].parent;
      if (d < 0 || l == NO_NODE)
        continue;
      for (unsigned j = l; j < s->nodes[l].end; j++)
        if (s->nodes[j].kind == CXCursor_DeclRefExpr && node_decl(s, j) == d)
          s->in_gs[j] = 1;
    }
  }
}

/* The address space of what a pointer or array type t points at, or
 * holds; -1 for another type. libclang numbers clang's OpenCL spaces. */
static int space_of(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind == CXType_Pointer)
    return (int)clang_getAddressSpace(clang_getPointeeType(t));
  if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
      t.kind == CXType_VariableArray)
    return (int)clang_getAddressSpace(clang_getArrayElementType(t));
  return -1;
}

/* Nonzero if node n accesses memory that all work-groups share: p[i], *p
 * or p->x on global, constant or generic memory (not local, not
 * private); sets *v to what its address depends on. */
static int shared_access(scheck *s, unsigned n, value *v) {
  const gsri_node *p = &s->nodes[n];
  if (!((p->kind == CXCursor_ArraySubscriptExpr && p->n_kids == 2) ||
        (p->kind == CXCursor_UnaryOperator && p->n_kids == 1) ||
        (p->kind == CXCursor_MemberRefExpr && p->n_kids == 1)))
    return 0;
  *v = scan(s, n);
  if ((!v->id && !v->params) || v->sized)
    return 0;
  CXType base = clang_getCursorType(s->nodes[kid(s, n, 0)].c);
  if (p->kind == CXCursor_MemberRefExpr &&
      clang_getCanonicalType(base).kind != CXType_Pointer)
    return 0; /* s.x: a field of a value */
  /* OpenCL's global, constant and generic spaces, and the two halves of
   * global that clang also knows (global_device, global_host). */
  int space = space_of(base);
  if (space != 1 && space != 3 && space != 5 && space != 6 && space != 7)
    return 0;
  return p->kind != CXCursor_UnaryOperator || is_deref(s, n);
}

/* The ids of v that make an address not grid-stride (0 if none), for a
 * kernel that asks get_num_groups (knows) or not; *cause gets the id call
 * to name. */
static int bad_ids(const value *v, int knows, unsigned *cause) {
  int ids = v->sized ? 0 : v->id & (knows ? ID_GLOBAL : ID_GLOBAL | ID_GROUP);
  if (ids)
    *cause = v->cause[(ids & ID_GLOBAL) ? 0 : 1];
  return ids;
}

/* Sums up function fi: which of its parameters reach an address that is
 * not grid-stride, in its body or in a function it passes them to
 * (s->reaching[fi]), and how (s->by_param). */
static void sum_up(scheck *s, size_t fi) {
  if (s->summed[fi])
    return; /* done, or being summed: OpenCL C has no recursion */
  s->summed[fi] = 1;
  unsigned root = s->ctx->funcs[fi].root;
  reach *mine = &s->by_param[s->first_param[fi]];
  for (unsigned n = root; n < s->nodes[root].end; n++) {
    value v;
    if (shared_access(s, n, &v))
      for (size_t k = 0; k < MAX_PARAMS; k++)
        if ((v.params & ~s->reaching[fi]) & ((uint64_t)1 << k)) {
          s->reaching[fi] |= (uint64_t)1 << k;
          mine[k] = (reach){n, NO_NODE, -1, NO_NODE};
        }
    if (s->call[n] != CALL_USER)
      continue;
    size_t g = (size_t)s->callee[n];
    assert(s->walked[g]); /* the callee of one that takes part does too */
    sum_up(s, g);
    for (size_t q = 0; q < MAX_PARAMS && q + 1 < s->nodes[n].n_kids; q++) {
      if (!(s->reaching[g] & ((uint64_t)1 << q)))
        continue;
      v = scan(s, kid(s, n, q + 1));
      for (size_t k = 0; k < MAX_PARAMS && !v.sized; k++)
        if ((v.params & ~s->reaching[fi]) & ((uint64_t)1 << k)) {
          s->reaching[fi] |= (uint64_t)1 << k;
          mine[k] = (reach){s->by_param[s->first_param[g] + q].at, n, (int)q,
                            NO_NODE};
        }
    }
  }
  s->summed[fi] = 2;
}

/* Finds function fi's first access that is not grid-stride, in preorder:
 * its own, or in a function it calls there, through the function's own
 * ids or those of the arguments it passes (s->bad[k][fi]), for a kernel
 * that asks get_num_groups (k 1) or not (k 0). */
static void find_bad(scheck *s, size_t fi, int k) {
  if (s->bad_done[k][fi])
    return;
  s->bad_done[k][fi] = 1;
  reach *r = &s->bad[k][fi];
  unsigned root = s->ctx->funcs[fi].root;
  for (unsigned n = root; n < s->nodes[root].end && r->at == NO_NODE; n++) {
    value v;
    if (shared_access(s, n, &v) && bad_ids(&v, k, &r->cause)) {
      r->at = n;
      break;
    }
    if (s->call[n] != CALL_USER)
      continue;
    size_t g = (size_t)s->callee[n];
    assert(s->walked[g]);
    find_bad(s, g, k);
    sum_up(s, g);
    if (s->bad[k][g].at != NO_NODE) {
      *r = (reach){s->bad[k][g].at, n, -1, s->bad[k][g].cause};
      break;
    }
    for (size_t q = 0; q < MAX_PARAMS && q + 1 < s->nodes[n].n_kids; q++) {
      if (!(s->reaching[g] & ((uint64_t)1 << q)))
        continue;
      v = scan(s, kid(s, n, q + 1));
      if (bad_ids(&v, k, &r->cause)) {
        *r =
            (reach){s->by_param[s->first_param[g] + q].at, n, (int)q, r->cause};
        break;
      }
    }
  }
  s->bad_done[k][fi] = 2;
}

/* Nonzero if function fi or one it calls, at any depth, calls
 * get_num_groups; seen marks the functions already looked at. */
static int asks_groups(scheck *s, size_t fi, unsigned char *seen) {
  if (seen[fi])
    return 0;
  seen[fi] = 1;
  if (s->groups[fi])
    return 1;
  const gsri_func *fn = &s->ctx->funcs[fi];
  for (size_t i = 0; i < fn->n_sites; i++)
    if (fn->sites[i].kind == GSR_SITE_CALL &&
        asks_groups(s, (size_t)fn->sites[i].callee, seen))
      return 1;
  return 0;
}

/* Appends the dimension that id call node c asks about: its value, or
 * its text where it is no constant and written out; "0" otherwise. */
static void append_dim(const scheck *s, unsigned c, gsri_buf *b) {
  const gsri_ctx *ctx = s->ctx;
  CXCursor arg = clang_Cursor_getArgument(s->nodes[c].c, 0);
  CXEvalResult ev = clang_Cursor_Evaluate(arg);
  if (ev && clang_EvalResult_getKind(ev) == CXEval_Int) {
    gsri_buf_printf(b, "%lld", clang_EvalResult_getAsLongLong(ev));
    clang_EvalResult_dispose(ev);
    return;
  }
  if (ev)
    clang_EvalResult_dispose(ev);
  CXSourceRange r = clang_getCursorExtent(arg);
  CXFile fb, fe;
  unsigned ob, oe, xb, xe;
  clang_getSpellingLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
  clang_getSpellingLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
  clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &xb);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &xe);
  if (fb && fe && gsri_same_file(ctx, fb, ctx->main_file) &&
      gsri_same_file(ctx, fe, ctx->main_file) && ob == xb && oe == xe &&
      ob < oe && oe <= ctx->src_len)
    gsri_buf_append(b, ctx->src + ob, oe - ob);
  else
    gsri_buf_puts(b, "0");
}

/* Warns of the first access that is not grid-stride that kernel fi
 * reaches (k as for find_bad): at the access, with a note at each call on
 * the way there from the kernel, and the grid-stride form for the id. */
static void report(scheck *s, size_t fi, int k) {
  gsri_ctx *ctx = s->ctx;
  const reach *r = &s->bad[k][fi];
  unsigned call = r->cause;
  int group = s->call[call] == CALL_GROUP_ID;
  CXString name = clang_getCursorSpelling(s->nodes[call].c);
  int linear = strcmp(clang_getCString(name), "get_global_linear_id") == 0;
  gsri_buf dim = {0}, loop = {0};
  if (!linear)
    append_dim(s, call, &dim);
  const char *d = gsri_buf_text(ctx, &dim);
  gsri_report_loc(ctx, GSR_WARNING, clang_getCursorLocation(s->nodes[r->at].c),
                  "kernel '%s' indexes memory by %s(%s) outside a "
                  "grid-stride loop: the data past the ids of the work-groups "
                  "that take part is never reached",
                  ctx->funcs[fi].name, clang_getCString(name), d);
  /* Down the calls: each hop goes on by the callee's own first access or
   * by how the parameter the call passes it in reaches one. */
  size_t f = fi;
  unsigned via = r->via;
  int param = r->param;
  while (via != NO_NODE) {
    size_t g = (size_t)s->callee[via];
    gsri_report_loc(ctx, GSR_NOTE, clang_getCursorLocation(s->nodes[via].c),
                    "'%s' calls '%s' here", ctx->funcs[f].name,
                    ctx->funcs[g].name);
    const reach *next = param < 0
                            ? &s->bad[k][g]
                            : &s->by_param[s->first_param[g] + (size_t)param];
    via = next->via;
    param = next->param;
    f = g;
  }
  if (group)
    gsri_buf_printf(&loop,
                    "for (uint g = get_group_id(%s); g < n; g += "
                    "get_num_groups(%s))",
                    d, d);
  else if (linear)
    gsri_buf_puts(&loop, "for (uint i = get_global_linear_id(); i < n; i += "
                         "get_global_size(0) * get_global_size(1) * "
                         "get_global_size(2))");
  else
    gsri_buf_printf(&loop,
                    "for (uint i = get_global_id(%s); i < n; i += "
                    "get_global_size(%s))",
                    d, d);
  gsri_report(ctx, GSR_NOTE, 0, 0,
              "with discovery only the co-resident work-groups take part, "
              "however many are launched; write '%s'",
              gsri_buf_text(ctx, &loop));
  clang_disposeString(name);
  gsri_buf_free(&dim);
  gsri_buf_free(&loop);
}

/* Marks the nodes of every function that takes part with what they call,
 * and counts its parameters. Returns how many parameters in all, or 0 if
 * no function takes part. */
static size_t annotate(scheck *s) {
  static const struct {
    const char *name;
    unsigned char call;
  } builtins[] = {{"get_global_id", CALL_GLOBAL_ID},
                  {"get_global_linear_id", CALL_GLOBAL_ID},
                  {"get_group_id", CALL_GROUP_ID},
                  {"get_global_size", CALL_SIZE},
                  {"get_num_groups", CALL_GROUPS}};
  gsri_ctx *ctx = s->ctx;
  size_t params = 0;
  int any = 0;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    s->first_param[i] = params;
    if (!fn->in_participating || fn->root == NO_NODE)
      continue;
    s->walked[i] = any = 1;
    while (params - s->first_param[i] < MAX_PARAMS &&
           param_node(s, i, params - s->first_param[i]) != NO_NODE)
      params++;
    for (size_t k = 0; k < fn->n_sites; k++) {
      const gsri_site *site = &fn->sites[k];
      unsigned c = site->node;
      if (site->kind == GSR_SITE_CALL) {
        s->call[c] = CALL_USER;
        s->callee[c] = site->callee;
      }
      for (size_t j = 0;
           site->kind == GSR_SITE_ID && j < sizeof builtins / sizeof *builtins;
           j++)
        if (strcmp(site->callee_name, builtins[j].name) == 0)
          s->call[c] = builtins[j].call;
      s->groups[i] |= s->call[c] == CALL_GROUPS;
    }
  }
  return any ? params + 1 : 0;
}

/* Gives each parameter of a function that takes part its own bit in phase
 * 1: what reaches it there comes from the call. */
static void mark_params(scheck *s) {
  for (size_t i = 0; i < s->ctx->n_funcs; i++)
    for (size_t k = 0; s->walked[i] && k < MAX_PARAMS; k++) {
      unsigned p = param_node(s, i, k);
      if (p == NO_NODE)
        break;
      int d = node_decl(s, p);
      if (d >= 0)
        s->decls[d].v[1].params |= (uint64_t)1 << k;
    }
}

/* See internal.h. */
void gsri_check_strides(gsri_ctx *ctx) {
  /* Input with errors writes nothing: this would only add to them. */
  if (ctx->no_discovery || ctx->nomem || ctx->errors)
    return;
  scheck s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  s.nodes = ctx->nodes;
  size_t nf = ctx->n_funcs ? ctx->n_funcs : 1;
  size_t nn = ctx->n_nodes ? ctx->n_nodes : 1;
  s.call = calloc(nn, 1);
  s.callee = calloc(nn, sizeof *s.callee);
  s.decl = malloc(nn * sizeof *s.decl);
  s.in_gs = calloc(nn, 1);
  s.divides = calloc(nn, 1);
  s.walked = calloc(nf, 1);
  s.groups = calloc(nf, 1);
  s.first_param = calloc(nf, sizeof *s.first_param);
  s.reaching = calloc(nf, sizeof *s.reaching);
  s.summed = calloc(nf, 1);
  int ok = s.call && s.callee && s.decl && s.in_gs && s.divides && s.walked &&
           s.groups && s.first_param && s.reaching && s.summed;
  for (int k = 0; k < 2; k++) {
    s.ret[k] = malloc(nf * sizeof *s.ret[k]);
    s.bad[k] = malloc(nf * sizeof *s.bad[k]);
    s.bad_done[k] = calloc(nf, 1);
    ok = ok && s.ret[k] && s.bad[k] && s.bad_done[k];
  }
  if (!ok)
    goto out_of_memory;
  for (size_t i = 0; i < nn; i++)
    s.decl[i] = UNRESOLVED;
  for (int k = 0; k < 2; k++)
    for (size_t i = 0; i < nf; i++) {
      s.ret[k][i] = no_value;
      s.bad[k][i] = (reach){NO_NODE, NO_NODE, -1, NO_NODE};
    }
  size_t n_params = annotate(&s);
  if (!n_params)
    goto free_all;
  s.by_param = malloc(n_params * sizeof *s.by_param);
  if (!s.by_param)
    goto out_of_memory;

  /* What every value depends on, each reference counted: which variables
   * hold a size, so which loops step by one; then again, through those
   * loops, each function's parameters apart. */
  propagate_all(&s);
  mark_grid_stride(&s);
  s.phase = 1;
  mark_params(&s);
  propagate_all(&s);
  if (s.failed)
    goto out_of_memory;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    gsri_func *fn = &ctx->funcs[i];
    if (!fn->is_kernel || !fn->reaches_barrier || !s.walked[i])
      continue;
    unsigned char *seen = calloc(nf, 1);
    if (!seen)
      goto out_of_memory;
    int k = asks_groups(&s, i, seen);
    free(seen);
    find_bad(&s, i, k);
    if (s.failed)
      goto out_of_memory;
    if (s.bad[k][i].at != NO_NODE)
      report(&s, i, k);
  }
  goto free_all;

out_of_memory:
  gsri_nomem(ctx);
free_all:
  free(s.call);
  free(s.callee);
  free(s.decl);
  free(s.in_gs);
  free(s.divides);
  free(s.walked);
  free(s.groups);
  free(s.first_param);
  free(s.reaching);
  free(s.by_param);
  free(s.summed);
  for (int k = 0; k < 2; k++) {
    free(s.ret[k]);
    free(s.bad[k]);
    free(s.bad_done[k]);
  }
  free(s.decls);
  gsri_table_free(&s.decl_index);
}
