/* The files the input includes, as the preprocessor saw them.
 *
 * For dependency files (-MD): libclang's inclusion list holds every file
 * the preprocessor entered; the tool's in-memory declaration header and the
 * compiler's own headers (opencl-c-base.h, pulled in implicitly) are files
 * no build rule can depend on, so they are left out.
 *
 * For --inline-includes: the input is written out again with the text of
 * every user file it includes in place of each #include the preprocessor
 * followed, recursively, the way clang -frewrite-includes does. The
 * directive stays inside '#if 0' for the reader, and #line directives
 * before and after the text keep a driver's errors pointing at the header
 * and the input's own lines. A directive the preprocessor skipped (the file
 * was included before and its guard or #pragma once fired) keeps only the
 * '#if 0' block: the text would have vanished anyway. Directives in
 * inactive #if branches are never seen by the preprocessor and stay as they
 * are. rewrite.c then parses that text as the input, so that functions in
 * headers are rewritten like the input's own, and maps diagnostics back
 * through the spans recorded here.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Appends a copy of name to the dependency list. Returns 0 when out of
 * memory. */
int gsri_add_dependency(gsri_ctx *ctx, const char *name) {
  char **p = realloc(ctx->deps, (ctx->n_deps + 1) * sizeof *p);
  if (!p)
    return 0;
  ctx->deps = p;
  p[ctx->n_deps] = gsri_strdup(name);
  return p[ctx->n_deps++] != NULL;
}

/* Nonzero if f is gsync.h (by its base name). */
int gsri_is_gsync_header(CXFile f) {
  if (!f)
    return 0;
  CXString n = clang_getFileName(f);
  const char *name = clang_getCString(n);
  const char *base = strrchr(name, '/');
  int r = strcmp(base ? base + 1 : name, "gsync.h") == 0;
  clang_disposeString(n);
  return r;
}

/* Nonzero if f lies in a system header directory: the compiler's own
 * headers (the tool takes no -isystem, so no user file does). */
static int is_system_file(CXTranslationUnit tu, CXFile f) {
  return clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, f, 0));
}

/* What the inclusion visitor collects: each file once. */
typedef struct dep_walk {
  gsri_ctx *ctx;
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
  gsri_ctx *ctx = w->ctx;
  if (depth == 0 || w->failed || gsri_same_file(ctx, f, ctx->main_file) ||
      gsri_is_decl_header(f) || is_system_file(ctx->tu, f))
    return;
  for (size_t i = 0; i < w->n_seen; i++)
    if (gsri_same_file(ctx, w->seen[i], f))
      return;
  CXFile *p = realloc(w->seen, (w->n_seen + 1) * sizeof *p);
  char *name = gsri_file_name(ctx, f);
  if (!p || !name || !gsri_add_dependency(ctx, name))
    w->failed = 1;
  if (p) {
    w->seen = p;
    p[w->n_seen++] = f;
  }
  free(name);
}

/* Lists the files the parsed input includes into ctx->deps. */
gsr_status gsri_list_includes(gsri_ctx *ctx) {
  dep_walk w = {ctx, NULL, 0, 0};
  clang_getInclusions(ctx->tu, on_inclusion, &w);
  free(w.seen);
  return w.failed ? GSR_ERR_NOMEM : GSR_OK;
}

/* ---- --inline-includes ---- */

/* One #include the preprocessor processed, in the order it did. */
typedef struct directive {
  CXFile file;       /* where it is written; NULL: the predefines (-include) */
  size_t begin, end; /* its extent there */
  CXFile target;     /* the file it names */
  int entered;       /* the preprocessor read target here */
} directive;

/* Where an entered file was included from, in the order entered. */
typedef struct entry {
  CXFile from; /* NULL: the predefines */
  size_t offset;
} entry;

/* The state of one flattening. */
typedef struct flat {
  gsri_ctx *ctx;
  directive *dirs;
  size_t n_dirs, next; /* next: the first directive not yet handled */
  entry *entries;
  size_t n_entries;
  gsri_buf *out;
  unsigned out_line; /* the line of out being written, from 1 */
  int failed;
} flat;

/* Nonzero if a and b are the same file; NULL (the predefines) only equals
 * NULL. */
static int same_file(const flat *fl, CXFile a, CXFile b) {
  return a && b ? gsri_same_file(fl->ctx, a, b) : a == b;
}

/* Visitor: collects the #include directives (top-level cursors of the
 * preprocessing record, in preprocessing order). */
static enum CXChildVisitResult collect_directive(CXCursor c, CXCursor parent,
                                                 CXClientData data) {
  (void)parent;
  flat *fl = data;
  if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
    return CXChildVisit_Continue;
  directive *p = realloc(fl->dirs, (fl->n_dirs + 1) * sizeof *p);
  if (!p) {
    fl->failed = 1;
    return CXChildVisit_Break;
  }
  fl->dirs = p;
  directive *d = &p[fl->n_dirs++];
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned b, e;
  clang_getSpellingLocation(clang_getRangeStart(r), &d->file, NULL, NULL, &b);
  clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
  d->begin = b;
  d->end = e;
  d->target = clang_getIncludedFile(c);
  d->entered = 0;
  return CXChildVisit_Continue;
}

/* clang_getInclusions() visitor: collects where each entered file was
 * included from. */
static void collect_entry(CXFile f, CXSourceLocation *stack, unsigned depth,
                          CXClientData data) {
  (void)f;
  flat *fl = data;
  if (depth == 0 || fl->failed)
    return;
  entry *p = realloc(fl->entries, (fl->n_entries + 1) * sizeof *p);
  if (!p) {
    fl->failed = 1;
    return;
  }
  fl->entries = p;
  unsigned off;
  clang_getSpellingLocation(stack[0], &p[fl->n_entries].from, NULL, NULL, &off);
  p[fl->n_entries++].offset = off;
}

/* Marks the directives through which the preprocessor entered a file. Both
 * lists are in preprocessing order, so the k-th entry belongs to the k-th
 * directive whose extent holds its location. Returns 0 if some entry
 * matches no directive. */
static int mark_entered(flat *fl) {
  size_t k = 0;
  for (size_t i = 0; i < fl->n_dirs && k < fl->n_entries; i++) {
    directive *d = &fl->dirs[i];
    entry *e = &fl->entries[k];
    if (same_file(fl, d->file, e->from) && d->begin <= e->offset &&
        e->offset <= d->end) {
      d->entered = 1;
      k++;
    }
  }
  return k == fl->n_entries;
}

/* Appends text to the output, counting its lines. */
static void emit(flat *fl, const char *text, size_t len) {
  gsri_buf_append(fl->out, text, len);
  for (size_t i = 0; i < len; i++)
    fl->out_line += text[i] == '\n';
}

/* Ends the output's current line if it is not ended. */
static void end_line(flat *fl) {
  if (fl->out->len && fl->out->data[fl->out->len - 1] != '\n')
    emit(fl, "\n", 1);
}

/* Writes '#line LINE "NAME"' and records that the output's next line is
 * that line of that file (name NULL: the input). */
static void emit_line_directive(flat *fl, unsigned line, const char *name) {
  gsri_ctx *ctx = fl->ctx;
  gsri_buf_line_directive(fl->out, line, name ? name : ctx->name);
  fl->out_line++;
  gsri_line_span *p = realloc(ctx->spans, (ctx->n_spans + 1) * sizeof *p);
  if (!p) {
    fl->failed = 1;
    return;
  }
  ctx->spans = p;
  p[ctx->n_spans].out_line = fl->out_line;
  p[ctx->n_spans].line = line;
  p[ctx->n_spans++].file = gsri_strdup(name);
  if (name && !p[ctx->n_spans - 1].file)
    fl->failed = 1;
}

/* Counts the newlines in text[from, to). */
static unsigned count_lines(const char *text, size_t from, size_t to) {
  unsigned n = 0;
  for (size_t i = from; i < to; i++)
    n += text[i] == '\n';
  return n;
}

/* Returns the offset just past the end of the line at off (its newline),
 * reading through line continuations and comments that span lines. */
static size_t line_end(const char *text, size_t len, size_t off) {
  while (off < len && text[off] != '\n') {
    if (text[off] == '\\' && off + 1 < len && text[off + 1] == '\n') {
      off += 2;
    } else if (text[off] == '/' && off + 1 < len && text[off + 1] == '*') {
      off += 2;
      while (off + 1 < len && !(text[off] == '*' && text[off + 1] == '/'))
        off++;
      off = off + 2 < len ? off + 2 : len;
    } else {
      off++;
    }
  }
  return off < len ? off + 1 : len;
}

/* Finds the '#pragma once' directives of file f: {begin, end} pairs in
 * *out (malloc'd). The text is inlined once, so in the output they would
 * only draw a "#pragma once in main file" warning. */
static size_t find_pragma_once(gsri_ctx *ctx, CXFile f, size_t len,
                               size_t (**out)[2]) {
  *out = NULL;
  CXSourceRange r =
      clang_getRange(clang_getLocationForOffset(ctx->tu, f, 0),
                     clang_getLocationForOffset(ctx->tu, f, (unsigned)len));
  CXToken *toks = NULL;
  unsigned n = 0, found = 0;
  clang_tokenize(ctx->tu, r, &toks, &n);
  static const char *const words[] = {"#", "pragma", "once"};
  for (unsigned i = 0; i + 2 < n; i++) {
    unsigned line0, line2;
    int match = 1;
    for (unsigned w = 0; match && w < 3; w++) {
      CXString s = clang_getTokenSpelling(ctx->tu, toks[i + w]);
      match = strcmp(clang_getCString(s), words[w]) == 0;
      clang_disposeString(s);
    }
    if (!match)
      continue;
    unsigned b, e;
    clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                              &line0, NULL, &b);
    clang_getSpellingLocation(
        clang_getRangeEnd(clang_getTokenExtent(ctx->tu, toks[i + 2])), NULL,
        &line2, NULL, &e);
    size_t(*p)[2] =
        line0 == line2 ? realloc(*out, (found + 1) * sizeof *p) : NULL;
    if (p) {
      *out = p;
      p[found][0] = b;
      p[found++][1] = e;
    }
  }
  clang_disposeTokens(ctx->tu, toks, n);
  return found;
}

/* Copies text[*pos, to) to the output with each '#pragma once' in it
 * (pragmas[*p] onwards, sorted) turned into a comment on the same line;
 * advances *pos and *p. */
static void copy_text(flat *fl, const char *text, size_t *pos, size_t to,
                      size_t (*pragmas)[2], size_t n_pragmas, size_t *p) {
  static const char gone[] = "/* #pragma once: the text is inlined once */";
  for (; *p < n_pragmas && pragmas[*p][1] <= to; ++*p) {
    emit(fl, text + *pos, pragmas[*p][0] - *pos);
    emit(fl, gone, sizeof gone - 1);
    *pos = pragmas[*p][1];
  }
  emit(fl, text + *pos, to - *pos);
  *pos = to;
}

static void flatten_file(flat *fl, CXFile f, const char *name, int write);

/* Handles the directive fl->dirs[fl->next] of a file being written: the
 * text of the file it entered, or only the '#if 0' block, or the comment
 * that replaces gsync.h. The directive spans [hash, eol) of text; *line is
 * the line at hash on entry and the line after the directive on return. */
static void inline_directive(flat *fl, const char *text, size_t hash,
                             size_t eol, unsigned *line, const char *name) {
  gsri_ctx *ctx = fl->ctx;
  directive *d = &fl->dirs[fl->next++];
  unsigned after = *line + count_lines(text, hash, eol);
  *line = after;
  if (gsri_is_gsync_header(d->target)) {
    /* Not needed by the driver; the same comment as without inlining. */
    emit(fl, GSR_GSYNC_H_GONE, strlen(GSR_GSYNC_H_GONE));
    emit(fl, text + d->end, eol - d->end);
    if (d->entered)
      flatten_file(fl, d->target, NULL, 0);
    return;
  }
  size_t *w = realloc(ctx->wrappers, (ctx->n_wrappers + 1) * sizeof *w);
  if (!w) {
    fl->failed = 1;
    return;
  }
  ctx->wrappers = w;
  w[ctx->n_wrappers++] = fl->out->len;
  static const char entered[] =
      "#if 0 /* gsync-rewrite --inline-includes: the file's text follows */\n";
  static const char skipped[] = "#if 0 /* gsync-rewrite --inline-includes: "
                                "skipped here, as it was included before */\n";
  if (d->entered)
    emit(fl, entered, sizeof entered - 1);
  else
    emit(fl, skipped, sizeof skipped - 1);
  emit(fl, text + hash, eol - hash);
  end_line(fl);
  emit(fl, "#endif\n", 7);
  if (d->entered) {
    char *target = gsri_file_name(ctx, d->target);
    if (!target) {
      fl->failed = 1;
      return;
    }
    emit_line_directive(fl, 1, target);
    flatten_file(fl, d->target, target, 1);
    free(target);
    end_line(fl);
  }
  emit_line_directive(fl, after, name);
}

/* Nonzero if the directive's file is written out as its own text: a user
 * file the preprocessor entered there. The compiler's own headers and the
 * tool's declaration header stay behind their directive. */
static int inlines(gsri_ctx *ctx, const directive *d) {
  return d->entered && !gsri_is_decl_header(d->target) &&
         !is_system_file(ctx->tu, d->target);
}

/* Writes one inclusion of file f (when write is 0, only steps over it):
 * its text, with the directives that belong to this inclusion handled in
 * turn. Those are the next directives that lie in f at increasing offsets;
 * the first one elsewhere belongs to a file that included f. name is f's
 * name for #line (NULL: the input). */
static void flatten_file(flat *fl, CXFile f, const char *name, int write) {
  gsri_ctx *ctx = fl->ctx;
  size_t len = 0;
  const char *text = clang_getFileContents(ctx->tu, f, &len);
  if (!text)
    text = "", len = 0;
  size_t(*pragmas)[2] = NULL;
  size_t n_pragmas =
      write && name ? find_pragma_once(ctx, f, len, &pragmas) : 0;
  size_t pos = 0, seen = 0, p = 0;
  unsigned line = 1;
  while (fl->next < fl->n_dirs && !fl->failed) {
    directive *d = &fl->dirs[fl->next];
    if (!same_file(fl, d->file, f) || d->begin < seen || d->end > len)
      break;
    seen = d->end;
    if (!write ||
        (d->entered && !inlines(ctx, d) && !gsri_is_gsync_header(d->target))) {
      fl->next++;
      if (d->entered)
        flatten_file(fl, d->target, NULL, 0);
      continue;
    }
    /* libclang's extent may start at '#' or at the word after it. */
    size_t hash = d->begin;
    while (hash > pos && text[hash] != '#')
      hash--;
    line += count_lines(text, pos, hash);
    copy_text(fl, text, &pos, hash, pragmas, n_pragmas, &p);
    pos = line_end(text, len, d->end);
    inline_directive(fl, text, hash, pos, &line, name);
  }
  if (write)
    copy_text(fl, text, &pos, len, pragmas, n_pragmas, &p);
  free(pragmas);
}

/* Writes the input with its includes inlined into out; see the top of
 * this file. The -include files come first, each behind its own #line. */
gsr_status gsri_inline_includes(gsri_ctx *ctx, gsri_buf *out) {
  flat fl;
  memset(&fl, 0, sizeof fl);
  fl.ctx = ctx;
  fl.out = out;
  fl.out_line = 1;
  clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu),
                      collect_directive, &fl);
  if (!fl.failed)
    clang_getInclusions(ctx->tu, collect_entry, &fl);
  int consistent = fl.failed || mark_entered(&fl);
  int any = 0;
  while (consistent && !fl.failed && fl.next < fl.n_dirs &&
         !fl.dirs[fl.next].file) {
    directive *d = &fl.dirs[fl.next++];
    char *name = inlines(ctx, d) && !gsri_is_gsync_header(d->target)
                     ? gsri_file_name(ctx, d->target)
                     : NULL;
    if (name) {
      emit_line_directive(&fl, 1, name);
      flatten_file(&fl, d->target, name, 1);
      end_line(&fl);
      any = 1;
    } else if (d->entered) {
      flatten_file(&fl, d->target, NULL, 0);
    }
    free(name);
  }
  if (any)
    emit_line_directive(&fl, 1, NULL);
  if (consistent && !fl.failed)
    flatten_file(&fl, ctx->main_file, NULL, 1);
  consistent &= fl.failed || fl.next == fl.n_dirs;
  free(fl.dirs);
  free(fl.entries);
  if (!consistent) {
    gsri_report(ctx, GSR_ERROR, 0, 0,
                "cannot inline the includes: libclang's list of included "
                "files does not match the #include directives");
    return GSR_ERR_PARSER;
  }
  return fl.failed || out->failed ? GSR_ERR_NOMEM : GSR_OK;
}

/* Frees the spans and wrapper offsets. */
void gsri_inline_dispose(gsri_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_spans; i++)
    free(ctx->spans[i].file);
  free(ctx->spans);
  free(ctx->wrappers);
  ctx->spans = NULL;
  ctx->wrappers = NULL;
  ctx->n_spans = ctx->n_wrappers = 0;
}
