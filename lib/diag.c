/* Diagnostics and positions: the bottom of the engine, under every stage.
 *
 * Every stage reports through gsri_report* and records a failed allocation
 * with gsri_nomem(); positions (a file's name as the user spells it, a line
 * of an inlined file mapped back, an offset's line and column) are worked
 * out here so that a diagnostic needs nothing from a stage above it
 * (docs/design.md, "Layers").
 */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Nonzero if a and b are the same file. The two files that exist only in
 * memory have the same unique id, so the declaration header is told apart
 * by its handle, which libclang keeps one per file. */
int gsri_same_file(const gsri_ctx *ctx, CXFile a, CXFile b) {
  if (a == b)
    return 1;
  if (!a || !b || a == ctx->decl_file || b == ctx->decl_file)
    return 0;
  return clang_File_isEqual(a, b);
}

/* The name of f as the user would spell it. libclang knows the input by
 * its absolute real path, so a file found next to it gets an absolute
 * name; that directory is put back as the user named the input. */
char *gsri_file_name(const gsri_ctx *ctx, CXFile f) {
  CXString s = clang_getFileName(f);
  const char *name = clang_getCString(s);
  const char *slash = ctx->main_path ? strrchr(ctx->main_path, '/') : NULL;
  size_t dir_len = slash ? (size_t)(slash - ctx->main_path) + 1 : 0;
  char *r;
  if (dir_len && strncmp(name, ctx->main_path, dir_len) == 0) {
    const char *user_slash = strrchr(ctx->name, '/');
    size_t user_len = user_slash ? (size_t)(user_slash - ctx->name) + 1 : 0;
    gsri_buf b = {0};
    gsri_buf_append(&b, ctx->name, user_len);
    gsri_buf_puts(&b, name + dir_len);
    r = gsri_buf_take(&b);
  } else {
    r = gsri_strdup(name);
  }
  clang_disposeString(s);
  return r;
}

/* Maps a line of the parsed text through the spans: the last span that
 * starts at or before it says which file and line it is. */
void gsri_map_line(const gsri_ctx *ctx, const char **file, unsigned *line) {
  size_t lo = 0, hi = ctx->n_spans;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ctx->spans[mid].out_line <= *line)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return;
  const gsri_line_span *s = &ctx->spans[lo - 1];
  *file = s->file ? s->file : ctx->name;
  *line = s->line + (*line - s->out_line);
}

/* Sends one formatted diagnostic to the caller's callback and counts it. */
static void report_v(gsri_ctx *ctx, gsr_severity sev, const char *file,
                     unsigned line, unsigned col, const char *fmt, va_list ap) {
  if (sev == GSR_ERROR)
    ctx->errors++;
  else if (sev == GSR_WARNING)
    ctx->warnings++;
  if (!ctx->diag)
    return;
  if (file == ctx->name && line)
    gsri_map_line(ctx, &file, &line); /* a line of an inlined file */
  gsri_buf msg = {0};
  gsri_buf_vprintf(&msg, fmt, ap);
  gsr_diagnostic d = {sev, file, line, col,
                      msg.data ? msg.data : "out of memory"};
  ctx->diag(ctx->diag_user, &d);
  gsri_buf_free(&msg);
}

/* Records an allocation failure; see gsri_ctx.nomem. */
int gsri_nomem(gsri_ctx *ctx) {
  ctx->nomem = 1;
  return 0;
}

/* See internal.h. */
const char *gsri_buf_text(gsri_ctx *ctx, const gsri_buf *b) {
  if (b->failed)
    gsri_nomem(ctx);
  return b->failed || !b->data ? "" : b->data;
}

/* Reports at a position of the input (line 0: about no position). */
void gsri_report(gsri_ctx *ctx, gsr_severity sev, unsigned line, unsigned col,
                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_v(ctx, sev, line ? ctx->name : NULL, line, col, fmt, ap);
  va_end(ap);
}

/* Reports at a position of any file. */
void gsri_report_at(gsri_ctx *ctx, gsr_severity sev, const char *file,
                    unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_v(ctx, sev, file, line, col, fmt, ap);
  va_end(ap);
}

/* Reports at a line/column of file f, named as the user would name it. */
static void report_in_v(gsri_ctx *ctx, gsr_severity sev, CXFile f,
                        unsigned line, unsigned col, const char *fmt,
                        va_list ap) {
  if (!f || !line) {
    report_v(ctx, sev, NULL, 0, 0, fmt, ap);
  } else if (gsri_same_file(ctx, f, ctx->main_file)) {
    report_v(ctx, sev, ctx->name, line, col, fmt, ap);
  } else {
    char *name = gsri_file_name(ctx, f);
    report_v(ctx, sev, name ? name : "<unknown>", line, col, fmt, ap);
    free(name);
  }
}

/* Reports at a line/column of file f (NULL: no position). */
void gsri_report_in(gsri_ctx *ctx, gsr_severity sev, CXFile f, unsigned line,
                    unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_in_v(ctx, sev, f, line, col, fmt, ap);
  va_end(ap);
}

/* Reports at the expansion position of loc. */
void gsri_report_loc(gsri_ctx *ctx, gsr_severity sev, CXSourceLocation loc,
                     const char *fmt, ...) {
  CXFile f;
  unsigned line, col;
  clang_getExpansionLocation(loc, &f, &line, &col, NULL);
  va_list ap;
  va_start(ap, fmt);
  report_in_v(ctx, sev, f, line, col, fmt, ap);
  va_end(ap);
}

/* Notes, once, after an error about code spelled in an included file,
 * that --inline-includes would rewrite that code too. */
void gsri_hint_inline(gsri_ctx *ctx, CXFile f, unsigned line, unsigned col) {
  if (ctx->hinted_inline || ctx->inlined)
    return;
  ctx->hinted_inline = 1;
  gsri_report_in(ctx, GSR_NOTE, f, line, col,
                 "only the input is rewritten; --inline-includes writes the "
                 "files it includes into the output, where they are rewritten "
                 "too");
}

/* Lists where each line of the input starts, in ctx->line_starts.
 * Returns 0 when out of memory. */
static int index_lines(gsri_ctx *ctx) {
  size_t n = 1;
  for (const char *p = ctx->src, *end = ctx->src + ctx->src_len;
       (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
    n++;
  ctx->line_starts = malloc(n * sizeof *ctx->line_starts);
  if (!ctx->line_starts)
    return gsri_nomem(ctx);
  ctx->line_starts[0] = 0;
  ctx->n_line_starts = 1;
  for (size_t i = 0; i < ctx->src_len; i++)
    if (ctx->src[i] == '\n')
      ctx->line_starts[ctx->n_line_starts++] = i + 1;
  return 1;
}

/* Computes the 1-based line and column of a byte offset of the input: a
 * binary search of where the lines start, listed once, since a scan from
 * the start for each offset made the plan quadratic in the barrier sites
 * (200,000 lines took 15 s, clang -fsyntax-only 0.8 s). Without memory
 * for the list (the rewrite then fails), it scans. */
void gsri_line_col(gsri_ctx *ctx, size_t offset, unsigned *line,
                   unsigned *col) {
  if (offset > ctx->src_len)
    offset = ctx->src_len;
  if (!ctx->line_starts && !index_lines(ctx)) {
    unsigned l = 1, c = 1;
    for (size_t i = 0; i < offset; i++) {
      if (ctx->src[i] == '\n')
        l++, c = 1;
      else
        c++;
    }
    *line = l;
    *col = c;
    return;
  }
  size_t lo = 1, hi = ctx->n_line_starts; /* line_starts[0] is 0 */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ctx->line_starts[mid] <= offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  *line = (unsigned)lo;
  *col = (unsigned)(offset - ctx->line_starts[lo - 1]) + 1;
}
