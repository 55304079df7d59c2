/* gsync-run: the host program of the run tests.
 *
 * It builds a kernel that gsync-rewrite produced on the first OpenCL device
 * (or the first of the platform GSYNC_PLATFORM names), launches it through
 * libgsync in one of a few fixed scenarios, checks the result against a CPU
 * reference and prints one summary line. The scenarios' input kernels are in
 * test/run/kernels/; their signatures are fixed here.
 *
 * Exit status: 0 ok (or, with --expect-fail, a mismatch), 1 mismatch or any
 * error, 2 usage error.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "libgsync.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ERRLEN 512

static const char usage_text[] =
    "usage: gsync-run --scenario NAME --cl REWRITTEN.cl --constraints C.json\n"
    "                 (--groups G | --fit MAX) --local L [--offset O]\n"
    "                 [--min-participants N] [--launches K] [--rounds R]\n"
    "                 [--vary N] [--polled] [--time]\n"
    "                 [--expect-fail]\n"
    "                 [--expect-timeout] [--options OPTS]\n"
    "       gsync-run --build-only FILE.cl [--options \"-cl-std=CL3.0 ...\"]\n"
    "       gsync-run --build-list LIST\n"
    "       gsync-run --load-only --constraints C.json\n"
    "       gsync-run --load-list LIST\n"
    "       gsync-run --build-runs LIST\n"
    "\n"
    "Builds a kernel rewritten by gsync-rewrite, launches it G x L through\n"
    "libgsync, checks it against a CPU reference and prints one line:\n"
    "  NAME: ok participants=P groups=G launches=K\n"
    "  NAME: ok participants=P grid=V left_out=X groups=G launches=K\n"
    "  NAME: MISMATCH at I: got X want Y (participants=P)\n"
    "  NAME: timed out: MESSAGE    (libgsync's message: a barrier or\n"
    "                               discovery waited past the spin limit)\n"
    "P is the fewest work-groups that took part in any launch; a launch of\n"
    "the helper scenario runs both of its kernels. G, L and O are a count\n"
    "(1-D) or counts per dimension, 16x8 or 4x4x2: such a launch, or one\n"
    "with an offset, goes through gsync_enqueue_nd, and its line gives the\n"
    "virtual grid V of the last launch and how many admitted work-groups it\n"
    "left out.\n"
    "\n"
    "scenarios (inputs in test/run/kernels/):\n"
    "  stencil  stencil.cl: 3-point ring stencil, 200 iterations\n"
    "  halo     examples/halo.cl or halo-split.cl: a ring stencil whose\n"
    "           interior is worked out between global_barrier_arrive() and\n"
    "           global_barrier_wait() and its halo after (or all of it before\n"
    "           one global_barrier()), 200 steps\n"
    "  split    split.cl: a ring stencil over n/2 whose own term is worked\n"
    "           out between global_barrier_arrive() and global_barrier_wait()\n"
    "           and its neighbours' after, 200 iterations\n"
    "  mirror   mirror.cl: write slot[i], read slot[n-1-i], 300 rounds\n"
    "  xpx      xpx.cl: all-to-all X->P->X sums, n=256, 20 rounds\n"
    "  helper   helper.cl: barrier two calls deep, kernels shift_left and\n"
    "           shift_right, 100 rounds each\n"
    "  reuse    stencil.cl launched 100 times (2 iterations each) through\n"
    "           one state buffer, checked after every launch\n"
    "  atomics  atomics.cl: C11 atomic_fetch_add and atomic_load (OpenCL C\n"
    "           2.0 or 3.0), n=3000, 100 rounds\n"
    "  uneven   uneven.cl: stencil's work, but only even work-groups call\n"
    "           global_barrier(): correct with one participant, a launch\n"
    "           that times out with more\n"
    "  slow     slow.cl: stencil's work, with a serial phase of SLOW_MS ms\n"
    "           (a -D of the rewrite) in work-group 0 at the first barrier\n"
    "  jacobi2d jacobi2d.cl: 5-point Jacobi sweeps over 48 x 40, 40 steps\n"
    "  stencil3d stencil3d.cl: 7-point stencil over 20 x 18 x 12, 20 steps\n"
    "  ids      ids.cl: each work-item records its remapped ids; checks\n"
    "           that they form the virtual grid docs/nd.md describes for\n"
    "           the admitted count (any launch shape, offsets too)\n"
    "\n";

/* The options part (one string would pass C99's 4095-character limit). */
static const char usage_options[] =
    "options:\n"
    "  --min-participants N  fail if fewer than N work-groups took part in\n"
    "                        any launch\n"
    "  --launches K          launches in sequence, each checked (default 1;\n"
    "                        100 for reuse)\n"
    "  --vary N              every second launch (1-D) has G / N work-groups\n"
    "                        (at least 1), through the same state: a launch\n"
    "                        must not read what one of another size left\n"
    "  --polled              after the summary, one line \"polled: N ...\":\n"
    "                        how many work-groups discovery polled in each\n"
    "                        launch (gsync_launch_info.polled; at most 64)\n"
    "  --time                after the summary, one line \"time: K launches\n"
    "                        T us, fastest F us\": the launches' wall time\n"
    "                        (enqueue to finish), all and the fastest\n"
    "  --rounds R            iterations inside each launch (default: the\n"
    "                        scenario's)\n"
    "  --expect-fail         exit 0 only on a MISMATCH, 1 when the check\n"
    "                        passes (for tests of a broken barrier)\n"
    "  --expect-timeout      the first launch must time out; then the\n"
    "                        scenario runs again through the same kernel\n"
    "                        handles with 1 work-group and must pass (it\n"
    "                        prints both lines)\n"
    "  --offset O            the launch's global work offset\n"
    "  --fit MAX             instead of --groups: launch as many work-groups\n"
    "                        as gsync_groups_that_fit says fit (kernel "
    "handles\n"
    "                        made for MAX); prints NAME: fit=N of MAX\n"
    "                        probe=T ms (the first call's time); with a\n"
    "                        2-D or 3-D --local, the launch is the\n"
    "                        squarest shape of at most N groups\n"
    "  --size N              the elements a 1-D scenario works on (at most\n"
    "                        2^26; stencil, split and halo)\n"
    "  --extent WxH[xD]      the grid jacobi2d or stencil3d sweeps (each\n"
    "                        at most 4096)\n"
    "  --load-only           only load C.json and check the device against\n"
    "                        it (libgsync): exit 0, or 1 with its message\n"
    "  --load-list LIST      load each constraints file LIST names, one a\n"
    "                        line, as --load-only does, in one process;\n"
    "                        print 'FILE: loaded' or 'FILE: error: MESSAGE'\n"
    "                        for each; exit 1 if any failed\n"
    "  --build-runs LIST     for each run LIST names, one a line (its\n"
    "                        options, tab-separated), only load its\n"
    "                        constraints and build its output as that run\n"
    "                        would, in one process (the device's compiler\n"
    "                        starts once, and the runs then find their\n"
    "                        programs in its cache); print 'RUN N: built'\n"
    "                        or why not; exit 1 if any failed\n"
    "  --build-only FILE.cl  only build FILE.cl; print the build log and\n"
    "                        exit 1 if the build fails\n"
    "  --build-list LIST     build each file LIST names, one a line, with\n"
    "                        its options after a tab, as --build-only does,\n"
    "                        in one process (the device's compiler starts\n"
    "                        once); exit 1 if any build fails\n"
    "  --options OPTS        build options for --build-only; with a\n"
    "                        scenario, added after libgsync's\n"
    "  --cache-store RULE    only cache RULE as gsync-check's recommendation\n"
    "                        for the device (gsync_check_cache_store) and\n"
    "                        print the file's path\n"
    "An output of --barrier=auto: the rule libgsync builds, and why, is\n"
    "printed first, 'gsync-run: barrier RULE (SOURCE): WHY'.\n"
    "\n"
    "environment: GSYNC_PLATFORM=TEXT picks the first platform whose name\n"
    "contains TEXT (default: the first platform).\n"
    "exit status: 0 ok, 1 mismatch or error, 2 usage error.\n";

/* The command line. */
typedef struct options {
  const char *scenario;
  const char *cl;
  const char *constraints;
  const char *build_only;
  const char *build_list; /* --build-list LIST */
  const char *load_list;  /* --load-list LIST */
  const char *build_runs; /* --build-runs LIST */
  const char *build_options;
  const char *cache_store;               /* --cache-store RULE */
  size_t groups[3], local[3], offset[3]; /* per dimension; 1 past dims */
  size_t extent[3];                      /* --extent, 0: the scenario's */
  size_t size;                           /* --size, 0: the scenario's */
  cl_uint dims, local_dims, offset_dims, extent_dims;
  int has_offset;
  size_t min_participants;
  size_t fit;      /* --fit MAX: launch as many groups as fit, up to MAX */
  size_t launches; /* 0: the scenario's default */
  size_t rounds;   /* 0: the scenario's default */
  size_t vary;     /* --vary N: every second launch G / N groups; 0 none */
  int expect_fail;
  int expect_timeout;
  int polled;    /* --polled: print what each launch polled */
  int time;      /* --time: print the launches' wall time */
  int load_only; /* --load-only: load the constraints, check the device */
} options;

/* How a run ended. */
enum { RUN_OK, RUN_MISMATCH, RUN_FEW, RUN_TIMEOUT, RUN_ERROR };

/* One scenario run: the OpenCL objects and what the checks found. */
typedef struct run {
  const options *o;
  const char *name; /* the scenario */
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue queue;
  cl_program program;
  gsync_program *gp;
  size_t groups;          /* work-groups per launch: --groups, then 1 */
  size_t shape[3];        /* the same per dimension */
  cl_uint min_seen;       /* fewest participants in any launch so far */
  gsync_launch_info info; /* of the latest N-D launch */
  size_t launches;        /* kernel launches enqueued */
  int timed_out;          /* a launch timed out, as --expect-timeout wants */
  char timeout_msg[ERRLEN];
  size_t cycles; /* --launches cycles (one launch of each kernel) begun */
  /* the first mismatch */
  size_t bad_index;
  cl_uint got, want;
  const char *bad_kernel;
  size_t bad_launch;
  const char *bad_what; /* what was compared, when not the data */
  int linear_checked;   /* ids: get_global_linear_id was checked too */
  cl_uint polled[64];   /* --polled: each launch's, the first 64 */
  double launch_s;      /* --time: the launches' wall time, in all */
  double fastest_s;     /* and the fastest launch's */
} run;

/* Prints a usage error and returns exit status 2. */
static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "gsync-run: error: %s%s%s\n", msg, arg ? ": " : "",
          arg ? arg : "");
  fprintf(stderr, "Try 'gsync-run --help' for more information.\n");
  return 2;
}

/* Parses a decimal count into *out. Returns 1 on success, 0 if s is not a
 * plain decimal number that fits. */
static int parse_count(const char *s, size_t *out) {
  char *end;
  if (s[0] < '0' || s[0] > '9')
    return 0;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || *end != '\0' || v > SIZE_MAX)
    return 0;
  *out = (size_t)v;
  return 1;
}

/* Parses a launch shape, "16" or "16x8" or "4x4x2", into out[0..2] (1
 * past the dimensions given) and *dims. Returns 1 on success, 0 if s is
 * not such a shape. */
static int parse_shape(const char *s, size_t *out, cl_uint *dims) {
  char part[32];
  *dims = 0;
  for (const char *p = s;; p++) {
    const char *x = strchr(p, 'x');
    size_t len = x != NULL ? (size_t)(x - p) : strlen(p);
    if (*dims == 3 || len == 0 || len >= sizeof part)
      return 0;
    memcpy(part, p, len);
    part[len] = '\0';
    if (!parse_count(part, &out[(*dims)++]))
      return 0;
    if (x == NULL)
      break;
    p = x;
  }
  for (cl_uint d = *dims; d < 3; d++)
    out[d] = 1;
  return 1;
}

/* Parses argv into *o. Returns 0 when it may go on, 2 on a usage error
 * (already reported), or -1 after printing --help. */
static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      fputs(usage_options, stdout);
      return -1;
    }
    if (strcmp(a, "--expect-fail") == 0) {
      o->expect_fail = 1;
      continue;
    }
    if (strcmp(a, "--expect-timeout") == 0) {
      o->expect_timeout = 1;
      continue;
    }
    if (strcmp(a, "--polled") == 0) {
      o->polled = 1;
      continue;
    }
    if (strcmp(a, "--time") == 0) {
      o->time = 1;
      continue;
    }
    if (strcmp(a, "--load-only") == 0) {
      o->load_only = 1;
      continue;
    }
    /* Every other option takes a value, as "--opt V" or "--opt=V". */
    static const char *const valued[] = {"--scenario",
                                         "--cl",
                                         "--constraints",
                                         "--groups",
                                         "--local",
                                         "--launches",
                                         "--min-participants",
                                         "--rounds",
                                         "--build-only",
                                         "--options",
                                         "--offset",
                                         "--extent",
                                         "--fit",
                                         "--vary",
                                         "--size",
                                         "--cache-store",
                                         "--build-list",
                                         "--load-list",
                                         "--build-runs"};
    const char *value = NULL;
    size_t k, n = 0;
    for (k = 0; k < sizeof valued / sizeof valued[0]; k++) {
      n = strlen(valued[k]);
      if (strncmp(a, valued[k], n) == 0 && (a[n] == '\0' || a[n] == '='))
        break;
    }
    if (k == sizeof valued / sizeof valued[0])
      return usage_error("unknown option", a);
    if (a[n] == '=')
      value = a + n + 1;
    else if (i + 1 < argc)
      value = argv[++i];
    else
      return usage_error("missing value for", a);
    int ok = 1;
    switch (k) {
    case 0:
      o->scenario = value;
      break;
    case 1:
      o->cl = value;
      break;
    case 2:
      o->constraints = value;
      break;
    case 3:
      ok = parse_shape(value, o->groups, &o->dims);
      break;
    case 4:
      ok = parse_shape(value, o->local, &o->local_dims);
      break;
    case 5:
      ok = parse_count(value, &o->launches);
      break;
    case 6:
      ok = parse_count(value, &o->min_participants);
      break;
    case 7:
      ok = parse_count(value, &o->rounds);
      break;
    case 8:
      o->build_only = value;
      break;
    case 9:
      o->build_options = value;
      break;
    case 11:
      ok = parse_shape(value, o->extent, &o->extent_dims);
      for (cl_uint d = 0; d < 3; d++)
        ok = ok && o->extent[d] <= 4096;
      break;
    case 12:
      ok = parse_count(value, &o->fit) && o->fit > 0;
      o->groups[0] = o->fit;
      o->groups[1] = o->groups[2] = 1;
      break;
    case 13:
      ok = parse_count(value, &o->vary) && o->vary > 0;
      break;
    case 14:
      ok = parse_count(value, &o->size) && o->size > 0 &&
           o->size <= (size_t)1 << 26;
      break;
    case 15:
      o->cache_store = value;
      break;
    case 16:
      o->build_list = value;
      break;
    case 17:
      o->load_list = value;
      break;
    case 18:
      o->build_runs = value;
      break;
    case 10:
      ok = parse_shape(value, o->offset, &o->offset_dims);
      for (cl_uint d = o->offset_dims; d < 3; d++)
        o->offset[d] = 0;
      o->has_offset = 1;
      break;
    }
    if (!ok)
      return usage_error(k == 3 || k == 4 || k == 10 || k == 11
                             ? "not a count or a shape like 8x8"
                             : "not a number",
                         value);
    if ((k == 5 && o->launches == 0) || (k == 7 && o->rounds == 0))
      return usage_error("must be at least 1", a);
  }
  if (o->build_only != NULL || o->build_list != NULL ||
      o->cache_store != NULL || o->load_list != NULL || o->build_runs != NULL)
    return 0;
  if (o->load_only)
    return o->constraints != NULL
               ? 0
               : usage_error("--load-only needs --constraints", NULL);
  if (o->scenario == NULL || o->cl == NULL || o->constraints == NULL)
    return usage_error("--scenario, --cl and --constraints are required", NULL);
  if (o->fit != 0) /* as many dimensions as --local */
    o->dims = o->local_dims;
  if (o->dims == 0 || o->local_dims == 0)
    return usage_error("--groups and --local are required", NULL);
  if (o->vary != 0 &&
      (o->dims != 1 || o->has_offset || strcmp(o->scenario, "ids") == 0))
    return usage_error("--vary needs a 1-D launch without --offset, of a "
                       "scenario other than ids",
                       NULL);
  if (o->local_dims != o->dims || (o->has_offset && o->offset_dims != o->dims))
    return usage_error("--groups, --local and --offset differ in dimensions",
                       NULL);
  for (cl_uint d = 0; d < 3; d++)
    if (o->groups[d] == 0 || o->local[d] == 0)
      return usage_error("--groups and --local must be at least 1", NULL);
  if (o->rounds > UINT32_MAX)
    return usage_error("--rounds is too large", NULL);
  return 0;
}

/* Reads a whole file into a malloc'd NUL-terminated string, or returns NULL
 * after printing why. */
static char *slurp(const char *path) {
  char *s, err[512];
  if (gsync_read_file(path, &s, NULL, err, sizeof err)) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    return NULL;
  }
  return s;
}

/* Reports a failed OpenCL call. Returns RUN_ERROR. */
static int cl_error(const char *call, cl_int rc) {
  fprintf(stderr, "gsync-run: error: %s failed (%d)\n", call, (int)rc);
  return RUN_ERROR;
}

/* Picks the device as every program of the project does
 * (gsync_pick_device: $GSYNC_PLATFORM). Returns RUN_OK or RUN_ERROR. */
static int pick_device(cl_device_id *dev) {
  char err[512];
  if (gsync_pick_device(NULL, 0, NULL, dev, err, sizeof err) == GSYNC_OK)
    return RUN_OK;
  fprintf(stderr, "gsync-run: error: %s\n", err);
  return RUN_ERROR;
}

/* Creates r->ctx and an in-order r->queue on r->dev. Returns RUN_OK or
 * RUN_ERROR. */
static int open_device(run *r) {
  cl_int rc;
  r->ctx = clCreateContext(NULL, 1, &r->dev, NULL, NULL, &rc);
  if (rc != CL_SUCCESS)
    return cl_error("clCreateContext", rc);
  r->queue = clCreateCommandQueueWithProperties(r->ctx, r->dev, NULL, &rc);
  if (rc != CL_SUCCESS)
    return cl_error("clCreateCommandQueueWithProperties", rc);
  return RUN_OK;
}

/* Builds the source in file path with options into r->program, printing the
 * build log on failure. Returns RUN_OK or RUN_ERROR. */
static int build(run *r, const char *path, const char *opts) {
  char *src = slurp(path);
  if (src == NULL)
    return RUN_ERROR;
  cl_int rc;
  const char *srcs[1] = {src};
  r->program = clCreateProgramWithSource(r->ctx, 1, srcs, NULL, &rc);
  free(src);
  if (rc != CL_SUCCESS)
    return cl_error("clCreateProgramWithSource", rc);
  rc = clBuildProgram(r->program, 1, &r->dev, opts, NULL, NULL);
  if (rc == CL_SUCCESS)
    return RUN_OK;
  size_t size = 0;
  char *log = NULL;
  if (clGetProgramBuildInfo(r->program, r->dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
                            &size) == CL_SUCCESS &&
      (log = calloc(size + 1, 1)) != NULL)
    clGetProgramBuildInfo(r->program, r->dev, CL_PROGRAM_BUILD_LOG, size, log,
                          NULL);
  fprintf(stderr, "%s", log != NULL ? log : "");
  fprintf(stderr,
          "gsync-run: error: %s: build failed with options \"%s\" "
          "(%d)\n",
          path, opts, (int)rc);
  free(log);
  return RUN_ERROR;
}

/* Builds path as build() does and says so: "PATH: build ok", or the log
 * and the error. Returns 0 if it built, else 1. */
static int build_and_say(run *r, const char *path, const char *opts) {
  if (build(r, path, opts) != RUN_OK)
    return 1;
  printf("%s: build ok\n", path);
  return 0;
}

/* Calls each(r, line, n) for each line of the file at list_path, N from
 * 1 (empty lines skipped; the lines of --build-list, --load-list and
 * --build-runs), then flushes what it printed and releases the program
 * and the constraints it left in r. Returns 0 if every call returned 0,
 * else 1 (also when the file cannot be read). */
static int each_line(run *r, const char *list_path,
                     int (*each)(run *r, char *line, int n)) {
  char *list = slurp(list_path);
  if (list == NULL)
    return 1;
  int status = 0, n = 0;
  for (char *at = list; *at != '\0';) {
    char *line = at, *end = line + strcspn(line, "\n");
    at = *end == '\n' ? end + 1 : end;
    *end = '\0';
    if (*line == '\0')
      continue;
    status |= each(r, line, ++n) != 0;
    fflush(stdout);
    gsync_program_release(r->gp);
    r->gp = NULL;
    if (r->program != NULL) {
      clReleaseProgram(r->program);
      r->program = NULL;
    }
  }
  free(list);
  return status;
}

/* --build-list: builds the line's "FILE<tab>OPTIONS" with build_and_say().
 * Returns 0 if it built, else 1. */
static int build_list_line(run *r, char *line, int n) {
  (void)n;
  char *tab = strchr(line, '\t');
  if (tab != NULL)
    *tab = '\0';
  return build_and_say(r, line, tab != NULL ? tab + 1 : "");
}

/* Loads the constraints file path into r->gp, checks r's device against
 * it and lets libgsync choose the barrier (an output of --barrier=auto's)
 * into choice. Returns GSYNC_OK, or libgsync's status with its message in
 * err (ERRLEN bytes). */
static gsync_status load_program(run *r, const char *path,
                                 gsync_barrier_choice *choice, char *err) {
  memset(choice, 0, sizeof *choice);
  choice->size = sizeof *choice;
  gsync_status st = gsync_program_load(path, &r->gp, err, ERRLEN);
  if (st == GSYNC_OK)
    st = gsync_program_check_device(r->gp, r->dev, err, ERRLEN);
  if (st == GSYNC_OK)
    st = gsync_program_choose_barrier(r->gp, r->dev, choice, err, ERRLEN);
  return st;
}

/* The options a run of o builds its output with: libgsync's for r's
 * program and device, then --options. Written into buf (n bytes). */
static const char *run_build_options(run *r, const options *o, char *buf,
                                     size_t n) {
  snprintf(buf, n, "%s %s", gsync_program_build_options(r->gp, r->dev),
           o->build_options != NULL ? o->build_options : "");
  return buf;
}

/* --load-list: loads the constraints file the line names and checks the
 * device against it, as --load-only does; prints "FILE: loaded" or "FILE:
 * error: MESSAGE". Returns 0 if it loaded, else 1. */
static int load_list_line(run *r, char *line, int n) {
  (void)n;
  char err[ERRLEN];
  gsync_barrier_choice choice;
  if (load_program(r, line, &choice, err) != GSYNC_OK) {
    printf("%s: error: %s\n", line, err);
    return 1;
  }
  printf("%s: loaded\n", line);
  return 0;
}

/* --build-runs: for the run the line holds (its gsync-run options,
 * tab-separated), loads its constraints and builds its output as main()
 * would before launching it, so that the run finds its program in the
 * device's cache. Prints "RUN N: built" or why not. Returns 0 if it
 * built, else 1. */
static int build_runs_line(run *r, char *line, int n) {
  char *argv[64] = {"gsync-run"};
  int argc = 1;
  for (char *arg = strtok(line, "\t"); arg != NULL && argc < 63;
       arg = strtok(NULL, "\t"))
    argv[argc++] = arg;
  options o;
  char err[ERRLEN], opts[512];
  gsync_barrier_choice choice;
  if (parse_args(argc, argv, &o) != 0 || o.cl == NULL ||
      o.constraints == NULL) {
    printf("RUN %d: error: not the options of a run\n", n);
    return 1;
  }
  if (load_program(r, o.constraints, &choice, err) != GSYNC_OK) {
    printf("RUN %d: error: %s\n", n, err);
    return 1;
  }
  if (build(r, o.cl, run_build_options(r, &o, opts, sizeof opts)) != RUN_OK)
    return 1;
  printf("RUN %d: built\n", n);
  return 0;
}

/* Creates a buffer of n uints holding init. Returns it, or NULL after
 * printing why. */
static cl_mem make_buffer(run *r, const cl_uint *init, size_t n) {
  cl_int rc;
  cl_mem m = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            n * sizeof *init, (void *)init, &rc);
  if (rc != CL_SUCCESS) {
    cl_error("clCreateBuffer", rc);
    return NULL;
  }
  return m;
}

/* Reads n uints of m into out (blocking). Returns RUN_OK or RUN_ERROR. */
static int read_buffer(run *r, cl_mem m, cl_uint *out, size_t n) {
  cl_int rc = clEnqueueReadBuffer(r->queue, m, CL_TRUE, 0, n * sizeof *out, out,
                                  0, NULL, NULL);
  return rc == CL_SUCCESS ? RUN_OK : cl_error("clEnqueueReadBuffer", rc);
}

/* Makes kernel name with the user arguments (a, b, args[0..n_args)) and
 * its libgsync handle. Returns RUN_OK or RUN_ERROR. */
static int make_kernel(run *r, const char *name, cl_mem a, cl_mem b,
                       const cl_uint *args, cl_uint n_args, cl_kernel *kernel,
                       gsync_kernel **gk) {
  cl_int rc;
  char err[ERRLEN];
  *kernel = clCreateKernel(r->program, name, &rc);
  if (rc != CL_SUCCESS) {
    fprintf(stderr, "gsync-run: error: %s: no kernel %s (%d)\n", r->o->cl, name,
            (int)rc);
    return RUN_ERROR;
  }
  if ((rc = clSetKernelArg(*kernel, 0, sizeof a, &a)) != CL_SUCCESS ||
      (rc = clSetKernelArg(*kernel, 1, sizeof b, &b)) != CL_SUCCESS)
    return cl_error("clSetKernelArg", rc);
  for (cl_uint i = 0; i < n_args; i++)
    if ((rc = clSetKernelArg(*kernel, 2 + i, sizeof *args, &args[i])) !=
        CL_SUCCESS)
      return cl_error("clSetKernelArg", rc);
  gsync_status st = gsync_kernel_create(r->gp, r->ctx, r->queue, *kernel,
                                        r->groups, gk, err, sizeof err);
  if (st != GSYNC_OK) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    return RUN_ERROR;
  }
  return RUN_OK;
}

/* Seconds on a monotonic clock. */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether info, from a gsync_finish_nd that returned GSYNC_ERR_TIMEOUT,
 * holds the abort record that msg, libgsync's message, reports: a host
 * that reports it by the fields says what the message says. */
static int abort_reported(const gsync_launch_info *info, const char *msg) {
  char saw[96];
  if (info->waited_ms != 0xffffffffu)
    snprintf(saw, sizeof saw, " waited %u ms", (unsigned)info->waited_ms);
  else
    snprintf(saw, sizeof saw, " waited past the spin limit");
  if (strstr(msg, saw) == NULL)
    return 0;
  snprintf(saw, sizeof saw, " saw %u of %u ", (unsigned)info->arrived,
           (unsigned)info->expected);
  if (strstr(msg, saw) == NULL)
    return 0;
  if (info->end == GSYNC_END_DISCOVERY)
    return strstr(msg, "occupancy discovery aborted") != NULL;
  return info->end == GSYNC_END_BARRIER && info->site != 0 &&
         strstr(msg, "global barrier") != NULL;
}

/* Launches gk once, waits, and records how many groups took part. Returns
 * RUN_OK, RUN_FEW (fewer than --min-participants), RUN_TIMEOUT (libgsync's
 * message in r->timeout_msg) or RUN_ERROR. */
static int launch(run *r, gsync_kernel *gk) {
  char err[ERRLEN];
  cl_uint parts = 0;
  gsync_status st;
  double t0 = now_s();
  r->info.size = 0; /* set where gsync_finish_nd fills it */
  /* ids checks what gsync_finish_nd reports of the launch: it always
   * goes the N-D way, 1-D too. */
  if (r->o->dims == 1 && !r->o->has_offset && strcmp(r->name, "ids") != 0) {
    size_t groups = r->groups;
    if (r->o->vary != 0 && r->launches % 2 == 1)
      groups = groups / r->o->vary > 0 ? groups / r->o->vary : 1;
    st = gsync_enqueue(gk, r->queue, groups, r->o->local[0], NULL, err,
                       sizeof err);
    /* It reports what was polled, and how an aborted launch ended. */
    if (st == GSYNC_OK && (r->o->polled || r->o->expect_timeout)) {
      r->info.size = sizeof r->info;
      st = gsync_finish_nd(gk, r->queue, &r->info, err, sizeof err);
      parts = r->info.participants;
    } else if (st == GSYNC_OK) {
      st = gsync_finish(gk, r->queue, &parts, err, sizeof err);
    }
  } else {
    st = gsync_enqueue_nd(gk, r->queue, r->o->dims,
                          r->o->has_offset ? r->o->offset : NULL, r->shape,
                          r->o->local, err, sizeof err);
    r->info.size = sizeof r->info;
    if (st == GSYNC_OK)
      st = gsync_finish_nd(gk, r->queue, &r->info, err, sizeof err);
    parts = r->info.participants;
  }
  if (st == GSYNC_ERR_TIMEOUT) {
    snprintf(r->timeout_msg, sizeof r->timeout_msg, "%s", err);
    if (r->info.size != 0 && !abort_reported(&r->info, err)) {
      fprintf(stderr,
              "gsync-run: error: gsync_launch_info (end %u, site %u, "
              "arrived %u of %u) is not what the message says: %s\n",
              (unsigned)r->info.end, (unsigned)r->info.site,
              (unsigned)r->info.arrived, (unsigned)r->info.expected, err);
      return RUN_ERROR;
    }
    return RUN_TIMEOUT;
  }
  if (st != GSYNC_OK) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    return RUN_ERROR;
  }
  double took = now_s() - t0;
  r->launch_s += took;
  if (r->launches == 0 || took < r->fastest_s)
    r->fastest_s = took;
  if (r->launches == 0 || parts < r->min_seen)
    r->min_seen = parts;
  if (r->launches < sizeof r->polled / sizeof r->polled[0])
    r->polled[r->launches] = r->info.polled;
  r->launches++;
  return parts < r->o->min_participants && !r->timed_out ? RUN_FEW : RUN_OK;
}

/* Compares got with want over n elements; records the first difference.
 * Returns RUN_OK or RUN_MISMATCH. */
static int compare(run *r, const char *kernel, const cl_uint *got,
                   const cl_uint *want, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      r->bad_index = i;
      r->got = got[i];
      r->want = want[i];
      r->bad_kernel = kernel;
      r->bad_launch = r->cycles;
      return RUN_MISMATCH;
    }
  }
  return RUN_OK;
}

/* CPU reference of stencil.cl: iters iterations over a (n elements). */
static void stencil_ref(cl_uint *a, cl_uint *b, size_t n, size_t iters) {
  for (size_t it = 0; it < iters; it++) {
    for (size_t i = 0; i < n; i++)
      b[i] = a[i] + a[(i + 1) % n] + a[(i + 2) % n];
    memcpy(a, b, n * sizeof *a);
  }
}

/* CPU reference of split.cl: iters iterations over two generations of
 * m = n / 2 elements in a (the one read alternates), with b the
 * elements' own terms. */
static void split_ref(cl_uint *a, cl_uint *b, size_t n, size_t iters) {
  size_t m = n / 2;
  for (size_t it = 0; it < iters; it++) {
    cl_uint *src = a + (it % 2) * m, *dst = a + (1 - it % 2) * m;
    for (size_t i = 0; i < m; i++)
      b[i] = 3u * src[i];
    for (size_t i = 0; i < m; i++)
      dst[i] = b[i] + src[(i + 1) % m] + src[(i + 2) % m];
  }
}

/* CPU reference of examples/halo.cl and halo-split.cl: steps ring
 * stencil sweeps between a and b, which swap roles every step. */
static void halo_ref(cl_uint *a, cl_uint *b, size_t n, size_t steps) {
  for (size_t t = 0; t < steps; t++) {
    const cl_uint *src = t % 2 ? b : a;
    cl_uint *dst = t % 2 ? a : b;
    for (size_t i = 0; i < n; i++)
      dst[i] = src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
  }
}

/* CPU reference of mirror.cl's mirror_value(). */
static cl_uint mirror_value(cl_uint i, cl_uint round) {
  return i * 2654435761u + round * 40503u + 1u;
}

/* CPU reference of xpx.cl: rounds X->P->X exchanges over n elements. */
static void xpx_ref(cl_uint *x, cl_uint *p, size_t n, size_t rounds) {
  for (cl_uint r = 0; r < rounds; r++) {
    cl_uint s = 0;
    for (size_t k = 0; k < n; k++)
      s += x[k];
    for (cl_uint j = 0; j < n; j++)
      p[j] = s + j * r + 1u;
    s = 0;
    for (size_t k = 0; k < n; k++)
      s += p[k] * (cl_uint)(k + 1);
    for (cl_uint j = 0; j < n; j++)
      x[j] = s ^ j;
  }
}

/* CPU reference of helper.cl's phase(): dst[i] = src[(i+shift)%n] + add. */
static void phase_ref(cl_uint *dst, const cl_uint *src, size_t n, size_t shift,
                      cl_uint add) {
  for (size_t i = 0; i < n; i++)
    dst[i] = src[(i + shift) % n] + add;
}

/* CPU reference of jacobi2d.cl (dims 2) and stencil3d.cl (dims 3): steps
 * sweeps over the grid ext[0] x ext[1] x ext[2] between a and b, which
 * swap roles every step; points on an edge keep their value. */
static void sweep_ref(cl_uint *a, cl_uint *b, const cl_uint *ext, int dims,
                      size_t steps) {
  size_t stride[3] = {1, ext[0], (size_t)ext[0] * ext[1]};
  for (size_t t = 0; t < steps; t++) {
    const cl_uint *src = t % 2 ? b : a;
    cl_uint *dst = t % 2 ? a : b;
    for (size_t z = 0; z < ext[2]; z++)
      for (size_t y = 0; y < ext[1]; y++)
        for (size_t x = 0; x < ext[0]; x++) {
          size_t at[3] = {x, y, z}, i = z * stride[2] + y * stride[1] + x;
          int edge = 0;
          cl_uint sum = src[i];
          for (int d = 0; d < dims; d++)
            edge |= at[d] == 0 || at[d] == ext[d] - 1;
          for (int d = 0; d < dims && !edge; d++)
            sum += src[i - stride[d]] + src[i + stride[d]] - 2u * src[i];
          dst[i] = sum;
        }
  }
}

/* CPU reference of atomics.cl: rounds of scattered adds, then reads. */
static void atomics_ref(cl_uint *a, cl_uint *b, size_t n, size_t rounds) {
  for (cl_uint r = 0; r < rounds; r++) {
    for (cl_uint i = 0; i < n; i++)
      a[(7u * i + r) % n] += b[i] + r + 1u;
    for (cl_uint i = 0; i < n; i++)
      b[i] = a[i] ^ i;
  }
}

/* The fixed shape of one scenario. */
typedef struct shape {
  const char *kernels[2]; /* second NULL when there is one */
  size_t n, rounds, launches;
  cl_uint ext[3]; /* N-D scenarios: the grid they sweep; n is its size */
  int dims;       /* N-D scenarios: 2 or 3; 1-D ones: 0 */
} shape;

/* Returns the shape of scenario name, or NULL if there is none. */
static const shape *find_shape(const char *name) {
  static const struct {
    const char *name;
    shape s;
  } table[] = {
      {"stencil", {{"stencil", NULL}, 3000, 200, 1, {0, 0, 0}, 0}},
      {"split", {{"split", NULL}, 3000, 200, 1, {0, 0, 0}, 0}},
      {"halo", {{"halo", NULL}, 3000, 200, 1, {0, 0, 0}, 0}},
      {"reuse", {{"stencil", NULL}, 3000, 2, 100, {0, 0, 0}, 0}},
      {"mirror", {{"mirror", NULL}, 4096, 300, 1, {0, 0, 0}, 0}},
      {"xpx", {{"xpx", NULL}, 256, 20, 1, {0, 0, 0}, 0}},
      {"helper", {{"shift_left", "shift_right"}, 3000, 100, 1, {0, 0, 0}, 0}},
      {"uneven", {{"uneven", NULL}, 3000, 200, 1, {0, 0, 0}, 0}},
      {"slow", {{"slow", NULL}, 3000, 20, 1, {0, 0, 0}, 0}},
      {"jacobi2d", {{"jacobi2d", NULL}, 48 * 40, 40, 1, {48, 40, 1}, 2}},
      {"stencil3d",
       {{"stencil3d", NULL}, 20 * 18 * 12, 20, 1, {20, 18, 12}, 3}},
      {"ids", {{"ids", NULL}, 0, 1, 1, {0, 0, 0}, 0}},
      {"atomics", {{"atomics", NULL}, 3000, 100, 1, {0, 0, 0}, 0}},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, name) == 0)
      return &table[i].s;
  return NULL;
}

/* The host and device buffers and the kernels of one scenario run. */
typedef struct scene {
  size_t n, rounds, launches;
  cl_uint *a, *b, *got, *got_b; /* a, b: the CPU reference */
  cl_mem ma, mb;
  cl_kernel kernels[2];
  gsync_kernel *gks[2];
} scene;

/* Sets the reference and the device buffers to the scenario's initial
 * data. Returns RUN_OK or RUN_ERROR. */
static int init_data(run *r, scene *s) {
  int is_mirror = strcmp(r->name, "mirror") == 0;
  int is_xpx = strcmp(r->name, "xpx") == 0;
  int is_helper = strcmp(r->name, "helper") == 0;
  int is_nd = find_shape(r->name)->dims != 0;
  for (size_t i = 0; i < s->n; i++) {
    s->a[i] = is_mirror   ? 0
              : is_xpx    ? (cl_uint)i
              : is_helper ? (cl_uint)(i * 7)
              : is_nd     ? (cl_uint)(i * 2654435761u + 7u)
                          : 1u;
    s->b[i] = 0;
  }
  size_t bytes = s->n * sizeof *s->a;
  cl_int rc = clEnqueueWriteBuffer(r->queue, s->ma, CL_TRUE, 0, bytes, s->a, 0,
                                   NULL, NULL);
  if (rc == CL_SUCCESS)
    rc = clEnqueueWriteBuffer(r->queue, s->mb, CL_TRUE, 0, bytes, s->b, 0, NULL,
                              NULL);
  return rc == CL_SUCCESS ? RUN_OK : cl_error("clEnqueueWriteBuffer", rc);
}

/* Runs the scenario's launches of r->groups work-groups; each is followed
 * by a readback and a comparison with the CPU reference. Returns a RUN_
 * code. */
static int run_launches(run *r, const shape *sh, scene *s) {
  size_t n = s->n, rounds = s->rounds;
  int is_mirror = strcmp(r->name, "mirror") == 0;
  int is_xpx = strcmp(r->name, "xpx") == 0;
  int is_helper = strcmp(r->name, "helper") == 0;
  int is_atomics = strcmp(r->name, "atomics") == 0;
  int is_split = strcmp(r->name, "split") == 0;
  int is_halo = strcmp(r->name, "halo") == 0;
  cl_uint *a = s->a, *b = s->b;
  int result;
  for (size_t l = 0; l < s->launches; l++) {
    r->cycles = l + 1;
    for (int k = 0; k < 2 && sh->kernels[k] != NULL; k++) {
      if ((result = launch(r, s->gks[k])) != RUN_OK)
        return result;
      if (read_buffer(r, s->ma, s->got, n) != RUN_OK ||
          read_buffer(r, s->mb, s->got_b, n) != RUN_OK)
        return RUN_ERROR;
      /* Advance the reference by the same launch, then compare. */
      if (is_mirror) {
        for (cl_uint i = 0; i < n; i++)
          a[i] = mirror_value(i, (cl_uint)rounds - 1);
        /* b counts mismatches seen: all must stay zero. */
        if ((result = compare(r, "mirror", s->got_b, b, n)) != RUN_OK)
          return result;
      } else if (is_xpx) {
        xpx_ref(a, b, n, rounds);
      } else if (sh->dims != 0) {
        sweep_ref(a, b, sh->ext, sh->dims, rounds);
        if ((result = compare(r, sh->kernels[k], s->got_b, b, n)) != RUN_OK)
          return result;
      } else if (is_atomics) {
        atomics_ref(a, b, n, rounds);
      } else if (is_halo) {
        halo_ref(a, b, n, rounds);
        if ((result = compare(r, "halo", s->got_b, b, n)) != RUN_OK)
          return result;
      } else if (is_split) {
        split_ref(a, b, n, rounds);
        if ((result = compare(r, "split", s->got_b, b, n)) != RUN_OK)
          return result;
      } else if (is_helper) {
        for (cl_uint rd = 0; rd < rounds; rd++) {
          if (k == 0)
            phase_ref(b, a, n, 1, rd);
          else
            phase_ref(b, a, n, n - 1, 2u * rd);
          phase_ref(a, b, n, 0, k == 0 ? 1u : 3u);
        }
      } else {
        stencil_ref(a, b, n, rounds);
      }
      if ((result = compare(r, sh->kernels[k], s->got, a, n)) != RUN_OK)
        return result;
    }
  }
  return RUN_OK;
}

/* The virtual grid docs/nd.md prescribes for p admitted work-groups of a
 * launch of n[0..2] work-groups, into v[0..2], found by trying every
 * (v0, v1) with the largest v2 that fits (a grid with a smaller v2 holds
 * fewer groups). The kernel finds it another way (prelude.cl). */
static void grid_ref(cl_uint p, const size_t *n, size_t *v) {
  size_t best = 0, rounds = 0;
  v[0] = v[1] = v[2] = 1;
  for (size_t v0 = 1; v0 <= n[0] && v0 <= p; v0++)
    for (size_t v1 = 1; v1 <= n[1] && v0 * v1 <= p; v1++) {
      size_t v2 = p / (v0 * v1) < n[2] ? p / (v0 * v1) : n[2];
      size_t prod = v0 * v1 * v2;
      size_t r = ((n[0] + v0 - 1) / v0) * ((n[1] + v1 - 1) / v1) *
                 ((n[2] + v2 - 1) / v2);
      if (prod > best || (prod == best && r < rounds) ||
          (prod == best && r == rounds &&
           (v0 > v[0] || (v0 == v[0] && v1 > v[1])))) {
        best = prod;
        rounds = r;
        v[0] = v0;
        v[1] = v1;
        v[2] = v2;
      }
    }
}

/* Records one failed check of the ids scenario; returns RUN_MISMATCH. */
static int ids_bad(run *r, size_t at, cl_uint got, cl_uint want,
                   const char *what) {
  r->bad_index = at;
  r->got = got;
  r->want = want;
  r->bad_what = what;
  return RUN_MISMATCH;
}

/* Checks what ids.cl recorded (REC words per work-item, and hits, for n
 * places) after a launch that took part as r->info says. Returns RUN_OK
 * or RUN_MISMATCH. */
static int check_ids(run *r, const cl_uint *rec, const cl_uint *hits,
                     size_t n) {
  enum { REC = 14 };
  const gsync_launch_info *in = &r->info;
  const size_t *l = r->o->local, *off = r->o->offset;
  size_t want[3];
  grid_ref(in->admitted, r->shape, want);
  for (int d = 0; d < 3; d++)
    if (in->groups[d] != want[d])
      return ids_bad(r, (size_t)d, (cl_uint)in->groups[d], (cl_uint)want[d],
                     "the virtual grid in this dimension");
  size_t items = (size_t)in->participants * l[0] * l[1] * l[2];
  for (size_t at = 0; at < n; at++) {
    if (hits[at] != (at < items))
      return ids_bad(r, at, hits[at], at < items, "times this place was hit");
    if (at >= items)
      continue;
    const cl_uint *w = rec + at * REC;
    size_t place = 0;
    for (int d = 2; d >= 0; d--) {
      size_t o = r->o->has_offset ? off[d] : 0, gid = w[6 + d];
      if (w[3 + d] != in->groups[d])
        return ids_bad(r, at, w[3 + d], (cl_uint)in->groups[d],
                       "get_num_groups");
      if (w[9 + d] != in->groups[d] * l[d])
        return ids_bad(r, at, w[9 + d], (cl_uint)(in->groups[d] * l[d]),
                       "get_global_size");
      if (w[d] >= in->groups[d] || gid < o + w[d] * l[d] ||
          gid >= o + (w[d] + 1) * l[d])
        return ids_bad(r, at, (cl_uint)gid, (cl_uint)(o + w[d] * l[d]),
                       "get_global_id outside its group");
      place = place * w[9 + d] + (gid - o);
    }
    if (place != at)
      return ids_bad(r, at, (cl_uint)place, (cl_uint)at, "place");
    if (w[12] != 0)
      return ids_bad(r, at, w[12], 0, "disagreements (bits)");
    r->linear_checked |= w[13] != 0;
  }
  return RUN_OK;
}

/* Runs the ids scenario: one launch (--launches many) of ids.cl, whose
 * records are checked each time. Returns a RUN_ code. */
static int run_ids(run *r) {
  enum { REC = 14 };
  size_t n = r->groups * r->o->local[0] * r->o->local[1] * r->o->local[2];
  size_t launches = r->o->launches ? r->o->launches : 1;
  cl_uint *rec = calloc(n * REC, sizeof *rec), *hits = calloc(n, sizeof *hits);
  cl_mem mrec = NULL, mhits = NULL;
  cl_kernel kernel = NULL;
  gsync_kernel *gk = NULL;
  int result = RUN_ERROR;
  cl_uint args[1] = {(cl_uint)n};
  if (rec == NULL || hits == NULL) {
    fprintf(stderr, "gsync-run: error: out of memory\n");
    goto done;
  }
  if ((mrec = make_buffer(r, rec, n * REC)) == NULL ||
      (mhits = make_buffer(r, hits, n)) == NULL ||
      make_kernel(r, "ids", mrec, mhits, args, 1, &kernel, &gk) != RUN_OK)
    goto done;
  for (size_t l = 0; l < launches; l++) {
    const cl_uint zero = 0;
    cl_int rc = clEnqueueFillBuffer(r->queue, mhits, &zero, sizeof zero, 0,
                                    n * sizeof zero, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
      result = cl_error("clEnqueueFillBuffer", rc);
      goto done;
    }
    r->cycles = l + 1;
    if ((result = launch(r, gk)) != RUN_OK)
      goto done;
    if ((result = read_buffer(r, mrec, rec, n * REC)) != RUN_OK ||
        (result = read_buffer(r, mhits, hits, n)) != RUN_OK ||
        (result = check_ids(r, rec, hits, n)) != RUN_OK)
      goto done;
  }
done:
  gsync_kernel_release(gk);
  if (kernel != NULL)
    clReleaseKernel(kernel);
  if (mrec != NULL)
    clReleaseMemObject(mrec);
  if (mhits != NULL)
    clReleaseMemObject(mhits);
  free(rec);
  free(hits);
  return result;
}

/* The largest n with n^k <= v, for k = 2 or 3. */
static size_t int_root(size_t v, int k) {
  size_t n = 1;
  while ((k == 2 ? (n + 1) * (n + 1) : (n + 1) * (n + 1) * (n + 1)) <= v)
    n++;
  return n;
}

/* The launch for n groups in dims dimensions: n itself in 1-D; otherwise
 * the squarest shape of at most n groups: floor(cbrt n) in the last
 * dimension of three, then floor(sqrt) of what is left in the second,
 * and as many as then fit in the first (fewer than sqrt(n) unused in
 * 2-D). */
static void fit_shape(size_t n, cl_uint dims, size_t shape[3]) {
  shape[0] = n;
  shape[1] = shape[2] = 1;
  if (dims == 3) {
    shape[2] = int_root(n, 3);
    n /= shape[2];
  }
  if (dims >= 2) {
    shape[1] = int_root(n, 2);
    shape[0] = n / shape[1];
  }
}

/* --fit: asks libgsync how many work-groups of each kernel handle fit on
 * the device (twice: the second answer comes from its cache and must be
 * the same), prints the fewest and how long the slowest first call took,
 * and makes that the launches' size.
 * Returns RUN_OK or RUN_ERROR. */
static int fit_groups(run *r, gsync_kernel *const *gks) {
  char err[ERRLEN];
  size_t fewest = r->groups;
  double ms = 0;
  for (int k = 0; k < 2 && gks[k] != NULL; k++) {
    size_t fit = 0, again = 0;
    double t0 = now_s();
    gsync_status st = gsync_groups_that_fit(gks[k], r->queue, r->o->dims,
                                            r->o->local, &fit, err, sizeof err);
    double took = (now_s() - t0) * 1e3;
    if (took > ms)
      ms = took;
    if (st == GSYNC_OK)
      st = gsync_groups_that_fit(gks[k], r->queue, r->o->dims, r->o->local,
                                 &again, err, sizeof err);
    if (st != GSYNC_OK) {
      fprintf(stderr, "gsync-run: error: %s\n", err);
      return RUN_ERROR;
    }
    if (again != fit) {
      fprintf(stderr,
              "gsync-run: error: gsync_groups_that_fit said %zu, then %zu\n",
              fit, again);
      return RUN_ERROR;
    }
    if (fit < fewest)
      fewest = fit;
  }
  printf("%s: fit=%zu of %zu probe=%.1f ms\n", r->name, fewest, r->groups, ms);
  fit_shape(fewest, r->o->dims, r->shape);
  r->groups = r->shape[0] * r->shape[1] * r->shape[2];
  return RUN_OK;
}

/* Runs scenario r->name. With --expect-timeout, a run that timed out is
 * followed by a second one through the same kernel handles with a single
 * work-group, which must pass: libgsync must have made the state fit for
 * another launch. Returns a RUN_ code. */
static int run_scenario(run *r, const shape *sh) {
  scene s;
  memset(&s, 0, sizeof s);
  s.n = sh->n;
  s.rounds = r->o->rounds ? r->o->rounds : sh->rounds;
  s.launches = r->o->launches ? r->o->launches : sh->launches;
  int result = RUN_ERROR;
  s.a = calloc(s.n, sizeof *s.a);
  s.b = calloc(s.n, sizeof *s.b);
  s.got = calloc(s.n, sizeof *s.got);
  s.got_b = calloc(s.n, sizeof *s.got_b);
  if (s.a == NULL || s.b == NULL || s.got == NULL || s.got_b == NULL) {
    fprintf(stderr, "gsync-run: error: out of memory\n");
    goto done;
  }
  if ((s.ma = make_buffer(r, s.a, s.n)) == NULL ||
      (s.mb = make_buffer(r, s.b, s.n)) == NULL)
    goto done;
  /* (n, rounds) for the 1-D scenarios, (w, h[, d], steps) for the others. */
  cl_uint args[4] = {(cl_uint)s.n, (cl_uint)s.rounds}, n_args = 2;
  if (sh->dims != 0) {
    n_args = 0;
    for (int d = 0; d < sh->dims; d++)
      args[n_args++] = sh->ext[d];
    args[n_args++] = (cl_uint)s.rounds;
  }
  for (int k = 0; k < 2 && sh->kernels[k] != NULL; k++)
    if (make_kernel(r, sh->kernels[k], s.ma, s.mb, args, n_args, &s.kernels[k],
                    &s.gks[k]) != RUN_OK)
      goto done;
  if (r->o->fit && (result = fit_groups(r, s.gks)) != RUN_OK)
    goto done;
  if (init_data(r, &s) != RUN_OK)
    goto done;
  result = run_launches(r, sh, &s);
  if (result == RUN_TIMEOUT && r->o->expect_timeout) {
    printf("%s: timed out: %s\n", r->name, r->timeout_msg);
    r->timed_out = 1;
    r->groups = 1;
    r->shape[0] = r->shape[1] = r->shape[2] = 1;
    r->launches = 0;
    result = init_data(r, &s);
    if (result == RUN_OK)
      result = run_launches(r, sh, &s);
  }
done:
  for (int k = 0; k < 2; k++) {
    gsync_kernel_release(s.gks[k]);
    if (s.kernels[k] != NULL)
      clReleaseKernel(s.kernels[k]);
  }
  if (s.ma != NULL)
    clReleaseMemObject(s.ma);
  if (s.mb != NULL)
    clReleaseMemObject(s.mb);
  free(s.a);
  free(s.b);
  free(s.got);
  free(s.got_b);
  return result;
}

/* Writes the shape v[0..dims) into out as "16x8". */
static void shape_text(const size_t *v, cl_uint dims, char *out, size_t size) {
  if (dims == 3)
    snprintf(out, size, "%zux%zux%zu", v[0], v[1], v[2]);
  else if (dims == 2)
    snprintf(out, size, "%zux%zu", v[0], v[1]);
  else
    snprintf(out, size, "%zu", v[0]);
}

/* Prints the summary line for a finished scenario and returns the exit
 * status it implies. */
static int report(const run *r, int result) {
  const options *o = r->o;
  switch (result) {
  case RUN_OK:
    if (o->dims == 1 && !o->has_offset) {
      printf("%s: ok participants=%u groups=%zu launches=%zu\n", r->name,
             (unsigned)r->min_seen, r->groups, r->cycles);
    } else {
      char grid[64], groups[64];
      shape_text(r->info.groups, o->dims, grid, sizeof grid);
      shape_text(r->shape, o->dims, groups, sizeof groups);
      printf("%s: ok participants=%u grid=%s left_out=%u groups=%s "
             "launches=%zu%s\n",
             r->name, (unsigned)r->min_seen, grid, (unsigned)r->info.left_out,
             groups, r->cycles, r->linear_checked ? " linear-id" : "");
    }
    if (o->polled) {
      size_t n = sizeof r->polled / sizeof r->polled[0];
      printf("polled:");
      for (size_t i = 0; i < r->launches && i < n; i++)
        printf(" %u", (unsigned)r->polled[i]);
      printf("\n");
    }
    if (o->time)
      printf("time: %zu launches %.0f us, fastest %.0f us\n", r->launches,
             r->launch_s * 1e6, r->fastest_s * 1e6);
    if (o->expect_fail) {
      fprintf(stderr, "gsync-run: error: expected a MISMATCH\n");
      return 1;
    }
    if (o->expect_timeout && !r->timed_out) {
      fprintf(stderr, "gsync-run: error: expected a launch to time out\n");
      return 1;
    }
    return 0;
  case RUN_TIMEOUT:
    printf("%s: timed out: %s\n", r->name, r->timeout_msg);
    return 1;
  case RUN_MISMATCH:
    printf("%s: MISMATCH at %zu: got %u want %u (participants=%u", r->name,
           r->bad_index, (unsigned)r->got, (unsigned)r->want,
           (unsigned)r->min_seen);
    if (r->bad_what != NULL)
      printf(", %s", r->bad_what);
    if (strcmp(r->name, "helper") == 0)
      printf(", kernel %s", r->bad_kernel);
    if (r->cycles > 1)
      printf(", launch %zu", r->bad_launch);
    printf(")\n");
    return o->expect_fail ? 0 : 1;
  case RUN_FEW:
    printf("%s: participants=%u < %zu\n", r->name, (unsigned)r->min_seen,
           o->min_participants);
    return 1;
  default:
    return 1;
  }
}

/* Releases what r holds. */
static void close_run(run *r) {
  gsync_program_release(r->gp);
  if (r->program != NULL)
    clReleaseProgram(r->program);
  if (r->queue != NULL)
    clReleaseCommandQueue(r->queue);
  if (r->ctx != NULL)
    clReleaseContext(r->ctx);
}

/* Runs gsync-run; returns the process exit status. */
int main(int argc, char **argv) {
  options o;
  int rc = parse_args(argc, argv, &o);
  if (rc != 0)
    return rc < 0 ? 0 : rc;
  const shape *sh = NULL;
  if (o.build_only == NULL && o.build_list == NULL && !o.load_only &&
      o.cache_store == NULL && o.load_list == NULL && o.build_runs == NULL &&
      (sh = find_shape(o.scenario)) == NULL)
    return usage_error("unknown scenario", o.scenario);
  shape sized; /* an N-D scenario's grid as --extent sets it, or a 1-D
                  one's size as --size does */
  if (o.size != 0) {
    if (sh == NULL || sh->dims != 0 || o.extent_dims != 0)
      return usage_error("--size goes with a 1-D scenario", NULL);
    sized = *sh;
    sized.n = o.size;
    sh = &sized;
  }
  if (o.extent_dims != 0) {
    if (sh == NULL || (cl_uint)sh->dims != o.extent_dims)
      return usage_error("--extent goes with jacobi2d (WxH) or stencil3d "
                         "(WxHxD)",
                         NULL);
    sized = *sh;
    sized.n = 1;
    for (int d = 0; d < 3; d++) {
      sized.ext[d] = (cl_uint)o.extent[d];
      sized.n *= o.extent[d];
    }
    sh = &sized;
  }

  run r;
  memset(&r, 0, sizeof r);
  r.o = &o;
  r.name = o.scenario;
  r.groups = o.groups[0] * o.groups[1] * o.groups[2];
  memcpy(r.shape, o.groups, sizeof r.shape);
  int status = 1;
  if (pick_device(&r.dev) != RUN_OK || open_device(&r) != RUN_OK)
    goto out;

  if (o.build_only != NULL) {
    status =
        build_and_say(&r, o.build_only, o.build_options ? o.build_options : "");
    goto out;
  }
  if (o.build_list != NULL) {
    status = each_line(&r, o.build_list, build_list_line);
    goto out;
  }
  if (o.load_list != NULL) {
    status = each_line(&r, o.load_list, load_list_line);
    goto out;
  }
  if (o.build_runs != NULL) {
    status = each_line(&r, o.build_runs, build_runs_line);
    goto out;
  }

  char err[ERRLEN];
  if (o.cache_store != NULL) {
    char path[4096];
    if (gsync_check_cache_store(r.dev, o.cache_store, "gsync-run --cache-store",
                                path, sizeof path, err,
                                sizeof err) != GSYNC_OK) {
      fprintf(stderr, "gsync-run: error: %s\n", err);
      goto out;
    }
    printf("%s\n", path[0] ? path : "(no cache)");
    status = 0;
    goto out;
  }
  gsync_barrier_choice choice;
  if (load_program(&r, o.constraints, &choice, err) != GSYNC_OK) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    goto out;
  }
  if (choice.define != NULL)
    printf("gsync-run: barrier %s (%s): %s\n", choice.rule, choice.source,
           choice.why);
  if (o.load_only) {
    printf("gsync-run: loaded\n");
    status = 0;
    goto out;
  }
  char opts[512];
  if (build(&r, o.cl, run_build_options(&r, &o, opts, sizeof opts)) != RUN_OK)
    goto out;
  status = report(&r, strcmp(o.scenario, "ids") == 0 ? run_ids(&r)
                                                     : run_scenario(&r, sh));
out:
  close_run(&r);
  return status;
}
