/* Internal interface shared by the engine's stages:
 *   language (opencl-c.c) the OpenCL C version and features: libclang's
 *                      arguments, and the features the output uses
 *   prescan (prescan.c) the files the input includes are regular files
 *   parse  (parse.c)   libclang translation unit, the declaration prelude
 *   includes (includes.c) the files the input includes: the list for -MD,
 *                      and their text written into the input for
 *                      --inline-includes, which is then parsed again
 *   find   (find.c)    functions, call graph, global_barrier() and id sites
 *   plan   (plan.c)    which functions take part; edits and diagnostics
 *                      (with uniform.c, split.c and the others of its layer)
 *   rules  (rules.c)   built-in and user rule files, their metadata
 *   render (render.c)  the prelude text put at the top of the output
 *   apply  (apply.c)   edits {offset, length, text} over the input bytes
 *   emit   (emit.c)    the constraints JSON
 * rewrite.c runs them in that order. Under all of them, diag.c: the
 * diagnostics (gsri_report*, gsri_nomem) and positions (gsri_same_file,
 * gsri_file_name, gsri_map_line, gsri_line_col) every stage uses. Which file
 * may call which: docs/design.md, "Layers". Nothing here is exported.
 */
#ifndef GSYNC_INTERNAL_H
#define GSYNC_INTERNAL_H

#include "gsync_rewrite.h"

#include <clang-c/Index.h>
#include <stdarg.h>
#include <stddef.h>

/* Every identifier the tool injects starts with this. */
#define GSR_PREFIX "gsync_"

/* What an #include of gsync.h becomes: the output does not need it. */
#define GSR_GSYNC_H_GONE "/* gsync.h: not needed after gsync-rewrite */"

/* ---- growable string buffer (strbuf.c) ---- */
typedef struct gsri_buf {
  char *data; /* always NUL-terminated when len > 0 or after any append */
  size_t len, cap;
  int failed; /* an allocation failed; the content is then unreliable */
} gsri_buf;

void gsri_buf_append(gsri_buf *b, const char *s, size_t n);
void gsri_buf_puts(gsri_buf *b, const char *s);
void gsri_buf_printf(gsri_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gsri_buf_vprintf(gsri_buf *b, const char *fmt, va_list ap);
/* Appends the line '#line LINE "FILE"'. */
void gsri_buf_line_directive(gsri_buf *b, unsigned line, const char *file);
char *gsri_buf_take(gsri_buf *b); /* hands the data over; b is emptied */
void gsri_buf_free(gsri_buf *b);
char *gsri_strdup(const char *s);
/* Reads a whole regular file of at most max bytes (strbuf.c); NULL with
 * *why: too_large, gsri_out_of_memory, another static string, or NULL for
 * errno's. */
char *gsri_read_file(const char *path, size_t max, const char *too_large,
                     size_t *len, const char **why);
extern const char gsri_out_of_memory[];
/* Array p of *cap elements of size sz, grown to hold n + 1; NULL when out
 * of memory. */
void *gsri_grow(void *p, size_t *cap, size_t n, size_t sz);
char *gsri_strndup(const char *s, size_t n);

/* ---- hash table from keys to positions in the caller's arrays (table.c) */
typedef struct gsri_table {
  struct gsri_table_slot {
    unsigned hash;
    size_t pos; /* (size_t)-1: empty */
  } * slots;
  size_t n, cap; /* cap is 0 or a power of two */
} gsri_table;

int gsri_table_add(gsri_table *t, unsigned hash, size_t pos);
size_t gsri_table_find(const gsri_table *t, unsigned hash,
                       int (*eq)(const void *user, size_t pos),
                       const void *user);
void gsri_table_free(gsri_table *t);
unsigned gsri_hash_string(const char *s);

/* ---- rules (rules.c; headers in rule-header.c) ---- */
typedef struct gsri_embedded_rule {
  const char *name; /* file name without .cl */
  const char *text;
  size_t len;
} gsri_embedded_rule;
extern const struct gsri_embedded_rule gsri_embedded_rules[];

/* A rule file with the metadata from its header comment. */
typedef struct gsri_rule {
  char *name; /* "atomic-or" for barrier-atomic-or.cl */
  char *file; /* where it came from, for diagnostics */
  char *text;
  size_t len;
  char *summary;  /* @summary */
  char *runs_on;  /* @runs-on: the devices it is correct on, or NULL */
  char *opencl_c; /* @opencl-c: minimum OpenCL C version, "1.2" */
  char **extensions;
  size_t n_extensions; /* @extension, repeatable */
  char **capabilities;
  size_t n_capabilities;                    /* @atomic-capability */
  unsigned state_fixed;                     /* @state-fixed: bytes */
  unsigned state_per_group;                 /* @state-per-group: bytes */
  int has_state_fixed, has_state_per_group; /* given: each only once */
  int poll_cap; /* @poll-cap: a discovery rule that reads the host's cap */
  int splits;   /* @split: it defines gsync_barrier_arrive() and
                   gsync_barrier_wait() (docs/split.md) */
  unsigned long max_groups; /* @max-groups: most work-groups a launch may
                               have (its counters' range); 0: no bound */
  int is_barrier; /* barrier-NAME.cl, else a support file (discovery) */
  int from_dir;   /* read from the rules directory, not built in */
} gsri_rule;

typedef struct gsri_ruleset {
  gsri_rule *rules;
  size_t n;
} gsri_ruleset;

/* Bounds on what a rule file may say (rules.c): libgsync refuses state
 * sizes above its own bounds, and --list-barriers prints the summary. */
#define GSR_RULE_FILE_MAX 1048576
#define GSR_RULE_SUMMARY_MAX 200
#define GSR_RULE_STATE_FIXED_MAX 65536
#define GSR_RULE_STATE_PER_GROUP_MAX 4096
#define GSR_STR_(x) #x
#define GSR_STR(x) GSR_STR_(x)

/* --barrier=auto (auto.c): the most candidates include/gsync-auto.def may
 * list. */
#define GSR_AUTO_MAX 8
struct gsri_ctx;
gsr_status gsri_auto_rule(struct gsri_ctx *ctx);
void gsri_auto_macro(gsri_buf *out, const char *name);
void gsri_auto_non_splitting(const struct gsri_ctx *ctx, gsri_buf *out);
gsr_status gsri_rules_load(struct gsri_ctx *ctx, const char *rules_dir,
                           gsri_ruleset *out);
/* Reads and checks a rule's name and header comment into r (name, file,
 * text and len set), reporting through diag; 0 on a problem, -1 when out
 * of memory (not reported), 1 when good. */
int gsri_rule_parse_header(gsri_rule *r, gsr_diag_fn diag, void *user);
/* Nonzero if the len bytes at s start with GSR_PREFIX in any case: names
 * that -D and -U may not give, and that every rule tunable has. */
int gsri_reserved_name(const char *s, size_t len);
/* Frees one rule's fields (rule-header.c) and zeroes it. */
void gsri_rule_free(gsri_rule *r);
const gsri_rule *gsri_rules_find(const gsri_ruleset *set, const char *kind,
                                 const char *name);
void gsri_rules_free(gsri_ruleset *set);

/* ---- the pipeline's shared state ---- */

/* One planned change to the input: replace [offset, offset+length). */
typedef struct gsri_edit {
  size_t offset, length;
  char *text;
  unsigned order; /* insertion order; keeps inserts at one offset stable */
  long long rank; /* inserts at one offset: lower rank first (0: by order) */
} gsri_edit;

/* One cursor of a function definition, as libclang's walk lists it: the
 * find stage records every one, in preorder, so that the uniformity
 * checker can walk the bodies as often as it needs without asking libclang
 * again. */
#define GSR_NO_NODE ((unsigned)-1)
typedef struct gsri_node {
  CXCursor c;
  enum CXCursorKind kind;
  unsigned parent;       /* GSR_NO_NODE for the definition itself */
  unsigned kids, n_kids; /* children: ctx->kids[kids .. kids + n_kids) */
  unsigned end;          /* its subtree is the nodes [this one, end) */
} gsri_node;

/* The barrier pseudo-intrinsics: global_barrier(), and its two halves
 * global_barrier_arrive() and global_barrier_wait() (docs/split.md). */
typedef enum gsri_half {
  GSR_WHOLE,  /* global_barrier() */
  GSR_ARRIVE, /* global_barrier_arrive() */
  GSR_WAIT    /* global_barrier_wait() */
} gsri_half;
/* Their names, by gsri_half, and what each becomes in the output. */
extern const char *const gsri_barrier_names[3];
extern const char *const gsri_barrier_impls[3];
/* The half whose name is name, or -1 for any other name (parse.c). */
int gsri_barrier_half(const char *name);
/* Nonzero if c can be part of an identifier (parse.c). */
int gsri_ident_char(char c);
/* Nonzero if the input spells word at offset off as a whole token: not
 * part of a longer identifier on either side (parse.c). */
int gsri_word_at(const struct gsri_ctx *ctx, size_t off, const char *word);
/* The half whose name the input spells at offset off as a whole token,
 * or -1 (parse.c). */
int gsri_barrier_word_at(const struct gsri_ctx *ctx, size_t off);

/* A call of interest inside a function body. */
typedef enum gsri_site_kind {
  GSR_SITE_BARRIER, /* global_barrier() or one of its halves */
  GSR_SITE_ID,      /* a work-item function remapped to the virtual grid */
  GSR_SITE_CALL     /* a call of a user function */
} gsri_site_kind;

typedef struct gsri_site {
  gsri_site_kind kind;
  size_t name_off; /* spelling offset of the callee name in the input */
  size_t name_len;
  size_t lparen_off; /* offset of '(' (spelling), or (size_t)-1 */
  size_t rparen_off; /* offset of ')' (spelling), or (size_t)-1 */
  unsigned num_args;
  int in_main;       /* the spelling lies in the input file */
  int in_macro;      /* spelled in the body of a macro of the input */
  int callee;        /* GSR_SITE_CALL: index into the function table */
  gsri_half half;    /* GSR_SITE_BARRIER: which pseudo-intrinsic */
  char *callee_name; /* for messages */
  CXFile file;       /* expansion position, for diagnostics */
  unsigned line, col;
  CXFile spelled_in; /* the file that spells the call */
  unsigned node;     /* the call's node */
} gsri_site;

#define GSR_DIM_RUN_TIME 8u

/* One function of the translation unit (all its declarations together). */
typedef struct gsri_func {
  char *usr, *name;
  CXCursor canonical; /* the canonical declaration it was found by */
  int is_kernel;
  int has_def;
  /* Declarations in the input: where their parameter lists close. */
  struct gsri_decl {
    size_t rparen_off;   /* offset of the ')' closing the parameters */
    size_t params_begin; /* offset just after '(' */
    int void_params;     /* written as (void): replace that 'void' */
    size_t void_off;
    unsigned num_params;
    int in_main;
    int is_def;
    CXFile file;
    unsigned line, col;
  } * decls;
  size_t n_decls;
  size_t body_lbrace; /* offset just after the body's '{' */
  size_t body_begin;  /* where the body begins in the input, '{' or the
                         macro that writes it; NO_OFF if elsewhere */
  size_t body_end;    /* offset just after the body's '}' */
  CXCursor def;       /* the definition's cursor, when has_def */
  CXFile file;
  unsigned root; /* the definition's node, when has_def */
  unsigned line, col;
  unsigned num_params; /* parameters of the definition */
  char **param_types;  /* for messages and JSON: not needed yet */
  gsri_site *sites;
  size_t n_sites, cap_sites;
  unsigned dims; /* dimensions its work-item calls ask about: bit d for
                    dimension d, GSR_DIM_RUN_TIME for one computed at run
                    time (find.c) */
  /* plan results */
  int reaches_barrier;  /* transitively calls global_barrier() */
  int reaches_ids;      /* transitively uses a remapped id */
  int in_participating; /* reachable from a participating kernel */
  int takes_ctx;        /* gets the hidden parameter */
  int called_plain;     /* code without a context calls it (passing 0) */
} gsri_func;

/* A macro defined in the input. libclang cannot give the spelling location
 * of a call written inside a macro body, so macro bodies are lexed here:
 * every global_barrier(), remapped id and user-function call they spell is
 * an occurrence that may need an edit, depending on where they expand. */
typedef struct gsri_macro_use {
  gsri_site_kind kind;
  gsri_half half; /* GSR_SITE_BARRIER: which pseudo-intrinsic */
  size_t name_off, name_len;
  size_t lparen_off, rparen_off;
  unsigned num_args;
  char *name;
} gsri_macro_use;

typedef struct gsri_macro {
  char *name;
  size_t begin, end;    /* the definition's extent in the input */
  CXSourceRange extent; /* the same, for lexing */
  gsri_macro_use *uses;
  size_t n_uses;
  char **refs; /* other identifiers in the body (maybe macros) */
  size_t n_refs;
  /* The input's macros that refs name, as indices into ctx->macros (the
   * first macro of each name, as gsri_macro_named() finds it; not the
   * macro itself): resolved once, so that walks over macros that use
   * macros follow indices. */
  size_t *inner;
  size_t n_inner;
  int in_ctx, in_plain; /* expands in code with / without a context */
} gsri_macro;

typedef struct gsri_expansion {
  char *name;
  size_t offset;
} gsri_expansion;

/* Where a run of lines of the text libclang parses comes from, once
 * --inline-includes has written included files into it: output line
 * out_line onwards is line `line` onwards of file (NULL: the input). */
typedef struct gsri_line_span {
  unsigned out_line, line;
  char *file;
} gsri_line_span;

/* A global_barrier() text that becomes a barrier call: numbered in input
 * order, so that a barrier that times out can be named by file:line:col. */
typedef struct gsri_barrier_site {
  size_t name_off, rparen_off;
  gsri_half half;   /* the call it rewrites */
  unsigned number;  /* 1, 2, ...; 0 until numbered */
  const char *file; /* where it is written: the input or an inlined file */
  unsigned line, col;
} gsri_barrier_site;

typedef struct gsri_ctx {
  const gsr_options *opt;
  const char *name; /* the input as the user named it */
  char *main_path;  /* the absolute path libclang knows the input by */
  const char *src;
  size_t src_len;
  gsr_diag_fn diag;
  void *diag_user;
  unsigned errors, warnings;
  /* Sticky: an allocation failed somewhere (gsri_nomem). Any stage may set
   * it and go on with what it has; gsr_rewrite checks it at every stage
   * boundary and fails with GSR_ERR_NOMEM, as SQLite's mallocFailed. So no
   * stage drops data or skips a check silently, and none has to unwind. */
  int nomem;

  CXIndex index;
  CXTranslationUnit tu;
  CXFile main_file;

  gsri_ruleset rules;
  const gsri_rule *barrier;
  const gsri_rule *discovery;
  /* --barrier=auto (auto.c): barrier is auto_rule, made of the candidates
   * auto_rules[0 .. n_auto - 1]; n_auto is 0 for a named barrier. */
  gsri_rule auto_rule;
  const gsri_rule *auto_rules[GSR_AUTO_MAX];
  size_t n_auto;
  int no_discovery;       /* --no-discovery or --discovery=none: every launched
                             work-group takes part */
  char cl_std[8];         /* "1.2", "2.0", "3.0": what the input is parsed as */
  int cl_std_given;       /* -cl-std= named it (else 1.2, the parse default) */
  unsigned features;      /* OpenCL C 3.0 features the input is parsed
                             with, bits of gsri_feature_names (opencl-c.c) */
  unsigned features_used; /* those the output uses */
  char **lang_args;       /* what -cl-std= and -cl-ext= become for libclang */
  int n_lang_args;
  CXFile decl_file;       /* the in-memory declaration header */
  unsigned *pragma_loops; /* loop nodes under '#pragma gsync uniform' */
  size_t n_pragma_loops;
  unsigned long spin_limit; /* ms a spin waits before it gives up; 0: never */

  gsri_func *funcs;
  size_t n_funcs, cap_funcs;
  gsri_table funcs_by_decl;  /* clang_hashCursor(canonical) */
  gsri_table funcs_by_usr;   /* gsri_hash_string(usr) */
  gsri_table defs_by_name;   /* defined functions, first of each name */
  gsri_table macros_by_name; /* the input's macros, first of each name */
  gsri_node *nodes;          /* every function definition, in preorder */
  size_t n_nodes, cap_nodes;
  unsigned *kids; /* the nodes' children, grouped by parent */
  size_t n_barrier_sites;

  gsri_macro *macros;
  size_t n_macros, cap_macros;
  gsri_expansion *expansions;
  size_t n_expansions, cap_expansions;

  /* #include "gsync.h" directives of the input: [begin, end) each. */
  size_t (*gsync_includes)[2];
  size_t n_gsync_includes;

  gsri_barrier_site *bsites;
  size_t n_bsites, cap_bsites;

  gsri_edit *edits;
  size_t n_edits, cap_edits;

  /* Files read besides the input, for dependency files (includes.c). */
  char **deps;
  size_t n_deps;

  /* --inline-includes: src is the input with its includes written in
   * (includes.c); diagnostics are mapped back through spans. wrappers are
   * the offsets of the '#if 0' blocks that keep the directives. */
  int inlined;
  gsri_line_span *spans;
  size_t n_spans;
  size_t *wrappers;
  size_t n_wrappers;
  int hinted_inline; /* the note about --inline-includes was given */

  char fingerprint[17]; /* the output's hash in hex (layout.c) */

  /* Where each line of src starts, from line 1, for gsri_line_col(): made
   * when first asked, freed with the parse (a new parse, a new text). */
  size_t *line_starts;
  size_t n_line_starts;
} gsri_ctx;

/* Reports a diagnostic at a line/column of the input (0,0: no position). */
/* Records that an allocation failed (ctx->nomem) and returns 0, so that a
 * caller can write "return gsri_nomem(ctx);". */
int gsri_nomem(struct gsri_ctx *ctx);
/* A buffer's text for an edit or a message: "" (never NULL, which would
 * mean "keep this span") and ctx->nomem set if an append to it failed. */
const char *gsri_buf_text(struct gsri_ctx *ctx, const gsri_buf *b);
void gsri_report(gsri_ctx *ctx, gsr_severity sev, unsigned line, unsigned col,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Reports a diagnostic with an explicit file name. */
void gsri_report_at(gsri_ctx *ctx, gsr_severity sev, const char *file,
                    unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Reports at a line/column of file f: the input, an included file, or
 * NULL for no position. */
void gsri_report_in(gsri_ctx *ctx, gsr_severity sev, CXFile f, unsigned line,
                    unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Reports at the expansion position of loc. */
void gsri_report_loc(gsri_ctx *ctx, gsr_severity sev, CXSourceLocation loc,
                     const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* After an error about code spelled in an included file, notes once, at a
 * position of file f, that --inline-includes would rewrite it. */
void gsri_hint_inline(gsri_ctx *ctx, CXFile f, unsigned line, unsigned col);
/* Line and column (1-based) of a byte offset in the input. */
void gsri_line_col(gsri_ctx *ctx, size_t offset, unsigned *line, unsigned *col);

/* ---- the OpenCL C language (opencl-c.c) ---- */
#define GSR_N_FEATURES 15
extern const char *const gsri_feature_names[GSR_N_FEATURES];
/* Checks -cl-std= and -cl-ext= and works out ctx->cl_std, ctx->features
 * and the arguments for libclang; GSR_ERR_OPTIONS after reporting a bad
 * one. */
gsr_status gsri_language_options(gsri_ctx *ctx);
void gsri_language_dispose(gsri_ctx *ctx);
/* After a parse with errors: a note on names the errors call unknown that
 * OpenCL C 2.0 (input parsed as 1.x) or a 3.0 feature that is off (input
 * parsed as 3.0) declares, saying which option declares them. */
void gsri_language_hint(gsri_ctx *ctx);
/* Sets ctx->features_used: the optional features the output uses. */
void gsri_find_features(gsri_ctx *ctx);
/* Reports barrier state used inside a block (device-side enqueue);
 * nonzero if it reported any. */
int gsri_check_blocks(gsri_ctx *ctx);
/* The OpenCL C version the output needs, "M.m". */
const char *gsri_output_version(const gsri_ctx *ctx);

/* Refuses an #include of a file that is not a regular file, before
 * libclang would read it without end (prescan.c). */
gsr_status gsri_prescan_includes(gsri_ctx *ctx);
gsr_status gsri_parse(gsri_ctx *ctx);
/* Nonzero if a and b are the same file. clang_File_isEqual() compares
 * unique ids, and the files that exist only in memory (the declaration
 * header, and the input when it is read from standard input) share one. */
int gsri_same_file(const gsri_ctx *ctx, CXFile a, CXFile b);
/* Nonzero if the input's bytes spell word anywhere. */
int gsri_input_mentions(const gsri_ctx *ctx, const char *word);
/* Lexes the whole input into *toks; returns how many tokens. */
unsigned gsri_tokenize_input(gsri_ctx *ctx, CXToken **toks);
/* Passes libclang's diagnostics on (with only_errors, only if one is an
 * error); GSR_ERR_INPUT if one is. */
gsr_status gsri_parse_diagnostics(gsri_ctx *ctx, int only_errors);
/* Nonzero if decl is the global_barrier() that the tool declares. */
int gsri_is_builtin_barrier(CXCursor decl);
/* Nonzero if f is the in-memory header that declares it. */
int gsri_is_decl_header(CXFile f);
/* Lists the files the input includes into ctx->deps (includes.c). */
gsr_status gsri_list_includes(gsri_ctx *ctx);
/* Appends a copy of name to ctx->deps; 0 when out of memory. */
int gsri_add_dependency(gsri_ctx *ctx, const char *name);
/* Writes the input with the text of the files it includes into out, and
 * fills ctx->spans and ctx->wrappers (--inline-includes). */
gsr_status gsri_inline_includes(gsri_ctx *ctx, gsri_buf *out);
/* Frees what gsri_inline_includes() put in ctx. */
void gsri_inline_dispose(gsri_ctx *ctx);
/* Maps a line of the parsed text back to the file and line it came from
 * (the input's own name and lines when nothing was inlined). */
void gsri_map_line(const gsri_ctx *ctx, const char **file, unsigned *line);
/* The name of file f as the user would spell it (malloc'd): a file found
 * next to the input is named from the input's name, not its real path. */
char *gsri_file_name(const gsri_ctx *ctx, CXFile f);
/* Nonzero if f is gsync.h, the optional header that declares
 * global_barrier() for IDEs. */
int gsri_is_gsync_header(CXFile f);
void gsri_parse_dispose(gsri_ctx *ctx);
gsr_status gsri_find(gsri_ctx *ctx);
/* The input's macro called name (the first defined), or NULL (find.c;
 * once its walk of the translation unit is done). */
gsri_macro *gsri_macro_named(gsri_ctx *ctx, const char *name);
/* The defined function called name, or NULL (find.c; once its walk of the
 * translation unit is done). */
gsri_func *gsri_func_named(gsri_ctx *ctx, const char *name);
gsr_status gsri_plan(gsri_ctx *ctx);
/* Reports global_barrier() calls that not every work-item reaches
 * (uniform.c), unless --no-uniformity-check; reads the pragmas first.
 * Needs reaches_barrier, so plan.c calls it. */
void gsri_check_uniformity(gsri_ctx *ctx);
/* Warns of a kernel with discovery that indexes memory by a work-item or
 * group id outside a grid-stride loop: it covers only the ids of the
 * groups that take part (stride.c). Needs in_participating, so plan.c
 * calls it. */
void gsri_check_strides(gsri_ctx *ctx);
/* Checks that global_barrier_arrive() and global_barrier_wait() make
 * pairs: in order, in one block, with no global barrier and no exit
 * between them (split.c). Needs reaches_barrier, so plan.c calls it. */
void gsri_check_split(gsri_ctx *ctx);
/* Refuses those halves, once, where the chosen barrier rule has no split
 * form (no @split in its header), naming it and the rules that split. */
void gsri_check_split_rule(gsri_ctx *ctx);
/* Reads '#pragma gsync uniform' into ctx->pragma_loops, reports misplaced
 * ones and plans the comments that replace them (pragma.c). */
void gsri_read_pragmas(gsri_ctx *ctx);
/* Plans the edits inside macro bodies (plan.c). */
void gsri_plan_macros(gsri_ctx *ctx);
/* Plans the guard of every loop that can abort, so that a group stops
 * looping once a barrier gave up (abort.c). */
void gsri_plan_abort_checks(gsri_ctx *ctx);
/* Plans the anchors that keep PoCL's work-group compiler from moving a
 * barrier into code not every work-item runs (anchor.c). */
void gsri_plan_anchors(gsri_ctx *ctx);
/* The prelude: summary comment, rules, #line. Appended to out. */
gsr_status gsri_render(gsri_ctx *ctx, gsri_buf *out);
void gsri_add_edit(gsri_ctx *ctx, size_t offset, size_t length,
                   const char *text);
/* Inserts text at offset, before other inserts there of a higher rank:
 * the statement edits of abort.c and anchor.c nest by it (inner first at
 * a closing offset, outer first at an opening one; gsri_nest_rank). */
void gsri_add_insert(gsri_ctx *ctx, size_t offset, const char *text,
                     long long rank);
/* Applies the edits to the input after the prelude already in out. */
gsr_status gsri_apply(gsri_ctx *ctx, gsri_buf *out);
gsr_status gsri_emit_constraints(gsri_ctx *ctx, gsri_buf *output, int rendered,
                                 gsri_buf *out);

/* The state layout and the output's fingerprint (layout.c). */
unsigned gsri_state_fixed_bytes(const gsri_ctx *ctx);
unsigned gsri_state_per_group_bytes(const gsri_ctx *ctx);
unsigned long gsri_max_groups(const gsri_ctx *ctx);
/* Appends "gsync-layout/2 barrier=... fixed=..." (docs/constraints.md). */
void gsri_layout_string(const gsri_ctx *ctx, gsri_buf *out);
/* Appends the #define lines of the fingerprint and the layout. */
void gsri_render_fingerprint(const gsri_ctx *ctx, gsri_buf *out);
/* Hashes the finished output and canon (the constraints' compact form)
 * into ctx->fingerprint; if rendered, writes it into the output's
 * fingerprint line. */
void gsri_seal_fingerprint(gsri_ctx *ctx, gsri_buf *output, int rendered,
                           const char *canon);

/* Skips whitespace and comments in the input from off; returns the offset
 * of the next token character (src_len at the end). */
size_t gsri_skip_blank(const gsri_ctx *ctx, size_t off);
/* An offset that is no offset in the input. */
#define NO_OFF ((size_t)-1)
/* Copies the operator of binary or compound-assignment node n (two
 * children) into op, size bytes, empty if none: libclang 14's C API does
 * not say it. Read from the input after the left side where that is
 * written there, else the first punctuation token of n's extent after the
 * left side (find.c). */
void gsri_binary_op(const gsri_ctx *ctx, unsigned n, char *op, size_t size);

/* Statements in the input, for the plan's parts that add code around
 * them (stmt.c). The offset of cursor c's first character where the user
 * wrote it, and the offset just past its end; NO_OFF where that is in a
 * macro or another file. */
size_t gsri_written_at(const gsri_ctx *ctx, CXCursor c);
size_t gsri_written_end(const gsri_ctx *ctx, CXCursor c);
/* Statement node n's text [*start, *end), with its ';'; 0 if it is not
 * written in the input whole. */
int gsri_stmt_span(const gsri_ctx *ctx, unsigned n, size_t *start, size_t *end);
/* Inserts that nest as the statements do: text at the top of the
 * construct written at [start, end) (after its opening brace, or after
 * the one gsri_wrap puts there), text at its end (before a brace that
 * closes it, after one that closes a statement inside it), and braces
 * around it. */
void gsri_insert_at_top(gsri_ctx *ctx, size_t start, size_t end,
                        const char *text);
void gsri_insert_at_end(gsri_ctx *ctx, size_t start, size_t end,
                        const char *text);
/* The same, before what gsri_insert_at_top and gsri_insert_at_end put
 * there. */
void gsri_insert_before_top(gsri_ctx *ctx, size_t start, size_t end,
                            const char *text);
void gsri_insert_before_end(gsri_ctx *ctx, size_t start, size_t end,
                            const char *text);
void gsri_wrap(gsri_ctx *ctx, size_t start, size_t end);
/* A flag per node, set on the calls that reach a barrier (the call sites
 * of global_barrier() and of functions that reach it); NULL (after
 * gsri_nomem) when out of memory. The caller frees it. */
unsigned char *gsri_barrier_calls(gsri_ctx *ctx);
/* Nonzero if fn is defined in the text being rewritten (a definition in
 * an included file is an error of its own: plan.c reports it). */
int gsri_defined_here(const gsri_func *fn);
/* Nonzero if loop node n never repeats: a while or do loop whose
 * condition is the constant 0, as macros write do { ... } while (0). */
int gsri_never_repeats(const gsri_ctx *ctx, unsigned n);
/* Nonzero if the '}' that ends a span at end (exclusive) follows a space,
 * tab or newline: text put before it needs no space of its own. */
int gsri_brace_after_blank(const gsri_ctx *ctx, size_t end);
/* The label goto node n goes to (a null cursor if none). */
CXCursor gsri_goto_label(const gsri_ctx *ctx, unsigned n);

/* Given the offset of a '(' in the input, returns the offset of its
 * matching ')', skipping comments and literals, or (size_t)-1 if none;
 * also gives the offsets of the first max_semis ';' directly inside the
 * parentheses (*n_semis of them). */
size_t gsri_scan_parens(const gsri_ctx *ctx, size_t lparen, size_t *semis,
                        size_t max_semis, size_t *n_semis);

/* The state buffer's words (include/gsync-state.def, the one table of
 * them): GSR_WORD_name is the first word of each region and each word the
 * table names, GSR_WORDS_name a region's length in words. */
enum {
#define GSYNC_STATE_REGION(name, first, words, owner, text)                    \
  GSR_WORD_##name = first, GSR_WORDS_##name = words,
#define GSYNC_STATE_WORD(name, word, text) GSR_WORD_##name = word,
#define GSYNC_STATE_VALUE(word, name, value, text)
#include "gsync-state.def"
#undef GSYNC_STATE_REGION
#undef GSYNC_STATE_WORD
#undef GSYNC_STATE_VALUE
};
/* The table's macros, rendered into an output before the prelude. */
void gsri_render_state_table(gsri_buf *out);

#endif
