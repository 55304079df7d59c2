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
#include "libgsync.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ERRLEN 512

static const char usage_text[] =
    "usage: gsync-run --scenario NAME --cl REWRITTEN.cl --constraints C.json\n"
    "                 --groups G --local L [--min-participants N]\n"
    "                 [--launches K] [--rounds R] [--expect-fail]\n"
    "                 [--expect-timeout]\n"
    "       gsync-run --build-only FILE.cl [--options \"-cl-std=CL3.0 ...\"]\n"
    "\n"
    "Builds a kernel rewritten by gsync-rewrite, launches it G x L through\n"
    "libgsync, checks it against a CPU reference and prints one line:\n"
    "  NAME: ok participants=P groups=G launches=K\n"
    "  NAME: MISMATCH at I: got X want Y (participants=P)\n"
    "  NAME: timed out: MESSAGE    (libgsync's message: a barrier or\n"
    "                               discovery waited past the spin limit)\n"
    "P is the fewest work-groups that took part in any launch; a launch of\n"
    "the helper scenario runs both of its kernels.\n"
    "\n"
    "scenarios (inputs in test/run/kernels/):\n"
    "  stencil  stencil.cl: 3-point ring stencil, 200 iterations\n"
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
    "\n"
    "options:\n"
    "  --min-participants N  fail if fewer than N work-groups took part in\n"
    "                        any launch\n"
    "  --launches K          launches in sequence, each checked (default 1;\n"
    "                        100 for reuse)\n"
    "  --rounds R            iterations inside each launch (default: the\n"
    "                        scenario's)\n"
    "  --expect-fail         exit 0 only on a MISMATCH, 1 when the check\n"
    "                        passes (for tests of a broken barrier)\n"
    "  --expect-timeout      the first launch must time out; then the\n"
    "                        scenario runs again through the same kernel\n"
    "                        handles with 1 work-group and must pass (it\n"
    "                        prints both lines)\n"
    "  --build-only FILE.cl  only build FILE.cl; print the build log and\n"
    "                        exit 1 if the build fails\n"
    "  --options OPTS        build options for --build-only\n"
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
  const char *build_options;
  size_t groups, local;
  size_t min_participants;
  size_t launches; /* 0: the scenario's default */
  size_t rounds;   /* 0: the scenario's default */
  int expect_fail;
  int expect_timeout;
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
  size_t groups;    /* work-groups per launch: --groups, then 1 */
  cl_uint min_seen; /* fewest participants in any launch so far */
  size_t launches;  /* kernel launches enqueued */
  int timed_out;    /* a launch timed out, as --expect-timeout wants */
  char timeout_msg[ERRLEN];
  size_t cycles;    /* --launches cycles (one launch of each kernel) begun */
  /* the first mismatch */
  size_t bad_index;
  cl_uint got, want;
  const char *bad_kernel;
  size_t bad_launch;
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

/* Parses argv into *o. Returns 0 when it may go on, 2 on a usage error
 * (already reported), or -1 after printing --help. */
static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
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
    /* Every other option takes a value, as "--opt V" or "--opt=V". */
    static const char *const valued[] = {
        "--scenario",   "--cl",       "--constraints",      "--groups",
        "--local",      "--launches", "--min-participants", "--rounds",
        "--build-only", "--options"};
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
      ok = parse_count(value, &o->groups);
      break;
    case 4:
      ok = parse_count(value, &o->local);
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
    }
    if (!ok)
      return usage_error("not a number", value);
    if ((k == 5 && o->launches == 0) || (k == 7 && o->rounds == 0))
      return usage_error("must be at least 1", a);
  }
  if (o->build_only != NULL)
    return 0;
  if (o->scenario == NULL || o->cl == NULL || o->constraints == NULL)
    return usage_error("--scenario, --cl and --constraints are required", NULL);
  if (o->groups == 0 || o->local == 0)
    return usage_error("--groups and --local must be at least 1", NULL);
  if (o->rounds > UINT32_MAX)
    return usage_error("--rounds is too large", NULL);
  if (o->build_options != NULL)
    return usage_error("--options goes with --build-only", NULL);
  return 0;
}

/* Reads a whole file into a malloc'd NUL-terminated string, or returns NULL
 * after printing why. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "gsync-run: error: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  while (buf != NULL) {
    len += fread(buf + len, 1, cap - len - 1, f);
    if (len + 1 < cap)
      break;
    char *bigger = realloc(buf, cap * 2);
    if (bigger == NULL) {
      free(buf);
      buf = NULL;
    } else {
      buf = bigger;
      cap *= 2;
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (buf == NULL || bad) {
    fprintf(stderr, "gsync-run: error: %s: cannot read\n", path);
    free(buf);
    return NULL;
  }
  buf[len] = '\0';
  return buf;
}

/* Reports a failed OpenCL call. Returns RUN_ERROR. */
static int cl_error(const char *call, cl_int rc) {
  fprintf(stderr, "gsync-run: error: %s failed (%d)\n", call, (int)rc);
  return RUN_ERROR;
}

/* Picks the device: the first of the first platform, or of the first whose
 * name contains $GSYNC_PLATFORM. Returns RUN_OK or RUN_ERROR. */
static int pick_device(cl_device_id *dev) {
  cl_platform_id platforms[16];
  cl_uint n = 0;
  cl_int rc = clGetPlatformIDs(16, platforms, &n);
  if (rc != CL_SUCCESS || n == 0)
    return cl_error("clGetPlatformIDs (no OpenCL platform?)", rc);
  if (n > 16)
    n = 16;
  const char *want = getenv("GSYNC_PLATFORM");
  for (cl_uint i = 0; i < n; i++) {
    char name[256] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name - 1, name,
                      NULL);
    if (want != NULL && want[0] != '\0' && strstr(name, want) == NULL)
      continue;
    rc = clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, dev, NULL);
    if (rc != CL_SUCCESS)
      return cl_error("clGetDeviceIDs", rc);
    return RUN_OK;
  }
  fprintf(stderr, "gsync-run: error: no OpenCL platform named like \"%s\"\n",
          want);
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

/* Makes kernel name with the user arguments (a, b, n, rounds) and its
 * libgsync handle. Returns RUN_OK or RUN_ERROR. */
static int make_kernel(run *r, const char *name, cl_mem a, cl_mem b, cl_uint n,
                       cl_uint rounds, cl_kernel *kernel, gsync_kernel **gk) {
  cl_int rc;
  char err[ERRLEN];
  *kernel = clCreateKernel(r->program, name, &rc);
  if (rc != CL_SUCCESS) {
    fprintf(stderr, "gsync-run: error: %s: no kernel %s (%d)\n", r->o->cl, name,
            (int)rc);
    return RUN_ERROR;
  }
  if ((rc = clSetKernelArg(*kernel, 0, sizeof a, &a)) != CL_SUCCESS ||
      (rc = clSetKernelArg(*kernel, 1, sizeof b, &b)) != CL_SUCCESS ||
      (rc = clSetKernelArg(*kernel, 2, sizeof n, &n)) != CL_SUCCESS ||
      (rc = clSetKernelArg(*kernel, 3, sizeof rounds, &rounds)) != CL_SUCCESS)
    return cl_error("clSetKernelArg", rc);
  gsync_status st = gsync_kernel_create(r->gp, r->ctx, r->queue, *kernel,
                                        r->o->groups, gk, err, sizeof err);
  if (st != GSYNC_OK) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    return RUN_ERROR;
  }
  return RUN_OK;
}

/* Launches gk once, waits, and records how many groups took part. Returns
 * RUN_OK, RUN_FEW (fewer than --min-participants), RUN_TIMEOUT (libgsync's
 * message in r->timeout_msg) or RUN_ERROR. */
static int launch(run *r, gsync_kernel *gk) {
  char err[ERRLEN];
  cl_uint parts = 0;
  gsync_status st =
      gsync_enqueue(gk, r->queue, r->groups, r->o->local, NULL, err, sizeof err);
  if (st == GSYNC_OK)
    st = gsync_finish(gk, r->queue, &parts, err, sizeof err);
  if (st == GSYNC_ERR_TIMEOUT) {
    snprintf(r->timeout_msg, sizeof r->timeout_msg, "%s", err);
    return RUN_TIMEOUT;
  }
  if (st != GSYNC_OK) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    return RUN_ERROR;
  }
  if (r->launches == 0 || parts < r->min_seen)
    r->min_seen = parts;
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
} shape;

/* Returns the shape of scenario name, or NULL if there is none. */
static const shape *find_shape(const char *name) {
  static const struct {
    const char *name;
    shape s;
  } table[] = {
      {"stencil", {{"stencil", NULL}, 3000, 200, 1}},
      {"reuse", {{"stencil", NULL}, 3000, 2, 100}},
      {"mirror", {{"mirror", NULL}, 4096, 300, 1}},
      {"xpx", {{"xpx", NULL}, 256, 20, 1}},
      {"helper", {{"shift_left", "shift_right"}, 3000, 100, 1}},
      {"uneven", {{"uneven", NULL}, 3000, 200, 1}},
      {"atomics", {{"atomics", NULL}, 3000, 100, 1}},
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
  for (size_t i = 0; i < s->n; i++) {
    s->a[i] = is_mirror   ? 0
              : is_xpx    ? (cl_uint)i
              : is_helper ? (cl_uint)(i * 7)
                          : 1u;
    s->b[i] = 0;
  }
  size_t bytes = s->n * sizeof *s->a;
  cl_int rc = clEnqueueWriteBuffer(r->queue, s->ma, CL_TRUE, 0, bytes, s->a, 0,
                                   NULL, NULL);
  if (rc == CL_SUCCESS)
    rc = clEnqueueWriteBuffer(r->queue, s->mb, CL_TRUE, 0, bytes, s->b, 0,
                              NULL, NULL);
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
      } else if (is_atomics) {
        atomics_ref(a, b, n, rounds);
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
  for (int k = 0; k < 2 && sh->kernels[k] != NULL; k++)
    if (make_kernel(r, sh->kernels[k], s.ma, s.mb, (cl_uint)s.n,
                    (cl_uint)s.rounds, &s.kernels[k], &s.gks[k]) != RUN_OK)
      goto done;
  if (init_data(r, &s) != RUN_OK)
    goto done;
  result = run_launches(r, sh, &s);
  if (result == RUN_TIMEOUT && r->o->expect_timeout) {
    printf("%s: timed out: %s\n", r->name, r->timeout_msg);
    r->timed_out = 1;
    r->groups = 1;
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

/* Prints the summary line for a finished scenario and returns the exit
 * status it implies. */
static int report(const run *r, int result) {
  const options *o = r->o;
  switch (result) {
  case RUN_OK:
    printf("%s: ok participants=%u groups=%zu launches=%zu\n", r->name,
           (unsigned)r->min_seen, r->groups, r->cycles);
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
  if (o.build_only == NULL && (sh = find_shape(o.scenario)) == NULL)
    return usage_error("unknown scenario", o.scenario);

  run r;
  memset(&r, 0, sizeof r);
  r.o = &o;
  r.name = o.scenario;
  r.groups = o.groups;
  int status = 1;
  if (pick_device(&r.dev) != RUN_OK || open_device(&r) != RUN_OK)
    goto out;

  if (o.build_only != NULL) {
    const char *opts = o.build_options ? o.build_options : "";
    if (build(&r, o.build_only, opts) == RUN_OK) {
      printf("%s: build ok\n", o.build_only);
      status = 0;
    }
    goto out;
  }

  char err[ERRLEN];
  if (gsync_program_load(o.constraints, &r.gp, err, sizeof err) != GSYNC_OK ||
      gsync_program_check_device(r.gp, r.dev, err, sizeof err) != GSYNC_OK) {
    fprintf(stderr, "gsync-run: error: %s\n", err);
    goto out;
  }
  if (build(&r, o.cl, gsync_program_build_options(r.gp, r.dev)) != RUN_OK)
    goto out;
  status = report(&r, run_scenario(&r, sh));
out:
  close_run(&r);
  return status;
}
