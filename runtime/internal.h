/* Internal interface shared by libgsync's files. libgsync loads the
 * launch constraints gsync-rewrite writes, checks a device against them,
 * and launches rewritten kernels with their hidden state buffer:
 *   report.c       the status and one-line message a failure becomes
 *   constraints.c  validated access to the JSON document, and the loaders
 *                  of the file's parts
 *   identity.c     which output the constraints belong to (fingerprint and
 *                  state layout), checked against a program's source
 *   program.c      a gsync_program: the file read, parsed, loaded, read
 *                  back (the info calls), released
 *   device.c       device facts: the check of a device, the build options,
 *                  what a program was built with
 *   auto.c         outputs of --barrier=auto: the rule for a device (and
 *                  so the public check of a device and build options),
 *                  gsync-check's cache of its recommendation
 *   state.c        the commands on a kernel's state buffer, and their order
 *   poll-cap.c     how many work-groups discovery polls
 *   watch.c        watching a launch, and the host-visible buffer it may use
 *   finish.c       the end of a launch: what took part, an abort's message
 *   launch.c       kernel handles, and the checks and enqueuing of a launch
 *   fit.c          how many work-groups fit, for output without discovery
 *   check.c        gsync-check's measurements of a barrier rule
 * Which file may call which: docs/design.md, "libgsync's files". Every file
 * includes this header first. Its gsli_ names are hidden from a shared
 * libgsync: programs see libgsync.h's alone.
 *
 * The constraints file is parsed with json-c and validated field by field,
 * so that a malformed or newer-format file is reported by the field that
 * is wrong rather than misread. Nothing here prints or exits: every failure
 * becomes a status and a one-line message in the caller's buffer.
 */
#ifndef GSYNC_RUNTIME_INTERNAL_H
#define GSYNC_RUNTIME_INTERNAL_H

#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep, open, pthreads */
#include "libgsync.h"

#include <json-c/json.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define GSYNC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GSYNC_PRINTF(f, a)
#endif

/* One of a kernel's own parameters ("params"), as the probe of how many
 * work-groups fit sets it: kind is PARAM_GLOBAL, ..., or PARAM_OTHER for
 * a handle the probe cannot make up (kind_name says which). */
enum { PARAM_GLOBAL, PARAM_CONSTANT, PARAM_LOCAL, PARAM_PRIVATE, PARAM_OTHER };
typedef struct param_info {
  char *name;      /* "" where the file names none */
  char *kind_name; /* as the file spells it */
  int kind;
  size_t bytes; /* PARAM_PRIVATE: the value's size */
} param_info;

/* What the constraints say about one kernel. */
typedef struct kernel_info {
  char *name;
  int global_barrier;  /* reaches global_barrier(): has a state argument */
  cl_uint work_dim;    /* the dimensions its ids ask about */
  cl_uint state_index; /* the hidden argument, the kernel's last */
  size_t fixed_bytes;  /* state bytes = fixed + per_group * groups */
  size_t per_group_bytes;
  int reset_by_kernel; /* the kernel zeroes the state for the next launch */
  size_t participants_offset; /* uint32 count of participating groups */
  int has_grid;               /* the state records the virtual grid */
  size_t grid_offset;         /* its three uint32 extents */
  int has_abort_record;       /* the state holds an abort record */
  size_t abort_offset;        /* its uint32 words (docs/constraints.md) */
  size_t abort_bytes;         /* 32; 24 in files from before it was timed */
  int has_poll_cap;           /* discovery reads a cap the host writes */
  size_t poll_cap_offset;     /* its uint32 (docs/constraints.md) */
  size_t max_work_groups;     /* 0: no static bound */
  size_t min_local_size;
  int coresident_launch_required;
  /* The kernel's own parameters; has_params is 0 in files from before
   * "params", whose probe launches the kernel with the user's arguments. */
  int has_params;
  param_info *params;
  size_t n_params;
} kernel_info;

/* What a timed-out launch needs to say where it hung: the constraints'
 * "barrier_sites" and whether discovery ran. Each kernel handle keeps its
 * own copy, since it may outlive its program. */
typedef struct abort_info {
  int discovery;
  size_t spin_limit_ms; /* 0: no limit, or not said (older files) */
  char **site_places;   /* site_places[n - 1]: "file:line:col" of site n */
  size_t n_sites;
} abort_info;

/* What an output needs of a device: "requires", or what one rule inside
 * an output of --barrier=auto needs ("auto.rules[].requires"). */
typedef struct gsli_needs {
  int c_version; /* required OpenCL C version, major * 10 + minor */
  char **extensions;
  size_t n_extensions;
  char **features; /* OpenCL C 3.0 features the kernels use */
  size_t n_features;
  cl_bitfield atomic_caps; /* CL_DEVICE_ATOMIC_* bits required */
} gsli_needs;

/* One rule inside an output of --barrier=auto ("auto.rules[]"). */
typedef struct gsli_auto_rule {
  char *name;   /* "tree" */
  char *define; /* "GSYNC_BARRIER_TREE": the macro that builds it */
  int splits;
  gsli_needs needs; /* features: the output's (they are not per rule) */
  size_t fixed_bytes, per_group_bytes; /* its state, at most the kernels' */
} gsli_auto_rule;

struct gsync_program {
  char *path;    /* the constraints file, as the caller named it */
  char *barrier; /* barrier implementation name, for messages */
  int discovery;
  abort_info abort;
  int timed_record; /* "spin_limit_ms" given: the abort record is timed */
  gsli_needs needs; /* "requires" */
  /* --barrier=auto ("auto"): the rules inside, in the file's order; none
   * for an output of one named rule. The choice for a device is made by
   * gsync_program_build_options and gsync_program_choose_barrier
   * (auto.c), which keep it here (a cache, as build_options), with why. */
  gsli_auto_rule *auto_rules;
  size_t n_auto;
  int chosen; /* index into auto_rules; -1 before a choice */
  char *chosen_why;
  char *forced; /* gsync_program_set_barrier's rule, or NULL */
  kernel_info *kernels;
  size_t n_kernels;
  char **build_args; /* "build.options": the rewrite's -D, -U, -I, ... */
  size_t n_build_args;
  char *build_options; /* what gsync_program_build_options returned */
  /* -I directories held open for PoCL, which reads them through
   * /proc/self/fd (include_alias): the paths and their descriptors. */
  char **alias_dirs;
  int *alias_fds;
  size_t n_alias;
  /* The identity of the output the constraints belong to ("fingerprint",
   * "state_layout"); NULL in files from before they were written. */
  char *fingerprint;
  char *layout;
  /* The constraints' compact form (json-c's, "fingerprint" set to 16
   * zeros): with the program's source, what the fingerprint is a hash of
   * (docs/constraints.md, "Fingerprint"). */
  char *canon;
  /* "output_bytes": the output's length. A program's source begins with
   * the output; what follows it (a line PyOpenCL's cache appends, a file
   * of helpers) is not the output's and is not hashed. */
  size_t output_bytes;
  int any_barrier; /* some kernel has a state argument */
};

/* The state buffer's words and values, from the one table of them
 * (include/gsync-state.def): GSL_WORD_name is a word, or a region's first
 * word, GSL_WORDS_name a region's length, GSL_VALUE_name a value. */
enum {
#define GSYNC_STATE_REGION(name, first, words, owner, text)                    \
  GSL_WORD_##name = first, GSL_WORDS_##name = words,
#define GSYNC_STATE_WORD(name, word, text) GSL_WORD_##name = word,
#define GSYNC_STATE_VALUE(word, name, value, text) GSL_VALUE_##name = value,
#include "gsync-state.def"
#undef GSYNC_STATE_REGION
#undef GSYNC_STATE_WORD
#undef GSYNC_STATE_VALUE
};

/* Watching a launch (docs/watch.md): the prelude's region watch. */
enum {
  WATCH_BARRIERS = GSL_WORD_watch_barriers,
  WATCH_DEADLINE_MS = GSL_WORD_watch_deadline_ms,
  WATCH_START_LO = GSL_WORD_watch_start_lo,
  WATCH_START_HI = GSL_WORD_watch_start_hi,
  WATCH_CANCEL = GSL_WORD_watch_cancel,
  WATCH_TAG = GSL_WORD_watch_tag,
  WATCH_MODE = GSL_WORD_watch_mode,
  WATCH_END = GSL_WORD_watch + GSL_WORDS_watch
};
/* Word WATCH_MODE: what the host watches in a launch (prelude.cl). */
enum {
  WATCH_PROGRESS = GSL_VALUE_watch_progress,
  WATCH_CANCEL_BIT = GSL_VALUE_watch_cancel
};
/* gsync_progress and gsync_cancel take no lock, so what they read is
 * published: shared once the memory it points to is cleared (a release
 * store; they load it with acquire), prepare once why and probe are set,
 * which stay as they are from then on. */
typedef struct watch_state {
  /* the state as the host sees it when shared, else NULL */
  _Atomic(cl_uint *) shared;
  cl_context ctx;          /* retained while shared is SVM */
  cl_command_queue mapped; /* retained while shared is a mapped buffer */
  atomic_int prepare;      /* write the watch words before each launch */
  int has_clock;           /* the device has the clock a deadline needs */
  cl_uint deadline_ms;
  _Atomic cl_uint tag; /* the latest launch's tag (gsync_cancel names it) */
  char probe[240];     /* what was measured of a host-visible buffer, or "" */
  const char *why;     /* why there is no channel (static), when none */
} watch_state;

struct gsync_kernel {
  kernel_info info; /* a copy: the kernel may outlive its program */
  cl_kernel kernel; /* retained */
  cl_context ctx;   /* the kernel's (it holds it), which every queue shares */
  cl_mem state;     /* NULL for a kernel without global_barrier() */
  size_t state_bytes;
  size_t max_groups;
  /* The latest command on state (see gsli_after_latest): the queue it went to
   * (retained) or NULL for none yet, whether that queue is in order, and
   * its event, NULL where a launch on an in-order queue asked for none. */
  cl_command_queue last_q;
  int last_in_order;
  cl_event last;
  int launched;       /* a launch was enqueued: the state may not be zero */
  size_t last_groups; /* work-groups of the latest launch */
  cl_uint last_dim;   /* its dimensions, and work-groups in each */
  size_t last_shape[3];
  abort_info abort;  /* a copy of the program's */
  watch_state watch; /* all zero until gsync_watch_enable */
  /* gsync_groups_that_fit's answers: groups that fit, per device and local size
   * (the product over the dimensions); a new key replaces the oldest. */
  struct {
    cl_device_id dev;
    size_t local, groups;
  } fit[8];
  size_t n_fit;
  int fit_left_on; /* a probe's state words may not have been reset */
  /* The poll cap (gsli_poll_cap_prepare): per device and local size, how many
   * groups took part in the latest launch that launched more than took
   * part, how many launches have been capped to that since, and how many
   * capped launches admitted fewer than their cap. */
  struct {
    cl_device_id dev;
    size_t local;
    cl_uint fit, capped, short_;
  } caps[8];
  size_t n_caps;
  cl_uint cap_written;   /* the cap word as the enqueued commands leave it */
  cl_uint last_cap;      /* the latest launch's cap (0: all polled) */
  cl_device_id last_dev; /* its device and local size */
  size_t last_local;
  int cap_unread; /* its count has not yet been taken for the cap */
  /* What a launch on the device of the latest launch checked may have
   * (read_limits in launch.c): work-items per group (the device's bound;
   * the kernel's is the driver's to enforce) and per dimension, the device's
   * size_t, and the local size the kernel was compiled for
   * (reqd_work_group_size; 0s: none). */
  struct {
    cl_device_id dev; /* NULL until a launch was checked */
    size_t group_items, dim_items[3], max_size, reqd[3];
  } limits;
  /* Calls on one handle from several threads take turns: each holds this
   * for its whole length (see libgsync.h). */
  pthread_mutex_t lock;
};

/* The macro that gives --no-discovery output its probe launch, which
 * measures how many work-groups fit (rewrite-rules/discovery-none.cl):
 * state word fit_on nonzero makes a launch a probe, word fit_count is its
 * count. */
#define FIT_MACRO "gsync_fit_probe"
enum { FIT_COUNT = GSL_WORD_fit_count, FIT_ON = GSL_WORD_fit_on };

/* The abort record a launch leaves in the state when a spin gave up
 * (rewrite-rules/prelude.cl): the region abort, its words counted from
 * its first. Files from before the limit was a time ("spin_limit" in
 * polls, not "spin_limit_ms") describe a record of those before the time
 * waited. */
enum {
  ABORT_KIND = GSL_WORD_abort_kind - GSL_WORD_abort,
  ABORT_SITE = GSL_WORD_abort_site - GSL_WORD_abort,
  ABORT_GROUP = GSL_WORD_abort_group - GSL_WORD_abort,
  ABORT_REAL_GROUP = GSL_WORD_abort_real_group - GSL_WORD_abort,
  ABORT_ARRIVED = GSL_WORD_abort_arrived - GSL_WORD_abort,
  ABORT_EXPECTED = GSL_WORD_abort_expected - GSL_WORD_abort,
  ABORT_WAITED_MS = GSL_WORD_abort_waited_ms - GSL_WORD_abort,
  ABORT_LAUNCHED = GSL_WORD_abort_launched - GSL_WORD_abort,
  ABORT_WORDS = GSL_WORDS_abort
};
#define ABORT_RECORD_BYTES (ABORT_WORDS * 4)
#define ABORT_RECORD_BYTES_UNTIMED (ABORT_WAITED_MS * 4)

/* Bounds on the state a constraints file may ask for, far above what any
 * rule needs (the largest shipped one: 320 fixed bytes, 8 per group), so
 * that an edited or corrupt file cannot make libgsync allocate gigabytes
 * before anything else notices. */
#define MAX_STATE_FIXED (1u << 20)
#define MAX_STATE_PER_GROUP (1u << 16)
/* The largest value a "params" entry may give (OpenCL devices take at
 * least 1 KiB of arguments in all), and the local memory the probe gives
 * each local pointer, which it never touches. */
#define MAX_PARAM_BYTES (1u << 16)
#define PROBE_LOCAL_BYTES 16u
/* gsync_finish reads the participant count and the abort record in one
 * read of the state's first bytes: both must lie in them. */
#define STATE_READ_BYTES 256u
enum {
  ABORTED_IN_BARRIER = GSL_VALUE_aborted_in_barrier,
  ABORTED_IN_DISCOVERY = GSL_VALUE_aborted_in_discovery,
  ABORTED_BY_CANCEL = GSL_VALUE_cancelled,
  ABORTED_AT_DEADLINE = GSL_VALUE_deadline
};

/* Where a lookup is: the file and the dotted path of the enclosing object,
 * both only for messages. */
typedef struct where {
  const char *file;
  const char *path; /* "" at the top level */
  char *err;
  size_t errlen;
} where;

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* ---- report.c ---- */
/* Writes a formatted message into err (when there is room for one) and
 * returns status, so that a failure is reported in one statement. */
gsync_status gsli_fail(char *err, size_t errlen, gsync_status status,
                       const char *fmt, ...) GSYNC_PRINTF(4, 5);
/* The symbolic name of an OpenCL error code, or "unknown error". */
const char *gsli_cl_error_name(cl_int code);
/* A failed OpenCL call as GSYNC_ERR_OPENCL, "CALL failed: NAME (CODE)". */
gsync_status gsli_cl_fail(char *err, size_t errlen, const char *call,
                          cl_int code);
/* A NULL argument where one is needed as GSYNC_ERR_ARGUMENT. */
gsync_status gsli_null_argument(char *err, size_t errlen, const char *fn,
                                const char *arg);
/* A malloc'd copy of s, or NULL when out of memory. */
char *gsli_dup_string(const char *s);

/* ---- constraints.c ---- */
/* The atomic capability names the constraints use, and their bits. */
#define N_ATOMIC_CAPS 7u
extern const struct gsli_atomic_cap {
  const char *name;
  cl_bitfield bit;
} gsli_atomic_cap_names[];
/* The kinds of "params" entries: their names in the file, the words a
 * message names them with, and their PARAM_ kind. */
#define N_PARAM_KINDS 8u
extern const struct gsli_param_kind {
  const char *name, *words;
  int kind;
} gsli_param_kinds[];
/* Field key of obj, of the json-c type type; optional: NULL if absent. */
gsync_status gsli_get_field(const where *w, json_object *obj, const char *key,
                            json_type type, int optional, json_object **out);
/* A non-negative integer field no larger than max into *out; with
 * optional, a missing key leaves *out as it is. */
gsync_status gsli_get_count(const where *w, json_object *obj, const char *key,
                            int optional, int64_t max, size_t *out);
/* The integer v into *n; 0 if it lies beyond int64. */
int gsli_json_int(json_object *v, int64_t *n);
/* Boolean field key of obj into *out (0 or 1). */
gsync_status gsli_get_bool(const where *w, json_object *obj, const char *key,
                           int optional, int *out);
/* The loaders of the file's parts, in the order program.c calls them:
 * "spin_limit_ms" and "barrier_sites", "requires", "build.options", and
 * kernels[index] with its state numbers and "params". */
gsync_status gsli_load_sites(const where *top, json_object *root,
                             gsync_program *p);
/* "auto": the rules inside an output of --barrier=auto (after the
 * kernels, whose state each must fit). */
gsync_status gsli_load_auto(const where *top, json_object *root,
                            gsync_program *p);
void gsli_free_needs(gsli_needs *n);
gsync_status gsli_load_requires(const where *top, json_object *root,
                                gsync_program *p);
gsync_status gsli_load_build(const where *top, json_object *root,
                             gsync_program *p);
gsync_status gsli_load_kernel(const where *top, json_object *obj, size_t index,
                              size_t record_bytes, kernel_info *k);
/* Frees k's parameters; copies src's into dst (0 when out of memory). */
void gsli_free_params(kernel_info *k);
int gsli_copy_params(kernel_info *dst, const kernel_info *src);

/* ---- identity.c ---- */
/* Reads "fingerprint" and "state_layout" and checks the kernels' state
 * numbers against the layout. */
gsync_status gsli_load_identity(const where *w, json_object *root,
                                gsync_program *p);
/* Checks the source of kernel's program, if it has one, against p. */
gsync_status gsli_check_kernel_program(const gsync_program *p, cl_kernel kernel,
                                       char *err, size_t errlen);

/* ---- program.c ---- */
/* Parses and validates the constraints text (len bytes) into a new
 * program; name is the file's, for messages. */
gsync_status gsli_load_text(const char *name, const char *text, size_t len,
                            gsync_program **out, char *err, size_t errlen);
/* Frees a's site table; copies src into dst (0 when out of memory). */
void gsli_free_abort_info(abort_info *a);
int gsli_copy_abort_info(abort_info *dst, const abort_info *src);

/* ---- device.c ---- */
/* A string-valued device property in a malloc'd buffer. */
cl_int gsli_device_string(cl_device_id dev, cl_device_info what, char **out);
/* NVIDIA's compute capability (major * 10 + minor), 0 on other devices. */
unsigned gsli_nv_compute_capability(cl_device_id dev);
/* The rate of the time-stamp counter a CPU device's kernels read as their
 * clock, in ticks a second; 0 where it cannot be read. */
unsigned long long gsli_tsc_hz(void);
/* Checks dev against needs (the program's "requires", or one rule's of
 * an output of --barrier=auto, named barrier in messages), and on PoCL
 * the program's build options; GSYNC_ERR_DEVICE says what is missing. */
gsync_status gsli_check_needs(const gsync_program *program, cl_device_id dev,
                              const gsli_needs *needs, const char *barrier,
                              char *err, size_t errlen);
/* gsync_program_build_options for needs, with -Ddefine unless NULL. */
const char *gsli_build_options(const gsync_program *program, cl_device_id dev,
                               const gsli_needs *needs, const char *define);
/* Sets *found to whether k's program was built for dev with -Dmacro. */
gsync_status gsli_built_with(const gsync_kernel *k, cl_device_id dev,
                             const char *macro, int *found, char *err,
                             size_t errlen);

/* ---- auto.c: outputs of --barrier=auto ---- */
/* Checks that k's program was built for dev with one rule's macro. */
gsync_status gsli_auto_check_built(const gsync_program *p,
                                   const gsync_kernel *k, cl_device_id dev,
                                   char *err, size_t errlen);

/* ---- state.c: the order of the commands on a kernel's state ---- */
/* Checks that queue belongs to the context of k's kernel; fn names the
 * public function for the message. */
gsync_status gsli_check_queue(const gsync_kernel *k, cl_command_queue queue,
                              const char *fn, char *err, size_t errlen);
/* Sets *in_order to whether queue runs its commands in order. */
cl_int gsli_queue_in_order(cl_command_queue queue, int *in_order);
/* The wait list a new command on queue needs to come after k's latest. */
gsync_status gsli_after_latest(gsync_kernel *k, cl_command_queue queue,
                               cl_uint *n, const cl_event **list, char *err,
                               size_t errlen);
/* Records a command just enqueued on queue, with its event, as k's latest. */
gsync_status gsli_record_latest(gsync_kernel *k, cl_command_queue queue,
                                cl_event ev, char *err, size_t errlen);
/* Waits on the host until k's latest command has finished. */
cl_int gsli_wait_latest(const gsync_kernel *k);
/* Enqueues a fill of k's state, or its zeroing, after k's latest command;
 * it becomes the latest. */
gsync_status gsli_fill_state(gsync_kernel *k, cl_command_queue queue,
                             const void *pattern, size_t pattern_size,
                             size_t offset, size_t size, const char *what,
                             char *err, size_t errlen);
gsync_status gsli_zero_state(gsync_kernel *k, cl_command_queue queue, char *err,
                             size_t errlen);

/* ---- poll-cap.c ---- */
/* Chooses a launch's cap and enqueues its write where it changes. */
gsync_status gsli_poll_cap_prepare(gsync_kernel *k, cl_command_queue queue,
                                   size_t groups, size_t local, char *err,
                                   size_t errlen);
/* Takes what a completed launch admitted, for the caps of later ones. */
void gsli_poll_cap_learn(gsync_kernel *k, cl_uint admitted);

/* ---- watch.c ---- */
/* Enqueues the watch's words a launch starts from. */
gsync_status gsli_watch_prepare(gsync_kernel *k, cl_command_queue queue,
                                char *err, size_t errlen);
/* The message of a launch that the host stopped (cancel or deadline). */
gsync_status gsli_watch_stopped(const gsync_kernel *k, const cl_uint *words,
                                char *err, size_t errlen);
/* Unmaps a host-visible state, and frees an SVM one, after k's latest
 * command: gsync_kernel_release calls one before releasing the buffer,
 * the other after. */
void gsli_watch_unmap(gsync_kernel *k);
void gsli_watch_release(gsync_kernel *k);

/* ---- finish.c ---- */
/* Waits for k's latest launch and reads what it reports into *info. */
gsync_status gsli_finish_launch(gsync_kernel *k, cl_command_queue queue,
                                gsync_launch_info *info, char *err,
                                size_t errlen);
/* The message of the abort record rec; returns GSYNC_ERR_TIMEOUT. */
gsync_status gsli_timeout_error(const gsync_kernel *k, const cl_uint *rec,
                                char *err, size_t errlen);

/* ---- launch.c ---- */
/* The state bytes for up to groups work-groups; 0 if beyond a size_t. */
int gsli_state_size(const kernel_info *info, size_t groups, size_t *bytes);
/* Checks an N-D launch shape on queue against the constraints and the
 * device; sets *total to the work-groups launched. */
gsync_status gsli_check_shape(gsync_kernel *k, cl_command_queue queue,
                              cl_uint work_dim, const size_t *offset,
                              const size_t *groups, const size_t *local,
                              size_t *total, char *err, size_t errlen);
/* Held while a launch sets a kernel's state argument and enqueues it. */
extern pthread_mutex_t gsli_launch_lock;

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
