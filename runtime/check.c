/* What a device does with the barriers, measured (docs/check.md): the
 * message-passing stress test (gsync_stress), the cost of a barrier
 * (gsync_time_barrier), and the whole check of one rule
 * (gsync_check_rule: those two, the co-resident count, discovery's
 * admitted count and cost, and how late the spin limit ends a launch).
 * gsync-check runs it for every rule; gsync-bench's stress and time
 * commands call the first two. A client of the public calls, above every
 * other file of libgsync. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on a monotonic clock. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Orders two doubles for qsort. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of v[0..n-1] (sorted in place); n > 0. */
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A zeroed buffer of bytes bytes in k's context, filled through queue. */
static gsync_status zeroed(gsync_kernel *k, cl_command_queue queue,
                           size_t bytes, cl_mem *out, char *err,
                           size_t errlen) {
  cl_int rc;
  cl_uint zero = 0;
  *out = clCreateBuffer(k->ctx, CL_MEM_READ_WRITE, bytes, NULL, &rc);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clCreateBuffer", rc);
  rc = clEnqueueFillBuffer(queue, *out, &zero, sizeof zero, 0, bytes, 0, NULL,
                           NULL);
  if (rc != CL_SUCCESS) {
    clReleaseMemObject(*out);
    return gsli_cl_fail(err, errlen, "clEnqueueFillBuffer", rc);
  }
  return GSYNC_OK;
}

/* Sets argument i of k's kernel, naming the argument in a failure. */
static gsync_status set_arg(gsync_kernel *k, cl_uint i, size_t bytes,
                            const void *value, char *err, size_t errlen) {
  cl_int rc = clSetKernelArg(k->kernel, i, bytes, value);
  if (rc != CL_SUCCESS)
    return gsli_fail(err, errlen, GSYNC_ERR_OPENCL,
                     "clSetKernelArg (argument %u of kernel %s) failed: %s "
                     "(%d)",
                     (unsigned)i, k->info.name, gsli_cl_error_name(rc),
                     (int)rc);
  return GSYNC_OK;
}

/* The work-items of groups x local_size into *n; 0 where that is none,
 * or more than a kernel's uint counts with 4-byte words of them
 * (2^30). */
static int items(size_t groups, size_t local_size, size_t *n) {
  *n = groups * local_size;
  return groups != 0 && local_size != 0 && *n / local_size == groups &&
         *n <= 0x3fffffffu;
}

/* A shape items() refuses, as GSYNC_ERR_LAUNCH. */
static gsync_status no_launch(char *err, size_t errlen, const char *fn,
                              size_t groups, size_t local_size) {
  return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                   "%s: %zu work-groups of %zu items is no launch it can "
                   "make",
                   fn, groups, local_size);
}

gsync_status gsync_stress(gsync_kernel *k, cl_command_queue queue,
                          size_t groups, size_t local_size, cl_uint episodes,
                          gsync_stress_result *result, char *err,
                          size_t errlen) {
  if (k == NULL)
    return gsli_null_argument(err, errlen, "gsync_stress", "k");
  if (result == NULL || result->size < sizeof *result)
    return gsli_null_argument(err, errlen, "gsync_stress", "result");
  size_t n;
  if (!items(groups, local_size, &n))
    return no_launch(err, errlen, "gsync_stress", groups, local_size);
  cl_mem slots = NULL, stale = NULL;
  cl_uint *host = NULL;
  gsync_status st = zeroed(k, queue, n * 4, &slots, err, errlen);
  if (st == GSYNC_OK)
    st = zeroed(k, queue, n * 4, &stale, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(k, 0, sizeof slots, &slots, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(k, 1, sizeof stale, &stale, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(k, 2, sizeof episodes, &episodes, err, errlen);
  if (st != GSYNC_OK)
    goto release;
  double t0 = now();
  cl_uint parts = 0;
  st = gsync_enqueue(k, queue, groups, local_size, &parts, err, errlen);
  result->seconds = now() - t0;
  if (st != GSYNC_OK)
    goto release;
  host = malloc(n * 4);
  if (host == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    goto release;
  }
  cl_int rc =
      clEnqueueReadBuffer(queue, stale, CL_TRUE, 0, n * 4, host, 0, NULL, NULL);
  if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clEnqueueReadBuffer", rc);
    goto release;
  }
  /* Items of groups that did not take part wrote nothing: count the
   * participants' (the first, by virtual id). */
  unsigned long long total = 0;
  for (size_t j = 0; j < (size_t)parts * local_size && j < n; j++)
    total += host[j];
  result->stale = total;
  result->participants = parts;
release:
  free(host);
  if (stale != NULL)
    clReleaseMemObject(stale);
  if (slots != NULL)
    clReleaseMemObject(slots);
  return st;
}

/* The median wall time of reps launches of k with iters phases (argument
 * 2), enqueue to clFinish. */
static gsync_status time_launches(gsync_kernel *k, cl_command_queue queue,
                                  size_t groups, size_t local_size,
                                  cl_uint iters, int reps, double *seconds,
                                  char *err, size_t errlen) {
  double t[64];
  gsync_status st = set_arg(k, 2, sizeof iters, &iters, err, errlen);
  for (int r = 0; st == GSYNC_OK && r < reps; r++) {
    double t0 = now();
    st = gsync_enqueue(k, queue, groups, local_size, NULL, err, errlen);
    cl_int rc = st == GSYNC_OK ? clFinish(queue) : CL_SUCCESS;
    if (rc != CL_SUCCESS)
      st = gsli_cl_fail(err, errlen, "clFinish", rc);
    t[r] = now() - t0;
  }
  /* One look at the state covers every launch: an abort stays recorded
   * until gsync_finish sees it. */
  if (st == GSYNC_OK)
    st = gsync_finish(k, queue, NULL, err, errlen);
  if (st == GSYNC_OK)
    *seconds = median(t, reps);
  return st;
}

gsync_status gsync_time_barrier(gsync_kernel *k, cl_command_queue queue,
                                size_t groups, size_t local_size,
                                cl_uint short_iters, cl_uint long_iters,
                                int reps, gsync_timing *timing, char *err,
                                size_t errlen) {
  if (k == NULL)
    return gsli_null_argument(err, errlen, "gsync_time_barrier", "k");
  if (timing == NULL || timing->size < sizeof *timing)
    return gsli_null_argument(err, errlen, "gsync_time_barrier", "timing");
  if (reps < 1 || reps > 64 || long_iters <= short_iters)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "gsync_time_barrier: want 1 to 64 reps and long_iters "
                     "> short_iters");
  size_t n;
  if (!items(groups, local_size, &n))
    return no_launch(err, errlen, "gsync_time_barrier", groups, local_size);
  cl_mem data = NULL;
  cl_uint nn = (cl_uint)n, one = 1, parts = 0;
  double t0 = 0, ts = 0, tl = 0;
  gsync_status st = zeroed(k, queue, n * 4, &data, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(k, 0, sizeof data, &data, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(k, 1, sizeof nn, &nn, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(k, 2, sizeof one, &one, err, errlen);
  if (st == GSYNC_OK) /* a warm-up, which says who takes part */
    st = gsync_enqueue(k, queue, groups, local_size, &parts, err, errlen);
  if (st == GSYNC_OK)
    st = time_launches(k, queue, groups, local_size, 0, reps, &t0, err, errlen);
  if (st == GSYNC_OK)
    st = time_launches(k, queue, groups, local_size, short_iters, reps, &ts,
                       err, errlen);
  if (st == GSYNC_OK)
    st = time_launches(k, queue, groups, local_size, long_iters, reps, &tl, err,
                       errlen);
  if (st == GSYNC_OK) {
    timing->us_per_barrier = (tl - ts) / (long_iters - short_iters) * 1e6;
    timing->launch_us = t0 * 1e6;
    timing->participants = parts;
  }
  if (data != NULL)
    clReleaseMemObject(data);
  return st;
}

/* One rewritten kernel of gsync_check_rule, built and ready to launch. */
typedef struct part {
  gsync_program *gp;
  cl_program pr;
  cl_kernel k;
  gsync_kernel *gk;
} part;

/* Releases what load_part made; p may be all zero. */
static void unload_part(part *p) {
  if (p->gk != NULL)
    gsync_kernel_release(p->gk);
  if (p->k != NULL)
    clReleaseKernel(p->k);
  if (p->pr != NULL)
    clReleaseProgram(p->pr);
  if (p->gp != NULL)
    gsync_program_release(p->gp);
  memset(p, 0, sizeof *p);
}

/* Loads base.json, checks dev against it, builds base.cl with libgsync's
 * options and makes kernel name's handle for up to max_groups groups.
 * A build failure's message ends with the start of the build log. */
static gsync_status load_part(cl_context ctx, cl_device_id dev,
                              cl_command_queue queue, const char *base,
                              const char *name, size_t max_groups, part *p,
                              char *err, size_t errlen) {
  size_t len = strlen(base);
  char *path = malloc(len + 6);
  char *src = NULL;
  cl_int rc;
  gsync_status st = GSYNC_OK;
  memset(p, 0, sizeof *p);
  if (path == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  memcpy(path, base, len);
  memcpy(path + len, ".json", 6);
  st = gsync_program_load(path, &p->gp, err, errlen);
  if (st == GSYNC_OK)
    st = gsync_program_check_device(p->gp, dev, err, errlen);
  memcpy(path + len, ".cl", 4);
  if (st == GSYNC_OK)
    st = gsync_read_file(path, &src, NULL, err, errlen);
  if (st != GSYNC_OK)
    goto done;
  const char *text = src;
  p->pr = clCreateProgramWithSource(ctx, 1, &text, NULL, &rc);
  if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clCreateProgramWithSource", rc);
    goto done;
  }
  const char *opts = gsync_program_build_options(p->gp, dev);
  if (opts == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    goto done;
  }
  rc = clBuildProgram(p->pr, 1, &dev, opts, NULL, NULL);
  if (rc != CL_SUCCESS) {
    char log[256] = "";
    clGetProgramBuildInfo(p->pr, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
                          NULL);
    for (char *c = log; *c; c++)
      if (*c == '\n' || *c == '\t')
        *c = ' ';
    st = gsli_fail(err, errlen, GSYNC_ERR_OPENCL,
                   "%s: clBuildProgram failed: %s (%d): %s", path,
                   gsli_cl_error_name(rc), (int)rc, log);
    goto done;
  }
  p->k = clCreateKernel(p->pr, name, &rc);
  if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clCreateKernel", rc);
    goto done;
  }
  st = gsync_kernel_create(p->gp, ctx, queue, p->k, max_groups, &p->gk, err,
                           errlen);
done:
  free(src);
  free(path);
  if (st != GSYNC_OK)
    unload_part(p);
  return st;
}

/* The co-resident count of p's kernel at local items a group. */
static gsync_status fit(part *p, cl_command_queue queue, size_t local,
                        size_t *groups, char *err, size_t errlen) {
  return gsync_groups_that_fit(p->gk, queue, 1, &local, groups, err, errlen);
}

/* The stress part: as many groups as fit, every one taking part. It
 * measures its own kernel's co-resident count: the stress kernel can use
 * more registers than the loop kernel and fit fewer groups (volatile's on
 * an H100: 792 against the loop's 1056, and a launch of 1056 without
 * discovery then waits at its first barrier until the spin limit). */
static gsync_status check_stress(cl_context ctx, cl_device_id dev,
                                 cl_command_queue queue, const char *base,
                                 const gsync_check_options *o,
                                 gsync_check_result *r, char *err,
                                 size_t errlen) {
  part p;
  size_t groups = 0;
  gsync_status st =
      load_part(ctx, dev, queue, base, "mp", o->max_groups, &p, err, errlen);
  if (st != GSYNC_OK)
    return st;
  st = fit(&p, queue, r->local_size, &groups, err, errlen);
  /* Two at least, or no message passes: a probe on a busy CPU can see one
   * where the driver runs two (they then take turns, slowly), and a
   * device that runs only one cannot run the test at all (the spin limit
   * ends it). */
  if (groups < 2)
    groups = 2;
  r->stress.size = sizeof r->stress;
  if (st == GSYNC_OK)
    st = gsync_stress(p.gk, queue, groups, r->local_size, o->episodes,
                      &r->stress, err, errlen);
  r->stress_groups = groups;
  r->stressed = st == GSYNC_OK;
  unload_part(&p);
  return st;
}

/* The discovery part: admitted counts and launch costs over the rounds,
 * against the LOOP kernel (loop, may be NULL) with as many groups. */
static gsync_status check_discovery(cl_context ctx, cl_device_id dev,
                                    cl_command_queue queue, const char *base,
                                    part *loop, const gsync_check_options *o,
                                    gsync_check_result *r, char *err,
                                    size_t errlen) {
  part p;
  size_t groups = 4 * r->coresident, n;
  if (groups > o->max_groups) /* as many as LOOP's handle launches */
    groups = o->max_groups;
  double td[64], tp[64];
  cl_uint zero = 0, lo = 0xffffffffu, hi = 0;
  cl_mem data = NULL;
  gsync_status st =
      load_part(ctx, dev, queue, base, "loop", groups, &p, err, errlen);
  if (st != GSYNC_OK)
    return st;
  n = groups * r->local_size;
  st = zeroed(p.gk, queue, r->local_size * 4, &data, err, errlen);
  /* Both kernels with no phase: data is never touched. */
  for (int i = 0; st == GSYNC_OK && i < 2; i++) {
    gsync_kernel *x = i == 0 ? p.gk : loop != NULL ? loop->gk : NULL;
    cl_uint nn = (cl_uint)n;
    if (x == NULL)
      break;
    st = set_arg(x, 0, sizeof data, &data, err, errlen);
    if (st == GSYNC_OK)
      st = set_arg(x, 1, sizeof nn, &nn, err, errlen);
    if (st == GSYNC_OK)
      st = set_arg(x, 2, sizeof zero, &zero, err, errlen);
  }
  for (int round = -2; st == GSYNC_OK && round < o->reps; round++) {
    cl_uint parts = 0;
    double t0 = now();
    st = gsync_enqueue(p.gk, queue, groups, r->local_size, &parts, err, errlen);
    double t1 = now();
    if (st == GSYNC_OK && loop != NULL)
      st = gsync_enqueue(loop->gk, queue, groups, r->local_size, NULL, err,
                         errlen);
    if (st == GSYNC_OK && loop != NULL)
      st = gsync_finish(loop->gk, queue, NULL, err, errlen);
    double t2 = now();
    if (round < 0) /* two warm-up rounds */
      continue;
    td[round] = t1 - t0;
    tp[round] = t2 - t1;
    lo = parts < lo ? parts : lo;
    hi = parts > hi ? parts : hi;
  }
  if (st == GSYNC_OK) {
    r->discovered = 1;
    r->disc_launched = groups;
    r->disc_admitted_min = lo;
    r->disc_admitted_max = hi;
    r->disc_us = median(td, o->reps) * 1e6;
    r->plain_us = loop != NULL ? median(tp, o->reps) * 1e6 : 0;
  }
  if (data != NULL)
    clReleaseMemObject(data);
  unload_part(&p);
  return st;
}

/* The abort part: a launch of more groups than fit, whose first barrier
 * cannot complete, must end by the spin limit; how long after it. */
static gsync_status check_abort(cl_context ctx, cl_device_id dev,
                                cl_command_queue queue, const char *base,
                                gsync_check_result *r, char *err,
                                size_t errlen) {
  part p;
  size_t groups = 2 * r->coresident + 1, n = groups * r->local_size;
  cl_uint nn = (cl_uint)n, one = 1;
  cl_mem data = NULL;
  gsync_program_info pi;
  gsync_launch_info li;
  char why[512];
  gsync_status st =
      load_part(ctx, dev, queue, base, "loop", groups, &p, err, errlen);
  if (st != GSYNC_OK)
    return st;
  memset(&pi, 0, sizeof pi);
  pi.size = sizeof pi;
  st = gsync_program_get_info(p.gp, &pi, err, errlen);
  if (st == GSYNC_OK && pi.spin_limit_ms == 0)
    st = gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                   "%s: the abort part needs a spin limit", pi.path);
  if (st == GSYNC_OK)
    st = zeroed(p.gk, queue, n * 4, &data, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(p.gk, 0, sizeof data, &data, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(p.gk, 1, sizeof nn, &nn, err, errlen);
  /* A launch with no phase first, which meets no barrier: drivers that
   * compile a kernel at its first launch (PoCL) do it there. */
  cl_uint zero = 0;
  if (st == GSYNC_OK)
    st = set_arg(p.gk, 2, sizeof zero, &zero, err, errlen);
  if (st == GSYNC_OK)
    st = gsync_enqueue(p.gk, queue, groups, r->local_size, NULL, err, errlen);
  if (st == GSYNC_OK)
    st = gsync_finish(p.gk, queue, NULL, err, errlen);
  if (st == GSYNC_OK)
    st = set_arg(p.gk, 2, sizeof one, &one, err, errlen);
  if (st == GSYNC_OK) {
    double t0 = now();
    memset(&li, 0, sizeof li);
    li.size = sizeof li;
    st = gsync_enqueue(p.gk, queue, groups, r->local_size, NULL, err, errlen);
    gsync_status end = GSYNC_OK;
    if (st == GSYNC_OK)
      end = gsync_finish_nd(p.gk, queue, &li, why, sizeof why);
    double t1 = now();
    if (st == GSYNC_OK && end != GSYNC_OK && end != GSYNC_ERR_TIMEOUT)
      st = gsli_fail(err, errlen, end, "%s", why);
    if (st == GSYNC_OK) {
      r->abort_ran = 1;
      r->aborted = end == GSYNC_ERR_TIMEOUT && li.end == GSYNC_END_BARRIER;
      r->abort_groups = groups;
      r->spin_limit_ms = (double)pi.spin_limit_ms;
      r->abort_ms = (t1 - t0) * 1e3;
      r->abort_late_ms = r->abort_ms - r->spin_limit_ms;
    }
  }
  if (data != NULL)
    clReleaseMemObject(data);
  unload_part(&p);
  return st;
}

/* The LOOP part's timings: an eighth, a quarter, half and all of the
 * co-resident count, each once. */
static gsync_status check_timing(part *loop, cl_command_queue queue,
                                 const gsync_check_options *o,
                                 gsync_check_result *r, char *err,
                                 size_t errlen) {
  gsync_status st = GSYNC_OK;
  for (int shift = 3; st == GSYNC_OK && shift >= 0; shift--) {
    size_t g = r->coresident >> shift;
    if (g == 0 || (r->n_shapes > 0 && r->groups[r->n_shapes - 1] == g))
      continue;
    gsync_timing *t = &r->timing[r->n_shapes];
    t->size = sizeof *t;
    st = gsync_time_barrier(loop->gk, queue, g, r->local_size, o->short_iters,
                            o->long_iters, o->reps, t, err, errlen);
    if (st == GSYNC_OK)
      r->groups[r->n_shapes++] = g;
  }
  return st;
}

gsync_status gsync_check_rule(cl_context ctx, cl_device_id dev,
                              cl_command_queue queue,
                              const char *const files[GSYNC_CHECK_PARTS],
                              const gsync_check_options *options,
                              gsync_check_result *result, char *err,
                              size_t errlen) {
  static const char fn[] = "gsync_check_rule";
  if (files == NULL)
    return gsli_null_argument(err, errlen, fn, "files");
  if (result == NULL || result->size < sizeof *result)
    return gsli_null_argument(err, errlen, fn, "result");
  gsync_check_options o;
  memset(&o, 0, sizeof o);
  if (options != NULL)
    memcpy(&o, options, options->size < sizeof o ? options->size : sizeof o);
  if (o.reps == 0)
    o.reps = 7;
  if (o.episodes == 0)
    o.episodes = 100000;
  if (o.short_iters == 0)
    o.short_iters = 100;
  if (o.long_iters == 0)
    o.long_iters = 2100;
  if (o.max_groups == 0)
    o.max_groups = 65536;
  if (o.reps < 1 || o.reps > 64 || o.long_iters <= o.short_iters)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: want 1 to 64 reps and long_iters > short_iters", fn);
  memset((char *)result + sizeof result->size, 0,
         sizeof *result - sizeof result->size);
  result->local_size = o.local_size;
  if (result->local_size == 0) {
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    result->local_size = (type & CL_DEVICE_TYPE_GPU) ? 256 : 64;
  }
  part loop;
  memset(&loop, 0, sizeof loop);
  gsync_status st = GSYNC_OK;
  if (files[GSYNC_CHECK_LOOP] != NULL) {
    st = load_part(ctx, dev, queue, files[GSYNC_CHECK_LOOP], "loop",
                   o.max_groups, &loop, err, errlen);
    if (st == GSYNC_OK)
      st = fit(&loop, queue, result->local_size, &result->coresident, err,
               errlen);
    if (st == GSYNC_OK)
      st = check_timing(&loop, queue, &o, result, err, errlen);
  }
  if (st == GSYNC_OK && files[GSYNC_CHECK_STRESS] != NULL) {
    st = check_stress(ctx, dev, queue, files[GSYNC_CHECK_STRESS], &o, result,
                      err, errlen);
    if (st == GSYNC_OK && result->coresident == 0)
      result->coresident = result->stress_groups;
  }
  if (st == GSYNC_OK && result->coresident == 0 &&
      (files[GSYNC_CHECK_DISCOVERY] != NULL ||
       files[GSYNC_CHECK_ABORT] != NULL))
    st = gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                   "%s: the discovery and abort parts need the loop or the "
                   "stress part, which measure the co-resident count",
                   fn);
  if (st == GSYNC_OK && files[GSYNC_CHECK_DISCOVERY] != NULL)
    st = check_discovery(ctx, dev, queue, files[GSYNC_CHECK_DISCOVERY],
                         loop.gk != NULL ? &loop : NULL, &o, result, err,
                         errlen);
  if (st == GSYNC_OK && files[GSYNC_CHECK_ABORT] != NULL)
    st = check_abort(ctx, dev, queue, files[GSYNC_CHECK_ABORT], result, err,
                     errlen);
  unload_part(&loop);
  return st;
}
