/* Before the parse: the files the input includes must be regular files.
 *
 * libclang opens and reads every #include itself, and it reads a file
 * that is not a regular one until it ends: #include "/dev/zero" read 17 GB
 * in two minutes, a FIFO waits for a writer forever. The C API has no hook
 * into its file reading, so this stage finds the files first, the way the
 * preprocessor would: the #include, #include_next and #import directives
 * of the input, of every -include file and of every header they reach,
 * each name looked up as clang does (an absolute path as it is; a quoted
 * name in the including file's directory, then in each -I directory; an
 * angled one in each -I directory; a directory found on the way is passed
 * over), and a name given by an object-like macro (-D, or #define in a
 * file scanned) whose value is a quoted or angled name. The first file
 * found that is not a regular file is an error at the directive. What it
 * cannot see, it leaves to libclang: an include whose name a function-like
 * macro or token pasting builds, and the spellings the preprocessor follows
 * and this scan does not (a comment or a line continuation inside the
 * directive, a digraph, a byte-order mark...). So it gives the plain
 * spellings an error at their line, and the tool, which runs the engine
 * in a child process under limits (tool/bounded.c), ends the rest. It
 * does not evaluate #if, so it also refuses a device named in a branch
 * that is never taken.
 */
#define _XOPEN_SOURCE 700 /* S_ISSOCK, dev_t and ino_t */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bounds on the work, far above real sources: headers scanned, bytes read
 * from one header (a larger one is left to libclang), macros known. */
#define MAX_FILES 4096
#define MAX_HEADER_BYTES (64u << 20)

/* An object-like macro whose value is an include name, with its quotes or
 * angles. */
typedef struct name_macro {
  char *name, *value;
} name_macro;

/* What the scan knows: the -I directories, the macros, the headers seen
 * (by device and inode) and those still to scan. */
typedef struct scan {
  gsri_ctx *ctx;
  const char **dirs;
  size_t n_dirs;
  name_macro *macros;
  size_t n_macros, cap_macros;
  struct seen {
    dev_t dev;
    ino_t ino;
  } * seen;
  size_t n_seen, cap_seen;
  char **todo; /* paths of headers to scan */
  size_t n_todo, cap_todo;
  int failed; /* an error was reported, or memory ran out */
} scan;

/* Returns a malloc'd "dir/name" ("name" when dir is NULL or empty). */
static char *join(const char *dir, const char *name, size_t len) {
  gsri_buf b = {0};
  if (dir && *dir)
    gsri_buf_printf(&b, "%s/", dir);
  gsri_buf_append(&b, name, len);
  return gsri_buf_take(&b);
}

/* Returns a malloc'd copy of the directory part of path ("." if none). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return gsri_strdup(".");
  return gsri_strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* Remembers a macro whose value is an include name (the last definition
 * wins, as a redefinition would). */
static void add_macro(scan *s, const char *name, size_t nl, const char *v,
                      size_t vl) {
  name_macro *m =
      gsri_grow(s->macros, &s->cap_macros, s->n_macros, sizeof *s->macros);
  if (!m) {
    s->failed = 1;
    return;
  }
  s->macros = m;
  m = &s->macros[s->n_macros];
  m->name = gsri_strndup(name, nl);
  m->value = gsri_strndup(v, vl);
  if (!m->name || !m->value) {
    free(m->name);
    free(m->value);
    s->failed = 1;
    return;
  }
  s->n_macros++;
}

/* The value of the macro called name (nl bytes), or NULL. */
static const char *macro_value(const scan *s, const char *name, size_t nl) {
  for (size_t i = s->n_macros; i-- > 0;)
    if (strlen(s->macros[i].name) == nl &&
        memcmp(s->macros[i].name, name, nl) == 0)
      return s->macros[i].value;
  return NULL;
}

/* Nonzero if c may be part of an identifier. */
static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

/* Names a file type for a refusal. */
static const char *type_word(mode_t mode) {
  return S_ISCHR(mode)    ? "a character device"
         : S_ISBLK(mode)  ? "a block device"
         : S_ISFIFO(mode) ? "a FIFO"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a regular file";
}

/* Queues the regular file at path for scanning, once. */
static void queue_header(scan *s, const char *path, const struct stat *st) {
  for (size_t i = 0; i < s->n_seen; i++)
    if (s->seen[i].dev == st->st_dev && s->seen[i].ino == st->st_ino)
      return;
  if (s->n_seen >= MAX_FILES)
    return;
  struct seen *seen =
      gsri_grow(s->seen, &s->cap_seen, s->n_seen, sizeof *s->seen);
  char **todo =
      seen ? gsri_grow(s->todo, &s->cap_todo, s->n_todo, sizeof *s->todo)
           : NULL;
  if (seen)
    s->seen = seen;
  if (todo)
    s->todo = todo;
  if (!seen || !todo || !(s->todo[s->n_todo] = gsri_strdup(path))) {
    s->failed = 1;
    return;
  }
  s->seen[s->n_seen].dev = st->st_dev;
  s->seen[s->n_seen++].ino = st->st_ino;
  s->n_todo++;
}

/* Tries the include name (len bytes) in directory base (NULL: the name
 * as it is). Returns 1 if a file that is not a directory is there: a
 * regular one is queued, another is reported at file:line:col. */
static int try_in(scan *s, const char *base, const char *name, size_t len,
                  const char *file, unsigned line, unsigned col) {
  char *path = join(base, name, len);
  struct stat st;
  if (!path) {
    s->failed = 1;
    return 1;
  }
  int found = stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
  if (found && !S_ISREG(st.st_mode)) {
    int same = strlen(path) == len && !memcmp(path, name, len);
    gsri_report_at(s->ctx, GSR_ERROR, file, line, col,
                   "cannot include '%.*s'%s%s%s: %s, which may never end; "
                   "only regular files are included",
                   (int)len, name, same ? "" : " (", same ? "" : path,
                   same ? "" : ")", type_word(st.st_mode));
    s->failed = 1;
  } else if (found) {
    queue_header(s, path, &st);
  }
  free(path);
  return found;
}

/* Looks up the include name (len bytes, without its quotes or angles) as
 * the preprocessor would, from a file in dir (quoted: that directory
 * first, then the -I ones; angled: the -I ones; absolute: itself). */
static void look_up(scan *s, const char *name, size_t len, int quoted,
                    const char *dir, const char *file, unsigned line,
                    unsigned col) {
  if (len && name[0] == '/') {
    try_in(s, NULL, name, len, file, line, col);
    return;
  }
  if (quoted && try_in(s, dir, name, len, file, line, col))
    return;
  for (size_t i = 0; i < s->n_dirs; i++)
    if (try_in(s, s->dirs[i], name, len, file, line, col))
      return;
}

/* Reads the directive that starts at p (after '#' and blanks, up to eol)
 * on line `line` (which starts at bol) of a file in dir: an include's
 * name goes to look_up, an object-like macro whose value is a name is
 * remembered. */
static void directive(scan *s, const char *p, const char *eol, const char *dir,
                      const char *file, unsigned line, const char *bol) {
  const char *w = p;
  while (p < eol && ident_char(*p))
    p++;
  size_t wl = (size_t)(p - w);
  while (p < eol && (*p == ' ' || *p == '\t'))
    p++;
  if (wl == 6 && !memcmp(w, "define", 6)) {
    const char *n = p;
    while (p < eol && ident_char(*p))
      p++;
    size_t nl = (size_t)(p - n);
    if (!nl || (p < eol && *p == '(')) /* none, or function-like */
      return;
    while (p < eol && (*p == ' ' || *p == '\t'))
      p++;
    const char *v = p, *ve = eol;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r'))
      ve--;
    if (ve - v >= 2 &&
        ((*v == '"' && ve[-1] == '"') || (*v == '<' && ve[-1] == '>')))
      add_macro(s, n, nl, v, (size_t)(ve - v));
    return;
  }
  if (!((wl == 7 && !memcmp(w, "include", 7)) ||
        (wl == 12 && !memcmp(w, "include_next", 12)) ||
        (wl == 6 && !memcmp(w, "import", 6))))
    return;
  unsigned col = (unsigned)(p - bol) + 1;
  const char *name = p, *end = eol;
  if (p < eol && ident_char(*p)) { /* #include MACRO */
    while (p < eol && ident_char(*p))
      p++;
    name = macro_value(s, name, (size_t)(p - name));
    if (!name)
      return;
    end = name + strlen(name);
  }
  char close = name == end ? 0 : *name == '"' ? '"' : *name == '<' ? '>' : 0;
  const char *last = close && end > name + 1
                         ? memchr(name + 1, close, (size_t)(end - name - 1))
                         : NULL;
  if (last)
    look_up(s, name + 1, (size_t)(last - name - 1), close == '"', dir, file,
            line, col);
}

/* Scans the len bytes of text, a file in dir called file, for directives,
 * skipping comments and literals. */
static void scan_text(scan *s, const char *text, size_t len, const char *dir,
                      const char *file) {
  const char *p = text, *end = text + len, *bol = text;
  unsigned line = 1;
  int line_start = 1;
  while (p < end && !s->failed) {
    char c = *p;
    if (c == '\n') {
      line++;
      bol = ++p;
      line_start = 1;
    } else if (c == '/' && p + 1 < end && p[1] == '*') {
      for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
        if (*p == '\n')
          line++, bol = p + 1;
      p = p < end ? p + 2 : end;
    } else if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p < end && *p != '\n')
        p++;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      p++;
    } else if (c == '#' && line_start) {
      const char *q = p + 1, *eol = memchr(q, '\n', (size_t)(end - q));
      if (!eol)
        eol = end;
      while (q < eol && (*q == ' ' || *q == '\t'))
        q++;
      directive(s, q, eol, dir, file, line, bol);
      p = eol;
    } else if (c == '"' || c == '\'') {
      line_start = 0;
      for (p++; p < end && *p != c && *p != '\n'; p++)
        if (*p == '\\' && p + 1 < end && p[1] != '\n')
          p++;
      if (p < end && *p == c)
        p++;
    } else {
      line_start = 0;
      p++;
    }
  }
}

/* Reads the header at path, if it is a regular file of at most
 * MAX_HEADER_BYTES, and scans it. */
static void scan_header(scan *s, const char *path) {
  size_t len;
  const char *why;
  char *text = gsri_read_file(path, MAX_HEADER_BYTES, "", &len, &why);
  if (!text) {
    if (why == gsri_out_of_memory)
      s->failed = 1;
    return;
  }
  char *dir = dir_of(path);
  if (!dir)
    s->failed = 1;
  else if (len)
    scan_text(s, text, len, dir, path);
  free(dir);
  free(text);
}

/* Collects the -I directories and the -D macros whose value is an include
 * name from the parser arguments, and checks the -include files. */
static void read_options(scan *s) {
  const gsr_options *o = s->ctx->opt;
  s->dirs = calloc((size_t)o->num_parser_args + 1, sizeof *s->dirs);
  if (!s->dirs) {
    s->failed = 1;
    return;
  }
  for (int i = 0; i < o->num_parser_args; i++) {
    const char *a = o->parser_args[i];
    const char *v = i + 1 < o->num_parser_args ? o->parser_args[i + 1] : NULL;
    int attached = a[0] == '-' && (a[1] == 'I' || a[1] == 'D') && a[2];
    const char *val = attached ? a + 2 : v;
    if (!val)
      continue;
    if (a[0] == '-' && a[1] == 'I')
      s->dirs[s->n_dirs++] = val;
    if (a[0] == '-' && a[1] == 'D') {
      const char *eq = strchr(val, '=');
      size_t vl = eq ? strlen(eq + 1) : 0;
      if (eq && vl >= 2 &&
          ((eq[1] == '"' && eq[vl] == '"') || (eq[1] == '<' && eq[vl] == '>')))
        add_macro(s, val, (size_t)(eq - val), eq + 1, vl);
    }
    if (!attached && (!strcmp(a, "-I") || !strcmp(a, "-D")))
      i++;
  }
  for (int i = 0; i + 1 < o->num_parser_args; i++)
    if (!strcmp(o->parser_args[i], "-include")) {
      const char *f = o->parser_args[++i];
      /* As clang: the working directory first, then the -I directories. */
      look_up(s, f, strlen(f), 1, ".", "<command line>", 0, 0);
    }
}

/* Checks the files the input includes (see the top of this file). Returns
 * GSR_OK, GSR_ERR_INPUT after reporting a file that is not regular, or
 * GSR_ERR_NOMEM. */
gsr_status gsri_prescan_includes(gsri_ctx *ctx) {
  scan s;
  memset(&s, 0, sizeof s);
  s.ctx = ctx;
  const char *path = ctx->opt->input_path;
  char *dir = path && strchr(path, '/') ? dir_of(path) : gsri_strdup(".");
  if (!dir)
    return GSR_ERR_NOMEM;
  unsigned errors = ctx->errors;
  read_options(&s);
  if (!s.failed)
    scan_text(&s, ctx->src, ctx->src_len, dir, ctx->name);
  for (size_t i = 0; i < s.n_todo && !s.failed; i++)
    scan_header(&s, s.todo[i]);
  for (size_t i = 0; i < s.n_todo; i++)
    free(s.todo[i]);
  for (size_t i = 0; i < s.n_macros; i++) {
    free(s.macros[i].name);
    free(s.macros[i].value);
  }
  free(s.todo);
  free(s.seen);
  free(s.macros);
  free(s.dirs);
  free(dir);
  if (ctx->errors > errors)
    return GSR_ERR_INPUT;
  return s.failed ? GSR_ERR_NOMEM : GSR_OK;
}
