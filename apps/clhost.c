/* Shared by the bench programs: see clhost.h. */
#define _POSIX_C_SOURCE 200809L
#include "clhost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void clhost_die(const char *what, cl_int rc) {
  fprintf(stderr, "%s: error: %s (%d)\n", CLHOST_PROG, what, (int)rc);
  exit(1);
}

double clhost_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double clhost_median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

char *clhost_slurp(const char *path) {
  char *s, err[512];
  if (gsync_read_file(path, &s, NULL, err, sizeof err)) {
    fprintf(stderr, "%s: error: %s\n", CLHOST_PROG, err);
    exit(1);
  }
  return s;
}

void clhost_open(clhost *h) {
  char err[512];
  cl_int rc;
  if (gsync_pick_device(NULL, 0, NULL, &h->dev, err, sizeof err) != GSYNC_OK) {
    fprintf(stderr, "%s: error: %s\n", CLHOST_PROG, err);
    exit(1);
  }
  h->ctx = clCreateContext(NULL, 1, &h->dev, NULL, NULL, &rc);
  if (rc)
    clhost_die("clCreateContext", rc);
  h->queue = clCreateCommandQueueWithProperties(h->ctx, h->dev, NULL, &rc);
  if (rc)
    clhost_die("clCreateCommandQueue", rc);
}

cl_program clhost_build(const clhost *h, const char *src, const char *opts) {
  cl_int rc;
  cl_program pr = clCreateProgramWithSource(h->ctx, 1, &src, NULL, &rc);
  if (rc)
    clhost_die("clCreateProgramWithSource", rc);
  if ((rc = clBuildProgram(pr, 1, &h->dev, opts, NULL, NULL))) {
    size_t sz = 0;
    clGetProgramBuildInfo(pr, h->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &sz);
    char *log = calloc(sz + 1, 1);
    clGetProgramBuildInfo(pr, h->dev, CL_PROGRAM_BUILD_LOG, sz, log, NULL);
    fprintf(stderr, "%s\n", log);
    clhost_die("clBuildProgram", rc);
  }
  return pr;
}

cl_kernel clhost_kernel(cl_program pr, const char *name) {
  cl_int rc;
  cl_kernel k = clCreateKernel(pr, name, &rc);
  if (rc)
    clhost_die(name, rc);
  return k;
}

cl_mem clhost_buffer(const clhost *h, size_t bytes, void *init) {
  cl_int rc;
  cl_mem m = clCreateBuffer(
      h->ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
      init, &rc);
  if (rc)
    clhost_die("clCreateBuffer", rc);
  return m;
}

static void check(int failed, const char *err) {
  if (failed) {
    fprintf(stderr, "%s: error: %s\n", CLHOST_PROG, err);
    exit(1);
  }
}

void clhost_load(const clhost *h, clhost_gk *x, const char *cl,
                 const char *json, const char *name, size_t max_groups) {
  clhost_load_opts(h, x, cl, json, name, max_groups, NULL, NULL);
}

/* The build options: libgsync's for the program, the -cl-std=CLx.y among
 * them raised to min_std, then extra. Returns a new string. */
static char *build_options(const clhost *h, const gsync_program *gp,
                           const char *min_std, const char *extra) {
  const char *base = gsync_program_build_options(gp, h->dev);
  const char *std = strstr(base, "-cl-std=CL");
  size_t len = strlen(base) + (min_std ? strlen(min_std) : 0) +
               (extra ? strlen(extra) : 0) + 2;
  char *opts = malloc(len);
  if (!opts)
    clhost_die("out of memory", 0);
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

void clhost_load_opts(const clhost *h, clhost_gk *x, const char *cl,
                      const char *json, const char *name, size_t max_groups,
                      const char *min_std, const char *extra) {
  char err[CLHOST_ERRLEN];
  x->h = h;
  check(gsync_program_load(json, &x->gp, err, sizeof err) ||
            gsync_program_check_device(x->gp, h->dev, err, sizeof err),
        err);
  char *src = clhost_slurp(cl);
  char *opts = build_options(h, x->gp, min_std, extra);
  x->pr = clhost_build(h, src, opts);
  free(opts);
  free(src);
  x->k = clhost_kernel(x->pr, name);
  check(gsync_kernel_create(x->gp, h->ctx, h->queue, x->k, max_groups, &x->gk,
                            err, sizeof err),
        err);
}

void clhost_unload(clhost_gk *x) {
  gsync_kernel_release(x->gk);
  gsync_program_release(x->gp);
  clReleaseKernel(x->k);
  clReleaseProgram(x->pr);
}

void clhost_enqueue(clhost_gk *x, size_t g, size_t l, cl_uint *parts) {
  char err[CLHOST_ERRLEN];
  check(gsync_enqueue(x->gk, x->h->queue, g, l, parts, err, sizeof err), err);
}

void clhost_enqueue_nd(clhost_gk *x, cl_uint dims, const size_t *g,
                       const size_t *l, gsync_launch_info *info) {
  char err[CLHOST_ERRLEN];
  check(gsync_enqueue_nd(x->gk, x->h->queue, dims, NULL, g, l, err, sizeof err),
        err);
  if (info != NULL) {
    info->size = sizeof *info;
    check(gsync_finish_nd(x->gk, x->h->queue, info, err, sizeof err), err);
  }
}

void clhost_finish(clhost_gk *x) {
  char err[CLHOST_ERRLEN];
  check(gsync_finish(x->gk, x->h->queue, NULL, err, sizeof err), err);
}
