/* libgsync: loads the launch constraints gsync-rewrite writes, checks a
 * device against them, and launches rewritten kernels with their hidden
 * state buffer.
 *
 * The constraints file is parsed with json-c and validated field by field,
 * so that a malformed or newer-format file is reported by the field that
 * is wrong rather than misread. Nothing here prints or exits: every failure
 * becomes a status and a one-line message in the caller's buffer.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep, open, pthreads */
#include "libgsync.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

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

struct gsync_program {
  char *path;    /* the constraints file, as the caller named it */
  char *barrier; /* barrier implementation name, for messages */
  int discovery;
  abort_info abort;
  int timed_record; /* "spin_limit_ms" given: the abort record is timed */
  int c_version;    /* required OpenCL C version, major * 10 + minor */
  char **extensions;
  size_t n_extensions;
  char **features; /* OpenCL C 3.0 features the kernels use */
  size_t n_features;
  cl_bitfield atomic_caps; /* CL_DEVICE_ATOMIC_* bits required */
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
  int any_barrier; /* some kernel has a state argument */
};

/* Watching a launch (docs/watch.md): state words 18-24 of the prelude. */
enum {
  WATCH_BARRIERS = 18,
  WATCH_DEADLINE_MS,
  WATCH_START_LO,
  WATCH_START_HI,
  WATCH_CANCEL,
  WATCH_TAG,
  WATCH_MODE,
  WATCH_END
};
/* Word WATCH_MODE: what the host watches in a launch (prelude.cl). */
enum { WATCH_PROGRESS = 1, WATCH_CANCEL_BIT = 2 };
/* gsync_progress and gsync_cancel take no lock, so what they read is
 * published: shared once the memory it points to is cleared (a release
 * store; they load it with acquire), prepare once why and probe are set,
 * which stay as they are from then on. */
typedef struct watch_state {
  /* the state as the host sees it when shared, else NULL */
  _Atomic(cl_uint *) shared;
  cl_context ctx;          /* retained while shared is SVM */
  cl_command_queue mapped; /* retained while shared is a mapped buffer */
  atomic_int prepare;      /* write words 18-21, 23, 24 before each launch */
  int has_clock;           /* the device has the clock a deadline needs */
  cl_uint deadline_ms;
  _Atomic cl_uint tag; /* the latest launch's tag (gsync_cancel names it) */
  char probe[240];     /* what was measured of a host-visible buffer, or "" */
  const char *why;     /* why there is no channel (static), when none */
} watch_state;

struct gsync_kernel {
  kernel_info info; /* a copy: the kernel may outlive its program */
  cl_kernel kernel; /* retained */
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
   * (check_device_shape): work-items per group (the device's and the
   * kernel's bound) and per dimension, and the device's size_t. */
  struct {
    cl_device_id dev; /* NULL until a launch was checked */
    size_t group_items, dim_items[3], max_size;
    const char *group_bound; /* which bound group_items is */
  } limits;
  /* Calls on one handle from several threads take turns: each holds this
   * for its whole length (see libgsync.h). */
  pthread_mutex_t lock;
};

/* The atomic capability names the constraints use, and their bits. */
static const struct {
  const char *name;
  cl_bitfield bit;
} gsli_atomic_cap_names[] = {
    {"relaxed", CL_DEVICE_ATOMIC_ORDER_RELAXED},
    {"acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
    {"seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
    {"work_item_scope", CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM},
    {"work_group_scope", CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP},
    {"device_scope", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
    {"all_devices_scope", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
};

/* The macro that gives --no-discovery output its probe launch, which
 * measures how many work-groups fit (rewrite-rules/discovery-none.cl):
 * state word 4 nonzero makes a launch a probe, word 1 is its count. */
#define FIT_MACRO "gsync_fit_probe"
/* The macro GSYNC_WATCH_BUILD_OPTION defines: the watch compiled into the
 * barriers (rewrite-rules/prelude.cl). */
#define WATCH_MACRO "gsync_watch"
enum { FIT_COUNT = 1, FIT_ON = 4 };

#define N_ATOMIC_CAPS                                                          \
  (sizeof gsli_atomic_cap_names / sizeof gsli_atomic_cap_names[0])

/* The abort record a launch leaves in the state when a spin gave up
 * (rewrite-rules/prelude.cl): eight uint32 words. Files from before the
 * limit was a time ("spin_limit" in polls, not "spin_limit_ms") describe
 * a record of the first six. */
enum {
  ABORT_KIND,
  ABORT_SITE,
  ABORT_GROUP,
  ABORT_REAL_GROUP,
  ABORT_ARRIVED,
  ABORT_EXPECTED,
  ABORT_WAITED_MS,
  ABORT_LAUNCHED,
  ABORT_WORDS
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
  ABORTED_IN_BARRIER = 1,
  ABORTED_IN_DISCOVERY = 2,
  ABORTED_BY_CANCEL = 3,
  ABORTED_AT_DEADLINE = 4
};

/* Writes a formatted message into err (when there is room for one) and
 * returns status, so that a failure is reported in one statement. */
gsync_status gsli_fail(char *err, size_t errlen, gsync_status status,
                       const char *fmt, ...) GSYNC_PRINTF(4, 5);

gsync_status gsli_fail(char *err, size_t errlen, gsync_status status,
                       const char *fmt, ...) {
  if (err != NULL && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return status;
}

/* Returns the symbolic name of an OpenCL error code, or "unknown error". */
const char *gsli_cl_error_name(cl_int code) {
  switch (code) {
#define E(x)                                                                   \
  case x:                                                                      \
    return #x;
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
#undef E
  default:
    return "unknown error";
  }
}

/* Reports a failed OpenCL call as GSYNC_ERR_OPENCL; returns that status. */
gsync_status gsli_cl_fail(char *err, size_t errlen, const char *call,
                          cl_int code) {
  return gsli_fail(err, errlen, GSYNC_ERR_OPENCL, "%s failed: %s (%d)", call,
                   gsli_cl_error_name(code), (int)code);
}

/* Reports a NULL argument where one is needed as GSYNC_ERR_ARGUMENT;
 * returns that status. */
gsync_status gsli_null_argument(char *err, size_t errlen, const char *fn,
                                const char *arg) {
  return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT, "%s: %s is NULL", fn, arg);
}

/* Returns a malloc'd copy of s, or NULL when out of memory. */
char *gsli_dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy != NULL)
    memcpy(copy, s, n);
  return copy;
}

/* The largest constraints file read: the tool writes a few kilobytes. */
#define MAX_CONSTRAINTS_BYTES (16u << 20)

/* Names a file type for a message about a file that is not regular. */
static const char *file_type_word(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

/* Reads the whole file at path into a malloc'd, NUL-terminated buffer.
 * Only a regular file of at most MAX_CONSTRAINTS_BYTES is read: a device
 * such as /dev/zero would be read without end, and opening a FIFO waits
 * for a writer (it is opened without waiting, then refused). Returns
 * GSYNC_OK and sets *out and *out_len, or GSYNC_ERR_IO / GSYNC_ERR_NOMEM;
 * kind names what the file should be in the message for one too large. */
static gsync_status read_file(const char *path, const char *kind, char **out,
                              size_t *out_len, char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return gsli_fail(err, errlen, GSYNC_ERR_IO, "%s: cannot open: %s", path,
                     strerror(errno));
  struct stat sb;
  gsync_status st = GSYNC_OK;
  char *buf = NULL;
  size_t len = 0;
  if (fstat(fd, &sb) != 0) {
    st = gsli_fail(err, errlen, GSYNC_ERR_IO, "%s: cannot open: %s", path,
                   strerror(errno));
    goto close_fd;
  }
  if (!S_ISREG(sb.st_mode)) {
    st = gsli_fail(err, errlen, GSYNC_ERR_IO,
                   "%s: cannot read: %s, not a regular file", path,
                   file_type_word(sb.st_mode));
    goto close_fd;
  }
  /* The size may change while it is read: read to the end, bounded. */
  size_t cap = sb.st_size > 0 && sb.st_size < MAX_CONSTRAINTS_BYTES
                   ? (size_t)sb.st_size + 1
                   : 4096;
  for (;;) {
    if (len + 1 >= cap || buf == NULL) {
      size_t want = buf == NULL ? cap : cap * 2;
      char *bigger = realloc(buf, want);
      if (bigger == NULL) {
        st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "%s: out of memory", path);
        goto close_fd;
      }
      buf = bigger;
      cap = want;
    }
    ssize_t got = read(fd, buf + len, cap - len - 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      st = gsli_fail(err, errlen, GSYNC_ERR_IO, "%s: read error: %s", path,
                     strerror(errno));
      goto close_fd;
    }
    if (got == 0)
      break;
    len += (size_t)got;
    if (len > MAX_CONSTRAINTS_BYTES) {
      st = gsli_fail(err, errlen, GSYNC_ERR_IO,
                     "%s: cannot read: larger than %u bytes, too large for %s",
                     path, MAX_CONSTRAINTS_BYTES, kind);
      goto close_fd;
    }
  }
  buf[len] = '\0';
  *out = buf;
  *out_len = len;
  buf = NULL;
close_fd:
  free(buf);
  close(fd);
  return st;
}

gsync_status gsync_read_file(const char *path, char **text, size_t *len,
                             char *err, size_t errlen) {
  if (path == NULL || text == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "gsync_read_file: %s is NULL",
                     path == NULL ? "path" : "text");
  size_t n = 0;
  *text = NULL;
  gsync_status st = read_file(path, "a source file", text, &n, err, errlen);
  if (st == GSYNC_OK && len != NULL)
    *len = n;
  return st;
}

/* ---- Validated access to the JSON document ---- */

/* Where a lookup is: the file and the dotted path of the enclosing object,
 * both only for messages. */
typedef struct where {
  const char *file;
  const char *path; /* "" at the top level */
  char *err;
  size_t errlen;
} where;

/* Returns the name of a json-c type as a message would say it. */
static const char *json_type_word(json_type t) {
  switch (t) {
  case json_type_boolean:
    return "a boolean";
  case json_type_int:
    return "an integer";
  case json_type_string:
    return "a string";
  case json_type_array:
    return "an array";
  case json_type_object:
    return "an object";
  default:
    return "a value of another type";
  }
}

/* Looks up key in obj and checks its type. Returns GSYNC_OK and sets *out,
 * or GSYNC_ERR_FORMAT naming the file and field. When optional is set, a
 * missing key is GSYNC_OK with *out = NULL. */
gsync_status gsli_get_field(const where *w, json_object *obj, const char *key,
                            json_type type, int optional, json_object **out) {
  json_object *v = NULL;
  const char *dot = w->path[0] != '\0' ? "." : "";
  *out = NULL;
  if (!json_object_object_get_ex(obj, key, &v) || v == NULL) {
    if (optional)
      return GSYNC_OK;
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s%s%s\" is missing", w->file, w->path, dot,
                     key);
  }
  if (!json_object_is_type(v, type))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s%s%s\" must be %s", w->file, w->path, dot,
                     key, json_type_word(type));
  *out = v;
  return GSYNC_OK;
}

/* The value of the integer v into *n; 0 if it lies beyond int64, which
 * json-c gives as int64's limit (the Python loader, which reads the value
 * itself, calls it out of range too: test_loader_diff.py). */
int gsli_json_int(json_object *v, int64_t *n) {
  *n = json_object_get_int64(v);
  if (*n == INT64_MAX && json_object_get_uint64(v) != (uint64_t)INT64_MAX)
    return 0;
  if (*n == INT64_MIN && json_object_get_double(v) < (double)INT64_MIN)
    return 0;
  return 1;
}

/* Reads a non-negative integer field no larger than max into *out. Returns
 * GSYNC_OK, or GSYNC_ERR_FORMAT naming the field. When optional is set and
 * the key is missing, *out keeps its value. */
static gsync_status get_count(const where *w, json_object *obj, const char *key,
                              int optional, int64_t max, size_t *out) {
  json_object *v;
  gsync_status st = gsli_get_field(w, obj, key, json_type_int, optional, &v);
  if (st != GSYNC_OK || v == NULL)
    return st;
  int64_t n;
  if (!gsli_json_int(v, &n) || n < 0 || n > max)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s%s%s\" is out of range", w->file, w->path,
                     w->path[0] != '\0' ? "." : "", key);
  *out = (size_t)n;
  return GSYNC_OK;
}

/* Reads a boolean field into *out (0 or 1). Returns GSYNC_OK or
 * GSYNC_ERR_FORMAT; when optional and missing, *out keeps its value. */
gsync_status gsli_get_bool(const where *w, json_object *obj, const char *key,
                           int optional, int *out) {
  json_object *v;
  gsync_status st =
      gsli_get_field(w, obj, key, json_type_boolean, optional, &v);
  if (st == GSYNC_OK && v != NULL)
    *out = json_object_get_boolean(v) ? 1 : 0;
  return st;
}

/* Parses "M.m" into major * 10 + minor. Returns -1 if s is not of that
 * form with single-digit parts. */
static int parse_version(const char *s) {
  if (s[0] < '0' || s[0] > '9' || s[1] != '.' || s[2] < '0' || s[2] > '9' ||
      s[3] != '\0')
    return -1;
  return (s[0] - '0') * 10 + (s[2] - '0');
}

/* Reads the array of strings obj.key (NULL and 0 if optional and absent)
 * into a new array of copies. Returns GSYNC_OK, GSYNC_ERR_FORMAT naming the
 * element that is not a string, or GSYNC_ERR_NOMEM. On failure the copies
 * made so far are in *out, *n of them, for the caller to free. */
static gsync_status get_strings(const where *w, json_object *obj,
                                const char *key, int optional, char ***out,
                                size_t *n) {
  json_object *arr;
  gsync_status st =
      gsli_get_field(w, obj, key, json_type_array, optional, &arr);
  if (st != GSYNC_OK || arr == NULL)
    return st;
  size_t len = json_object_array_length(arr);
  *out = calloc(len > 0 ? len : 1, sizeof **out);
  if (*out == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  for (size_t i = 0; i < len; i++) {
    json_object *e = json_object_array_get_idx(arr, i);
    if (!json_object_is_type(e, json_type_string))
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s%s%s[%zu]\" must be a string", w->file,
                       w->path, w->path[0] != '\0' ? "." : "", key, i);
    if (((*out)[i] = gsli_dup_string(json_object_get_string(e))) == NULL)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w->file);
    *n = i + 1;
  }
  return GSYNC_OK;
}

/* Nonzero if the macro name at v starts with the prefix gsync-rewrite
 * reserves, gsync_ in any case: its own macros and the rules' tunables. */
static int reserved_macro(const char *v) {
  static const char prefix[] = "gsync_";
  for (size_t i = 0; i < sizeof prefix - 1; i++)
    if ((v[i] >= 'A' && v[i] <= 'Z' ? v[i] - 'A' + 'a' : v[i]) != prefix[i])
      return 0;
  return 1;
}

/* Fills p->build_args from "build.options", optional (files from before
 * it have none). A -D or -U of a reserved name is refused: the tool never
 * writes one (it refuses them), and with one a rule built from these
 * options could use more state than the file's sizes give it. */
gsync_status gsli_load_build(const where *top, json_object *root,
                             gsync_program *p) {
  json_object *build;
  gsync_status st =
      gsli_get_field(top, root, "build", json_type_object, 1, &build);
  if (st != GSYNC_OK || build == NULL)
    return st;
  where w = *top;
  w.path = "build";
  st = get_strings(&w, build, "options", 0, &p->build_args, &p->n_build_args);
  for (size_t i = 0; st == GSYNC_OK && i < p->n_build_args; i++) {
    const char *a = p->build_args[i], *v = a + 2;
    if (a[0] != '-' || (a[1] != 'D' && a[1] != 'U'))
      continue;
    if (*v == '\0' && i + 1 < p->n_build_args)
      v = p->build_args[i + 1];
    v += strspn(v, " \t");
    if (reserved_macro(v))
      st =
          gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                    "%s: field \"build.options[%zu]\" (\"%.80s\") %s a macro "
                    "with the prefix gsync_ (in any case), which gsync-rewrite "
                    "reserves for its own macros and its rules' tunables: the "
                    "file was edited",
                    w.file, i, a, a[1] == 'D' ? "defines" : "undefines");
  }
  return st;
}

/* Fills program->c_version, extensions, features and atomic_caps from the
 * "requires" object ("opencl_c_features" may be absent: none). Returns
 * GSYNC_OK, GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
gsync_status gsli_load_requires(const where *top, json_object *root,
                                gsync_program *p) {
  json_object *req, *v, *arr;
  gsync_status st =
      gsli_get_field(top, root, "requires", json_type_object, 0, &req);
  if (st != GSYNC_OK)
    return st;
  where w = *top;
  w.path = "requires";
  if ((st = gsli_get_field(&w, req, "opencl_c_version", json_type_string, 0,
                           &v)))
    return st;
  p->c_version = parse_version(json_object_get_string(v));
  if (p->c_version < 10)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"requires.opencl_c_version\" is not a version "
                     "like \"1.2\": \"%s\"",
                     w.file, json_object_get_string(v));

  if ((st = get_strings(&w, req, "extensions", 0, &p->extensions,
                        &p->n_extensions)) ||
      (st = get_strings(&w, req, "opencl_c_features", 1, &p->features,
                        &p->n_features)))
    return st;

  if ((st = gsli_get_field(&w, req, "atomic_capabilities", json_type_array, 0,
                           &arr)))
    return st;
  size_t n = json_object_array_length(arr);
  for (size_t i = 0; i < n; i++) {
    json_object *e = json_object_array_get_idx(arr, i);
    if (!json_object_is_type(e, json_type_string))
      return gsli_fail(
          w.err, w.errlen, GSYNC_ERR_FORMAT,
          "%s: field \"requires.atomic_capabilities[%zu]\" must be a "
          "string",
          w.file, i);
    const char *name = json_object_get_string(e);
    size_t k = 0;
    while (k < N_ATOMIC_CAPS &&
           strcmp(gsli_atomic_cap_names[k].name, name) != 0)
      k++;
    if (k == N_ATOMIC_CAPS)
      return gsli_fail(
          w.err, w.errlen, GSYNC_ERR_FORMAT,
          "%s: field \"requires.atomic_capabilities[%zu]\" names an "
          "unknown capability \"%s\"",
          w.file, i, name);
    p->atomic_caps |= gsli_atomic_cap_names[k].bit;
  }
  return GSYNC_OK;
}

/* Sets *w to look inside element index of the top-level array name, an
 * object, naming it "name[index]" in path (of len bytes). Returns GSYNC_OK,
 * or GSYNC_ERR_FORMAT if the element is not an object. */
static gsync_status enter_element(const where *top, const char *name,
                                  size_t index, json_object *obj, char *path,
                                  size_t len, where *w) {
  *w = *top;
  snprintf(path, len, "%s[%zu]", name, index);
  w->path = path;
  if (!json_object_is_type(obj, json_type_object))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s\" must be an object", w->file, path);
  return GSYNC_OK;
}

/* The kinds of "params" entries, as the file spells them: those the
 * probe sets (global, constant, local, private) and the handles it
 * cannot make up, with how a message names them. */
static const struct {
  const char *name, *words;
  int kind;
} gsli_param_kinds[] = {
    {"global", "a global pointer", PARAM_GLOBAL},
    {"constant", "a constant pointer", PARAM_CONSTANT},
    {"local", "a local pointer", PARAM_LOCAL},
    {"private", "a value", PARAM_PRIVATE},
    {"image", "an image", PARAM_OTHER},
    {"sampler", "a sampler", PARAM_OTHER},
    {"pipe", "a pipe", PARAM_OTHER},
    {"queue", "a device queue", PARAM_OTHER},
};
#define N_PARAM_KINDS (sizeof gsli_param_kinds / sizeof gsli_param_kinds[0])

/* Frees the parameters of k. */
void gsli_free_params(kernel_info *k) {
  for (size_t i = 0; i < k->n_params; i++) {
    free(k->params[i].name);
    free(k->params[i].kind_name);
  }
  free(k->params);
  k->params = NULL;
  k->n_params = 0;
}

/* Copies the parameters of src into dst, whose other fields are a copy of
 * src's. Returns 0 when out of memory, leaving dst with none. */
int gsli_copy_params(kernel_info *dst, const kernel_info *src) {
  dst->params =
      calloc(src->n_params > 0 ? src->n_params : 1, sizeof *dst->params);
  dst->n_params = 0;
  if (dst->params == NULL)
    return 0;
  for (size_t i = 0; i < src->n_params; i++) {
    param_info *p = &dst->params[i];
    *p = src->params[i];
    p->name = gsli_dup_string(src->params[i].name);
    p->kind_name = gsli_dup_string(src->params[i].kind_name);
    dst->n_params = i + 1;
    if (p->name == NULL || p->kind_name == NULL) {
      gsli_free_params(dst);
      return 0;
    }
  }
  return 1;
}

/* Fills k's parameters from the optional "params" of the kernel object
 * obj (w names it): one object per parameter before the state argument,
 * each with a "kind" string, "bytes" (1 to MAX_PARAM_BYTES) where the
 * kind is "private", and an optional "name". A kind this libgsync does
 * not know is PARAM_OTHER: only the probe refuses it. Returns GSYNC_OK,
 * GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
static gsync_status load_params(const where *w, json_object *obj,
                                kernel_info *k) {
  json_object *arr, *v;
  char path[96];
  gsync_status st = gsli_get_field(w, obj, "params", json_type_array, 1, &arr);
  if (st != GSYNC_OK || arr == NULL)
    return st;
  size_t n = json_object_array_length(arr);
  if (n != k->state_index)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.params\" lists %zu parameters, but the "
                     "state argument's index is %u",
                     w->file, w->path, n, (unsigned)k->state_index);
  k->has_params = 1;
  k->params = calloc(n > 0 ? n : 1, sizeof *k->params);
  if (k->params == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  for (size_t i = 0; i < n; i++) {
    param_info *p = &k->params[i];
    where e = *w;
    snprintf(path, sizeof path, "%s.params[%zu]", w->path, i);
    e.path = path;
    json_object *o = json_object_array_get_idx(arr, i);
    if (!json_object_is_type(o, json_type_object))
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s\" must be an object", w->file, path);
    k->n_params = i + 1;
    if ((st = gsli_get_field(&e, o, "name", json_type_string, 1, &v)))
      return st;
    if ((p->name = gsli_dup_string(v != NULL ? json_object_get_string(v)
                                             : "")) == NULL)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w->file);
    if ((st = gsli_get_field(&e, o, "kind", json_type_string, 0, &v)))
      return st;
    if ((p->kind_name = gsli_dup_string(json_object_get_string(v))) == NULL)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w->file);
    p->kind = PARAM_OTHER;
    for (size_t j = 0; j < N_PARAM_KINDS; j++)
      if (strcmp(gsli_param_kinds[j].name, p->kind_name) == 0)
        p->kind = gsli_param_kinds[j].kind;
    if (p->kind != PARAM_PRIVATE)
      continue;
    if ((st = get_count(&e, o, "bytes", 0, MAX_PARAM_BYTES, &p->bytes)))
      return st;
    if (p->bytes == 0)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.bytes\" is out of range", w->file, path);
  }
  return GSYNC_OK;
}

/* Fills *k from kernels[index] of the constraints; its abort record, if
 * any, is record_bytes long. Returns GSYNC_OK, GSYNC_ERR_FORMAT or
 * GSYNC_ERR_NOMEM. */
gsync_status gsli_load_kernel(const where *top, json_object *obj, size_t index,
                              size_t record_bytes, kernel_info *k) {
  char path[64], sub[96];
  json_object *v, *state, *bytes;
  gsync_status st;
  where w;
  if ((st = enter_element(top, "kernels", index, obj, path, sizeof path, &w)) ||
      (st = gsli_get_field(&w, obj, "name", json_type_string, 0, &v)))
    return st;
  k->name = gsli_dup_string(json_object_get_string(v));
  if (k->name == NULL)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w.file);
  if ((st = gsli_get_bool(&w, obj, "global_barrier", 0, &k->global_barrier)))
    return st;
  if (!k->global_barrier)
    return GSYNC_OK;

  size_t dim = 1;
  if ((st = get_count(&w, obj, "work_dim", 0, 3, &dim)))
    return st;
  if (dim == 0)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.work_dim\" is out of range", w.file, path);
  k->work_dim = (cl_uint)dim;
  if ((st = get_count(&w, obj, "max_work_groups", 0, INT64_MAX,
                      &k->max_work_groups)) ||
      (st = get_count(&w, obj, "min_local_size", 0, INT64_MAX,
                      &k->min_local_size)) ||
      (st = gsli_get_bool(&w, obj, "coresident_launch_required", 1,
                          &k->coresident_launch_required)))
    return st;

  if ((st = gsli_get_field(&w, obj, "state_arg", json_type_object, 0, &state)))
    return st;
  snprintf(sub, sizeof sub, "%s.state_arg", path);
  w.path = sub;
  size_t idx;
  if ((st = get_count(&w, state, "index", 0, UINT32_MAX - 1, &idx)) ||
      (st = gsli_get_field(&w, state, "init", json_type_string, 0, &v)))
    return st;
  k->state_index = (cl_uint)idx;
  if (strcmp(json_object_get_string(v), "zero") != 0)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.init\" is \"%s\"; this libgsync knows only "
        "\"zero\"",
        w.file, sub, json_object_get_string(v));
  if ((st = gsli_get_bool(&w, state, "reset_by_kernel", 0,
                          &k->reset_by_kernel)) ||
      (st = get_count(&w, state, "participants_offset", 0, INT64_MAX,
                      &k->participants_offset)) ||
      (st = gsli_get_field(&w, state, "bytes", json_type_object, 0, &bytes)))
    return st;
  snprintf(sub, sizeof sub, "%s.state_arg.bytes", path);
  if ((st = get_count(&w, bytes, "fixed", 0, MAX_STATE_FIXED,
                      &k->fixed_bytes)) ||
      (st = get_count(&w, bytes, "per_group", 0, MAX_STATE_PER_GROUP,
                      &k->per_group_bytes)))
    return st;
  if (k->participants_offset % 4 != 0 ||
      k->participants_offset + 4 > k->fixed_bytes)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.participants_offset\" (%zu) is not "
        "an aligned uint32 inside the %zu fixed bytes",
        w.file, path, k->participants_offset, k->fixed_bytes);
  /* Optional: constraints from before N-D launches have no grid. */
  k->grid_offset = SIZE_MAX;
  snprintf(sub, sizeof sub, "%s.state_arg", path);
  if ((st = get_count(&w, state, "grid_offset", 1, INT64_MAX, &k->grid_offset)))
    return st;
  k->has_grid = k->grid_offset != SIZE_MAX;
  if (k->has_grid && (k->grid_offset % 4 != 0 || k->fixed_bytes < 12 ||
                      k->grid_offset > k->fixed_bytes - 12))
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.grid_offset\" (%zu) is not three "
        "aligned uint32 inside the %zu fixed bytes",
        w.file, path, k->grid_offset, k->fixed_bytes);
  if (k->participants_offset + 4 > STATE_READ_BYTES)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.participants_offset\" (%zu) lies "
        "beyond the first %u bytes of the state, which libgsync reads",
        w.file, path, k->participants_offset, STATE_READ_BYTES);
  /* Optional: constraints from before the spin limit have no record. */
  k->abort_offset = SIZE_MAX;
  if ((st = get_count(&w, state, "abort_offset", 1, INT64_MAX,
                      &k->abort_offset)))
    return st;
  k->has_abort_record = k->abort_offset != SIZE_MAX;
  k->abort_bytes = record_bytes;
  if (k->has_abort_record &&
      (k->abort_offset % 4 != 0 || k->fixed_bytes < record_bytes ||
       k->abort_offset > k->fixed_bytes - record_bytes))
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.state_arg.abort_offset\" (%zu) is not an "
                     "aligned record of %zu bytes inside the %zu fixed bytes",
                     w.file, path, k->abort_offset, record_bytes,
                     k->fixed_bytes);
  if (k->has_abort_record && k->abort_offset + record_bytes > STATE_READ_BYTES)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.abort_offset\" (%zu) lies beyond "
        "the first %u bytes of the state, which libgsync reads",
        w.file, path, k->abort_offset, STATE_READ_BYTES);
  /* Optional: only discovery rules that read a poll cap have one. */
  k->poll_cap_offset = SIZE_MAX;
  if ((st = get_count(&w, state, "poll_cap_offset", 1, INT64_MAX,
                      &k->poll_cap_offset)))
    return st;
  k->has_poll_cap = k->poll_cap_offset != SIZE_MAX;
  if (k->has_poll_cap &&
      (k->poll_cap_offset % 4 != 0 || k->poll_cap_offset + 4 > k->fixed_bytes))
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.poll_cap_offset\" (%zu) is not an "
        "aligned uint32 inside the %zu fixed bytes",
        w.file, path, k->poll_cap_offset, k->fixed_bytes);
  w.path = path;
  return load_params(&w, obj, k);
}

/* Fills p->abort from "spin_limit_ms" and "barrier_sites", both optional
 * (files from before the limit was a time have neither, or the older
 * "spin_limit", which counted polls and is not read). Returns GSYNC_OK,
 * GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
gsync_status gsli_load_sites(const where *top, json_object *root,
                             gsync_program *p) {
  json_object *arr, *v;
  gsync_status st;
  p->abort.discovery = p->discovery;
  p->abort.spin_limit_ms = SIZE_MAX;
  if ((st = get_count(top, root, "spin_limit_ms", 1, UINT32_MAX,
                      &p->abort.spin_limit_ms)))
    return st;
  p->timed_record = p->abort.spin_limit_ms != SIZE_MAX;
  if (!p->timed_record)
    p->abort.spin_limit_ms = 0;
  if ((st = gsli_get_field(top, root, "barrier_sites", json_type_array, 1,
                           &arr)) ||
      (st = gsli_get_field(top, root, "barrier_sites", json_type_array, 1,
                           &arr)) ||
      arr == NULL)
    return st;
  size_t n = json_object_array_length(arr);
  p->abort.site_places = calloc(n > 0 ? n : 1, sizeof(char *));
  if (p->abort.site_places == NULL)
    return gsli_fail(top->err, top->errlen, GSYNC_ERR_NOMEM,
                     "%s: out of memory", top->file);
  p->abort.n_sites = n;
  for (size_t i = 0; i < n; i++) {
    char path[48], place[512];
    json_object *e = json_object_array_get_idx(arr, i);
    size_t site = 0, line = 0, col = 0;
    where w;
    if ((st = enter_element(top, "barrier_sites", i, e, path, sizeof path,
                            &w)) ||
        (st = get_count(&w, e, "site", 0, UINT32_MAX, &site)) ||
        (st = gsli_get_field(&w, e, "file", json_type_string, 0, &v)) ||
        (st = get_count(&w, e, "line", 0, UINT32_MAX, &line)) ||
        (st = get_count(&w, e, "column", 0, UINT32_MAX, &col)))
      return st;
    if (site != i + 1)
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.site\" is %zu; sites are numbered 1, 2, "
                       "... in order",
                       w.file, path, site);
    snprintf(place, sizeof place, "%s:%zu:%zu", json_object_get_string(v), line,
             col);
    if ((p->abort.site_places[i] = gsli_dup_string(place)) == NULL)
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w.file);
  }
  return GSYNC_OK;
}

/* ---- Identity: which output the constraints belong to ----
 *
 * gsync-rewrite writes two strings into the output, as macros, and into
 * the constraints (docs/constraints.md, "Fingerprint"): "fingerprint", a
 * hash of the whole output, and "state_layout", the rules and every size
 * and offset of the state buffer. The layout is checked against each
 * kernel's numbers when the file is loaded; both strings against the
 * program's source before a state buffer is made for one of its kernels.
 */

/* The state layout a "state_layout" string declares. */
typedef struct state_layout {
  size_t fixed, per_group, participants, grid, abort_at, record;
  char barrier[64], discovery[64];
} state_layout;

/* Matches "key=" at *s and then a value of letters, digits, '-' and '_'
 * (at most len - 1 bytes), copied into buf; advances *s past it and one
 * following space (or to the end). Returns 1 on a match. */
static int layout_word(const char **s, const char *key, char *buf, size_t len) {
  size_t kl = strlen(key), n = 0;
  const char *p = *s;
  if (strncmp(p, key, kl) != 0 || p[kl] != '=')
    return 0;
  for (p += kl + 1; (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || *p == '-' || *p == '_';
       p++) {
    if (n + 1 >= len)
      return 0;
    buf[n++] = *p;
  }
  buf[n] = '\0';
  if (n == 0 || (*p != ' ' && *p != '\0'))
    return 0;
  *s = *p == ' ' ? p + 1 : p;
  return 1;
}

/* Matches "key=N" at *s, N a decimal number of at most 9 digits. */
static int layout_number(const char **s, const char *key, size_t *out) {
  char digits[10];
  if (!layout_word(s, key, digits, sizeof digits))
    return 0;
  size_t v = 0;
  for (const char *d = digits; *d; d++) {
    if (*d < '0' || *d > '9')
      return 0;
    v = v * 10 + (size_t)(*d - '0');
  }
  *out = v;
  return 1;
}

/* Parses "gsync-layout/1 barrier=B discovery=D rules=H fixed=N
 * per_group=N participants=N grid=N abort=N record=N", every part in that
 * order and nothing else. Returns 1 if s is exactly that. */
static int parse_layout(const char *s, state_layout *l) {
  static const char head[] = "gsync-layout/1 ";
  char hash[20];
  if (strncmp(s, head, sizeof head - 1) != 0)
    return 0;
  s += sizeof head - 1;
  return layout_word(&s, "barrier", l->barrier, sizeof l->barrier) &&
         layout_word(&s, "discovery", l->discovery, sizeof l->discovery) &&
         layout_word(&s, "rules", hash, sizeof hash) && strlen(hash) == 16 &&
         layout_number(&s, "fixed", &l->fixed) &&
         layout_number(&s, "per_group", &l->per_group) &&
         layout_number(&s, "participants", &l->participants) &&
         layout_number(&s, "grid", &l->grid) &&
         layout_number(&s, "abort", &l->abort_at) &&
         layout_number(&s, "record", &l->record) && *s == '\0';
}

/* Returns whether s is 16 lower-case hexadecimal digits. */
static int is_fingerprint(const char *s) {
  size_t n = 0;
  for (; (s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'); n++)
    ;
  return n == 16 && s[n] == '\0';
}

/* Checks one kernel's state numbers against the declared layout. Returns
 * GSYNC_OK or GSYNC_ERR_FORMAT naming the first field that differs. */
static gsync_status check_kernel_layout(const where *w, size_t index,
                                        const kernel_info *k,
                                        const state_layout *l) {
  const struct {
    const char *field;
    size_t have, want;
  } f[] = {
      {"bytes.fixed", k->fixed_bytes, l->fixed},
      {"bytes.per_group", k->per_group_bytes, l->per_group},
      {"participants_offset", k->participants_offset, l->participants},
      {"grid_offset", k->has_grid ? k->grid_offset : SIZE_MAX, l->grid},
      {"abort_offset", k->has_abort_record ? k->abort_offset : SIZE_MAX,
       l->abort_at},
      {"abort record's size (spin_limit_ms)",
       k->has_abort_record ? k->abort_bytes : SIZE_MAX, l->record},
  };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    char have[32] = "missing";
    if (f[i].have == f[i].want)
      continue;
    if (f[i].have != SIZE_MAX)
      snprintf(have, sizeof have, "%zu", f[i].have);
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"kernels[%zu].state_arg.%s\" is %s, but "
                     "\"state_layout\" says %zu: the file was edited, or mixed "
                     "from two rewrites",
                     w->file, index, f[i].field, have, f[i].want);
  }
  return GSYNC_OK;
}

/* Reads "fingerprint" and "state_layout" (both optional, for files from
 * before them, but one without the other is refused) and checks every
 * kernel's state numbers, and the barrier and discovery named, against
 * the layout. Returns GSYNC_OK, GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
gsync_status gsli_load_identity(const where *w, json_object *root,
                                gsync_program *p) {
  json_object *fp, *lay;
  gsync_status st;
  state_layout l;
  for (size_t i = 0; i < p->n_kernels; i++)
    p->any_barrier |= p->kernels[i].global_barrier;
  if ((st = gsli_get_field(w, root, "fingerprint", json_type_string, 1, &fp)) ||
      (st = gsli_get_field(w, root, "state_layout", json_type_string, 1, &lay)))
    return st;
  if ((fp == NULL) != (lay == NULL))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s\" is missing", w->file,
                     fp == NULL ? "fingerprint" : "state_layout");
  if (fp == NULL)
    return GSYNC_OK;
  if (!is_fingerprint(json_object_get_string(fp)))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"fingerprint\" is not 16 hexadecimal digits",
                     w->file);
  if (!parse_layout(json_object_get_string(lay), &l))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"state_layout\" is not of the form "
                     "\"gsync-layout/1 barrier=... abort=N\"",
                     w->file);
  if (strcmp(l.barrier, p->barrier) != 0 ||
      (strcmp(l.discovery, "none") != 0) != p->discovery)
    return gsli_fail(
        w->err, w->errlen, GSYNC_ERR_FORMAT,
        "%s: fields \"barrier\" and \"discovery\" (%s, %s) differ from "
        "\"state_layout\" (barrier %s, discovery %s)",
        w->file, p->barrier, p->discovery ? "true" : "false", l.barrier,
        l.discovery);
  for (size_t i = 0; i < p->n_kernels; i++)
    if (p->kernels[i].global_barrier &&
        (st = check_kernel_layout(w, i, &p->kernels[i], &l)) != GSYNC_OK)
      return st;
  p->fingerprint = gsli_dup_string(json_object_get_string(fp));
  p->layout = gsli_dup_string(json_object_get_string(lay));
  if (p->fingerprint == NULL || p->layout == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  return GSYNC_OK;
}

/* Finds the lines '#define NAME "VALUE"' of the source (each at the start
 * of a line, as gsync-rewrite writes them). Copies the first VALUE into
 * buf (of len bytes; a longer one is taken as absent) and returns how
 * many such lines there are. */
static size_t find_define(const char *src, size_t n, const char *name,
                          char *buf, size_t len) {
  char head[64];
  size_t count = 0;
  int hl = snprintf(head, sizeof head, "#define %s \"", name);
  if (hl < 0 || (size_t)hl >= sizeof head)
    return 0;
  for (size_t i = 0; i + (size_t)hl <= n; i++) {
    if ((i > 0 && src[i - 1] != '\n') || memcmp(src + i, head, (size_t)hl))
      continue;
    const char *v = src + i + hl, *end = v;
    while (end < src + n && *end != '"' && *end != '\n')
      end++;
    if (end == src + n || *end != '"')
      continue;
    if (count++ == 0) {
      size_t vl = (size_t)(end - v);
      if (vl >= len)
        vl = 0;
      memcpy(buf, v, vl);
      buf[vl] = '\0';
    }
  }
  return count;
}

/* Checks that source holds the identity the constraints record (see the
 * top of this section). Returns GSYNC_OK or GSYNC_ERR_MISMATCH. */
static gsync_status check_identity(const gsync_program *p, const char *src,
                                   size_t n, char *err, size_t errlen) {
  char fp[32] = "", layout[256] = "";
  size_t nfp = find_define(src, n, "gsync_fingerprint", fp, sizeof fp);
  size_t nlay =
      find_define(src, n, "gsync_state_layout", layout, sizeof layout);
  if (nfp > 1 || nlay > 1)
    return gsli_fail(
        err, errlen, GSYNC_ERR_MISMATCH,
        "%s: the program's source holds %zu gsync_fingerprint lines: "
        "it joins the outputs of several rewrites",
        p->path, nfp > nlay ? nfp : nlay);
  if (nfp == 0) {
    /* A file with no global_barrier() passes through with no identity:
     * only constraints with a state argument need one. */
    if (p->fingerprint == NULL || !p->any_barrier)
      return GSYNC_OK;
    return gsli_fail(
        err, errlen, GSYNC_ERR_MISMATCH,
        "%s: the program's source has no gsync_fingerprint line, but "
        "these constraints belong to output %s: build the program "
        "from the output written with them",
        p->path, p->fingerprint);
  }
  if (p->fingerprint == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "%s: the constraints have no fingerprint (an older "
                     "gsync-rewrite wrote them), but the program's source is "
                     "output %s: use the constraints written with it",
                     p->path, fp);
  if (strcmp(fp, p->fingerprint) != 0)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "%s: the constraints belong to output %s, but the program "
                     "was built from output %s: use the output and the "
                     "constraints of one rewrite",
                     p->path, p->fingerprint, fp);
  if (nlay == 0 || strcmp(layout, p->layout) != 0)
    return gsli_fail(
        err, errlen, GSYNC_ERR_MISMATCH,
        "%s: the program's source declares state layout \"%s\", the "
        "constraints \"%s\": one of them was edited",
        p->path, layout, p->layout);
  return GSYNC_OK;
}

/* Checks the source of the program that kernel belongs to, when the
 * program has one (a program made from binaries has none to check).
 * Returns GSYNC_OK, GSYNC_ERR_MISMATCH, or GSYNC_ERR_OPENCL/NOMEM. */
gsync_status gsli_check_kernel_program(const gsync_program *p, cl_kernel kernel,
                                       char *err, size_t errlen) {
  cl_program prog = NULL;
  size_t size = 0;
  cl_int rc =
      clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_PROGRAM)", rc);
  rc = clGetProgramInfo(prog, CL_PROGRAM_SOURCE, 0, NULL, &size);
  if (rc != CL_SUCCESS || size <= 1)
    return GSYNC_OK;
  char *src = malloc(size);
  if (src == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  rc = clGetProgramInfo(prog, CL_PROGRAM_SOURCE, size, src, NULL);
  gsync_status st =
      rc != CL_SUCCESS
          ? gsli_cl_fail(err, errlen, "clGetProgramInfo(CL_PROGRAM_SOURCE)", rc)
          : check_identity(p, src, strnlen(src, size), err, errlen);
  free(src);
  return st;
}

/* Checks a source against the constraints; see libgsync.h. */
gsync_status gsync_program_check_source(const gsync_program *program,
                                        const char *source, size_t length,
                                        char *err, size_t errlen) {
  if (program == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_check_source",
                              "program");
  if (source == NULL && length > 0)
    return gsli_null_argument(err, errlen, "gsync_program_check_source",
                              "source");
  return check_identity(program, source != NULL ? source : "", length, err,
                        errlen);
}

/* Fills p from the parsed document root. Returns GSYNC_OK or the status
 * of the first problem found. */
static gsync_status load_document(const where *w, json_object *root,
                                  gsync_program *p) {
  json_object *v, *arr;
  gsync_status st;
  if (!json_object_is_type(root, json_type_object))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: not a JSON object", w->file);
  if ((st = gsli_get_field(w, root, "format", json_type_string, 0, &v)))
    return st;
  if (strcmp(json_object_get_string(v), "gsync-constraints") != 0)
    return gsli_fail(
        w->err, w->errlen, GSYNC_ERR_FORMAT,
        "%s: field \"format\" is \"%s\", not \"gsync-constraints\"", w->file,
        json_object_get_string(v));
  if ((st = gsli_get_field(w, root, "version", json_type_int, 0, &v)))
    return st;
  int64_t version;
  if (!gsli_json_int(v, &version))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"version\" is out of range", w->file);
  if (version != 1)
    return gsli_fail(
        w->err, w->errlen, GSYNC_ERR_FORMAT,
        "%s: field \"version\" is %lld; this libgsync reads version 1", w->file,
        (long long)version);
  if ((st = gsli_get_field(w, root, "barrier", json_type_string, 0, &v)))
    return st;
  p->barrier = gsli_dup_string(json_object_get_string(v));
  if (p->barrier == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  if ((st = gsli_get_bool(w, root, "discovery", 0, &p->discovery)) ||
      (st = gsli_load_sites(w, root, p)) ||
      (st = gsli_load_requires(w, root, p)) ||
      (st = gsli_load_build(w, root, p)) ||
      (st = gsli_get_field(w, root, "kernels", json_type_array, 0, &arr)))
    return st;
  size_t n = json_object_array_length(arr);
  p->kernels = calloc(n > 0 ? n : 1, sizeof *p->kernels);
  if (p->kernels == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  for (size_t i = 0; i < n; i++) {
    p->n_kernels = i + 1;
    st = gsli_load_kernel(w, json_object_array_get_idx(arr, i), i,
                          p->timed_record ? ABORT_RECORD_BYTES
                                          : ABORT_RECORD_BYTES_UNTIMED,
                          &p->kernels[i]);
    if (st != GSYNC_OK)
      return st;
  }
  return gsli_load_identity(w, root, p);
}

/* Parses len bytes of text as one JSON document, with nothing after it
 * but white space (json-c alone stops at the first NUL and ignores what
 * follows the document). Returns the document, or NULL with *why set. */
static json_object *parse_json(const char *text, size_t len, const char **why) {
  if (len > INT32_MAX || memchr(text, '\0', len) != NULL) {
    *why = len > INT32_MAX ? "too large" : "it holds a NUL byte";
    return NULL;
  }
  json_tokener *tok = json_tokener_new();
  if (tok == NULL) {
    *why = "out of memory";
    return NULL;
  }
  json_object *root = json_tokener_parse_ex(tok, text, (int)len);
  enum json_tokener_error jerr = json_tokener_get_error(tok);
  size_t used = json_tokener_get_parse_end(tok);
  json_tokener_free(tok);
  if (root == NULL || jerr != json_tokener_success) {
    json_object_put(root);
    *why = json_tokener_error_desc(
        jerr == json_tokener_continue ? json_tokener_error_parse_eof : jerr);
    return NULL;
  }
  for (; used < len; used++)
    if (strchr(" \t\r\n", text[used]) == NULL) {
      json_object_put(root);
      *why = "text after the JSON document";
      return NULL;
    }
  return root;
}

/* Parses and validates the constraints text (len bytes) into a new
 * program; name is the file's, for messages. Returns GSYNC_OK and sets
 * *out, or the first problem's status. */
gsync_status gsli_load_text(const char *name, const char *text, size_t len,
                            gsync_program **out, char *err, size_t errlen) {
  const char *why = NULL;
  gsync_program *p = NULL;
  gsync_status st;
  json_object *root = parse_json(text, len, &why);
  if (root == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_FORMAT, "%s: not valid JSON: %s",
                     name, why);
  p = calloc(1, sizeof *p);
  if (p == NULL || (p->path = gsli_dup_string(name)) == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "%s: out of memory", name);
    goto free_program;
  }
  where w = {name, "", err, errlen};
  st = load_document(&w, root, p);
  if (st != GSYNC_OK)
    goto free_program;
  *out = p;
  p = NULL;
free_program:
  gsync_program_release(p);
  json_object_put(root);
  return st;
}

/* Reads, parses and validates the constraints file into a new program.
 * Returns GSYNC_OK and sets *out, or the first problem's status. */
gsync_status gsync_program_load(const char *constraints_path,
                                gsync_program **out, char *err, size_t errlen) {
  char *text = NULL;
  size_t len = 0;
  if (out == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_load", "out");
  *out = NULL;
  if (constraints_path == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_load",
                              "constraints_path");
  gsync_status st = read_file(constraints_path, "a constraints file", &text,
                              &len, err, errlen);
  if (st == GSYNC_OK)
    st = gsli_load_text(constraints_path, text, len, out, err, errlen);
  free(text);
  return st;
}

/* Frees the site table of an abort_info. */
void gsli_free_abort_info(abort_info *a) {
  for (size_t i = 0; i < a->n_sites; i++)
    free(a->site_places[i]);
  free(a->site_places);
  memset(a, 0, sizeof *a);
}

/* Copies src into *dst (site strings too). Returns 0 when out of memory,
 * leaving *dst empty. */
int gsli_copy_abort_info(abort_info *dst, const abort_info *src) {
  *dst = *src;
  dst->site_places =
      calloc(src->n_sites > 0 ? src->n_sites : 1, sizeof(char *));
  if (dst->site_places == NULL) {
    dst->n_sites = 0;
    return 0;
  }
  for (size_t i = 0; i < src->n_sites; i++)
    if ((dst->site_places[i] = gsli_dup_string(src->site_places[i])) == NULL) {
      gsli_free_abort_info(dst);
      return 0;
    }
  return 1;
}

/* Frees program and everything it owns; NULL is a no-op. */
void gsync_program_release(gsync_program *program) {
  if (program == NULL)
    return;
  for (size_t i = 0; i < program->n_extensions; i++)
    free(program->extensions[i]);
  free(program->extensions);
  for (size_t i = 0; i < program->n_build_args; i++)
    free(program->build_args[i]);
  free(program->build_args);
  free(program->build_options);
  for (size_t i = 0; i < program->n_alias; i++) {
    close(program->alias_fds[i]);
    free(program->alias_dirs[i]);
  }
  free(program->alias_dirs);
  free(program->alias_fds);
  for (size_t i = 0; i < program->n_features; i++)
    free(program->features[i]);
  free(program->features);
  for (size_t i = 0; i < program->n_kernels; i++) {
    free(program->kernels[i].name);
    gsli_free_params(&program->kernels[i]);
  }
  free(program->kernels);
  gsli_free_abort_info(&program->abort);
  free(program->fingerprint);
  free(program->layout);
  free(program->barrier);
  free(program->path);
  free(program);
}

/* ---- Device facts ---- */

/* What check_device and build_options need to know about a device. */
typedef struct device_facts {
  char *name;
  char *extensions;
  int version;        /* the device's OpenCL version, major*10+minor */
  int c_versions[16]; /* OpenCL C versions offered, major*10+minor */
  size_t n_c_versions;
  cl_bitfield atomic_caps; /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES */
  char *features;          /* CL_DEVICE_OPENCL_C_FEATURES, space-separated; NULL
                              before OpenCL 3.0 */
} device_facts;

/* Queries a string-valued device property into a malloc'd buffer. Returns
 * CL_SUCCESS and sets *out, or the OpenCL error (CL_OUT_OF_HOST_MEMORY when
 * malloc fails). */
cl_int gsli_device_string(cl_device_id dev, cl_device_info what, char **out) {
  size_t size = 0;
  cl_int rc = clGetDeviceInfo(dev, what, 0, NULL, &size);
  if (rc != CL_SUCCESS)
    return rc;
  char *s = malloc(size + 1);
  if (s == NULL)
    return CL_OUT_OF_HOST_MEMORY;
  rc = clGetDeviceInfo(dev, what, size, s, NULL);
  if (rc != CL_SUCCESS) {
    free(s);
    return rc;
  }
  s[size] = '\0';
  *out = s;
  return CL_SUCCESS;
}

/* Finds the first "M.m" after prefix in s (as in "OpenCL C 1.2 PoCL").
 * Returns major*10+minor, or -1 when s does not start with prefix. */
static int version_after(const char *s, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(s, prefix, n) != 0)
    return -1;
  s += n;
  int major = 0, minor = 0;
  if (*s < '0' || *s > '9')
    return -1;
  while (*s >= '0' && *s <= '9')
    major = major * 10 + (*s++ - '0');
  if (*s++ != '.' || *s < '0' || *s > '9')
    return -1;
  minor = *s - '0';
  return major * 10 + minor;
}

/* Adds version v to the facts' list of OpenCL C versions unless present. */
static void add_c_version(device_facts *f, int v) {
  for (size_t i = 0; i < f->n_c_versions; i++)
    if (f->c_versions[i] == v)
      return;
  if (f->n_c_versions < sizeof f->c_versions / sizeof f->c_versions[0])
    f->c_versions[f->n_c_versions++] = v;
}

/* Returns whether the device offers OpenCL C version v. */
static int offers_c_version(const device_facts *f, int v) {
  for (size_t i = 0; i < f->n_c_versions; i++)
    if (f->c_versions[i] == v)
      return 1;
  return 0;
}

/* Frees what gather_facts allocated. */
static void free_facts(device_facts *f) {
  free(f->name);
  free(f->extensions);
  free(f->features);
}

/* Queries CL_DEVICE_OPENCL_C_FEATURES into f->features as a list of names
 * separated by spaces. Returns CL_SUCCESS or the OpenCL error. */
static cl_int query_features(cl_device_id dev, device_facts *f) {
  size_t size = 0;
  cl_int rc = clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size);
  cl_name_version *all = malloc(size > 0 ? size : 1);
  size_t n = size / sizeof *all;
  f->features = calloc(n * (CL_NAME_VERSION_MAX_NAME_SIZE + 1) + 1, 1);
  if (rc == CL_SUCCESS && (all == NULL || f->features == NULL))
    rc = CL_OUT_OF_HOST_MEMORY;
  if (rc == CL_SUCCESS && size > 0)
    rc = clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, size, all, NULL);
  size_t used = 0;
  for (size_t i = 0; rc == CL_SUCCESS && i < n; i++) {
    const char *end = memchr(all[i].name, '\0', CL_NAME_VERSION_MAX_NAME_SIZE);
    size_t len = end != NULL ? (size_t)(end - all[i].name) : 0;
    if (i > 0)
      f->features[used++] = ' ';
    memcpy(f->features + used, all[i].name, len);
    used += len;
  }
  free(all);
  return rc;
}

/* Queries dev into *f. Returns GSYNC_OK, or GSYNC_ERR_OPENCL naming the
 * failed query; on failure *f holds nothing to free. */
static gsync_status gather_facts(cl_device_id dev, device_facts *f, char *err,
                                 size_t errlen) {
  char *s = NULL;
  cl_int rc;
  memset(f, 0, sizeof *f);
  if ((rc = gsli_device_string(dev, CL_DEVICE_NAME, &f->name)) != CL_SUCCESS ||
      (rc = gsli_device_string(dev, CL_DEVICE_EXTENSIONS, &f->extensions)) !=
          CL_SUCCESS ||
      (rc = gsli_device_string(dev, CL_DEVICE_VERSION, &s)) != CL_SUCCESS) {
    free_facts(f);
    return gsli_cl_fail(err, errlen, "clGetDeviceInfo", rc);
  }
  f->version = version_after(s, "OpenCL ");
  free(s);
  s = NULL;
  if ((rc = gsli_device_string(dev, CL_DEVICE_OPENCL_C_VERSION, &s)) !=
      CL_SUCCESS) {
    free_facts(f);
    return gsli_cl_fail(err, errlen,
                        "clGetDeviceInfo(CL_DEVICE_OPENCL_C_VERSION)", rc);
  }
  /* Before OpenCL 3.0 a device offers every OpenCL C version up to its
   * highest; from 3.0 on it lists them. */
  int max_c = version_after(s, "OpenCL C ");
  free(s);
  static const int older[] = {10, 11, 12, 20};
  for (size_t i = 0; i < sizeof older / sizeof older[0]; i++)
    if (older[i] <= max_c)
      add_c_version(f, older[i]);

  if (f->version >= 30) {
    cl_name_version all[16];
    size_t size = 0;
    rc = clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof all, all,
                         &size);
    if (rc == CL_SUCCESS)
      for (size_t i = 0; i < size / sizeof all[0]; i++)
        add_c_version(f, (int)CL_VERSION_MAJOR(all[i].version) * 10 +
                             (int)CL_VERSION_MINOR(all[i].version));
    cl_device_atomic_capabilities caps = 0;
    rc = clGetDeviceInfo(dev, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof caps,
                         &caps, NULL);
    if (rc != CL_SUCCESS) {
      free_facts(f);
      return gsli_cl_fail(
          err, errlen, "clGetDeviceInfo(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES)",
          rc);
    }
    f->atomic_caps = caps;
    if ((rc = query_features(dev, f)) != CL_SUCCESS) {
      free_facts(f);
      return gsli_cl_fail(err, errlen,
                          "clGetDeviceInfo(CL_DEVICE_OPENCL_C_FEATURES)", rc);
    }
  } else if (f->version >= 20) {
    /* OpenCL 2.x makes these mandatory and has no query for them. */
    f->atomic_caps =
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
        CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  }
  return GSYNC_OK;
}

/* Returns whether the space-separated list holds exactly the word ext. */
static int has_word(const char *list, const char *ext) {
  size_t n = strlen(ext);
  if (n == 0)
    return 0;
  for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n) {
    int starts = p == list || p[-1] == ' ';
    int ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends)
      return 1;
  }
  return 0;
}

/* Returns whether ext became core in OpenCL 1.1, so that a 1.1+ device
 * need not list it. */
static int core_since_1_1(const char *ext) {
  return strcmp(ext, "cl_khr_global_int32_base_atomics") == 0 ||
         strcmp(ext, "cl_khr_global_int32_extended_atomics") == 0 ||
         strcmp(ext, "cl_khr_local_int32_base_atomics") == 0 ||
         strcmp(ext, "cl_khr_local_int32_extended_atomics") == 0;
}

/* Writes the device's OpenCL C versions as "1.2, 3.0" into buf. */
static void format_c_versions(const device_facts *f, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < f->n_c_versions && used < len; i++) {
    int n = snprintf(buf + used, len - used, "%s%d.%d", i > 0 ? ", " : "",
                     f->c_versions[i] / 10, f->c_versions[i] % 10);
    if (n < 0)
      break;
    used += (size_t)n;
  }
}

/* The first OpenCL C feature the program uses that the device does not
 * declare for OpenCL C 3.0, or NULL. */
static const char *missing_feature(const gsync_program *program,
                                   const device_facts *f) {
  for (size_t i = 0; i < program->n_features; i++)
    if (f->features == NULL || !has_word(f->features, program->features[i]))
      return program->features[i];
  return NULL;
}

/* Checks dev against "requires": atomic capabilities, OpenCL C version
 * (3.0 with the features the kernels use; 2.0 has them all), extensions,
 * in that order. Returns GSYNC_OK or the first that fails. */
gsync_status gsync_program_check_device(const gsync_program *program,
                                        cl_device_id dev, char *err,
                                        size_t errlen) {
  device_facts f;
  if (program == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_check_device",
                              "program");
  if (dev == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_check_device", "dev");
  gsync_status st = gather_facts(dev, &f, err, errlen);
  if (st != GSYNC_OK)
    return st;

  /* Capabilities first: on an OpenCL 3.0 device they decide whether
   * OpenCL C 3.0 can stand in for 2.0, and naming them is more useful. */
  for (size_t k = 0; k < N_ATOMIC_CAPS; k++) {
    cl_bitfield bit = gsli_atomic_cap_names[k].bit;
    if ((program->atomic_caps & bit) && !(f.atomic_caps & bit)) {
      st = gsli_fail(
          err, errlen, GSYNC_ERR_DEVICE,
          "device \"%s\" lacks atomic capability %s required by barrier "
          "%s",
          f.name, gsli_atomic_cap_names[k].name, program->barrier);
      goto done;
    }
  }

  int need = program->c_version;
  const char *lacks = missing_feature(program, &f);
  int ok = need >= 30   ? offers_c_version(&f, 30) && !lacks
           : need == 20 ? offers_c_version(&f, 20) ||
                              (offers_c_version(&f, 30) && !lacks)
                        : offers_c_version(&f, need);
  if (!ok && lacks && offers_c_version(&f, 30)) {
    st = gsli_fail(
        err, errlen, GSYNC_ERR_DEVICE,
        "device \"%s\" lacks OpenCL C feature %s that the kernels use "
        "(it offers OpenCL C 3.0 without it%s)",
        f.name, lacks, need == 20 ? ", and not 2.0" : "");
    goto done;
  }
  if (!ok) {
    char have[96];
    format_c_versions(&f, have, sizeof have);
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "device \"%s\" lacks OpenCL C %d.%d that the kernels need "
                   "(barrier %s; it offers %s)",
                   f.name, need / 10, need % 10, program->barrier,
                   have[0] != '\0' ? have : "none");
    goto done;
  }

  for (size_t i = 0; i < program->n_extensions; i++) {
    const char *ext = program->extensions[i];
    if (has_word(f.extensions, ext) || (f.version >= 11 && core_since_1_1(ext)))
      continue;
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "device \"%s\" lacks extension %s required by barrier %s",
                   f.name, ext, program->barrier);
    goto done;
  }
done:
  free_facts(&f);
  return st;
}

/* Returns the static -cl-std= option for program on dev (see gsync.h). */
/* The -cl-std= option for the program's OpenCL C version on dev. */
static const char *c_std_option(const gsync_program *program,
                                cl_device_id dev) {
  switch (program->c_version) {
  case 11:
    return "-cl-std=CL1.1";
  case 12:
    return "-cl-std=CL1.2";
  case 30:
    return "-cl-std=CL3.0";
  case 20: {
    /* OpenCL C 3.0 with the 2.0 features the kernels use builds them, and
     * PoCL 3.1 builds OpenCL 2.0 atomics only under -cl-std=CL3.0. */
    device_facts f;
    int use_30 = 0;
    if (gather_facts(dev, &f, NULL, 0) == GSYNC_OK) {
      use_30 = offers_c_version(&f, 30) &&
               (f.atomic_caps & program->atomic_caps) == program->atomic_caps &&
               !missing_feature(program, &f);
      free_facts(&f);
    }
    return use_30 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
  }
  default:
    return "";
  }
}

/* NVIDIA's compute capability as major * 10 + minor (90 on an H100), from
 * cl_nv_device_attribute_query; 0 on other devices. */
unsigned gsli_nv_compute_capability(cl_device_id dev) {
  char *ext = NULL;
  unsigned cc = 0;
  if (gsli_device_string(dev, CL_DEVICE_EXTENSIONS, &ext) != CL_SUCCESS)
    return 0;
  if (strstr(ext, "cl_nv_device_attribute_query")) {
    const cl_device_info major_nv = 0x4000, minor_nv = 0x4001;
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(dev, major_nv, sizeof major, &major, NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(dev, minor_nv, sizeof minor, &minor, NULL) ==
            CL_SUCCESS &&
        minor < 10)
      cc = major * 10 + minor;
  }
  free(ext);
  return cc;
}

/* The rate of the time-stamp counter that the kernels of a CPU device read
 * as their clock (rewrite-rules/prelude.cl), in ticks a second, measured
 * against CLOCK_MONOTONIC over 20 ms; 0 where it cannot be read (not x86).
 * A CPU device runs on this host, so its counter is this one. */
unsigned long long gsli_tsc_hz(void) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
  struct timespec t0, t1, pause = {0, 20000000};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned long long c0 = __builtin_ia32_rdtsc();
  nanosleep(&pause, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unsigned long long c1 = __builtin_ia32_rdtsc();
  double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  if (!(s > 0 && c1 > c0))
    return 0;
  /* To a multiple of 50 MHz (at most 1 % off a counter of 2.5 GHz or
   * more): every process then passes the same option, and a driver's
   * cache of built programs (PoCL's) finds the build of an earlier one. */
  unsigned long long step = 50000000ull,
                     hz = (unsigned long long)((double)(c1 - c0) / s);
  return hz < step ? hz : (hz + step / 2) / step * step;
#else
  return 0;
#endif
}

/* Whether arg must be quoted for clBuildProgram's option parsers, which
 * split at blanks. */
static int needs_quotes(const char *arg) {
  return strpbrk(arg, " \t\"'\\") != NULL;
}

/* Appends to b (of *len bytes used, *cap allocated) a space and then arg,
 * quoted if it needs it as OpenCL compilers take a quoted value: an
 * option's value after its flag in double quotes (-I"/a b", -D"N=a b"),
 * with \ and " escaped; any other argument whole. Returns 0 when out of
 * memory. */
static int append_option(char **b, size_t *len, size_t *cap, const char *arg) {
  size_t need = *len + 2 * strlen(arg) + 4;
  if (need > *cap) {
    size_t c = need * 2;
    char *p = realloc(*b, c);
    if (p == NULL)
      return 0;
    *b = p;
    *cap = c;
  }
  int quote = needs_quotes(arg);
  size_t flag = quote && arg[0] == '-' &&
                        ((arg[1] >= 'A' && arg[1] <= 'Z') ||
                         (arg[1] >= 'a' && arg[1] <= 'z'))
                    ? 2
                    : 0;
  char *o = *b + *len;
  if (*len > 0)
    *o++ = ' ';
  memcpy(o, arg, flag);
  o += flag;
  if (quote)
    *o++ = '"';
  for (const char *s = arg + flag; *s; s++) {
    if (quote && (*s == '"' || *s == '\\'))
      *o++ = '\\';
    *o++ = *s;
  }
  if (quote)
    *o++ = '"';
  *o = '\0';
  *len = (size_t)(o - *b);
  return 1;
}

/* Whether dev is PoCL's (its platform's name). */
static int is_pocl(cl_device_id dev) {
  cl_platform_id platform;
  char name[64] = "";
  return dev != NULL &&
         clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform,
                         NULL) == CL_SUCCESS &&
         clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name,
                           NULL) == CL_SUCCESS &&
         strstr(name, "Portable Computing Language") != NULL;
}

/* Writes into out (outlen bytes) an -I option for the directory dir that
 * holds no blank or quote: PoCL 3.1 turns the quotes of -I"/a b" into
 * blanks and searches " /a b ", so for it the directory is held open (in
 * p, until the program is released) and named as /proc/self/fd/N, which
 * its compiler, in this process, reads as the directory. Returns 0 where
 * that cannot be done (no /proc), and the option is quoted instead. */
static int include_alias(gsync_program *p, const char *dir, char *out,
                         size_t outlen) {
  size_t i = 0;
  while (i < p->n_alias && strcmp(p->alias_dirs[i], dir) != 0)
    i++;
  if (i == p->n_alias) {
    char **dirs = realloc(p->alias_dirs, (i + 1) * sizeof *dirs);
    if (dirs != NULL)
      p->alias_dirs = dirs;
    int *fds = realloc(p->alias_fds, (i + 1) * sizeof *fds);
    if (fds != NULL)
      p->alias_fds = fds;
    char *copy = dirs != NULL && fds != NULL ? gsli_dup_string(dir) : NULL;
    int fd = copy != NULL ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd < 0) {
      free(copy);
      return 0;
    }
    p->alias_dirs[i] = copy;
    p->alias_fds[i] = fd;
    p->n_alias++;
  }
  struct stat st;
  snprintf(out, outlen, "/proc/self/fd/%d", p->alias_fds[i]);
  if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
    return 0;
  snprintf(out, outlen, "-I/proc/self/fd/%d", p->alias_fds[i]);
  return 1;
}

const char *gsync_program_build_options(const gsync_program *program,
                                        cl_device_id dev) {
  if (program == NULL)
    return "";
  /* The options live in the program (a cache, not part of its value). */
  gsync_program *p = (gsync_program *)program;
  char *b = NULL, num[64];
  size_t len = 0, cap = 0;
  int ok = append_option(&b, &len, &cap, c_std_option(program, dev));
  int pocl = is_pocl(dev);
  for (size_t i = 0; ok && i < p->n_build_args; i++) {
    const char *a = p->build_args[i];
    if (pocl && strncmp(a, "-I", 2) == 0 && a[2] != '\0' && needs_quotes(a) &&
        include_alias(p, a + 2, num, sizeof num))
      a = num;
    ok = append_option(&b, &len, &cap, a);
  }
  unsigned cc = gsli_nv_compute_capability(dev);
  if (ok && cc) {
    snprintf(num, sizeof num, "-DGSYNC_NV_SM=%u", cc);
    ok = append_option(&b, &len, &cap, num);
  }
  /* Without discovery, the kernels can measure how many groups fit
   * (gsync_groups_that_fit). */
  if (ok && !p->discovery && p->any_barrier)
    ok = append_option(&b, &len, &cap, "-D" FIT_MACRO);
  cl_device_type type = 0;
  unsigned long long hz;
  if (ok && p->abort.spin_limit_ms != 0 &&
      clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
          CL_SUCCESS &&
      (type & CL_DEVICE_TYPE_CPU) && (hz = gsli_tsc_hz()) != 0) {
    snprintf(num, sizeof num, "-Dgsync_clock_hz=%lluul", hz);
    ok = append_option(&b, &len, &cap, num);
  }
  if (!ok) {
    free(b);
    return NULL;
  }
  free(p->build_options);
  p->build_options = b;
  return b != NULL ? b : "";
}

/* ---- Kernels and launches ---- */

/* Returns the constraints entry for the kernel named name, or NULL. */
static const kernel_info *find_kernel(const gsync_program *p,
                                      const char *name) {
  for (size_t i = 0; i < p->n_kernels; i++)
    if (strcmp(p->kernels[i].name, name) == 0)
      return &p->kernels[i];
  return NULL;
}

/* Computes the state bytes for launches of up to groups work-groups into
 * *bytes. Returns 0 if the size does not fit a size_t. */
int gsli_state_size(const kernel_info *info, size_t groups, size_t *bytes) {
  if (info->per_group_bytes != 0 &&
      groups > (SIZE_MAX - info->fixed_bytes) / info->per_group_bytes)
    return 0;
  *bytes = info->fixed_bytes + info->per_group_bytes * groups;
  return 1;
}

static int watch_keeps_cancel(const gsync_kernel *k);

/* ---- The order of the commands on a kernel's state ----
 *
 * Every command on the state (a launch, a fill, a read) must run after the
 * one before it. On the in-order queue the latest one went to, that order
 * is the queue's own, and a launch there asks for no event (an event and
 * a wait list cost about 1.5 µs a launch on NVIDIA's driver:
 * bench/results/h100.md). Elsewhere a command waits for the latest one's
 * event; for a launch that made none, a marker enqueued after it on its
 * queue stands in (or, without markers, that queue finishes on the host). */

/* Sets *in_order to whether queue runs its commands in order. */
cl_int gsli_queue_in_order(cl_command_queue queue, int *in_order) {
  cl_command_queue_properties props = 0;
  cl_int rc = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                    &props, NULL);
  *in_order =
      rc == CL_SUCCESS && (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
  return rc;
}

/* Sets *n and *list to the wait list a new command on queue needs to come
 * after k's latest command (empty where the queue orders it). Returns
 * GSYNC_OK or GSYNC_ERR_OPENCL. */
gsync_status gsli_after_latest(gsync_kernel *k, cl_command_queue queue,
                               cl_uint *n, const cl_event **list, char *err,
                               size_t errlen) {
  *n = 0;
  *list = NULL;
  if (k->last_q == NULL || (queue == k->last_q && k->last_in_order))
    return GSYNC_OK;
  /* A launch without an event: a marker after it on its in-order queue
   * stands in (OpenCL 1.2); without markers, that queue finishes. */
  if (k->last == NULL &&
      clEnqueueMarkerWithWaitList(k->last_q, 0, NULL, &k->last) != CL_SUCCESS) {
    k->last = NULL;
    cl_int rc = clFinish(k->last_q);
    return rc == CL_SUCCESS
               ? GSYNC_OK
               : gsli_cl_fail(err, errlen, "clFinish (the state's last queue)",
                              rc);
  }
  *n = 1;
  *list = &k->last;
  return GSYNC_OK;
}

/* Records a command just enqueued on queue, with its event ev (owned from
 * now on; NULL only on an in-order queue), as k's latest. Returns GSYNC_OK
 * or GSYNC_ERR_OPENCL. */
gsync_status gsli_record_latest(gsync_kernel *k, cl_command_queue queue,
                                cl_event ev, char *err, size_t errlen) {
  if (k->last != NULL)
    clReleaseEvent(k->last);
  k->last = ev;
  if (queue == k->last_q)
    return GSYNC_OK;
  cl_int rc = clRetainCommandQueue(queue);
  if (rc != CL_SUCCESS) {
    /* Not recorded: let it finish, so that nothing later needs its order. */
    clFinish(queue);
    return gsli_cl_fail(err, errlen, "clRetainCommandQueue", rc);
  }
  if (k->last_q != NULL)
    clReleaseCommandQueue(k->last_q);
  k->last_q = queue;
  rc = gsli_queue_in_order(queue, &k->last_in_order);
  return rc == CL_SUCCESS
             ? GSYNC_OK
             : gsli_cl_fail(err, errlen, "clGetCommandQueueInfo", rc);
}

/* Waits on the host until k's latest command has finished. */
cl_int gsli_wait_latest(const gsync_kernel *k) {
  if (k->last != NULL)
    return clWaitForEvents(1, &k->last);
  return k->last_q != NULL ? clFinish(k->last_q) : CL_SUCCESS;
}

/* Enqueues a fill of size bytes of k's state from offset with the pattern
 * (copied at once) after k's latest command (if any), and records it as
 * the latest. what names the fill in an error. Returns GSYNC_OK or
 * GSYNC_ERR_OPENCL. */
gsync_status gsli_fill_state(gsync_kernel *k, cl_command_queue queue,
                             const void *pattern, size_t pattern_size,
                             size_t offset, size_t size, const char *what,
                             char *err, size_t errlen) {
  cl_event ev = NULL;
  cl_uint n;
  const cl_event *after;
  gsync_status st = gsli_after_latest(k, queue, &n, &after, err, errlen);
  if (st != GSYNC_OK)
    return st;
  cl_int rc = clEnqueueFillBuffer(queue, k->state, pattern, pattern_size,
                                  offset, size, n, after, &ev);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, what, rc);
  return gsli_record_latest(k, queue, ev, err, errlen);
}

/* Enqueues the zeroing of k's state after its latest command (if any),
 * which becomes the latest. Returns GSYNC_OK or GSYNC_ERR_OPENCL. */
gsync_status gsli_zero_state(gsync_kernel *k, cl_command_queue queue, char *err,
                             size_t errlen) {
  const cl_uchar zero = 0;
  k->cap_written = 0;
  /* While the host shares the state, it alone writes word 22 (the
   * cancel; see gsync_cancel): the zeroing goes around it. */
  size_t ranges[2][2] = {{0, k->state_bytes}, {0, 0}};
  if (watch_keeps_cancel(k)) {
    ranges[0][1] = WATCH_CANCEL * 4;
    ranges[1][0] = WATCH_CANCEL * 4 + 4;
    ranges[1][1] = k->state_bytes;
  }
  for (int r = 0; r < 2 && ranges[r][1] > ranges[r][0]; r++) {
    gsync_status st = gsli_fill_state(
        k, queue, &zero, sizeof zero, ranges[r][0], ranges[r][1] - ranges[r][0],
        "clEnqueueFillBuffer (state)", err, errlen);
    if (st != GSYNC_OK)
      return st;
  }
  return GSYNC_OK;
}

/* Looks kernel up in the constraints and, if it reaches a barrier, makes
 * and zeroes its state buffer. Returns GSYNC_OK and sets *out, or why not. */
gsync_status gsync_kernel_create(const gsync_program *program, cl_context ctx,
                                 cl_command_queue queue, cl_kernel kernel,
                                 size_t max_groups, gsync_kernel **out,
                                 char *err, size_t errlen) {
  char *name = NULL;
  gsync_kernel *k = NULL;
  gsync_status st = GSYNC_OK;
  size_t size = 0;
  cl_int rc;

  static const char fn[] = "gsync_kernel_create";
  if (out == NULL)
    return gsli_null_argument(err, errlen, fn, "out");
  *out = NULL;
  if (program == NULL || ctx == NULL || queue == NULL || kernel == NULL)
    return gsli_null_argument(err, errlen, fn,
                              program == NULL ? "program"
                              : ctx == NULL   ? "ctx"
                              : queue == NULL ? "queue"
                                              : "kernel");
  rc = clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, NULL, &size);
  if (rc == CL_SUCCESS) {
    if ((name = malloc(size + 1)) == NULL)
      return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    rc = clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, name, NULL);
    name[size] = '\0';
  }
  if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_FUNCTION_NAME)",
                      rc);
    goto free_name;
  }
  const kernel_info *info = find_kernel(program, name);
  if (info == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_KERNEL, "%s: no kernel \"%s\"",
                   program->path, name);
    goto free_name;
  }
  if (max_groups == 0) {
    st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                   "kernel %s: max_groups must be at least 1", name);
    goto free_name;
  }
  /* Before the state is made to the constraints' layout: the program must
   * be built from the output they were written with. */
  if ((st = gsli_check_kernel_program(program, kernel, err, errlen)) !=
      GSYNC_OK)
    goto free_name;

  if (info->global_barrier) {
    cl_uint nargs = 0;
    rc =
        clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (rc != CL_SUCCESS) {
      st = gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", rc);
      goto free_name;
    }
    /* A mismatch means the program was not built from the output these
     * constraints belong to. */
    if (nargs != info->state_index + 1) {
      st = gsli_fail(
          err, errlen, GSYNC_ERR_KERNEL,
          "kernel %s has %u parameters, but %s puts its state argument "
          "at index %u (built from another rewrite?)",
          name, (unsigned)nargs, program->path, (unsigned)info->state_index);
      goto free_name;
    }
  }

  k = calloc(1, sizeof *k);
  if (k == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    goto free_name;
  }
  k->info = *info;
  k->info.name = name;
  name = NULL;
  k->max_groups = max_groups;
  pthread_mutex_init(&k->lock, NULL);
  if (!gsli_copy_params(&k->info, info) ||
      !gsli_copy_abort_info(&k->abort, &program->abort)) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    goto free_kernel;
  }
  if (info->global_barrier) {
    if (!gsli_state_size(info, max_groups, &k->state_bytes)) {
      st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: state for %zu work-groups overflows",
                     k->info.name, max_groups);
      goto free_kernel;
    }
    rc = CL_SUCCESS;
    k->state =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE,
                       k->state_bytes > 0 ? k->state_bytes : 4, NULL, &rc);
    if (rc != CL_SUCCESS) {
      st = gsli_cl_fail(err, errlen, "clCreateBuffer (state)", rc);
      goto free_kernel;
    }
    /* The first launch comes after this fill (gsli_after_latest), on an
     * out-of-order queue too. */
    if ((st = gsli_zero_state(k, queue, err, errlen)) != GSYNC_OK)
      goto free_kernel;
  }
  if ((rc = clRetainKernel(kernel)) != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clRetainKernel", rc);
    goto free_kernel;
  }
  k->kernel = kernel;
  *out = k;
  return GSYNC_OK;

free_kernel:
  gsync_kernel_release(k);
free_name:
  free(name);
  return st;
}

void gsli_watch_unmap(gsync_kernel *k);
void gsli_watch_release(gsync_kernel *k);
gsync_status gsli_watch_prepare(gsync_kernel *k, cl_command_queue queue,
                                char *err, size_t errlen);
gsync_status gsli_watch_stopped(const gsync_kernel *k, const cl_uint *words,
                                char *err, size_t errlen);

/* Releases k's event, state buffer and kernel reference; NULL is a no-op.
 * A launch may still run: the buffer object outlives it by OpenCL's rules,
 * and the memory a watched state lives in is given back after k's latest
 * command (gsli_watch_unmap, gsli_watch_release). */
void gsync_kernel_release(gsync_kernel *k) {
  if (k == NULL)
    return;
  if (k->state != NULL)
    gsli_watch_unmap(k); /* after k->last, so before it is released */
  if (k->state != NULL)
    clReleaseMemObject(k->state);
  gsli_watch_release(k); /* after k->last too */
  if (k->last != NULL)
    clReleaseEvent(k->last);
  if (k->last_q != NULL)
    clReleaseCommandQueue(k->last_q);
  if (k->kernel != NULL)
    clReleaseKernel(k->kernel);
  gsli_free_abort_info(&k->abort);
  free(k->info.name);
  gsli_free_params(&k->info);
  pthread_mutex_destroy(&k->lock);
  free(k);
}

/* Checks a launch shape against the constraints and create-time bound.
 * Returns GSYNC_OK or GSYNC_ERR_LAUNCH with the reason. */
static gsync_status check_launch(const gsync_kernel *k, size_t groups,
                                 size_t local_size, char *err, size_t errlen) {
  const kernel_info *i = &k->info;
  if (groups == 0 || local_size == 0)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: empty launch (%zu work-groups of %zu)",
                     i->name, groups, local_size);
  if (groups > k->max_groups)
    return gsli_fail(
        err, errlen, GSYNC_ERR_LAUNCH,
        "kernel %s: %zu work-groups exceed the %zu it was created for", i->name,
        groups, k->max_groups);
  if (groups > SIZE_MAX / local_size)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu x %zu work-items overflow", i->name,
                     groups, local_size);
  if (!i->global_barrier)
    return GSYNC_OK;
  if (i->max_work_groups != 0 && groups > i->max_work_groups)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu work-groups exceed its limit of %zu (the "
                     "most its barrier and discovery count)",
                     i->name, groups, i->max_work_groups);
  /* Constraints from before max_work_groups: the state's words count
   * work-groups in 32 bits whatever the rules. */
  if (groups > 0xffffffffu)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu work-groups exceed the %lu its state can "
                     "count",
                     i->name, groups, 0xfffffffful);
  if (local_size < i->min_local_size)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: local size %zu is below its minimum of %zu",
                     i->name, local_size, i->min_local_size);
  return GSYNC_OK;
}

/* Reads into k->limits what a launch on dev may have, unless it holds
 * dev's already. Returns GSYNC_OK or GSYNC_ERR_OPENCL. */
static gsync_status read_limits(gsync_kernel *k, cl_device_id dev, char *err,
                                size_t errlen) {
  if (k->limits.dev == dev)
    return GSYNC_OK;
  size_t group = 0, kernel_group = 0, items[16];
  cl_uint dims = 0, bits = 0;
  cl_int rc = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group,
                              &group, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims,
                         &dims, NULL);
  if (rc == CL_SUCCESS && (dims < 3 || dims > 16))
    rc = CL_INVALID_VALUE;
  if (rc == CL_SUCCESS)
    rc = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                         dims * sizeof items[0], items, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetKernelWorkGroupInfo(k->kernel, dev, CL_KERNEL_WORK_GROUP_SIZE,
                                  sizeof kernel_group, &kernel_group, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetDeviceInfo (launch limits)", rc);
  k->limits.group_bound = "the device's CL_DEVICE_MAX_WORK_GROUP_SIZE";
  if (kernel_group != 0 && kernel_group < group) {
    group = kernel_group;
    k->limits.group_bound = "the kernel's CL_KERNEL_WORK_GROUP_SIZE";
  }
  k->limits.group_items = group;
  memcpy(k->limits.dim_items, items, sizeof k->limits.dim_items);
  k->limits.max_size =
      bits >= 64 || bits == 0 ? SIZE_MAX : ((size_t)1 << bits) - 1;
  k->limits.dev = dev;
  return GSYNC_OK;
}

/* Checks an N-D launch shape on queue: the products of the work-groups
 * and of the local sizes over the dimensions fit a size_t and pass
 * check_launch; each dimension's local size, their product, and each
 * dimension's global size and offset keep to the device's limits (an
 * OpenCL driver may abort the process on a launch past them, PoCL does).
 * offset may be NULL. Sets *total to the work-groups launched. Returns
 * GSYNC_OK, GSYNC_ERR_LAUNCH or GSYNC_ERR_OPENCL. */
gsync_status gsli_check_shape(gsync_kernel *k, cl_command_queue queue,
                              cl_uint work_dim, const size_t *offset,
                              const size_t *groups, const size_t *local,
                              size_t *total, char *err, size_t errlen) {
  size_t g = 1, l = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    if ((groups[d] != 0 && g > SIZE_MAX / groups[d]) ||
        (local[d] != 0 && l > SIZE_MAX / local[d]))
      return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                       "kernel %s: the launch's size overflows", k->info.name);
    g *= groups[d];
    l *= local[d];
  }
  gsync_status st = check_launch(k, g, l, err, errlen);
  cl_device_id dev;
  cl_int rc;
  if (st == GSYNC_OK &&
      (rc = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev,
                                  NULL)) != CL_SUCCESS)
    st =
        gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)", rc);
  if (st == GSYNC_OK)
    st = read_limits(k, dev, err, errlen);
  for (cl_uint d = 0; st == GSYNC_OK && d < work_dim; d++) {
    size_t before = offset != NULL ? offset[d] : 0;
    if (local[d] > k->limits.dim_items[d])
      st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: local size %zu in dimension %u exceeds the "
                     "device's limit of %zu (CL_DEVICE_MAX_WORK_ITEM_SIZES)",
                     k->info.name, local[d], (unsigned)d,
                     k->limits.dim_items[d]);
    else if (groups[d] > k->limits.max_size / local[d] ||
             before > k->limits.max_size - groups[d] * local[d])
      st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu x %zu work-items%s in dimension %u exceed "
                     "the %zu the device's size_t holds",
                     k->info.name, groups[d], local[d],
                     before != 0 ? " past the offset" : "", (unsigned)d,
                     k->limits.max_size);
  }
  if (st == GSYNC_OK && l > k->limits.group_items)
    st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                   "kernel %s: local size %zu exceeds the %zu work-items a "
                   "work-group may have (%s)",
                   k->info.name, l, k->limits.group_items,
                   k->limits.group_bound);
  if (st == GSYNC_OK)
    *total = g;
  return st;
}

/* Held while a launch sets a kernel's state argument and enqueues it:
 * two handles may share one cl_kernel, and another thread's argument must
 * not slip in between. */
pthread_mutex_t gsli_launch_lock = PTHREAD_MUTEX_INITIALIZER;

gsync_status gsli_finish_launch(gsync_kernel *k, cl_command_queue queue,
                                gsync_launch_info *info, char *err,
                                size_t errlen);

/* ---- The poll cap (docs/constraints.md "The poll cap") ----
 *
 * A discovery rule with a poll cap polls only the first N launched groups
 * when state word poll_cap_offset holds N; the rest return at once without
 * touching the state. libgsync sets N to how many groups took part in the
 * latest launch, on the same device and local size, that launched more
 * than took part, so an oversubscribed launch costs about what a launch of
 * the groups that fit does. Every CAP_REMEASURE-th capped launch polls
 * every group again, so that a device that came to hold more groups (one
 * that another program no longer shares) is seen. A capped launch that
 * admits fewer than its cap says that the device does not run the first
 * groups together (PoCL deals groups out to its threads in runs of
 * consecutive ids) or runs fewer now: the next launch polls every group
 * again, and after CAP_SHORT such launches that device and local size get
 * no cap. */
#define CAP_REMEASURE 32u
#define CAP_SHORT 2u

/* k's entry for dev and local size local, made (replacing the oldest)
 * when it has none. */
static size_t cap_entry(gsync_kernel *k, cl_device_id dev, size_t local) {
  size_t n = sizeof k->caps / sizeof k->caps[0];
  for (size_t i = 0; i < k->n_caps && i < n; i++)
    if (k->caps[i].dev == dev && k->caps[i].local == local)
      return i;
  size_t i = k->n_caps++ % n;
  k->caps[i].dev = dev;
  k->caps[i].local = local;
  k->caps[i].fit = k->caps[i].capped = k->caps[i].short_ = 0;
  return i;
}

/* Chooses the cap of a launch of groups work-groups of local work-items on
 * queue and, where the state's word does not already act so, enqueues its
 * write after k's latest command. Returns GSYNC_OK or GSYNC_ERR_OPENCL. */
gsync_status gsli_poll_cap_prepare(gsync_kernel *k, cl_command_queue queue,
                                   size_t groups, size_t local, char *err,
                                   size_t errlen) {
  cl_device_id dev;
  cl_int rc =
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(QUEUE_DEVICE)", rc);
  size_t e = cap_entry(k, dev, local);
  cl_uint cap = 0;
  if (k->caps[e].fit != 0 && groups > k->caps[e].fit &&
      k->caps[e].short_ < CAP_SHORT) {
    if (k->caps[e].capped < CAP_REMEASURE) {
      cap = k->caps[e].fit;
      k->caps[e].capped++;
    } else {
      k->caps[e].capped = 0; /* this launch measures again */
    }
  }
  k->last_cap = cap;
  k->last_dev = dev;
  k->last_local = local;
  k->cap_unread = 1;
  /* A cap of the launch's size or more caps nothing, as 0 does. */
  cl_uint now = k->cap_written < groups ? k->cap_written : 0;
  if (now == cap)
    return GSYNC_OK;
  gsync_status st = gsli_fill_state(
      k, queue, &cap, sizeof cap, k->info.poll_cap_offset, sizeof cap,
      "clEnqueueFillBuffer (poll cap)", err, errlen);
  if (st == GSYNC_OK)
    k->cap_written = cap;
  return st;
}

/* Takes what a launch that completed admitted, out of the groups it
 * polled, for the caps of later launches. */
void gsli_poll_cap_learn(gsync_kernel *k, cl_uint admitted) {
  size_t e = cap_entry(k, k->last_dev, k->last_local);
  if (k->last_cap != 0) {
    if (admitted < k->last_cap) { /* see CAP_SHORT */
      k->caps[e].short_++;
      k->caps[e].capped = CAP_REMEASURE;
    }
  } else if (admitted < k->last_groups) {
    k->caps[e].fit = admitted; /* fewer than were launched fit */
    k->caps[e].capped = 0;
  } else if (admitted > k->caps[e].fit) {
    k->caps[e].fit = 0; /* more fit than the cap said: measure again */
  }
}

/* Reports a failed clEnqueueNDRangeKernel of k with what the code means
 * for this kernel, where OpenCL's code alone says too little: the local
 * size the kernel was compiled for (reqd_work_group_size) or the most it
 * can have on this device, or the arguments the caller must set. */
static gsync_status launch_fail(const gsync_kernel *k, cl_command_queue queue,
                                cl_uint work_dim, const size_t *local,
                                cl_int rc, char *err, size_t errlen) {
  const char *name = k->info.name;
  cl_device_id dev = NULL;
  size_t reqd[3] = {0, 0, 0}, most = 0;
  if (rc == CL_INVALID_WORK_GROUP_SIZE &&
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) ==
          CL_SUCCESS) {
    size_t items = 1;
    int differs = 0;
    for (cl_uint d = 0; d < work_dim; d++)
      items *= local[d];
    if (clGetKernelWorkGroupInfo(k->kernel, dev,
                                 CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd,
                                 reqd, NULL) == CL_SUCCESS &&
        reqd[0] != 0) {
      for (cl_uint d = 0; d < 3; d++)
        differs |= reqd[d] != (d < work_dim ? local[d] : 1);
      if (differs)
        return gsli_fail(
            err, errlen, GSYNC_ERR_OPENCL,
            "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): the "
            "kernel was compiled with reqd_work_group_size(%zu, %zu, "
            "%zu); launch it with that local size",
            name, gsli_cl_error_name(rc), (int)rc, reqd[0], reqd[1], reqd[2]);
    }
    if (clGetKernelWorkGroupInfo(k->kernel, dev, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof most, &most, NULL) == CL_SUCCESS &&
        most != 0 && items > most)
      return gsli_fail(
          err, errlen, GSYNC_ERR_OPENCL,
          "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): a "
          "local size of %zu work-items is more than the %zu this "
          "kernel can have on this device (CL_KERNEL_WORK_GROUP_SIZE)",
          name, gsli_cl_error_name(rc), (int)rc, items, most);
  }
  if (rc == CL_INVALID_KERNEL_ARGS) {
    cl_uint own = k->info.state_index;
    if (k->state != NULL && own > 0)
      return gsli_fail(
          err, errlen, GSYNC_ERR_OPENCL,
          "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): not "
          "every argument is set; set the kernel's own %u (indices 0 "
          "to %u) with clSetKernelArg before the launch, and libgsync "
          "sets the state argument (index %u)",
          name, gsli_cl_error_name(rc), (int)rc, own, own - 1, own);
    return gsli_fail(
        err, errlen, GSYNC_ERR_OPENCL,
        "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): not "
        "every argument is set; set them with clSetKernelArg before "
        "the launch",
        name, gsli_cl_error_name(rc), (int)rc);
  }
  return gsli_cl_fail(err, errlen, "clEnqueueNDRangeKernel", rc);
}
/* Sets the state argument and enqueues a launch that gsli_check_shape passed,
 * after the handle's previous command; k->lock is held. Returns GSYNC_OK
 * or GSYNC_ERR_OPENCL. */
static gsync_status enqueue_checked(gsync_kernel *k, cl_command_queue queue,
                                    cl_uint work_dim, const size_t *offset,
                                    const size_t *groups, const size_t *local,
                                    size_t total, char *err, size_t errlen) {
  gsync_status st;
  cl_int rc = CL_SUCCESS;
  cl_event ev = NULL;
  /* The state must be zero at every launch, and the kernel does not leave
   * it so; gsync_kernel_create zeroed it for the first. */
  if (k->state != NULL &&
      ((!k->info.reset_by_kernel && k->launched) || k->fit_left_on)) {
    if ((st = gsli_zero_state(k, queue, err, errlen)) != GSYNC_OK)
      return st;
    k->fit_left_on = 0;
  }
  if (k->watch.prepare &&
      (st = gsli_watch_prepare(k, queue, err, errlen)) != GSYNC_OK)
    return st;
  size_t global[3], items = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    global[d] = groups[d] * local[d];
    items *= local[d];
  }
  k->cap_unread = 0;
  if (k->state != NULL && k->info.has_poll_cap &&
      (st = gsli_poll_cap_prepare(k, queue, total, items, err, errlen)) !=
          GSYNC_OK)
    return st;
  pthread_mutex_lock(&gsli_launch_lock);
  if (k->state != NULL)
    rc = clSetKernelArg(k->kernel, k->info.state_index, sizeof(cl_mem),
                        &k->state);
  if (rc != CL_SUCCESS) {
    pthread_mutex_unlock(&gsli_launch_lock);
    return gsli_cl_fail(err, errlen, "clSetKernelArg (state)", rc);
  }
  /* Launches of one kernel share its state, so each comes after the last;
   * on the same in-order queue that needs no event. */
  cl_uint n;
  const cl_event *after;
  int in_order = queue == k->last_q && k->last_in_order;
  if (!in_order && (rc = gsli_queue_in_order(queue, &in_order)) != CL_SUCCESS) {
    pthread_mutex_unlock(&gsli_launch_lock);
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo", rc);
  }
  if ((st = gsli_after_latest(k, queue, &n, &after, err, errlen)) != GSYNC_OK) {
    pthread_mutex_unlock(&gsli_launch_lock);
    return st;
  }
  rc = clEnqueueNDRangeKernel(queue, k->kernel, work_dim, offset, global, local,
                              n, after, in_order ? NULL : &ev);
  pthread_mutex_unlock(&gsli_launch_lock);
  if (rc != CL_SUCCESS)
    return launch_fail(k, queue, work_dim, local, rc, err, errlen);
  if ((st = gsli_record_latest(k, queue, ev, err, errlen)) != GSYNC_OK)
    return st;
  k->launched = 1;
  k->last_groups = total;
  k->last_dim = work_dim;
  for (cl_uint d = 0; d < 3; d++)
    k->last_shape[d] = d < work_dim ? groups[d] : 1;
  return GSYNC_OK;
}

/* Checks the launch shape, sets the state argument, enqueues the launch
 * after the handle's previous command, and optionally reads the
 * participant count. Returns GSYNC_OK or why the launch was refused. */
gsync_status gsync_enqueue(gsync_kernel *k, cl_command_queue queue,
                           size_t groups, size_t local_size,
                           cl_uint *participants, char *err, size_t errlen) {
  size_t total;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_enqueue",
                              k == NULL ? "k" : "queue");
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_shape(k, queue, 1, NULL, &groups, &local_size,
                                     &total, err, errlen);
  if (st == GSYNC_OK)
    st = enqueue_checked(k, queue, 1, NULL, &groups, &local_size, total, err,
                         errlen);
  if (st == GSYNC_OK && participants != NULL) {
    gsync_launch_info info;
    st = gsli_finish_launch(k, queue, &info, err, errlen);
    if (st == GSYNC_OK)
      *participants = info.participants;
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}

/* The N-D form of gsync_enqueue, with a global offset. */
gsync_status gsync_enqueue_nd(gsync_kernel *k, cl_command_queue queue,
                              cl_uint work_dim, const size_t *global_offset,
                              const size_t *groups, const size_t *local_size,
                              char *err, size_t errlen) {
  size_t total;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_enqueue_nd",
                              k == NULL ? "k" : "queue");
  if (work_dim < 1 || work_dim > 3 || groups == NULL || local_size == NULL)
    return gsli_fail(
        err, errlen, GSYNC_ERR_LAUNCH,
        "kernel %s: a launch needs 1 to 3 dimensions, with work-groups "
        "and a local size for each",
        k->info.name);
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_shape(k, queue, work_dim, global_offset, groups,
                                     local_size, &total, err, errlen);
  if (st == GSYNC_OK)
    st = enqueue_checked(k, queue, work_dim, global_offset, groups, local_size,
                         total, err, errlen);
  pthread_mutex_unlock(&k->lock);
  return st;
}

/* ---- How many work-groups fit (--no-discovery) ---- */

/* Sets *found to whether the program of k's kernel was built for dev with
 * macro defined (-Dmacro or -D macro, with or without a value), as its
 * build options say. */
gsync_status gsli_built_with(const gsync_kernel *k, cl_device_id dev,
                             const char *macro, int *found, char *err,
                             size_t errlen) {
  cl_program prog = NULL;
  size_t size = 0, n = strlen(macro);
  cl_int rc =
      clGetKernelInfo(k->kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, 0, NULL,
                               &size);
  char *opts = rc == CL_SUCCESS ? malloc(size + 1) : NULL;
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetProgramBuildInfo(BUILD_OPTIONS)",
                        rc);
  if (opts == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  rc = clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, size, opts,
                             NULL);
  opts[rc == CL_SUCCESS ? size : 0] = '\0';
  *found = 0;
  for (const char *o = opts; !*found && (o = strstr(o, macro)) != NULL;
       o += n) {
    const char *e = o + n;
    int defined = (o - opts >= 2 && !memcmp(o - 2, "-D", 2)) ||
                  (o - opts >= 3 && !memcmp(o - 3, "-D ", 3));
    *found = defined && (*e == '\0' || *e == ' ' || *e == '=');
  }
  free(opts);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetProgramBuildInfo(BUILD_OPTIONS)",
                        rc);
  return GSYNC_OK;
}

/* Whether the program of k's kernel was built for dev with FIT_MACRO
 * defined (gsync_program_build_options gives it): only then does the
 * kernel have the probe, and a probe launch run none of its code. */
static gsync_status check_fit_build(const gsync_kernel *k, cl_device_id dev,
                                    char *err, size_t errlen) {
  int found;
  gsync_status st = gsli_built_with(k, dev, FIT_MACRO, &found, err, errlen);
  if (st == GSYNC_OK && !found)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "kernel %s: its program was not built with "
                     "gsync_program_build_options() (no -D" FIT_MACRO
                     "), so it cannot measure how many work-groups fit",
                     k->info.name);
  return st;
}

/* Writes into buf (len bytes) what parameter p takes, as a message says
 * it: "a global pointer", "a value of 8 bytes", "an image", ... */
static void param_words(const param_info *p, char *buf, size_t len) {
  for (size_t j = 0; j < N_PARAM_KINDS; j++)
    if (strcmp(gsli_param_kinds[j].name, p->kind_name) == 0) {
      if (p->kind == PARAM_PRIVATE)
        snprintf(buf, len, "%s of %zu bytes", gsli_param_kinds[j].words,
                 p->bytes);
      else
        snprintf(buf, len, "%s", gsli_param_kinds[j].words);
      return;
    }
  snprintf(buf, len, "of a kind this libgsync does not know (\"%.40s\")",
           p->kind_name);
}

/* Makes the kernel object the probe launches: a new one of k's kernel,
 * by name, from its program, with each of its own arguments set to a
 * harmless value (NULL buffers, PROBE_LOCAL_BYTES of local memory, zeros
 * of each value's size). The probe runs none of the kernel's code, so it
 * needs none of the user's arguments, which may be unset, or name buffers
 * released since. Returns GSYNC_OK and *out, or GSYNC_ERR_KERNEL for a
 * parameter the probe cannot make up or a kernel whose parameters differ
 * from "params", or GSYNC_ERR_OPENCL. */
static gsync_status probe_kernel(const gsync_kernel *k, cl_kernel *out,
                                 char *err, size_t errlen) {
  const kernel_info *i = &k->info;
  size_t most = 1;
  char what[96];
  for (size_t a = 0; a < i->n_params; a++) {
    const param_info *p = &i->params[a];
    if (p->kind == PARAM_PRIVATE && p->bytes > most)
      most = p->bytes;
    if (p->kind != PARAM_OTHER)
      continue;
    param_words(p, what, sizeof what);
    return gsli_fail(
        err, errlen, GSYNC_ERR_KERNEL,
        "kernel %s: parameter %zu (%s) is %s, which the probe of how "
        "many work-groups fit cannot make up: launch no more "
        "work-groups than you know fit, or rewrite with discovery",
        i->name, a, p->name, what);
  }
  cl_program prog = NULL;
  cl_int rc =
      clGetKernelInfo(k->kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_PROGRAM)", rc);
  cl_kernel probe = clCreateKernel(prog, i->name, &rc);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clCreateKernel (probe)", rc);
  cl_uint nargs = 0;
  gsync_status st = GSYNC_OK;
  rc = clGetKernelInfo(probe, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
  if (rc != CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", rc);
  else if (nargs != i->n_params + 1)
    st = gsli_fail(err, errlen, GSYNC_ERR_KERNEL,
                   "kernel %s has %u parameters, but its constraints list %zu "
                   "besides the state argument (\"params\"; built from another "
                   "rewrite?)",
                   i->name, (unsigned)nargs, i->n_params);
  unsigned char *zeros = st == GSYNC_OK ? calloc(most, 1) : NULL;
  if (st == GSYNC_OK && zeros == NULL)
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  for (size_t a = 0; st == GSYNC_OK && a < i->n_params; a++) {
    const param_info *p = &i->params[a];
    rc = p->kind == PARAM_LOCAL
             ? clSetKernelArg(probe, (cl_uint)a, PROBE_LOCAL_BYTES, NULL)
         : p->kind == PARAM_PRIVATE
             ? clSetKernelArg(probe, (cl_uint)a, p->bytes, zeros)
             : clSetKernelArg(probe, (cl_uint)a, sizeof(cl_mem), NULL);
    if (rc != CL_SUCCESS) {
      param_words(p, what, sizeof what);
      st = gsli_fail(
          err, errlen, GSYNC_ERR_OPENCL,
          "kernel %s: the probe of how many work-groups fit cannot set "
          "parameter %zu (%s, %s): clSetKernelArg failed: %s (%d)",
          i->name, a, p->name, what, gsli_cl_error_name(rc), (int)rc);
    }
  }
  free(zeros);
  if (st != GSYNC_OK) {
    clReleaseKernel(probe);
    return st;
  }
  *out = probe;
  return GSYNC_OK;
}

/* Runs one probe launch of launch work-groups (in dimension 0) of local
 * work-items per dimension after k's latest command, and reads how many
 * ran at once into *fit. The probe launches a kernel object of its own
 * (probe_kernel); with constraints from before "params", k's kernel with
 * the user's arguments. The probe's state words are reset after it in
 * the queue; if that cannot be enqueued, the next launch zeroes the whole
 * state first. k->lock is held. */
static gsync_status run_fit_probe(gsync_kernel *k, cl_command_queue queue,
                                  cl_uint work_dim, const size_t *local,
                                  size_t launch, size_t *fit, char *err,
                                  size_t errlen) {
  static const cl_uint on[FIT_ON] = {0, 0, 0, 1}, off[FIT_ON] = {0};
  size_t global[3];
  cl_event ev_on = NULL, ev_run = NULL, ev_off = NULL;
  cl_uint count = 0;
  cl_kernel kernel = k->kernel;
  gsync_status st;
  if (k->info.has_params &&
      (st = probe_kernel(k, &kernel, err, errlen)) != GSYNC_OK)
    return st;
  for (cl_uint d = 0; d < work_dim; d++)
    global[d] = (d == 0 ? launch : 1) * local[d];
  k->fit_left_on = 1;
  cl_uint n;
  const cl_event *after;
  cl_int rc = CL_SUCCESS;
  if ((st = gsli_after_latest(k, queue, &n, &after, err, errlen)) == GSYNC_OK &&
      (rc = clEnqueueWriteBuffer(queue, k->state, CL_FALSE, FIT_COUNT * 4,
                                 sizeof on, on, n, after, &ev_on)) !=
          CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, "clEnqueueWriteBuffer (state)", rc);
  if (st != GSYNC_OK) {
    if (kernel != k->kernel)
      clReleaseKernel(kernel);
    return st;
  }
  /* The lock keeps another handle of k's kernel from setting the state
   * argument in between; the probe's own kernel needs none. */
  pthread_mutex_lock(&gsli_launch_lock);
  rc = clSetKernelArg(kernel, k->info.state_index, sizeof(cl_mem), &k->state);
  if (rc == CL_SUCCESS)
    rc = clEnqueueNDRangeKernel(queue, kernel, work_dim, NULL, global, local, 1,
                                &ev_on, &ev_run);
  pthread_mutex_unlock(&gsli_launch_lock);
  if (kernel != k->kernel)
    clReleaseKernel(kernel); /* the enqueued probe keeps it */
  if (rc != CL_SUCCESS && !k->info.has_params) {
    st = gsli_fail(
        err, errlen, GSYNC_ERR_OPENCL,
        "clEnqueueNDRangeKernel (probe) failed: %s (%d); these "
        "constraints have no \"params\" (an older gsync-rewrite wrote "
        "them), so the probe launched kernel %s with its own "
        "arguments, which must be set: rewrite with this "
        "gsync-rewrite, and the probe needs none",
        gsli_cl_error_name(rc), (int)rc, k->info.name);
    ev_run = ev_on, ev_on = NULL;
  } else if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clEnqueueNDRangeKernel (probe)", rc);
    ev_run = ev_on, ev_on = NULL;
  } else if ((rc = clEnqueueReadBuffer(queue, k->state, CL_TRUE,
                                       k->info.participants_offset, 4, &count,
                                       1, &ev_run, NULL)) != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clEnqueueReadBuffer (state)", rc);
  }
  /* The probe is over (or never ran): its words back to zero. */
  rc = clEnqueueWriteBuffer(queue, k->state, CL_FALSE, FIT_COUNT * 4,
                            sizeof off, off, 1, &ev_run, &ev_off);
  if (rc == CL_SUCCESS) {
    k->fit_left_on = 0;
    /* An earlier failure keeps its message. */
    gsync_status rst = gsli_record_latest(k, queue, ev_off,
                                          st == GSYNC_OK ? err : NULL, errlen);
    if (st == GSYNC_OK)
      st = rst;
  } else if (st == GSYNC_OK) {
    st = gsli_cl_fail(err, errlen, "clEnqueueWriteBuffer (state)", rc);
  }
  if (ev_on != NULL)
    clReleaseEvent(ev_on);
  clReleaseEvent(ev_run);
  if (st == GSYNC_OK && (count == 0 || count > launch))
    st =
        gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                  "kernel %s: the probe of how many work-groups fit counted %u "
                  "of %zu launched",
                  k->info.name, (unsigned)count, launch);
  if (st == GSYNC_OK)
    *fit = count;
  return st;
}

gsync_status gsync_groups_that_fit(gsync_kernel *k, cl_command_queue queue,
                                   cl_uint work_dim, const size_t *local_size,
                                   size_t *groups, char *err, size_t errlen) {
  static const char fn[] = "gsync_groups_that_fit";
  if (k == NULL || queue == NULL || local_size == NULL || groups == NULL)
    return gsli_null_argument(err, errlen, fn,
                              k == NULL        ? "k"
                              : queue == NULL  ? "queue"
                              : groups == NULL ? "groups"
                                               : "local_size");
  if (work_dim < 1 || work_dim > 3)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: a launch needs 1 to 3 dimensions",
                     k->info.name);
  if (k->state == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "kernel %s reaches no global_barrier(): any number of "
                     "work-groups may be launched",
                     k->info.name);
  if (k->abort.discovery)
    return gsli_fail(
        err, errlen, GSYNC_ERR_ARGUMENT,
        "kernel %s was rewritten with discovery: launch any number "
        "of work-groups, and discovery admits those that fit",
        k->info.name);
  cl_device_id dev = NULL;
  cl_int rc =
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)",
                        rc);
  size_t launch = k->max_groups, total, shape[3] = {1, 1, 1};
  if (k->info.max_work_groups != 0 && launch > k->info.max_work_groups)
    launch = k->info.max_work_groups;
  if (launch > 0x3fffffffu)
    launch = 0x3fffffffu;
  shape[0] = launch;
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_shape(k, queue, work_dim, NULL, shape,
                                     local_size, &total, err, errlen);
  size_t local = 1, i;
  for (cl_uint d = 0; d < work_dim; d++)
    local *= local_size[d];
  for (i = 0; st == GSYNC_OK && i < k->n_fit; i++)
    if (k->fit[i].dev == dev && k->fit[i].local == local)
      break;
  if (st == GSYNC_OK && i < k->n_fit) {
    *groups = k->fit[i].groups;
  } else if (st == GSYNC_OK &&
             (st = check_fit_build(k, dev, err, errlen)) == GSYNC_OK &&
             (st = run_fit_probe(k, queue, work_dim, local_size, launch, groups,
                                 err, errlen)) == GSYNC_OK) {
    size_t n = sizeof k->fit / sizeof k->fit[0];
    if (k->n_fit == n)
      memmove(k->fit, k->fit + 1, (n - 1) * sizeof k->fit[0]);
    else
      k->n_fit++;
    k->fit[k->n_fit - 1].dev = dev;
    k->fit[k->n_fit - 1].local = local;
    k->fit[k->n_fit - 1].groups = *groups;
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}

/* Writes into out (size bytes) the work-group of the latest launch of k
 * whose linear id is id: "7" for a 1-D launch, "(3, 1)" for a 2-D one. */
static void group_name(const gsync_kernel *k, cl_uint id, char *out,
                       size_t size) {
  size_t w = k->last_shape[0] ? k->last_shape[0] : 1;
  size_t h = k->last_shape[1] ? k->last_shape[1] : 1;
  size_t x = id % w, y = id / w;
  if (k->last_dim <= 1)
    snprintf(out, size, "%u", (unsigned)id);
  else if (k->last_dim == 2)
    snprintf(out, size, "(%zu, %zu)", x, y);
  else
    snprintf(out, size, "(%zu, %zu, %zu)", x, y % h, y / h);
}

/* Writes the message for the abort record rec of a launch of k into err;
 * returns GSYNC_ERR_TIMEOUT. The message says what was seen, all from the
 * record (a later launch of k may have been enqueued since), and lists the
 * causes that can explain it: the device cannot tell them apart. */
gsync_status gsli_timeout_error(const gsync_kernel *k, const cl_uint *rec,
                                char *err, size_t errlen) {
  const abort_info *a = &k->abort;
  int timed = k->info.abort_bytes >= ABORT_RECORD_BYTES;
  char group[96] = "", real[64], waited[48], limit[64];
  group_name(k, rec[ABORT_REAL_GROUP], real, sizeof real);
  if (rec[ABORT_GROUP] == rec[ABORT_REAL_GROUP] ||
      rec[ABORT_GROUP] == 0xffffffffu)
    snprintf(group, sizeof group, "%s", real);
  else
    snprintf(group, sizeof group, "%u (launched as %s)",
             (unsigned)rec[ABORT_GROUP], real);
  if (timed)
    snprintf(waited, sizeof waited, "%u ms", (unsigned)rec[ABORT_WAITED_MS]);
  else
    snprintf(waited, sizeof waited, "past the spin limit");
  if (a->spin_limit_ms)
    snprintf(limit, sizeof limit, "the spin limit of %zu ms", a->spin_limit_ms);
  else
    snprintf(limit, sizeof limit, "the spin limit");
  if (rec[ABORT_KIND] == ABORTED_IN_DISCOVERY)
    return gsli_fail(
        err, errlen, GSYNC_ERR_TIMEOUT,
        "kernel %s: occupancy discovery aborted the launch: "
        "work-group %s waited %s for the poll to close and saw %u of "
        "%u launched work-groups join; possible causes: a work-group "
        "that joined stopped before closing the poll, or the device "
        "starts work-groups more slowly than %s allows "
        "(--spin-limit)",
        k->info.name, group, waited, (unsigned)rec[ABORT_ARRIVED],
        (unsigned)rec[ABORT_EXPECTED], limit);
  char place[96], launched[64];
  cl_uint site = rec[ABORT_SITE];
  if (site >= 1 && site <= a->n_sites)
    snprintf(place, sizeof place, "at %.80s", a->site_places[site - 1]);
  else
    snprintf(place, sizeof place, "site %u", (unsigned)site);
  snprintf(launched, sizeof launched, "%zu",
           timed ? (size_t)rec[ABORT_LAUNCHED] : k->last_groups);
  return gsli_fail(
      err, errlen, GSYNC_ERR_TIMEOUT,
      "kernel %s: global barrier %s aborted the launch: work-group %s "
      "waited %s and saw %u of %u work-groups arrive (%s launched); "
      "possible causes: %sa global_barrier() that some work-group "
      "does not reach, or work between two barriers that takes "
      "longer than %s (--spin-limit)",
      k->info.name, place, group, waited, (unsigned)rec[ABORT_ARRIVED],
      (unsigned)rec[ABORT_EXPECTED], launched,
      a->discovery ? ""
                   : "more work-groups launched than the device runs "
                     "at once (this output has no discovery), ",
      limit);
}

/* Waits for k's latest launch, with k->lock held; reads the participant
 * count, the virtual grid and the abort record in one read of the state's
 * fixed words, into *info (every field). A launch that aborted leaves the state
 * mid-barrier, so it is zeroed again (ordered before the next launch) and the
 * record reported. */
gsync_status gsli_finish_launch(gsync_kernel *k, cl_command_queue queue,
                                gsync_launch_info *info, char *err,
                                size_t errlen) {
  cl_int rc;
  if (!k->launched)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: nothing launched", k->info.name);
  info->work_dim = k->last_dim;
  for (int d = 0; d < 3; d++)
    info->groups[d] = k->last_shape[d];
  info->admitted = info->participants = (cl_uint)k->last_groups;
  info->left_out = 0;
  /* gsli_poll_cap_prepare caps only launches of more groups than the cap */
  info->polled = k->last_cap != 0 ? k->last_cap : (cl_uint)k->last_groups;
  info->launched = (cl_uint)k->last_groups;
  if (k->state == NULL) {
    /* Without a barrier every launched group takes part. */
    if ((rc = gsli_wait_latest(k)) != CL_SUCCESS)
      return gsli_cl_fail(err, errlen, "waiting for the launch", rc);
    return GSYNC_OK;
  }
  const kernel_info *i = &k->info;
  size_t end = i->participants_offset + 4;
  if (i->has_abort_record && i->abort_offset + i->abort_bytes > end)
    end = i->abort_offset + i->abort_bytes;
  if (i->has_grid && i->grid_offset + 12 > end)
    end = i->grid_offset + 12;
  if (k->watch.prepare && end < WATCH_END * 4)
    end = WATCH_END * 4;
  cl_uint words[64];
  if (end > sizeof words)
    return gsli_fail(err, errlen, GSYNC_ERR_FORMAT,
                     "kernel %s: state words beyond byte %zu are not supported",
                     i->name, sizeof words);
  cl_uint n;
  const cl_event *after;
  gsync_status st = gsli_after_latest(k, queue, &n, &after, err, errlen);
  if (st != GSYNC_OK)
    return st;
  rc = clEnqueueReadBuffer(queue, k->state, CL_TRUE, 0, end, words, n, after,
                           NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clEnqueueReadBuffer (state)", rc);
  const cl_uint *rec = i->has_abort_record ? words + i->abort_offset / 4 : NULL;
  int learn = k->cap_unread;
  k->cap_unread = 0;
  if (rec != NULL && rec[ABORT_KIND] != 0) {
    st = gsli_zero_state(k, queue, err, errlen);
    if (st == GSYNC_OK && k->watch.prepare &&
        (rec[ABORT_KIND] == ABORTED_BY_CANCEL ||
         rec[ABORT_KIND] == ABORTED_AT_DEADLINE))
      return gsli_watch_stopped(k, words, err, errlen);
    return st != GSYNC_OK ? st : gsli_timeout_error(k, rec, err, errlen);
  }
  info->admitted = info->participants = words[i->participants_offset / 4];
  if (learn)
    gsli_poll_cap_learn(k, info->admitted);
  const cl_uint *grid = i->has_grid ? words + i->grid_offset / 4 : NULL;
  if (grid != NULL && grid[0] != 0 && grid[1] != 0 && grid[2] != 0) {
    info->participants = grid[0] * grid[1] * grid[2];
    for (int d = 0; d < 3; d++)
      info->groups[d] = grid[d];
  } else {
    /* Constraints from before the grid: discovery numbered dimension 0. */
    info->groups[0] = info->admitted;
    info->groups[1] = info->groups[2] = 1;
  }
  if (info->admitted > info->participants)
    info->left_out = info->admitted - info->participants;
  return GSYNC_OK;
}

/* Waits for k's latest launch and reports how many groups took part. */
gsync_status gsync_finish(gsync_kernel *k, cl_command_queue queue,
                          cl_uint *participants, char *err, size_t errlen) {
  gsync_launch_info info;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_finish",
                              k == NULL ? "k" : "queue");
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_finish_launch(k, queue, &info, err, errlen);
  pthread_mutex_unlock(&k->lock);
  if (st == GSYNC_OK && participants != NULL)
    *participants = info.participants;
  return st;
}

/* Waits for k's latest launch and reports the grid it ran on, as far as
 * the caller's struct reaches. */
gsync_status gsync_finish_nd(gsync_kernel *k, cl_command_queue queue,
                             gsync_launch_info *info, char *err,
                             size_t errlen) {
  gsync_launch_info all;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_finish_nd",
                              k == NULL ? "k" : "queue");
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_finish_launch(k, queue, &all, err, errlen);
  pthread_mutex_unlock(&k->lock);
  if (st == GSYNC_OK && info != NULL && info->size > sizeof info->size) {
    size_t n = info->size < sizeof all ? info->size : sizeof all;
    all.size = info->size;
    memcpy(info, &all, n);
  }
  return st;
}

/* Appends to buf (len bytes, kept NUL-terminated) at *at, which counts
 * the whole length whether or not it fits, as snprintf does. */
static void note_printf(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void note_printf(char *buf, size_t len, size_t *at, const char *fmt,
                        ...) {
  va_list ap;
  va_start(ap, fmt);
  int room = buf != NULL && *at < len;
  int n = vsnprintf(room ? buf + *at : NULL, room ? len - *at : 0, fmt, ap);
  va_end(ap);
  if (n > 0)
    *at += (size_t)n;
}

/* See libgsync.h. */
size_t gsync_launch_note(const gsync_launch_info *info, char *buf, size_t len) {
  if (buf != NULL && len > 0)
    buf[0] = '\0';
  if (info == NULL ||
      info->size <
          offsetof(gsync_launch_info, launched) + sizeof info->launched ||
      info->participants >= info->launched)
    return 0;
  size_t at = 0;
  note_printf(buf, len, &at,
              "%u of the %u work-groups launched took part in the global "
              "barrier",
              (unsigned)info->participants, (unsigned)info->launched);
  if (info->admitted < info->launched) {
    note_printf(buf, len, &at,
                ": discovery admitted only the %u that the device ran at "
                "once, and the others returned at once",
                (unsigned)info->admitted);
    if (info->polled < info->launched)
      note_printf(buf, len, &at,
                  " (it polled the first %u, as many as fitted in an earlier "
                  "launch)",
                  (unsigned)info->polled);
  }
  if (info->left_out > 0) {
    note_printf(buf, len, &at,
                "%s%u admitted work-groups were left out of the virtual grid "
                "of %zu",
                info->admitted < info->launched ? "; " : ": ",
                (unsigned)info->left_out, info->groups[0]);
    for (cl_uint d = 1; d < info->work_dim && d < 3; d++)
      note_printf(buf, len, &at, " x %zu", info->groups[d]);
  }
  note_printf(buf, len, &at,
              "; the ids count only the work-groups that took part, so a "
              "kernel that is not grid-stride (for (i = get_global_id(0); i < "
              "n; i += get_global_size(0))) leaves the data past their ids "
              "untouched");
  return at;
}

/* ---- Watching a launch (docs/watch.md) ----
 *
 * The kernel's participant 0 counts barriers in state word 18 and looks
 * for a cancel (word 22 equal to the launch's tag, word 23) and a deadline
 * (word 19) after each barrier (rewrite-rules/prelude.cl). Before each
 * launch libgsync writes words 18-21, 23 and 24 through the queue, ordered
 * like the state's zeroing; word 22 is written by gsync_cancel alone (the
 * zeroing leaves it), so that a cancel of a launch still queued behind
 * another is kept until it runs, and a late one, naming a launch that has
 * ended, stops no other. */

/* Whether the host shares k's state and so owns word 22, which
 * gsli_zero_state must then leave alone. */
static int watch_keeps_cancel(const gsync_kernel *k) {
  return k->watch.shared != NULL;
}

/* Whether dev's kernels read a clock a deadline can use: NVIDIA's
 * %globaltimer or an x86 CPU device's time-stamp counter (prelude.cl). */
static int watch_device_clock(cl_device_id dev) {
  cl_device_type type = 0;
  if (gsli_nv_compute_capability(dev) != 0)
    return 1;
  return clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
             CL_SUCCESS &&
         (type & CL_DEVICE_TYPE_CPU) && gsli_tsc_hz() != 0;
}

/* Whether dev offers fine-grained buffer SVM with atomics: memory that
 * the host and a running kernel both read and write, and that the
 * device's atomics keep coherent with the host's. */
static int watch_device_svm(cl_device_id dev) {
  cl_device_svm_capabilities caps = 0;
  const cl_device_svm_capabilities need =
      CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
  return clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps,
                         NULL) == CL_SUCCESS &&
         (caps & need) == need;
}

/* Moves k's state into fine-grained SVM: a buffer made over it
 * (CL_MEM_USE_HOST_PTR), so that every other use of the state is as
 * before. No launch of k is in flight. */
static gsync_status watch_share_state(gsync_kernel *k, cl_context ctx,
                                      char *err, size_t errlen) {
  cl_int rc = CL_SUCCESS;
  cl_uint *svm = clSVMAlloc(ctx,
                            CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                                CL_MEM_SVM_ATOMICS,
                            k->state_bytes, 0);
  if (svm == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM,
                     "kernel %s: clSVMAlloc of %zu bytes (state) failed",
                     k->info.name, k->state_bytes);
  memset(svm, 0, k->state_bytes);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                              k->state_bytes, svm, &rc);
  if (rc != CL_SUCCESS) {
    clSVMFree(ctx, svm);
    return gsli_cl_fail(err, errlen, "clCreateBuffer (state over SVM)", rc);
  }
  if ((rc = clRetainContext(ctx)) != CL_SUCCESS) {
    clReleaseMemObject(buf);
    clSVMFree(ctx, svm);
    return gsli_cl_fail(err, errlen, "clRetainContext", rc);
  }
  clReleaseMemObject(k->state);
  k->state = buf;
  k->watch.ctx = ctx;
  /* Cleared above, before gsync_progress can see it. */
  atomic_store_explicit(&k->watch.shared, svm, memory_order_release);
  return GSYNC_OK;
}

/* ---- A host-visible buffer, and the probe that decides on it ----
 *
 * Where a device has no fine-grained SVM, a buffer allocated in host
 * memory (CL_MEM_ALLOC_HOST_PTR) and kept mapped while kernels run, as
 * the pinned-memory idiom does, is memory the host and a running kernel
 * share on some devices, and on others a copy that the driver brings up to
 * date only when the kernel ends or the buffer is mapped again. Nothing a
 * device reports tells which, so libgsync measures it, once per context
 * and device: a one-work-item kernel stores a word into such a buffer and
 * then polls, for at most PROBE_KERNEL_MS by the device's clock (or
 * PROBE_POLLS polls where its kernels read none), for a word the host
 * writes once it has seen the kernel's (for at most PROBE_HOST_MS). The
 * kernel stores and polls with volatile accesses, as gsync_watch_tick does
 * (rewrite-rules/prelude.cl): the probe measures what the generated code
 * does. Only when both words crossed while the kernel ran does the state
 * of watched kernels live in such a buffer. */
#define PROBE_HOST_MS 300
#define PROBE_KERNEL_MS 400
#define PROBE_POLLS (1u << 20)
#define PROBE_WORDS 16

static const char probe_source[] =
    "#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)\n"
    "ulong probe_clock(void) {\n"
    "  ulong t;\n"
    "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
    "  return t;\n"
    "}\n"
    "#define probe_per_us 1000ul\n"
    "#elif defined(probe_tsc_per_us)\n"
    "ulong probe_clock(void) { return __builtin_readcyclecounter(); }\n"
    "#define probe_per_us ((ulong)(probe_tsc_per_us))\n"
    "#else\n"
    "ulong probe_clock(void) { return 0ul; }\n"
    "#define probe_per_us 1ul\n"
    "#endif\n"
    "kernel void gsync_probe(volatile global uint *w, global uint *out,\n"
    "                        uint limit_us, uint max_polls) {\n"
    "  w[0] = 1u;\n"
    "  ulong t0 = probe_clock(), t = t0;\n"
    "  uint polls = 0u, seen = 0u;\n"
    "  while (seen == 0u && polls < max_polls &&\n"
    "         t - t0 < (ulong)limit_us * probe_per_us) {\n"
    "    seen = w[1];\n"
    "    polls++;\n"
    "    t = probe_clock();\n"
    "  }\n"
    "  out[0] = seen;\n"
    "  out[1] = polls;\n"
    "  out[2] = (uint)((t - t0) / probe_per_us);\n"
    "}\n";

/* One context and device's measurement. A context made later at the
 * address of a released one inherits its entry: for the same device, the
 * same kind of memory. */
typedef struct probe_result {
  cl_context ctx;
  cl_device_id dev;
  int works;
  char text[240];
} probe_result;
#define MAX_PROBES 16
static probe_result probes[MAX_PROBES];
static size_t n_probes, next_probe;
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static double monotonic_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Runs the probe kernel (made, built and launched twice, the first time to
 * get past whatever a device compiles at a kernel's first launch) on dev
 * through queue and describes in r what crossed. Returns GSYNC_OK, with
 * r->works the outcome, or why the probe could not run. */
static gsync_status probe_run(cl_context ctx, cl_device_id dev,
                              cl_command_queue queue, probe_result *r,
                              char *err, size_t errlen) {
  gsync_status st = GSYNC_OK;
  cl_int rc = CL_SUCCESS;
  const char *what = "";
  cl_program prog = NULL;
  cl_kernel kern = NULL;
  cl_mem buf = NULL, out = NULL;
  cl_uint *w = NULL, got[3] = {0, 0, 0};
  char options[64] = "";
  cl_device_type type = 0;
  unsigned long long hz = 0;
  int has_clock = gsli_nv_compute_capability(dev) != 0;
  if (!has_clock &&
      clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
          CL_SUCCESS &&
      (type & CL_DEVICE_TYPE_CPU) && (hz = gsli_tsc_hz()) >= 1000000u) {
    snprintf(options, sizeof options, "-Dprobe_tsc_per_us=%lluul",
             hz / 1000000u);
    has_clock = 1;
  }
  const char *src = probe_source;
  double seen_ms = -1.0;
  prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateProgramWithSource (probe)";
    goto out;
  }
  if ((rc = clBuildProgram(prog, 1, &dev, options, NULL, NULL)) != CL_SUCCESS) {
    what = "clBuildProgram (probe)";
    goto out;
  }
  kern = clCreateKernel(prog, "gsync_probe", &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateKernel (probe)";
    goto out;
  }
  buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                       PROBE_WORDS * 4, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateBuffer (probe)";
    goto out;
  }
  out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof got, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateBuffer (probe)";
    goto out;
  }
  w = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                         PROBE_WORDS * 4, 0, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clEnqueueMapBuffer (probe)";
    goto out;
  }
  for (int pass = 0; pass < 2; pass++) {
    cl_uint limit_us = pass ? PROBE_KERNEL_MS * 1000u : 0;
    cl_uint polls = !pass ? 0 : has_clock ? PROBE_POLLS * 16 : PROBE_POLLS;
    size_t one = 1;
    for (int i = 0; i < PROBE_WORDS; i++)
      __atomic_store_n(&w[i], 0, __ATOMIC_SEQ_CST);
    if (((rc = clSetKernelArg(kern, 0, sizeof buf, &buf)) != CL_SUCCESS ||
         (rc = clSetKernelArg(kern, 1, sizeof out, &out)) != CL_SUCCESS ||
         (rc = clSetKernelArg(kern, 2, sizeof limit_us, &limit_us)) !=
             CL_SUCCESS ||
         (rc = clSetKernelArg(kern, 3, sizeof polls, &polls)) != CL_SUCCESS)) {
      what = "clSetKernelArg (probe)";
      goto out;
    }
    rc =
        clEnqueueNDRangeKernel(queue, kern, 1, NULL, &one, &one, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
      what = "clEnqueueNDRangeKernel (probe)";
      goto out;
    }
    if ((rc = clFlush(queue)) != CL_SUCCESS) {
      what = "clFlush (probe)";
      goto out;
    }
    if (pass) {
      double t0 = monotonic_ms(), t = t0;
      struct timespec pause = {0, 20000};
      while (t - t0 < PROBE_HOST_MS) {
        if (__atomic_load_n(&w[0], __ATOMIC_ACQUIRE) != 0) {
          seen_ms = t - t0;
          break;
        }
        nanosleep(&pause, NULL);
        t = monotonic_ms();
      }
      /* Written whether or not the kernel's word came: a kernel that
       * started late may still see it, and then ends sooner. */
      __atomic_store_n(&w[1], 1, __ATOMIC_SEQ_CST);
    }
    if ((rc = clFinish(queue)) != CL_SUCCESS) {
      what = "clFinish (probe)";
      goto out;
    }
  }
  rc = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL,
                           NULL);
  if (rc != CL_SUCCESS) {
    what = "clEnqueueReadBuffer (probe)";
    goto out;
  }
  char kernel_side[120];
  if (got[0] != 0 && has_clock)
    snprintf(kernel_side, sizeof kernel_side,
             "the kernel saw the host's %u us after its own", (unsigned)got[2]);
  else if (got[0] != 0)
    snprintf(kernel_side, sizeof kernel_side,
             "the kernel saw the host's after %u polls", (unsigned)got[1]);
  else
    snprintf(kernel_side, sizeof kernel_side,
             "the kernel did not see the host's in %u us (%u polls)",
             (unsigned)got[2], (unsigned)got[1]);
  if (seen_ms >= 0)
    snprintf(r->text, sizeof r->text,
             "host-visible buffer: the host saw the kernel's write "
             "%.3f ms after clFlush; %s",
             seen_ms, kernel_side);
  else
    snprintf(r->text, sizeof r->text,
             "host-visible buffer: the host did not see the kernel's "
             "write in %d ms; %s",
             PROBE_HOST_MS, kernel_side);
  r->works = seen_ms >= 0 && got[0] != 0;
out:
  if (w != NULL) {
    cl_int urc = clEnqueueUnmapMemObject(queue, buf, w, 0, NULL, NULL);
    if (urc == CL_SUCCESS)
      urc = clFinish(queue);
    if (urc != CL_SUCCESS && rc == CL_SUCCESS) {
      rc = urc;
      what = "clEnqueueUnmapMemObject (probe)";
    }
  }
  if (out != NULL)
    clReleaseMemObject(out);
  if (buf != NULL)
    clReleaseMemObject(buf);
  if (kern != NULL)
    clReleaseKernel(kern);
  if (prog != NULL)
    clReleaseProgram(prog);
  if (rc != CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, what, rc);
  return st;
}

/* Whether a host-visible buffer on dev in ctx carries words both ways
 * while a kernel runs: measured the first time, then remembered. Copies
 * what was measured into text (of textlen bytes). A probe that could not
 * run counts as no, with its reason, and is tried again next time. */
static int probe_mapped(cl_context ctx, cl_device_id dev,
                        cl_command_queue queue, char *text, size_t textlen) {
  probe_result r = {ctx, dev, 0, ""};
  pthread_mutex_lock(&probe_lock);
  size_t i = 0;
  while (i < n_probes && (probes[i].ctx != ctx || probes[i].dev != dev))
    i++;
  char why[200] = "";
  if (i < n_probes) {
    r = probes[i];
  } else if (probe_run(ctx, dev, queue, &r, why, sizeof why) != GSYNC_OK) {
    snprintf(r.text, sizeof r.text,
             "host-visible buffer: the probe could not run: %s", why);
  } else {
    /* Full, the table forgets its oldest entries first. */
    probes[next_probe] = r;
    next_probe = (next_probe + 1) % MAX_PROBES;
    if (n_probes < MAX_PROBES)
      n_probes++;
  }
  pthread_mutex_unlock(&probe_lock);
  snprintf(text, textlen, "%s", r.text);
  return r.works;
}

/* Moves k's state into a host-visible buffer, mapped through queue for as
 * long as k is watched. No launch of k is in flight. The host reads and
 * writes the watch's words through the mapping; libgsync's other uses of
 * the state (zeroing, the words of each launch, gsync_finish's read) stay
 * commands on the buffer, ordered with the launches. */
static gsync_status watch_share_mapped(gsync_kernel *k, cl_context ctx,
                                       cl_command_queue queue, char *err,
                                       size_t errlen) {
  cl_int rc = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                              k->state_bytes, NULL, &rc);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clCreateBuffer (state, host-visible)",
                        rc);
  cl_uint *p =
      clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                         k->state_bytes, 0, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) {
    clReleaseMemObject(buf);
    return gsli_cl_fail(err, errlen, "clEnqueueMapBuffer (state)", rc);
  }
  if ((rc = clRetainCommandQueue(queue)) != CL_SUCCESS) {
    clEnqueueUnmapMemObject(queue, buf, p, 0, NULL, NULL);
    clFinish(queue);
    clReleaseMemObject(buf);
    return gsli_cl_fail(err, errlen, "clRetainCommandQueue", rc);
  }
  /* Word 22 through the mapping, as gsync_cancel writes it (gsli_zero_state
   * leaves it to the host once the state is shared), the rest as every
   * later launch's zeroing too, which ends before gsync_progress can see
   * the memory. */
  memset(p, 0, k->state_bytes);
  clReleaseMemObject(k->state);
  k->state = buf;
  k->watch.mapped = queue;
  gsync_status st = gsli_zero_state(k, queue, err, errlen);
  if (st == GSYNC_OK && (rc = gsli_wait_latest(k)) != CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, "waiting for the state's zeroing", rc);
  atomic_store_explicit(&k->watch.shared, p, memory_order_release);
  return st;
}

/* GSYNC_WATCH_CHANNEL: "svm", "mapped" or "none" forces that channel (or
 * none where it does not work), so that each can be tested on one device;
 * unset or empty, libgsync chooses. Returns 0 for any other value. */
enum { CHANNEL_AUTO, CHANNEL_SVM, CHANNEL_MAPPED, CHANNEL_NONE };
static int watch_channel_wanted(int *choice) {
  const char *e = getenv("GSYNC_WATCH_CHANNEL");
  *choice = e == NULL || *e == '\0'    ? CHANNEL_AUTO
            : strcmp(e, "svm") == 0    ? CHANNEL_SVM
            : strcmp(e, "mapped") == 0 ? CHANNEL_MAPPED
            : strcmp(e, "none") == 0   ? CHANNEL_NONE
                                       : -1;
  return *choice >= 0;
}

/* Chooses k's channel on dev, when it has none yet; k->lock is held and
 * no launch of k is in flight. Sets k->watch.probe to what was measured,
 * and k->watch.why to the reason when no channel results. Returns GSYNC_OK
 * or an allocation's failure. */
static gsync_status watch_choose(gsync_kernel *k, cl_context ctx,
                                 cl_device_id dev, cl_command_queue queue,
                                 char *err, size_t errlen) {
  int choice;
  k->watch.probe[0] = '\0';
  if (!watch_channel_wanted(&choice))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "gsync_watch_enable: GSYNC_WATCH_CHANNEL=%s is not svm, "
                     "mapped or none",
                     getenv("GSYNC_WATCH_CHANNEL"));
  int svm = watch_device_svm(dev);
  if (choice == CHANNEL_NONE) {
    k->watch.why = "GSYNC_WATCH_CHANNEL=none";
    return GSYNC_OK;
  }
  if (svm && choice != CHANNEL_MAPPED)
    return watch_share_state(k, ctx, err, errlen);
  k->watch.why = "no fine-grained SVM with atomics";
  if (choice == CHANNEL_SVM)
    return GSYNC_OK;
  if (!probe_mapped(ctx, dev, queue, k->watch.probe, sizeof k->watch.probe))
    return GSYNC_OK;
  return watch_share_mapped(k, ctx, queue, err, errlen);
}

gsync_status gsync_watch_enable(gsync_kernel *k, cl_context ctx,
                                cl_device_id dev, cl_command_queue queue,
                                gsync_watch_support *support, char *err,
                                size_t errlen) {
  static const char fn[] = "gsync_watch_enable";
  if (k == NULL || ctx == NULL || dev == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, fn,
                              k == NULL     ? "k"
                              : ctx == NULL ? "ctx"
                              : dev == NULL ? "dev"
                                            : "queue");
  gsync_status st = GSYNC_OK;
  gsync_watch_support got = {sizeof got, 0, 0, 0, "none", NULL};
  pthread_mutex_lock(&k->lock);
  if (k->state == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_KERNEL,
                   "kernel %s reaches no global_barrier(): nothing to watch",
                   k->info.name);
    goto out;
  }
  /* Words 18-23 are the prelude's only where its abort record is at word
   * 10; without a spin limit no work-group could leave a wait. */
  if (!k->info.has_abort_record || k->info.abort_offset != 40 ||
      k->abort.spin_limit_ms == 0 || k->state_bytes < WATCH_END * 4) {
    st = gsli_fail(
        err, errlen, GSYNC_ERR_KERNEL,
        "kernel %s cannot be watched: it was rewritten without a spin "
        "limit (--spin-limit=0) or by an older gsync-rewrite",
        k->info.name);
    goto out;
  }
  int built = 0;
  if ((st = gsli_built_with(k, dev, WATCH_MACRO, &built, err, errlen)) !=
      GSYNC_OK)
    goto out;
  if (!built) {
    st = gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                   "kernel %s cannot be watched: its program was built without "
                   "%s (GSYNC_WATCH_BUILD_OPTION), which compiles the watch in",
                   k->info.name, GSYNC_WATCH_BUILD_OPTION);
    goto out;
  }
  cl_int rc;
  if ((rc = gsli_wait_latest(k)) != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "waiting for the last launch", rc);
    goto out;
  }
  /* Chosen once: why and probe stay as a reader may be reading them. */
  if (!atomic_load(&k->watch.prepare) &&
      (st = watch_choose(k, ctx, dev, queue, err, errlen)) != GSYNC_OK)
    goto out;
  k->watch.has_clock = watch_device_clock(dev);
  got.progress = got.cancel = k->watch.shared != NULL;
  got.deadline = k->watch.has_clock;
  got.channel = k->watch.mapped != NULL   ? "host-visible buffer"
                : k->watch.shared != NULL ? "fine-grained SVM"
                                          : "none";
  got.probe = k->watch.probe[0] != '\0' ? k->watch.probe : NULL;
  if (!got.progress && !got.deadline) {
    char *name = NULL;
    gsli_device_string(dev, CL_DEVICE_NAME, &name);
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "device \"%s\" offers no way to watch kernel %s: no channel "
                   "to a running kernel (%s%s%s) and no clock its kernels read "
                   "(deadline)",
                   name != NULL ? name : "?", k->info.name,
                   k->watch.why != NULL ? k->watch.why : "?",
                   got.probe != NULL ? "; " : "",
                   got.probe != NULL ? got.probe : "");
    free(name);
    goto out;
  }
  atomic_store_explicit(&k->watch.prepare, 1, memory_order_release);
out:
  pthread_mutex_unlock(&k->lock);
  if (support != NULL && support->size > sizeof support->size) {
    /* As far as the caller's struct reaches: older ones end sooner. */
    size_t n = support->size < sizeof got ? support->size : sizeof got;
    got.size = support->size;
    memcpy(support, &got, n);
  }
  return st;
}

/* Enqueues, after k's latest command, the words a launch starts from:
 * no barriers yet (18), the deadline (19), no start time (20-21), the
 * launch's tag (23), which gsync_cancel then names, and what the host
 * watches (24: progress and cancel where it shares the state; without a
 * channel the kernel does neither, since no one could see it). Fills,
 * because a fill copies its pattern at once and a write would need the
 * source kept. */
gsync_status gsli_watch_prepare(gsync_kernel *k, cl_command_queue queue,
                                char *err, size_t errlen) {
  cl_uint tag = atomic_load(&k->watch.tag) + 1;
  tag = tag != 0 ? tag : 1;
  cl_uint mode =
      k->watch.shared != NULL ? WATCH_PROGRESS | WATCH_CANCEL_BIT : 0;
  const struct {
    size_t word;
    cl_uint pattern[2];
  } fills[] = {{WATCH_BARRIERS, {0, k->watch.deadline_ms}},
               {WATCH_START_LO, {0, 0}},
               {WATCH_TAG, {tag, 0}},
               {WATCH_MODE, {mode, 0}}};
  for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
    /* Words 23 and 24 one each: a fill's offset is a multiple of its
     * pattern's size. */
    size_t bytes = fills[f].word >= WATCH_TAG ? 4 : 8;
    gsync_status st = gsli_fill_state(
        k, queue, fills[f].pattern, bytes, fills[f].word * 4, bytes,
        "clEnqueueFillBuffer (watch words)", err, errlen);
    if (st != GSYNC_OK)
      return st;
  }
  atomic_store(&k->watch.tag, tag);
  return GSYNC_OK;
}

/* The message of a launch that the host stopped, from the state's words. */
gsync_status gsli_watch_stopped(const gsync_kernel *k, const cl_uint *words,
                                char *err, size_t errlen) {
  if (words[10] == ABORTED_AT_DEADLINE)
    return gsli_fail(err, errlen, GSYNC_ERR_CANCELLED,
                     "kernel %s: stopped at its deadline of %u ms after %u "
                     "barriers",
                     k->info.name, (unsigned)words[WATCH_DEADLINE_MS],
                     (unsigned)words[WATCH_BARRIERS]);
  return gsli_fail(err, errlen, GSYNC_ERR_CANCELLED,
                   "kernel %s: cancelled by the host after %u barriers",
                   k->info.name, (unsigned)words[WATCH_BARRIERS]);
}

/* Why progress and cancel do not work on k: not watched, or no channel. Reads
 * only what gsync_watch_enable set before any launch. */
static gsync_status watch_unshared(gsync_kernel *k, const char *fn, char *err,
                                   size_t errlen) {
  if (!atomic_load_explicit(&k->watch.prepare, memory_order_acquire))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: kernel %s is not watched (call gsync_watch_enable)",
                     fn, k->info.name);
  return gsli_fail(
      err, errlen, GSYNC_ERR_DEVICE,
      "%s: kernel %s: no channel to a running kernel on its device "
      "(%s%s%s)",
      fn, k->info.name, k->watch.why != NULL ? k->watch.why : "?",
      k->watch.probe[0] != '\0' ? "; " : "", k->watch.probe);
}

gsync_status gsync_progress(gsync_kernel *k, gsync_progress_info *info,
                            char *err, size_t errlen) {
  static const char fn[] = "gsync_progress";
  if (k == NULL || info == NULL)
    return gsli_null_argument(err, errlen, fn, k == NULL ? "k" : "info");
  const cl_uint *w =
      atomic_load_explicit(&k->watch.shared, memory_order_acquire);
  if (w == NULL)
    return watch_unshared(k, fn, err, errlen);
  gsync_progress_info got = {sizeof got, 0, 0, 0};
  got.launches = atomic_load(&k->watch.tag);
  /* Until the latest launch's words are written (its tag with them), the
   * words are an earlier launch's: the latest has done nothing yet. */
  if (__atomic_load_n(&w[WATCH_TAG], __ATOMIC_ACQUIRE) == got.launches)
    got.barriers = __atomic_load_n(&w[WATCH_BARRIERS], __ATOMIC_ACQUIRE);
  /* Participant 0 wrote the grid before the launch's first barrier. */
  if (got.barriers != 0 && k->info.has_grid) {
    const cl_uint *g = w + k->info.grid_offset / 4;
    got.participants = __atomic_load_n(&g[0], __ATOMIC_RELAXED) *
                       __atomic_load_n(&g[1], __ATOMIC_RELAXED) *
                       __atomic_load_n(&g[2], __ATOMIC_RELAXED);
  }
  if (info->size < sizeof got)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: info->size %zu is too small", fn, info->size);
  got.size = info->size;
  *info = got;
  return GSYNC_OK;
}

gsync_status gsync_cancel(gsync_kernel *k, char *err, size_t errlen) {
  static const char fn[] = "gsync_cancel";
  if (k == NULL)
    return gsli_null_argument(err, errlen, fn, "k");
  cl_uint *w = atomic_load_explicit(&k->watch.shared, memory_order_acquire);
  if (w == NULL)
    return watch_unshared(k, fn, err, errlen);
  cl_uint tag = atomic_load(&k->watch.tag);
  if (tag == 0)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "%s: kernel %s: nothing launched", fn, k->info.name);
  __atomic_store_n(&w[WATCH_CANCEL], tag, __ATOMIC_SEQ_CST);
  return GSYNC_OK;
}

gsync_status gsync_set_deadline(gsync_kernel *k, double seconds, char *err,
                                size_t errlen) {
  static const char fn[] = "gsync_set_deadline";
  if (k == NULL)
    return gsli_null_argument(err, errlen, fn, "k");
  if (!(seconds >= 0.0 && seconds <= 4294967.0))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: a deadline of %g s is not between 0 and 4294967 s",
                     fn, seconds);
  pthread_mutex_lock(&k->lock);
  gsync_status st = GSYNC_OK;
  if (!k->watch.prepare)
    st = watch_unshared(k, fn, err, errlen);
  else if (!k->watch.has_clock)
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "%s: kernel %s: the device's kernels read no clock", fn,
                   k->info.name);
  else {
    /* At least 1 ms: 0 means none. */
    double ms = seconds * 1000.0 + 0.5;
    k->watch.deadline_ms = seconds > 0.0 && ms < 1.0 ? 1u : (cl_uint)ms;
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}

/* Unmaps k's state from the host, after k's latest command, where it is
 * a host-visible buffer; before the buffer is released. */
void gsli_watch_unmap(gsync_kernel *k) {
  if (k->watch.mapped == NULL)
    return;
  cl_uint n;
  const cl_event *after;
  if (gsli_after_latest(k, k->watch.mapped, &n, &after, NULL, 0) == GSYNC_OK &&
      clEnqueueUnmapMemObject(k->watch.mapped, k->state, k->watch.shared, n,
                              after, NULL) == CL_SUCCESS)
    clFinish(k->watch.mapped);
  clReleaseCommandQueue(k->watch.mapped);
  k->watch.mapped = NULL;
  k->watch.shared = NULL;
}

/* Frees the SVM that held k's state, after its buffer was released and
 * after k's latest command: a launch still running writes its words there
 * (progress, the grid, discovery's) until it ends, and a block freed at
 * once could be another allocation's by then. The free is a command
 * after that one on its queue, so that the caller does not wait; where it
 * cannot be enqueued, the host waits for the latest command first. */
void gsli_watch_release(gsync_kernel *k) {
  if (k->watch.ctx == NULL)
    return;
  void *svm = k->watch.shared;
  cl_uint n;
  const cl_event *after;
  if (k->last_q == NULL ||
      gsli_after_latest(k, k->last_q, &n, &after, NULL, 0) != GSYNC_OK ||
      clEnqueueSVMFree(k->last_q, 1, &svm, NULL, NULL, n, after, NULL) !=
          CL_SUCCESS ||
      clFlush(k->last_q) != CL_SUCCESS) {
    gsli_wait_latest(k);
    clSVMFree(k->watch.ctx, svm);
  }
  k->watch.shared = NULL;
  clReleaseContext(k->watch.ctx);
  k->watch.ctx = NULL;
}

/* Returns the enumerator's name as a static string. */
const char *gsync_status_name(gsync_status s) {
  switch (s) {
  case GSYNC_OK:
    return "GSYNC_OK";
  case GSYNC_ERR_IO:
    return "GSYNC_ERR_IO";
  case GSYNC_ERR_FORMAT:
    return "GSYNC_ERR_FORMAT";
  case GSYNC_ERR_DEVICE:
    return "GSYNC_ERR_DEVICE";
  case GSYNC_ERR_KERNEL:
    return "GSYNC_ERR_KERNEL";
  case GSYNC_ERR_LAUNCH:
    return "GSYNC_ERR_LAUNCH";
  case GSYNC_ERR_OPENCL:
    return "GSYNC_ERR_OPENCL";
  case GSYNC_ERR_NOMEM:
    return "GSYNC_ERR_NOMEM";
  case GSYNC_ERR_TIMEOUT:
    return "GSYNC_ERR_TIMEOUT";
  case GSYNC_ERR_MISMATCH:
    return "GSYNC_ERR_MISMATCH";
  case GSYNC_ERR_ARGUMENT:
    return "GSYNC_ERR_ARGUMENT";
  case GSYNC_ERR_CANCELLED:
    return "GSYNC_ERR_CANCELLED";
  }
  return "GSYNC_ERR_UNKNOWN";
}
