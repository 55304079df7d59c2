/* Stage 1, parse: builds the libclang translation unit of the input.
 *
 * The input is handed to libclang as an unsaved file, so that the bytes we
 * later edit are exactly the bytes that were parsed, and global_barrier() is
 * declared by a small header that exists only in memory (libclang needs an
 * absolute path for it, and -include to pull it in). libclang's own
 * diagnostics are passed through with the file named as the user named it.
 */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DECL_HEADER_PATH "/gsync-rewrite-builtin/global_barrier.h"
static const char decl_header[] =
    "/* Declared by gsync-rewrite for parsing; replaced in the output. */\n"
    "void global_barrier(void);\n"
    "void global_barrier_arrive(void);\n"
    "void global_barrier_wait(void);\n";

const char *const gsri_barrier_names[3] = {
    "global_barrier", "global_barrier_arrive", "global_barrier_wait"};
const char *const gsri_barrier_impls[3] = {
    "gsync_barrier", "gsync_barrier_arrive", "gsync_barrier_wait"};

int gsri_barrier_half(const char *name) {
  for (int h = GSR_WHOLE; h <= GSR_WAIT; h++)
    if (strcmp(name, gsri_barrier_names[h]) == 0)
      return h;
  return -1;
}

int gsri_ident_char(char c) { return c == '_' || isalnum((unsigned char)c); }

int gsri_word_at(const gsri_ctx *ctx, size_t off, const char *word) {
  size_t n = strlen(word), end = off + n;
  return end <= ctx->src_len && memcmp(ctx->src + off, word, n) == 0 &&
         (off == 0 || !gsri_ident_char(ctx->src[off - 1])) &&
         (end == ctx->src_len || !gsri_ident_char(ctx->src[end]));
}

int gsri_barrier_word_at(const gsri_ctx *ctx, size_t off) {
  for (int h = GSR_WHOLE; h <= GSR_WAIT; h++)
    if (gsri_word_at(ctx, off, gsri_barrier_names[h]))
      return h;
  return -1;
}

/* Returns nonzero if f is the in-memory declaration header. */
int gsri_is_decl_header(CXFile f) {
  if (!f)
    return 0;
  CXString s = clang_getFileName(f);
  int r = strcmp(clang_getCString(s), DECL_HEADER_PATH) == 0;
  clang_disposeString(s);
  return r;
}

/* Which of the pseudo-intrinsics (gsri_half) the input spells at loc, as
 * a whole token (global_barrier_arrive is not global_barrier, nor is a
 * function of the user's called global_barrier_step); -1 if none. */
static int names_barrier(gsri_ctx *ctx, CXSourceLocation loc) {
  CXFile f;
  unsigned off;
  clang_getSpellingLocation(loc, &f, NULL, NULL, &off);
  if (!f || !gsri_same_file(ctx, f, ctx->main_file))
    return -1;
  return gsri_barrier_word_at(ctx, off);
}

/* Resolves where libclang sees the input: the real path of the named file
 * (so that #include "x.h" finds its neighbours), or a made-up name in the
 * working directory for stdin. Returns a malloc'd absolute path. */
static char *main_path_for(const gsr_options *opt) {
  const char *p = opt->input_path;
  if (p && p[0] == '/')
    return gsri_strdup(p);
  gsri_buf b = {0};
  char *cwd = getcwd(NULL, 0);
  gsri_buf_puts(&b, cwd ? cwd : "");
  free(cwd);
  gsri_buf_printf(&b, "/%s", p ? p : "<stdin>.cl");
  return gsri_buf_take(&b);
}

/* Reports one libclang diagnostic (and its notes) through the callback.
 * Diagnostics that point into the in-memory header are translated into
 * what the user needs to hear. */
static void pass_diagnostic(gsri_ctx *ctx, CXDiagnostic d, int is_child) {
  enum CXDiagnosticSeverity s = clang_getDiagnosticSeverity(d);
  if (s == CXDiagnostic_Ignored)
    return;
  gsr_severity sev = s == CXDiagnostic_Note      ? GSR_NOTE
                     : s == CXDiagnostic_Warning ? GSR_WARNING
                                                 : GSR_ERROR;
  CXSourceLocation loc = clang_getDiagnosticLocation(d);
  CXFile file;
  unsigned line, col;
  clang_getExpansionLocation(loc, &file, &line, &col, NULL);
  if (is_child && gsri_is_decl_header(file))
    return; /* "declared here" pointing at our private header */

  CXString msg = clang_getDiagnosticSpelling(d);
  const char *text = clang_getCString(msg);
  CXDiagnosticSet children = clang_getChildDiagnostics(d);
  /* The pseudo-intrinsic a note points at: its line in the header, from
   * line 2 on in gsri_half's order. */
  int about_barrier = -1;
  for (unsigned i = 0; i < clang_getNumDiagnosticsInSet(children); i++) {
    CXDiagnostic c = clang_getDiagnosticInSet(children, i);
    CXFile cf;
    unsigned cl;
    clang_getExpansionLocation(clang_getDiagnosticLocation(c), &cf, &cl, NULL,
                               NULL);
    if (gsri_is_decl_header(cf) && cl >= 2 && cl <= 2 + GSR_WAIT)
      about_barrier = (int)cl - 2;
    clang_disposeDiagnostic(c);
  }
  gsri_buf own = {0};
  int named;
  if (about_barrier >= 0 && strstr(text, "too many arguments")) {
    gsri_buf_printf(&own, "'%s' takes no arguments",
                    gsri_barrier_names[about_barrier]);
    text = gsri_buf_text(ctx, &own);
  } else if (strstr(text, "taking address of function") &&
             (named = names_barrier(ctx, loc)) >= 0) {
    gsri_buf_printf(&own,
                    "the address of '%s' cannot be taken; it can only be "
                    "called as '%s()'",
                    gsri_barrier_names[named], gsri_barrier_names[named]);
    text = gsri_buf_text(ctx, &own);
  }

  gsri_report_in(ctx, sev, file, line, col, "%s", text);
  gsri_buf_free(&own);
  clang_disposeString(msg);

  for (unsigned i = 0; i < clang_getNumDiagnosticsInSet(children); i++) {
    CXDiagnostic c = clang_getDiagnosticInSet(children, i);
    pass_diagnostic(ctx, c, 1);
    clang_disposeDiagnostic(c);
  }
}

/* Parses the input (ctx->src). Returns GSR_OK, or GSR_ERR_PARSER when
 * libclang could not run; its diagnostics are for gsri_parse_diagnostics().
 * The declaration header is included before the user's -include files, so
 * that a header they bring calls the barrier the tool knows. -cl-std= and
 * -cl-ext= reach libclang as gsri_language_options() worked them out. Once
 * the includes are inlined into the input, -include options are left out:
 * their files' text is in it. */
gsr_status gsri_parse(gsri_ctx *ctx) {
  const gsr_options *opt = ctx->opt;
  ctx->main_path = main_path_for(opt);
  if (!ctx->main_path)
    return GSR_ERR_NOMEM;

  const char **args =
      calloc((size_t)opt->num_parser_args + (size_t)ctx->n_lang_args + 4,
             sizeof *args);
  if (!args)
    return GSR_ERR_NOMEM;
  int n = 0;
  args[n++] = "-xcl";
  args[n++] = "-include";
  args[n++] = DECL_HEADER_PATH;
  for (int i = 0; i < opt->num_parser_args; i++) {
    const char *a = opt->parser_args[i];
    int has_value = strcmp(a, "-include") == 0 || strcmp(a, "-I") == 0 ||
                    strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0;
    if ((ctx->inlined && strcmp(a, "-include") == 0) ||
        strncmp(a, "-cl-std=", 8) == 0 || strncmp(a, "-cl-ext=", 8) == 0) {
      i += has_value;
      continue;
    }
    args[n++] = a;
    if (has_value && i + 1 < opt->num_parser_args)
      args[n++] = opt->parser_args[++i];
  }
  for (int i = 0; i < ctx->n_lang_args; i++)
    args[n++] = ctx->lang_args[i];

  struct CXUnsavedFile files[2] = {
      {ctx->main_path, ctx->src, (unsigned long)ctx->src_len},
      {DECL_HEADER_PATH, decl_header, sizeof decl_header - 1}};

  ctx->index = clang_createIndex(0, 0);
  enum CXErrorCode ec = clang_parseTranslationUnit2(
      ctx->index, ctx->main_path, args, n, files, 2,
      CXTranslationUnit_DetailedPreprocessingRecord |
          CXTranslationUnit_KeepGoing,
      &ctx->tu);
  free(args);
  if (ec != CXError_Success || !ctx->tu) {
    gsri_report(ctx, GSR_ERROR, 0, 0,
                "libclang could not parse the input (error %d)", (int)ec);
    return GSR_ERR_PARSER;
  }
  ctx->main_file = clang_getFile(ctx->tu, ctx->main_path);
  ctx->decl_file = clang_getFile(ctx->tu, DECL_HEADER_PATH);
  return GSR_OK;
}

/* Passes libclang's diagnostics on; with only_errors, none at all unless
 * one is an error (a parse that is redone holds its warnings back). Returns
 * GSR_ERR_INPUT when one is an error. */
gsr_status gsri_parse_diagnostics(gsri_ctx *ctx, int only_errors) {
  gsr_status st = GSR_OK;
  unsigned nd = clang_getNumDiagnostics(ctx->tu);
  for (unsigned i = 0; i < nd && st == GSR_OK; i++) {
    CXDiagnostic d = clang_getDiagnostic(ctx->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
      st = GSR_ERR_INPUT;
    clang_disposeDiagnostic(d);
  }
  if (only_errors && st == GSR_OK)
    return GSR_OK;
  for (unsigned i = 0; i < nd; i++) {
    CXDiagnostic d = clang_getDiagnostic(ctx->tu, i);
    pass_diagnostic(ctx, d, 0);
    clang_disposeDiagnostic(d);
  }
  return st;
}

/* Releases the translation unit, the index and the list of where the
 * parsed text's lines start. */
void gsri_parse_dispose(gsri_ctx *ctx) {
  if (ctx->tu)
    clang_disposeTranslationUnit(ctx->tu);
  if (ctx->index)
    clang_disposeIndex(ctx->index);
  ctx->tu = NULL;
  ctx->index = NULL;
  free(ctx->main_path);
  ctx->main_path = NULL;
  free(ctx->line_starts);
  ctx->line_starts = NULL;
  ctx->n_line_starts = 0;
}

/* Returns nonzero if the cursor's declaration lives in the in-memory header
 * (that is, it is our global_barrier). */
int gsri_is_builtin_barrier(CXCursor decl) {
  CXFile f;
  /* The first declaration is ours (pulled in by -include before the input),
   * even when the input also includes gsync.h. */
  clang_getSpellingLocation(
      clang_getCursorLocation(clang_getCanonicalCursor(decl)), &f, NULL, NULL,
      NULL);
  return gsri_is_decl_header(f);
}

/* Nonzero if the input's bytes spell word anywhere (comments and skipped
 * branches included): a cheap test before lexing the whole file. */
int gsri_input_mentions(const gsri_ctx *ctx, const char *word) {
  size_t len = strlen(word);
  const char *p = ctx->src, *end = ctx->src + ctx->src_len;
  while ((size_t)(end - p) >= len &&
         (p = memchr(p, word[0], (size_t)(end - p) - len + 1)) != NULL) {
    if (memcmp(p, word, len) == 0)
      return 1;
    p++;
  }
  return 0;
}

/* Lexes the whole input; returns the number of tokens in *toks, for
 * clang_disposeTokens(). */
unsigned gsri_tokenize_input(gsri_ctx *ctx, CXToken **toks) {
  CXSourceLocation b = clang_getLocationForOffset(ctx->tu, ctx->main_file, 0);
  CXSourceLocation e = clang_getLocationForOffset(ctx->tu, ctx->main_file,
                                                  (unsigned)ctx->src_len);
  unsigned n = 0;
  *toks = NULL;
  clang_tokenize(ctx->tu, clang_getRange(b, e), toks, &n);
  return n;
}
