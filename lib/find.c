/* Stage 2, find: walks the translation unit once and records every
 * function (all its declarations together, keyed by USR), the calls inside
 * function bodies that matter to the rewrite (global_barrier(), the
 * remapped work-item functions, calls of user functions), the dimensions
 * the work-item functions ask about, and identifiers that use the reserved
 * prefix.
 */
#include "internal.h"

#include <assert.h>

#include <stdlib.h>
#include <string.h>

/* The work-item functions remapped to the virtual grid of the
 * participating work-groups (the last exists from OpenCL C 2.0 on and
 * takes no dimension; OpenCL C has no get_group_linear_id). */
static const char *const remapped_ids[] = {"get_group_id", "get_num_groups",
                                           "get_global_id", "get_global_size",
                                           "get_global_linear_id"};
#define N_REMAPPED (sizeof remapped_ids / sizeof remapped_ids[0])

/* The work-item functions that take a dimension: what a kernel asks of
 * them says which dimensions its launch needs (the constraints'
 * "dimensions"). */
static const char *const dimension_fns[] = {
    "get_global_id",     "get_local_id",           "get_group_id",
    "get_num_groups",    "get_global_size",        "get_local_size",
    "get_global_offset", "get_enqueued_local_size"};

typedef struct walk {
  gsri_ctx *ctx;
  int cur;        /* index of the function whose body is walked, or -1 */
  unsigned *path; /* nodes from the definition to the last one added */
  size_t depth, cap;
  int failed; /* out of memory */
} walk;

/* Skips whitespace, comments and line continuations from off; returns the
 * offset of the next significant character, or src_len. */
size_t gsri_skip_blank(const gsri_ctx *ctx, size_t off) {
  const char *s = ctx->src;
  size_t n = ctx->src_len;
  while (off < n) {
    char c = s[off];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      off++;
    } else if (c == '\\' && off + 1 < n &&
               (s[off + 1] == '\n' || s[off + 1] == '\r')) {
      off++;
    } else if (c == '/' && off + 1 < n && s[off + 1] == '/') {
      while (off < n && s[off] != '\n')
        off++;
    } else if (c == '/' && off + 1 < n && s[off + 1] == '*') {
      off += 2;
      while (off + 1 < n && !(s[off] == '*' && s[off + 1] == '/'))
        off++;
      off = off + 2 <= n ? off + 2 : n;
    } else {
      break;
    }
  }
  return off;
}

/* Returns the offset of the ')' matching the '(' at lparen, skipping
 * comments and string/char literals, or NO_OFF. The offsets of the first
 * max_semis ';' directly inside the parentheses (a for loop's header) go
 * to semis, and their count to *n_semis, when semis is not NULL. */
size_t gsri_scan_parens(const gsri_ctx *ctx, size_t lparen, size_t *semis,
                        size_t max_semis, size_t *n_semis) {
  const char *s = ctx->src;
  size_t n = ctx->src_len, off = lparen;
  int depth = 0;
  if (n_semis)
    *n_semis = 0;
  while (off < n) {
    size_t next = gsri_skip_blank(ctx, off);
    if (next != off) {
      off = next;
      continue;
    }
    char c = s[off];
    if (c == '"' || c == '\'') {
      for (off++; off < n && s[off] != c; off++)
        if (s[off] == '\\')
          off++;
    } else if (c == '(') {
      depth++;
    } else if (c == ')') {
      if (--depth == 0)
        return off;
    } else if (c == ';' && depth == 1 && semis && *n_semis < max_semis) {
      semis[(*n_semis)++] = off;
    }
    off++;
  }
  return NO_OFF;
}

/* Copies the first punctuation token of node n's extent at or after
 * offset from (the expansion's) into op, size bytes; empty if none. */
static void first_punct(const gsri_ctx *ctx, unsigned n, unsigned from,
                        char *op, size_t size) {
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(ctx->tu, clang_getCursorExtent(ctx->nodes[n].c), &toks, &nt);
  op[0] = '\0';
  for (unsigned i = 0; i < nt; i++) {
    unsigned off;
    clang_getExpansionLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                               NULL, NULL, &off);
    if (off < from || clang_getTokenKind(toks[i]) != CXToken_Punctuation)
      continue;
    CXString t = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *p = clang_getCString(t);
    size_t len = strlen(p) < size - 1 ? strlen(p) : size - 1;
    memcpy(op, p, len);
    op[len] = '\0';
    clang_disposeString(t);
    break;
  }
  clang_disposeTokens(ctx->tu, toks, nt);
}

/* See internal.h. */
void gsri_binary_op(const gsri_ctx *ctx, unsigned n, char *op, size_t size) {
  op[0] = '\0';
  if (ctx->nodes[n].n_kids != 2)
    return;
  CXSourceLocation end = clang_getRangeEnd(
      clang_getCursorExtent(ctx->nodes[ctx->kids[ctx->nodes[n].kids]].c));
  CXFile f;
  unsigned off, xoff;
  clang_getSpellingLocation(end, &f, NULL, NULL, &off);
  clang_getExpansionLocation(end, NULL, NULL, NULL, &xoff);
  if (f && gsri_same_file(ctx, f, ctx->main_file) && off == xoff &&
      off <= ctx->src_len) {
    size_t at = gsri_skip_blank(ctx, off), len = 0;
    while (at + len < ctx->src_len && len + 1 < size &&
           strchr("=<>!+-*/%&|^", ctx->src[at + len]))
      len++;
    if (len) {
      memcpy(op, ctx->src + at, len);
      op[len] = '\0';
      return;
    }
  }
  first_punct(ctx, n, xoff, op, size);
}

/* Returns the offset of the ')' matching the '(' at lparen, skipping
 * comments and string/char literals, or NO_OFF. */
static size_t match_paren(const gsri_ctx *ctx, size_t lparen) {
  return gsri_scan_parens(ctx, lparen, NULL, 0, NULL);
}

/* Returns the spelling offset of loc in the input, or NO_OFF if it is not
 * spelled in the input file. */
static size_t main_offset(gsri_ctx *ctx, CXSourceLocation loc) {
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(loc, &f, NULL, NULL, &off);
  if (!f || !gsri_same_file(ctx, f, ctx->main_file))
    return NO_OFF;
  return off;
}

/* Expansion file, line and column of loc: where the user sees it. Sets
 * *in_main. */
static void user_position(gsri_ctx *ctx, CXSourceLocation loc, CXFile *file,
                          unsigned *line, unsigned *col, int *in_main) {
  CXFile f;
  clang_getExpansionLocation(loc, &f, line, col, NULL);
  if (file)
    *file = f;
  if (in_main)
    *in_main = f && gsri_same_file(ctx, f, ctx->main_file);
}

/* What a function table lookup compares with. */
typedef struct func_key {
  const gsri_ctx *ctx;
  CXCursor decl;
  const char *str;
} func_key;

/* Table callback: was function pos found by this canonical declaration? */
static int decl_eq(const void *user, size_t pos) {
  const func_key *k = user;
  return clang_equalCursors(k->ctx->funcs[pos].canonical, k->decl);
}

/* Table callback: does function pos have this USR? */
static int usr_eq(const void *user, size_t pos) {
  const func_key *k = user;
  return strcmp(k->ctx->funcs[pos].usr, k->str) == 0;
}

/* Table callback: is function pos called this? */
static int def_name_eq(const void *user, size_t pos) {
  const func_key *k = user;
  return strcmp(k->ctx->funcs[pos].name, k->str) == 0;
}

/* Returns the index of the function with the USR of the canonical
 * declaration decl, adding it if new; -1 on allocation failure. The USR
 * identifies a function; the canonical declaration finds it without
 * building the USR again. */
static int func_index(gsri_ctx *ctx, CXCursor decl) {
  func_key k = {ctx, decl, NULL};
  unsigned dh = clang_hashCursor(decl);
  size_t i = gsri_table_find(&ctx->funcs_by_decl, dh, decl_eq, &k);
  if (i != (size_t)-1)
    return (int)i;
  CXString usr = clang_getCursorUSR(decl);
  const char *u = clang_getCString(usr);
  unsigned uh = gsri_hash_string(u);
  k.str = u;
  i = gsri_table_find(&ctx->funcs_by_usr, uh, usr_eq, &k);
  if (i != (size_t)-1) {
    clang_disposeString(usr);
    return (int)i;
  }
  if (ctx->n_funcs == ctx->cap_funcs) {
    size_t cap = ctx->cap_funcs ? ctx->cap_funcs * 2 : 16;
    gsri_func *p = realloc(ctx->funcs, cap * sizeof *p);
    if (!p) {
      clang_disposeString(usr);
      return gsri_nomem(ctx) - 1;
    }
    ctx->funcs = p;
    ctx->cap_funcs = cap;
  }
  gsri_func *fn = &ctx->funcs[ctx->n_funcs];
  memset(fn, 0, sizeof *fn);
  fn->usr = gsri_strdup(u);
  clang_disposeString(usr);
  fn->canonical = decl;
  CXString name = clang_getCursorSpelling(decl);
  fn->name = gsri_strdup(clang_getCString(name));
  clang_disposeString(name);
  fn->body_lbrace = NO_OFF;
  fn->body_begin = NO_OFF;
  fn->root = GSR_NO_NODE;
  if (!fn->usr || !fn->name ||
      !gsri_table_add(&ctx->funcs_by_decl, dh, ctx->n_funcs) ||
      !gsri_table_add(&ctx->funcs_by_usr, uh, ctx->n_funcs))
    return gsri_nomem(ctx) - 1;
  return (int)ctx->n_funcs++;
}

/* Records one declaration of a function: where its parameter list closes,
 * so the hidden parameter can be appended. */
static void record_decl(gsri_ctx *ctx, gsri_func *fn, CXCursor c) {
  struct gsri_decl d;
  memset(&d, 0, sizeof d);
  d.rparen_off = d.void_off = d.params_begin = NO_OFF;
  d.is_def = clang_isCursorDefinition(c);
  int n = clang_Cursor_getNumArguments(c);
  d.num_params = n > 0 ? (unsigned)n : 0;
  CXSourceLocation loc = clang_getCursorLocation(c);
  user_position(ctx, loc, &d.file, &d.line, &d.col, &d.in_main);

  /* Only a name spelled where it is expanded, in the input, can be edited. */
  size_t name_off = main_offset(ctx, loc);
  unsigned exp_off;
  CXFile ef;
  clang_getExpansionLocation(loc, &ef, NULL, NULL, &exp_off);
  if (d.in_main && name_off == exp_off && name_off != NO_OFF) {
    size_t lp = gsri_skip_blank(ctx, name_off + strlen(fn->name));
    if (lp < ctx->src_len && ctx->src[lp] == '(') {
      d.rparen_off = match_paren(ctx, lp);
      d.params_begin = lp + 1;
      size_t v = gsri_skip_blank(ctx, lp + 1);
      if (d.num_params == 0 && v + 4 <= ctx->src_len &&
          memcmp(ctx->src + v, "void", 4) == 0 &&
          gsri_skip_blank(ctx, v + 4) == d.rparen_off) {
        d.void_params = 1;
        d.void_off = v;
      }
    }
  }
  if (d.is_def) {
    fn->has_def = 1;
    fn->num_params = d.num_params;
  }
  if (d.is_def || !fn->has_def) {
    /* The definition, else the latest declaration, places the function.
     * Kernels are the only functions with an unexposed calling convention. */
    fn->file = d.file;
    fn->line = d.line;
    fn->col = d.col;
    fn->is_kernel = clang_getFunctionTypeCallingConv(clang_getCursorType(c)) ==
                    CXCallingConv_Unexposed;
  }
  struct gsri_decl *p = realloc(fn->decls, (fn->n_decls + 1) * sizeof *p);
  if (!p) {
    gsri_nomem(ctx);
    return;
  }
  fn->decls = p;
  fn->decls[fn->n_decls++] = d;
}

/* Appends a site to fn. */
static gsri_site *add_site(gsri_func *fn) {
  if (fn->n_sites == fn->cap_sites) {
    size_t cap = fn->cap_sites ? fn->cap_sites * 2 : 8;
    gsri_site *p = realloc(fn->sites, cap * sizeof *p);
    if (!p)
      return NULL;
    fn->sites = p;
    fn->cap_sites = cap;
  }
  gsri_site *s = &fn->sites[fn->n_sites++];
  memset(s, 0, sizeof *s);
  s->lparen_off = s->rparen_off = NO_OFF;
  s->callee = -1;
  return s;
}

/* The dimension a work-item function's call asks about, as a bit of
 * gsri_func.dims: 1 << d for a constant d of 0-2 (a constant above 2 asks
 * about no dimension of a launch), GSR_DIM_RUN_TIME when the argument is
 * not a constant. */
static unsigned call_dimension(CXCursor call) {
  if (clang_Cursor_getNumArguments(call) != 1)
    return 0;
  CXEvalResult ev = clang_Cursor_Evaluate(clang_Cursor_getArgument(call, 0));
  unsigned bit = GSR_DIM_RUN_TIME;
  if (ev) {
    if (clang_EvalResult_getKind(ev) == CXEval_Int) {
      long long d = clang_EvalResult_getAsLongLong(ev);
      bit = d >= 0 && d <= 2 ? 1u << d : 0;
    }
    clang_EvalResult_dispose(ev);
  }
  return bit;
}

/* Records a call inside the body of function w->cur, whose node is the
 * last one added. Where its callee's name is spelled is found once the
 * walk is over (place_site()). */
static void record_call(walk *w, CXCursor call) {
  gsri_ctx *ctx = w->ctx;
  CXCursor callee = clang_getCursorReferenced(call);
  if (clang_Cursor_isNull(callee) ||
      clang_getCursorKind(callee) != CXCursor_FunctionDecl)
    return;
  CXString cs = clang_getCursorSpelling(callee);
  const char *name = clang_getCString(cs);

  gsri_site_kind kind = GSR_SITE_CALL;
  int half = gsri_barrier_half(name);
  if (half >= 0 && gsri_is_builtin_barrier(callee)) {
    kind = GSR_SITE_BARRIER;
  } else {
    /* The builtins are declared implicitly, at their first use, so their
     * location says nothing; having no definition tells them apart. */
    int user_fn = !clang_Cursor_isNull(clang_getCursorDefinition(callee));
    for (size_t i = 0; !user_fn && i < N_REMAPPED; i++)
      if (strcmp(name, remapped_ids[i]) == 0)
        kind = GSR_SITE_ID;
    for (size_t i = 0;
         !user_fn && i < sizeof dimension_fns / sizeof dimension_fns[0]; i++)
      if (strcmp(name, dimension_fns[i]) == 0)
        ctx->funcs[w->cur].dims |= call_dimension(call);
  }
  if (kind == GSR_SITE_CALL) {
    /* Only calls of functions defined in this translation unit matter. */
    CXCursor def = clang_getCursorDefinition(callee);
    if (clang_Cursor_isNull(def)) {
      clang_disposeString(cs);
      return;
    }
  }

  int callee_idx = -1;
  if (kind == GSR_SITE_CALL) {
    callee_idx = func_index(ctx, clang_getCanonicalCursor(callee));
    if (callee_idx < 0) {
      clang_disposeString(cs);
      return;
    }
  }
  gsri_func *fn = &ctx->funcs[w->cur];
  gsri_site *s = add_site(fn);
  if (!s) {
    gsri_nomem(ctx);
    clang_disposeString(cs);
    return;
  }
  s->kind = kind;
  s->half = kind == GSR_SITE_BARRIER ? (gsri_half)half : GSR_WHOLE;
  /* A call site names a function of ctx->funcs, which later stages index
   * by it; the other kinds name none. */
  assert(kind != GSR_SITE_CALL ||
         (callee_idx >= 0 && (size_t)callee_idx < ctx->n_funcs));
  s->callee = callee_idx;
  s->callee_name = gsri_strdup(name);
  if (!s->callee_name)
    w->failed = 1;
  s->num_args = (unsigned)(clang_Cursor_getNumArguments(call) > 0
                               ? clang_Cursor_getNumArguments(call)
                               : 0);
  s->name_len = strlen(name);
  s->node = (unsigned)ctx->n_nodes - 1;
  if (kind == GSR_SITE_BARRIER)
    ctx->n_barrier_sites++;
  clang_disposeString(cs);
}

/* Finds where the callee's name of a call site is spelled: the first
 * DeclRefExpr of the call's first child (the callee expression), in
 * preorder. */
static void place_site(gsri_ctx *ctx, gsri_site *s) {
  const gsri_node *call = &ctx->nodes[s->node];
  CXCursor loc_cursor = call->c;
  if (call->n_kids) {
    unsigned head = ctx->kids[call->kids];
    for (unsigned i = head; i < ctx->nodes[head].end; i++)
      if (ctx->nodes[i].kind == CXCursor_DeclRefExpr) {
        loc_cursor = ctx->nodes[i].c;
        break;
      }
  }
  CXSourceLocation loc = clang_getCursorLocation(loc_cursor);
  user_position(ctx, loc, &s->file, &s->line, &s->col, NULL);
  clang_getSpellingLocation(loc, &s->spelled_in, NULL, NULL, NULL);
  s->name_off = main_offset(ctx, loc);
  s->in_main = s->name_off != NO_OFF;
  if (s->in_main && !gsri_word_at(ctx, s->name_off, s->callee_name)) {
    /* libclang reports a call written in a macro body at the expansion;
     * the macro table (lexed below) finds the call's own text. The whole
     * token must be the name: a macro named global_barrier_x() (or
     * global_barrierX) begins with it, and is an expansion too. */
    s->in_main = 0;
    s->in_macro = 1;
  }
  if (s->in_main) {
    size_t lp = gsri_skip_blank(ctx, s->name_off + s->name_len);
    if (lp < ctx->src_len && ctx->src[lp] == '(') {
      s->lparen_off = lp;
      s->rparen_off = match_paren(ctx, lp);
    }
  }
}

/* Records a macro definition or expansion that lies in the input. */
static void record_macro(gsri_ctx *ctx, CXCursor c, int is_def) {
  /* Most are the default header's: the location (where the extent starts)
   * rules them out before the extent, which costs a relex, is asked. */
  if (main_offset(ctx, clang_getCursorLocation(c)) == NO_OFF)
    return;
  CXSourceRange r = clang_getCursorExtent(c);
  size_t b = main_offset(ctx, clang_getRangeStart(r));
  size_t e = main_offset(ctx, clang_getRangeEnd(r));
  if (b == NO_OFF || e == NO_OFF)
    return;
  CXString n = clang_getCursorSpelling(c);
  char *name = gsri_strdup(clang_getCString(n));
  clang_disposeString(n);
  if (!name) {
    gsri_nomem(ctx);
    return;
  }
  if (is_def) {
    gsri_macro *p =
        gsri_grow(ctx->macros, &ctx->cap_macros, ctx->n_macros, sizeof *p);
    if (!p) {
      free(name);
      gsri_nomem(ctx);
      return;
    }
    ctx->macros = p;
    gsri_macro *m = &p[ctx->n_macros++];
    memset(m, 0, sizeof *m);
    m->name = name;
    m->begin = b;
    m->end = e;
    m->extent = r;
  } else {
    gsri_expansion *p = gsri_grow(ctx->expansions, &ctx->cap_expansions,
                                  ctx->n_expansions, sizeof *p);
    if (!p) {
      free(name);
      gsri_nomem(ctx);
      return;
    }
    ctx->expansions = p;
    p[ctx->n_expansions].name = name;
    p[ctx->n_expansions++].offset = b;
  }
}

/* Records an #include of gsync.h in the input: the output does not need
 * it, so the plan replaces it with a comment. */
static void record_gsync_include(gsri_ctx *ctx, CXCursor c) {
  int is_gsync = gsri_is_gsync_header(clang_getIncludedFile(c));
  CXSourceRange r = clang_getCursorExtent(c);
  size_t b = main_offset(ctx, clang_getRangeStart(r));
  size_t e = main_offset(ctx, clang_getRangeEnd(r));
  if (!is_gsync || b == NO_OFF || e == NO_OFF)
    return;
  /* The extent starts at "include"; take the '#' before it too. */
  while (b > 0 && ctx->src[b] != '#')
    b--;
  size_t(*p)[2] =
      realloc(ctx->gsync_includes, (ctx->n_gsync_includes + 1) * sizeof *p);
  if (!p) {
    gsri_nomem(ctx);
    return;
  }
  ctx->gsync_includes = p;
  p[ctx->n_gsync_includes][0] = b;
  p[ctx->n_gsync_includes++][1] = e;
}

/* Indexes the defined functions by name, the first of each name. Returns
 * 0 when out of memory. */
static int index_defs_by_name(gsri_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    if (!ctx->funcs[i].has_def || gsri_func_named(ctx, ctx->funcs[i].name))
      continue;
    if (!gsri_table_add(&ctx->defs_by_name,
                        gsri_hash_string(ctx->funcs[i].name), i))
      return 0;
  }
  return 1;
}

/* Table callback: is macro pos called this? */
static int macro_name_eq(const void *user, size_t pos) {
  const func_key *k = user;
  return strcmp(k->ctx->macros[pos].name, k->str) == 0;
}

/* Returns the input's macro called name (the first defined), or NULL. */
gsri_macro *gsri_macro_named(gsri_ctx *ctx, const char *name) {
  func_key k = {ctx, clang_getNullCursor(), name};
  size_t i = gsri_table_find(&ctx->macros_by_name, gsri_hash_string(name),
                             macro_name_eq, &k);
  return i == (size_t)-1 ? NULL : &ctx->macros[i];
}

/* Indexes the input's macros by name, the first of each name. Returns 0
 * when out of memory. */
static int index_macros_by_name(gsri_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_macros; i++)
    if (!gsri_macro_named(ctx, ctx->macros[i].name) &&
        !gsri_table_add(&ctx->macros_by_name,
                        gsri_hash_string(ctx->macros[i].name), i))
      return 0;
  return 1;
}

/* Resolves what each macro body names to the input's macros, once (see
 * gsri_macro.inner). Returns 0 when out of memory. */
static int link_macros(gsri_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_macros; i++) {
    gsri_macro *m = &ctx->macros[i];
    if (!m->n_refs)
      continue;
    m->inner = malloc(m->n_refs * sizeof *m->inner);
    if (!m->inner)
      return 0;
    for (size_t r = 0; r < m->n_refs; r++) {
      const gsri_macro *in = gsri_macro_named(ctx, m->refs[r]);
      if (in && in != m)
        m->inner[m->n_inner++] = (size_t)(in - ctx->macros);
    }
  }
  return 1;
}

/* Marks (mark[i] = 1) every macro of the input that names a marked one,
 * directly or through others: a walk back along the references from the
 * marked macros, each macro queued once, so that a chain of N macros
 * costs N steps where passes over all of them until nothing changes cost
 * N^2. Returns 0 when out of memory, the marks then incomplete. */
static int mark_naming_macros(gsri_ctx *ctx, unsigned char *mark) {
  size_t n = ctx->n_macros, n_edges = 0;
  for (size_t i = 0; i < n; i++)
    n_edges += ctx->macros[i].n_inner;
  /* Who names macro j: by[start[j]] to by[start[j + 1] - 1]. */
  size_t *start = calloc(n + 1, sizeof *start);
  size_t *by = malloc((n_edges ? n_edges : 1) * sizeof *by);
  size_t *work = malloc((n ? n : 1) * sizeof *work);
  int ok = start && by && work;
  if (ok) {
    for (size_t i = 0; i < n; i++)
      for (size_t r = 0; r < ctx->macros[i].n_inner; r++)
        start[ctx->macros[i].inner[r] + 1]++;
    for (size_t j = 0; j < n; j++) {
      start[j + 1] += start[j];
      work[j] = start[j]; /* where the next of j's namers goes */
    }
    for (size_t i = 0; i < n; i++)
      for (size_t r = 0; r < ctx->macros[i].n_inner; r++)
        by[work[ctx->macros[i].inner[r]]++] = i;
    size_t top = 0; /* work is now the stack of marked macros to follow */
    for (size_t i = 0; i < n; i++)
      if (mark[i])
        work[top++] = i;
    while (top) {
      size_t j = work[--top];
      for (size_t e = start[j]; e < start[j + 1]; e++)
        if (!mark[by[e]]) {
          mark[by[e]] = 1;
          work[top++] = by[e];
        }
    }
  }
  free(start);
  free(by);
  free(work);
  return ok;
}

/* Returns the defined function called name (the first found), or NULL. */
gsri_func *gsri_func_named(gsri_ctx *ctx, const char *name) {
  func_key k = {ctx, clang_getNullCursor(), name};
  size_t i = gsri_table_find(&ctx->defs_by_name, gsri_hash_string(name),
                             def_name_eq, &k);
  return i == (size_t)-1 ? NULL : &ctx->funcs[i];
}

/* Lexes one macro body and records the calls it spells. */
static void lex_macro(gsri_ctx *ctx, gsri_macro *m) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(ctx->tu, m->extent, &toks, &n);
  for (unsigned i = 1; i < n; i++) { /* token 0 is the macro's name */
    if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
      continue;
    CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *t = clang_getCString(s);
    unsigned off;
    clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                              NULL, NULL, &off);
    gsri_site_kind kind = GSR_SITE_CALL;
    int half = gsri_barrier_half(t);
    int known = half >= 0;
    if (known)
      kind = GSR_SITE_BARRIER;
    for (size_t k = 0; !known && k < N_REMAPPED; k++)
      if (strcmp(t, remapped_ids[k]) == 0)
        kind = GSR_SITE_ID, known = 1;
    if (!known)
      known = gsri_func_named(ctx, t) != NULL;
    size_t lp = gsri_skip_blank(ctx, off + strlen(t));
    size_t rp = known && lp < m->end && ctx->src[lp] == '('
                    ? match_paren(ctx, lp)
                    : NO_OFF;
    if (rp != NO_OFF && rp < m->end) {
      gsri_macro_use *p = realloc(m->uses, (m->n_uses + 1) * sizeof *p);
      if (!p)
        gsri_nomem(ctx);
      else {
        m->uses = p;
        gsri_macro_use *u = &p[m->n_uses++];
        u->kind = kind;
        u->half = half >= 0 ? (gsri_half)half : GSR_WHOLE;
        u->name_off = off;
        u->name_len = strlen(t);
        u->lparen_off = lp;
        u->rparen_off = rp;
        u->num_args = gsri_skip_blank(ctx, lp + 1) != rp;
        u->name = gsri_strdup(t);
        if (!u->name) /* gsri_plan_macros compares it: never NULL */
          m->n_uses--, gsri_nomem(ctx);
      }
    } else {
      char **p = realloc(m->refs, (m->n_refs + 1) * sizeof *p);
      if (!p)
        gsri_nomem(ctx);
      else if ((p[m->n_refs] = gsri_strdup(t)) != NULL)
        m->refs = p, m->n_refs++;
      else
        m->refs = p, gsri_nomem(ctx);
    }
    clang_disposeString(s);
  }
  clang_disposeTokens(ctx->tu, toks, n);
}

/* Records cursor c of a function definition as a node, the child of
 * parent (NULL for the definition itself). Returns 0 when out of memory. */
static int add_node(walk *w, CXCursor c, enum CXCursorKind k,
                    const CXCursor *parent) {
  gsri_ctx *ctx = w->ctx;
  /* The walk is in preorder: the parent is on the path from the root.
   * Cursors of different kinds differ; only the same kind asks libclang. */
  while (parent && w->depth > 1) {
    const CXCursor *top = &ctx->nodes[w->path[w->depth - 1]].c;
    if (top->kind == parent->kind && clang_equalCursors(*top, *parent))
      break;
    w->depth--;
  }
  if (!parent)
    w->depth = 0;
  if (ctx->n_nodes == ctx->cap_nodes) {
    gsri_node *nodes =
        gsri_grow(ctx->nodes, &ctx->cap_nodes, ctx->n_nodes, sizeof *nodes);
    if (!nodes)
      return 0;
    ctx->nodes = nodes;
  }
  if (w->depth == w->cap) {
    unsigned *path = gsri_grow(w->path, &w->cap, w->depth, sizeof *path);
    if (!path)
      return 0;
    w->path = path;
  }
  gsri_node *n = &ctx->nodes[ctx->n_nodes];
  n->c = c;
  n->kind = k;
  /* Nodes are in preorder: a parent comes before its children. */
  assert(!parent || (w->depth > 0 && w->path[w->depth - 1] < ctx->n_nodes));
  n->parent = parent ? w->path[w->depth - 1] : GSR_NO_NODE;
  n->kids = n->n_kids = n->end = 0;
  w->path[w->depth++] = (unsigned)ctx->n_nodes++;
  return 1;
}

/* Groups the nodes' children by parent, in order. Returns 0 when out of
 * memory. */
static int link_nodes(gsri_ctx *ctx) {
  ctx->kids = malloc((ctx->n_nodes ? ctx->n_nodes : 1) * sizeof *ctx->kids);
  if (!ctx->kids)
    return 0;
  for (size_t i = 0; i < ctx->n_nodes; i++)
    if (ctx->nodes[i].parent != GSR_NO_NODE)
      ctx->nodes[ctx->nodes[i].parent].n_kids++;
  unsigned at = 0;
  for (size_t i = 0; i < ctx->n_nodes; i++) {
    ctx->nodes[i].kids = at;
    at += ctx->nodes[i].n_kids;
    ctx->nodes[i].n_kids = 0;
  }
  for (size_t i = 0; i < ctx->n_nodes; i++) {
    gsri_node *p = ctx->nodes[i].parent != GSR_NO_NODE
                       ? &ctx->nodes[ctx->nodes[i].parent]
                       : NULL;
    if (p)
      ctx->kids[p->kids + p->n_kids++] = (unsigned)i;
  }
  /* A subtree ends where the last of its descendants does. */
  for (size_t i = ctx->n_nodes; i-- > 0;) {
    gsri_node *n = &ctx->nodes[i];
    if (n->end < i + 1)
      n->end = (unsigned)i + 1;
    if (n->parent != GSR_NO_NODE && ctx->nodes[n->parent].end < n->end)
      ctx->nodes[n->parent].end = n->end;
  }
  return 1;
}

/* The AST visitor: functions and the calls in their bodies. */
static enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
                                     CXClientData data) {
  walk *w = data;
  gsri_ctx *ctx = w->ctx;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (w->cur >= 0 && !add_node(w, c, k, &parent)) {
    w->failed = 1;
    return CXChildVisit_Break;
  }

  if (k == CXCursor_FunctionDecl) {
    CXFile f;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL,
                               NULL);
    if (f && !gsri_same_file(ctx, f, ctx->main_file) &&
        gsri_is_builtin_barrier(c))
      return CXChildVisit_Continue;
    int idx = func_index(ctx, clang_getCanonicalCursor(c));
    if (idx < 0)
      return CXChildVisit_Break;
    record_decl(ctx, &ctx->funcs[idx], c);
    if (clang_isCursorDefinition(c) && w->cur < 0) {
      ctx->funcs[idx].def = c;
      ctx->funcs[idx].root = (unsigned)ctx->n_nodes;
      if (!add_node(w, c, k, NULL)) {
        w->failed = 1;
        return CXChildVisit_Break;
      }
      w->cur = idx;
      clang_visitChildren(c, visit, w);
      w->cur = -1;
    }
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_CompoundStmt && w->cur >= 0 &&
      clang_getCursorKind(parent) == CXCursor_FunctionDecl) {
    size_t off = main_offset(ctx, clang_getCursorLocation(c));
    CXFile f;
    unsigned eoff;
    clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL,
                               &eoff);
    if (off != NO_OFF && off == eoff && off < ctx->src_len &&
        ctx->src[off] == '{')
      ctx->funcs[w->cur].body_lbrace = off + 1;
    if (f && gsri_same_file(ctx, f, ctx->main_file))
      ctx->funcs[w->cur].body_begin = eoff;
    unsigned end;
    clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &f,
                               NULL, NULL, &end);
    ctx->funcs[w->cur].body_end = end;
  }
  if (k == CXCursor_InclusionDirective) {
    record_gsync_include(ctx, c);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_MacroDefinition || k == CXCursor_MacroExpansion) {
    record_macro(ctx, c, k == CXCursor_MacroDefinition);
    return CXChildVisit_Continue;
  }
  if (k == CXCursor_CallExpr && w->cur >= 0)
    record_call(w, c);
  return CXChildVisit_Recurse;
}

/* Reports every identifier of the input that uses the reserved prefix. The
 * whole file is lexed, so macros and inactive #if branches count too; a
 * file whose bytes never spell the prefix need not be. */
static void check_reserved_prefix(gsri_ctx *ctx) {
  if (!gsri_input_mentions(ctx, GSR_PREFIX))
    return;
  CXToken *toks;
  unsigned n = gsri_tokenize_input(ctx, &toks);
  size_t plen = strlen(GSR_PREFIX);
  for (unsigned i = 0; i < n; i++) {
    if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
      continue;
    CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *t = clang_getCString(s);
    if (strncmp(t, GSR_PREFIX, plen) == 0) {
      unsigned line, col;
      clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                                &line, &col, NULL);
      gsri_report(ctx, GSR_ERROR, line, col,
                  "identifier '%s' uses the prefix '" GSR_PREFIX
                  "' that gsync-rewrite reserves for the code it injects",
                  t);
      static const char banner[] = "/* Generated by gsync-rewrite";
      if (ctx->src_len >= sizeof banner - 1 &&
          memcmp(ctx->src, banner, sizeof banner - 1) == 0) {
        gsri_report(ctx, GSR_NOTE, 1, 1,
                    "this file is already gsync-rewrite output; rewrite the "
                    "original instead");
        clang_disposeString(s);
        break; /* one error says it all */
      }
    }
    clang_disposeString(s);
  }
  clang_disposeTokens(ctx->tu, toks, n);
}

/* Nonzero if the skipped branch at b is one that --inline-includes
 * wrote around an #include directive it inlined. */
static int is_inline_wrapper(const gsri_ctx *ctx, size_t b) {
  for (size_t i = 0; i < ctx->n_wrappers; i++)
    if (ctx->wrappers[i] == b)
      return 1;
  return 0;
}

/* Warns about global_barrier text in branches the preprocessor skipped:
 * it is not rewritten for this configuration of -D options. */
static void check_skipped_ranges(gsri_ctx *ctx) {
  CXSourceRangeList *list = clang_getSkippedRanges(ctx->tu, ctx->main_file);
  if (!list)
    return;
  for (unsigned i = 0; i < list->count; i++) {
    size_t b = main_offset(ctx, clang_getRangeStart(list->ranges[i]));
    size_t e = main_offset(ctx, clang_getRangeEnd(list->ranges[i]));
    if (b == NO_OFF || e == NO_OFF || is_inline_wrapper(ctx, b))
      continue;
    for (size_t off = b; off < e; off++) {
      int h = gsri_barrier_word_at(ctx, off);
      if (h < 0)
        continue;
      unsigned line, col;
      gsri_line_col(ctx, off, &line, &col);
      gsri_report(ctx, GSR_WARNING, line, col,
                  "'%s' in a branch that the preprocessor skips with these "
                  "options: it is not rewritten for this configuration",
                  gsri_barrier_names[h]);
      break; /* once per skipped branch */
    }
  }
  clang_disposeSourceRangeList(list);
}

/* Nonzero if s[0, len) is "kernel" or "__kernel". */
static int is_kernel_word(const char *s, size_t len) {
  return (len == 6 && memcmp(s, "kernel", 6) == 0) ||
         (len == 8 && memcmp(s, "__kernel", 8) == 0);
}

/* Nonzero if the body of the input's macro m spells kernel or __kernel
 * (a token of it, not a comment). Only a body whose bytes spell the word
 * is lexed. */
static int body_spells_kernel(gsri_ctx *ctx, const gsri_macro *m) {
  static const char word[] = "kernel";
  const size_t wl = sizeof word - 1;
  size_t off = m->begin;
  while (off + wl <= m->end && memcmp(ctx->src + off, word, wl) != 0)
    off++;
  if (off + wl > m->end)
    return 0;
  CXToken *toks = NULL;
  unsigned n = 0;
  int found = 0;
  clang_tokenize(ctx->tu, m->extent, &toks, &n);
  for (unsigned i = 1; i < n && !found; i++) { /* token 0 is the name */
    CXString t = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *text = clang_getCString(t);
    found = is_kernel_word(text, strlen(text));
    clang_disposeString(t);
  }
  clang_disposeTokens(ctx->tu, toks, n);
  return found;
}

/* The function declared by the text from offset off to the first '{' or
 * ';': the first of its tokens that libclang places in a function
 * declaration (the name, a type, a parameter list). A null cursor if
 * there is none. */
static CXCursor function_at(gsri_ctx *ctx, size_t off) {
  size_t end = off;
  while (end < ctx->src_len && ctx->src[end] != '{' && ctx->src[end] != ';')
    end++;
  CXCursor found = clang_getNullCursor();
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(
      ctx->tu,
      clang_getRange(
          clang_getLocationForOffset(ctx->tu, ctx->main_file, (unsigned)off),
          clang_getLocationForOffset(ctx->tu, ctx->main_file, (unsigned)end)),
      &toks, &n);
  for (unsigned i = 0; i < n && clang_Cursor_isNull(found); i++) {
    CXCursor c =
        clang_getCursor(ctx->tu, clang_getTokenLocation(ctx->tu, toks[i]));
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl)
      found = c;
  }
  clang_disposeTokens(ctx->tu, toks, n);
  return found;
}

/* Orders [begin, end) ranges by where they begin. */
static int cmp_range(const void *a, const void *b) {
  const size_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Nonzero if offset off lies inside one of the n macro definitions defs,
 * sorted by where they begin (definitions do not nest): an expansion in a
 * macro's own body. */
static int in_definition(size_t (*defs)[2], size_t n, size_t off) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (defs[mid][0] < off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo && off < defs[lo - 1][1];
}

/* Reports a function written as a kernel that the parse sees as an
 * ordinary function: the expansion of a macro called __kernel or kernel
 * (or of one of the input's macros that spells it, directly or through
 * others of them) before a function that
 * is not a kernel. The driver may see a kernel there (code that hides
 * __kernel from other compilers behind a macro of theirs), and a kernel
 * rewritten as a helper, with a private context parameter, does not build.
 * Such expansions are rare; each is placed by lexing to the end of the
 * declaration. */
static void check_kernel_spelling(gsri_ctx *ctx) {
  if (!ctx->n_expansions || !gsri_input_mentions(ctx, "kernel"))
    return;
  unsigned char *spells = calloc(ctx->n_macros + 1, 1);
  if (!spells) {
    gsri_nomem(ctx);
    return;
  }
  size_t(*defs)[2] = malloc((ctx->n_macros + 1) * sizeof *defs);
  if (!defs) {
    free(spells);
    gsri_nomem(ctx);
    return;
  }
  for (size_t i = 0; i < ctx->n_macros; i++) {
    spells[i] = (unsigned char)body_spells_kernel(ctx, &ctx->macros[i]);
    defs[i][0] = ctx->macros[i].begin;
    defs[i][1] = ctx->macros[i].end;
  }
  /* and a macro that names such a one */
  if (!mark_naming_macros(ctx, spells))
    gsri_nomem(ctx);
  qsort(defs, ctx->n_macros, sizeof *defs, cmp_range);
  for (size_t e = 0; e < ctx->n_expansions && !ctx->nomem; e++) {
    const gsri_expansion *x = &ctx->expansions[e];
    const gsri_macro *m = gsri_macro_named(ctx, x->name);
    if (!is_kernel_word(x->name, strlen(x->name)) &&
        !(m && spells[m - ctx->macros]))
      continue;
    CXCursor fn = in_definition(defs, ctx->n_macros, x->offset)
                      ? clang_getNullCursor()
                      : function_at(ctx, x->offset);
    if (clang_Cursor_isNull(fn) ||
        clang_getFunctionTypeCallingConv(clang_getCursorType(fn)) ==
            CXCallingConv_Unexposed)
      continue;
    CXSourceLocation at = clang_getLocationForOffset(ctx->tu, ctx->main_file,
                                                     (unsigned)x->offset);
    CXString name = clang_getCursorSpelling(fn);
    if (is_kernel_word(x->name, strlen(x->name)))
      gsri_report_loc(ctx, GSR_ERROR, at,
                      "'%s' is written as a kernel, but '%s' is a macro here "
                      "and the parse sees an ordinary function",
                      clang_getCString(name), x->name);
    else
      gsri_report_loc(ctx, GSR_ERROR, at,
                      "'%s' is written as a kernel, but '%s' expands to no "
                      "kernel qualifier here and the parse sees an ordinary "
                      "function",
                      clang_getCString(name), x->name);
    clang_disposeString(name);
    CXCursor def = clang_getCursorReferenced(clang_getCursor(ctx->tu, at));
    CXFile f = NULL;
    if (clang_getCursorKind(def) == CXCursor_MacroDefinition)
      clang_getExpansionLocation(clang_getCursorLocation(def), &f, NULL, NULL,
                                 NULL);
    if (f)
      gsri_report_loc(ctx, GSR_NOTE, clang_getCursorLocation(def),
                      "'%s' is defined here", x->name);
  }
  free(defs);
  free(spells);
}

/* Runs the find stage. Returns GSR_ERR_INPUT if it reported errors. */
gsr_status gsri_find(gsri_ctx *ctx) {
  unsigned before = ctx->errors;
  check_reserved_prefix(ctx);
  walk w = {ctx, -1, NULL, 0, 0, 0};
  clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), visit, &w);
  free(w.path);
  if (w.failed || !link_nodes(ctx) || !index_defs_by_name(ctx) ||
      !index_macros_by_name(ctx))
    return GSR_ERR_NOMEM;
  for (size_t i = 0; i < ctx->n_funcs; i++)
    for (size_t s = 0; s < ctx->funcs[i].n_sites; s++)
      place_site(ctx, &ctx->funcs[i].sites[s]);
  for (size_t i = 0; i < ctx->n_macros; i++)
    lex_macro(ctx, &ctx->macros[i]);
  if (!link_macros(ctx))
    return GSR_ERR_NOMEM;
  check_kernel_spelling(ctx);
  check_skipped_ranges(ctx);
  return ctx->errors > before ? GSR_ERR_INPUT : GSR_OK;
}
