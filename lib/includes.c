/* The files the input includes, as the preprocessor saw them: the list a
 * dependency file (-MD) needs. libclang's inclusion list holds every file
 * the preprocessor entered; the tool's in-memory declaration header and
 * the compiler's own headers (opencl-c-base.h, pulled in implicitly) are
 * system or built-in files that no build rule can depend on, so they are
 * left out.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Appends a copy of name to the dependency list. Returns 0 when out of
 * memory. */
int gsr_add_dependency(gsr_ctx *ctx, const char *name) {
  char **p = realloc(ctx->deps, (ctx->n_deps + 1) * sizeof *p);
  if (!p)
    return 0;
  ctx->deps = p;
  p[ctx->n_deps] = gsr_strdup(name);
  return p[ctx->n_deps++] != NULL;
}

/* Nonzero if f lies in a system header directory: the compiler's own
 * headers (the tool takes no -isystem, so no user file does). */
static int is_system_file(CXTranslationUnit tu, CXFile f) {
  return clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, f, 0));
}

/* What the inclusion visitor collects: each file once. */
typedef struct dep_walk {
  gsr_ctx *ctx;
  CXFile *seen;
  size_t n_seen;
  int failed;
} dep_walk;

/* clang_getInclusions() visitor: records a file the input includes, once,
 * unless it is the input itself, the declaration header or a system
 * header. depth 0 is the input. */
static void on_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth,
                         CXClientData data) {
  (void)stack;
  dep_walk *w = data;
  gsr_ctx *ctx = w->ctx;
  if (depth == 0 || w->failed || clang_File_isEqual(f, ctx->main_file) ||
      gsr_is_decl_header(f) || is_system_file(ctx->tu, f))
    return;
  for (size_t i = 0; i < w->n_seen; i++)
    if (clang_File_isEqual(w->seen[i], f))
      return;
  CXFile *p = realloc(w->seen, (w->n_seen + 1) * sizeof *p);
  if (!p) {
    w->failed = 1;
    return;
  }
  w->seen = p;
  p[w->n_seen++] = f;
  CXString name = clang_getFileName(f);
  w->failed = !gsr_add_dependency(ctx, clang_getCString(name));
  clang_disposeString(name);
}

/* Lists the files the parsed input includes into ctx->deps. */
gsr_status gsr_list_includes(gsr_ctx *ctx) {
  dep_walk w = {ctx, NULL, 0, 0};
  clang_getInclusions(ctx->tu, on_inclusion, &w);
  free(w.seen);
  return w.failed ? GSR_ERR_NOMEM : GSR_OK;
}
