/* Shared by the bench programs: see clhost.h. */
#define _POSIX_C_SOURCE 200809L
#include "clhost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

cl_device_id dev;
cl_context ctx;
cl_command_queue queue;
const char *prog = "gsync-bench";

void die(const char *what, cl_int rc) {
  fprintf(stderr, "%s: error: %s (%d)\n", prog, what, (int)rc);
  exit(1);
}

double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "%s: error: cannot open %s\n", prog, path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
    die("read", 0);
  s[n] = 0;
  fclose(f);
  return s;
}

void open_device(void) {
  cl_platform_id p[16];
  cl_uint n = 0;
  cl_int rc = clGetPlatformIDs(16, p, &n);
  if (rc != CL_SUCCESS || n == 0)
    die("clGetPlatformIDs", rc);
  const char *want = getenv("GSYNC_PLATFORM");
  cl_uint i;
  for (i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (!want || !*want || strstr(name, want))
      break;
  }
  if (i == n || i == 16)
    die("no such platform", 0);
  if ((rc = clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL)))
    die("clGetDeviceIDs", rc);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  if (rc)
    die("clCreateContext", rc);
  queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
  if (rc)
    die("clCreateCommandQueue", rc);
}

cl_program build(const char *src, const char *opts) {
  cl_int rc;
  cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
  if (rc)
    die("clCreateProgramWithSource", rc);
  if ((rc = clBuildProgram(pr, 1, &dev, opts, NULL, NULL))) {
    size_t sz = 0;
    clGetProgramBuildInfo(pr, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &sz);
    char *log = calloc(sz + 1, 1);
    clGetProgramBuildInfo(pr, dev, CL_PROGRAM_BUILD_LOG, sz, log, NULL);
    fprintf(stderr, "%s\n", log);
    die("clBuildProgram", rc);
  }
  return pr;
}

cl_kernel kernel_of(cl_program pr, const char *name) {
  cl_int rc;
  cl_kernel k = clCreateKernel(pr, name, &rc);
  if (rc)
    die(name, rc);
  return k;
}

cl_mem buffer(size_t bytes, void *init) {
  cl_int rc;
  cl_mem m = clCreateBuffer(
      ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes, init,
      &rc);
  if (rc)
    die("clCreateBuffer", rc);
  return m;
}

static void check(int failed, const char *err) {
  if (failed) {
    fprintf(stderr, "%s: error: %s\n", prog, err);
    exit(1);
  }
}

void load(gk *x, const char *cl, const char *json, const char *name,
          size_t max_groups) {
  load_opts(x, cl, json, name, max_groups, NULL, NULL);
}

/* The build options: libgsync's for the program, the -cl-std=CLx.y among
 * them raised to min_std, then extra. Returns a new string. */
static char *build_options(const gsync_program *gp, const char *min_std,
                           const char *extra) {
  const char *base = gsync_program_build_options(gp, dev);
  const char *std = strstr(base, "-cl-std=CL");
  size_t len = strlen(base) + (min_std ? strlen(min_std) : 0) +
               (extra ? strlen(extra) : 0) + 2;
  char *opts = malloc(len);
  if (!opts)
    die("out of memory", 0);
  /* "x.y" compares as a string while both versions have one digit each. */
  if (std && min_std && strncmp(std + 10, min_std, 3) < 0)
    snprintf(opts, len, "%.*s%s%s", (int)(std - base + 10), base, min_std,
             std + 13);
  else
    snprintf(opts, len, "%s", base);
  if (extra && *extra) {
    size_t used = strlen(opts);
    snprintf(opts + used, len - used, " %s", extra);
  }
  return opts;
}

void load_opts(gk *x, const char *cl, const char *json, const char *name,
               size_t max_groups, const char *min_std, const char *extra) {
  char err[ERRLEN];
  check(gsync_program_load(json, &x->gp, err, sizeof err) ||
            gsync_program_check_device(x->gp, dev, err, sizeof err),
        err);
  char *src = slurp(cl);
  char *opts = build_options(x->gp, min_std, extra);
  x->pr = build(src, opts);
  free(opts);
  free(src);
  x->k = kernel_of(x->pr, name);
  check(gsync_kernel_create(x->gp, ctx, queue, x->k, max_groups, &x->gk, err,
                            sizeof err),
        err);
}

void unload(gk *x) {
  gsync_kernel_release(x->gk);
  gsync_program_release(x->gp);
  clReleaseKernel(x->k);
  clReleaseProgram(x->pr);
}

void enqueue(gk *x, size_t g, size_t l, cl_uint *parts) {
  char err[ERRLEN];
  check(gsync_enqueue(x->gk, queue, g, l, parts, err, sizeof err), err);
}

void enqueue_nd(gk *x, cl_uint dims, const size_t *g, const size_t *l,
                gsync_launch_info *info) {
  char err[ERRLEN];
  check(gsync_enqueue_nd(x->gk, queue, dims, NULL, g, l, err, sizeof err),
        err);
  if (info != NULL) {
    info->size = sizeof *info;
    check(gsync_finish_nd(x->gk, queue, info, err, sizeof err), err);
  }
}

void finish(gk *x) {
  char err[ERRLEN];
  check(gsync_finish(x->gk, queue, NULL, err, sizeof err), err);
}
