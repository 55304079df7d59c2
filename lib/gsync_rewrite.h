/* gsync-rewrite: the public interface of the rewriting engine.
 *
 * gsr_rewrite() takes OpenCL C that calls the pseudo-intrinsic
 * global_barrier() and returns OpenCL C that any driver builds, plus the
 * launch constraints as JSON. The engine never prints and never exits: it
 * returns a status and reports every diagnostic through the callback the
 * caller installs in gsr_options. This header does not include clang-c/.
 */
#ifndef GSYNC_REWRITE_H
#define GSYNC_REWRITE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GSR_VERSION "0.1.0"

/* 0 is the only success. */
typedef enum gsr_status {
  GSR_OK = 0,
  GSR_ERR_INPUT,   /* the input has errors (parse or rewrite diagnostics) */
  GSR_ERR_OPTIONS, /* bad options: unknown barrier, unreadable rules dir */
  GSR_ERR_PARSER,  /* libclang could not run at all */
  GSR_ERR_NOMEM,   /* an allocation failed; reported as "out of memory" */
  GSR_ERR_INTERNAL /* a defect of the tool: a built-in rule it cannot read */
} gsr_status;

/* A short text for a status ("out of memory"), for a message. */
const char *gsr_status_str(gsr_status status);

typedef enum gsr_severity { GSR_NOTE, GSR_WARNING, GSR_ERROR } gsr_severity;

/* One diagnostic. file is NULL for diagnostics about no place in the input
 * (line and col are then 0). Pointers are valid during the callback only. */
typedef struct gsr_diagnostic {
  gsr_severity severity;
  const char *file;
  unsigned line, col;
  const char *message;
} gsr_diagnostic;

typedef void (*gsr_diag_fn)(void *user, const gsr_diagnostic *diag);

/* What to rewrite and how. Set size to sizeof(gsr_options) and zero every
 * field you do not use. New fields are only ever added at the end: a caller
 * built against an older header passes a smaller size, and the fields past
 * it count as zero. */
typedef struct gsr_options {
  size_t size;
  const char *input_name; /* as the user named it ("-" for stdin) */
  const char *input_path; /* where includes are resolved from; NULL: cwd */
  const char *source;     /* the input bytes (need not end in NUL) */
  size_t source_len;
  const char *barrier;   /* barrier rule name; NULL: the default */
  int no_discovery;      /* all launched groups take part */
  const char *rules_dir; /* rule files here override the built-in ones */
  const char *const *parser_args; /* -D -U -I -include -cl-std= as given */
  int num_parser_args;
  gsr_diag_fn diag; /* may be NULL: diagnostics are dropped */
  void *diag_user;
  int no_uniformity_check; /* skip the barrier uniformity checker */
  const char *discovery;   /* discovery rule name; NULL: the default */
  int inline_includes;     /* write the text of the files the input
                              includes into the output, with #line */
  /* How long a spinning work-group waits, in milliseconds, before it
   * gives up and aborts the launch (--spin-limit): 0 the default
   * (gsr_default_spin_limit()), GSR_SPIN_UNBOUNDED never; at most
   * GSR_SPIN_LIMIT_MAX otherwise. */
  unsigned long spin_limit;
} gsr_options;

#define GSR_SPIN_UNBOUNDED ((unsigned long)-1)
#define GSR_SPIN_LIMIT_MAX 3600000ul /* one hour */

typedef struct gsr_result gsr_result;

/* Rewrites options->source. On GSR_OK *out holds the output and the
 * constraints; dispose of it with gsr_result_dispose(). On any other status
 * *out is NULL and the diagnostics say why. It runs libclang in the calling
 * process, which an input can make read an included device without end or
 * run out of stack: gsync-rewrite calls it in a child process under limits
 * on memory, time and stack (docs/design.md, "Limits"). */
gsr_status gsr_rewrite(const gsr_options *options, gsr_result **out);

/* The rewritten OpenCL C (not NUL-terminated in general: use *len). */
const char *gsr_result_output(const gsr_result *r, size_t *len);
/* The constraints as JSON text, NUL-terminated. */
const char *gsr_result_constraints(const gsr_result *r);
/* Number of warnings reported during the rewrite. */
unsigned gsr_result_warnings(const gsr_result *r);
/* The files the rewrite read besides the input, for dependency files
 * (-MD): every file the input includes, directly or not, -include ones
 * too, once each, in the order the preprocessor first entered them and
 * named as it found them; then the rule files read from rules_dir that
 * this rewrite used. The tool's built-in declaration header and the
 * compiler's own (system) headers are not listed. */
size_t gsr_result_num_dependencies(const gsr_result *r);
const char *gsr_result_dependency(const gsr_result *r, size_t i);
void gsr_result_dispose(gsr_result *r);

/* Calls fn once per rule of a kind, "barrier" or "discovery" (built-in
 * ones and those in rules_dir, which may be NULL), in name order, with its
 * one-line summary and the devices it is correct on ("" where its header
 * does not say). */
gsr_status gsr_list_rules(const char *rules_dir, const char *kind,
                          void (*fn)(void *user, const char *name,
                                     const char *summary, const char *runs_on,
                                     int is_default),
                          void *user, gsr_diag_fn diag, void *diag_user);

/* The barrier rules that --barrier=auto puts in its output, in the order
 * libgsync falls back on them (include/gsync-auto.def): sets *names, when
 * names is not NULL, to their array, and returns how many. */
size_t gsr_auto_rules(const char *const **names);

/* The default barrier and discovery rules' names. */
const char *gsr_default_barrier(void);
const char *gsr_default_discovery(void);
/* The default spin limit, in milliseconds (docs/barriers.md says why). */
unsigned long gsr_default_spin_limit(void);

#ifdef __cplusplus
}
#endif
#endif
