/* gsync-bench: times global barriers made by gsync-rewrite on an OpenCL
 * device, and runs the message-passing stress test.
 *
 *   gsync-bench time --cl F.cl --constraints F.json --configs GxL[,GxL...]
 *               [--short N] [--long N] [--reps R]
 *     for each config, launches loop.cl rewritten (ITERS phases of a
 *     grid-stride increment + global_barrier()) with ITERS = short and long,
 *     R times each, and prints
 *       RESULT label G L us_per_iter launch0_us participants
 *     us_per_iter = (median T(long) - median T(short)) / (long - short):
 *     launch and discovery costs cancel out. launch0_us is the median wall
 *     time of a launch with ITERS = 0 (launch + discovery).
 *   gsync-bench baseline --configs ...   the same for (a) relaunching a
 *     one-phase kernel per phase ("relaunch") and (b) the loop without any
 *     barrier ("none"), plain OpenCL.
 *   gsync-bench disc --cl F.cl --constraints F.json --configs GxL,...
 *               [--reps R]
 *     the cost of occupancy discovery: for each config, R rounds of one
 *     launch of loop.cl rewritten with discovery and ITERS = 0, then one
 *     launch of the same G x L groups of a plain kernel that returns at
 *     once (loop_nobar, ITERS = 0); prints
 *       DLAUNCH label G L disc_us plain_us ratio admitted_min admitted_max
 *     with the medians of the wall times (enqueue to clFinish) and the
 *     fewest and most groups discovery admitted over the rounds. With
 *     --nd F.cl --nd-constraints F.json (the same kernel rewritten with
 *     --no-discovery) each round also launches that, through libgsync and
 *     raw (clEnqueueNDRangeKernel alone), and raw with an event the next
 *     such launch waits for (as libgsync chains launches); the line ends
 *     nodisc=US raw=US rawev=US.
 *   gsync-bench time-nd --cl F.cl --constraints F.json
 *               --configs GXxGY[xGZ]:LXxLY[xLZ][,...] [--short N] [--long N]
 *               [--reps R]
 *     the same for loopnd.cl rewritten (a grid-stride increment of a
 *     GX*LX x GY*LY x GZ*LZ array per phase, one work-item an element),
 *     launched in the shape's dimensions; prints
 *       RESULT_ND label GXxGYxGZ LXxLYxLZ us_per_iter launch0_us
 *                 participants grid left_out nobar_us
 *     where nobar_us is the same loop without its barrier, relaunched per
 *     phase with the same shape (a plain kernel: real ids), so the loop's
 *     own work is apart from the barrier's; against `time` on loop.cl with
 *     GX*GY*GZ groups of LX*LY*LZ items, the cost of the virtual N-D ids.
 *   gsync-bench launch --configs GxL[,...] [--reps R]
 *     what a launch of groups that return at once costs with each part a
 *     rewritten kernel adds to the plain loop_nobar (ITERS = 0): a buffer
 *     argument, that buffer written once by group 0 (as --no-discovery
 *     records the participant count), a local array set and read across a
 *     work-group barrier, and all three; R interleaved rounds, medians:
 *       LAUNCH G L plain=US arg=US store=US local=US all=US
 *   gsync-bench stress --cl F.cl --constraints F.json --configs GxL,...
 *               [--episodes E]
 *     runs mp.cl rewritten; prints STRESS label G L episodes stale=N
 *     participants=P
 *   gsync-bench placement --cl F.cl --constraints F.json --configs GxL,...
 *     runs placement.cl rewritten (each group that takes part records its
 *     SM at its remapped id) once per config and prints
 *       PLACEMENT label G L participants=P sms=S first8=A first64=B
 *                 first256=C ids0-15=s0,s1,...
 *     S distinct SMs in all, A, B, C among the ids below 8, 64 and 256
 *     (the groups a phase smaller than the grid runs on), and the SMs of
 *     ids 0-15. NVIDIA only; elsewhere every SM reads 0.
 *   gsync-bench limits --cl F.cl [--kernel K] [--build-options O]
 *     what the driver says kernel K (default loop, with loop.cl's
 *     arguments; a fourth, the state of a rewritten one, gets a zeroed
 *     64 KiB buffer) may have in a work-group against what it launches:
 *     builds F.cl as it is (no libgsync: the driver's own answers) with O
 *     (NVIDIA: -cl-nv-verbose puts ptxas's registers in the build log,
 *     printed), then prints
 *       LIMITS label work_group_size=W preferred_multiple=P private=B
 *              local=B
 *       LAUNCH label local=L enqueue=RC finish=RC
 *     for one group of 256, 512 and 1024 items with n = 0. On the H100,
 *     2026-12-06: W 256 for every kernel, bench/kernels/wg-limit-trivial.cl
 *     (10 registers) too, and every launch of 1024 succeeded.
 *
 * The device: the first of the first platform whose name contains
 * $GSYNC_PLATFORM (default: the first platform). Exit 1 on any error.
 */
#define _POSIX_C_SOURCE 200809L
#include "clhost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCFG 32

typedef struct cfg {
  size_t g, l;
} cfg;

static int parse_configs(const char *s, cfg *c) {
  int n = 0;
  while (*s && n < MAXCFG) {
    char *end;
    c[n].g = strtoul(s, &end, 10);
    if (*end != 'x')
      clhost_die("bad --configs (want GxL,GxL)", 0);
    c[n].l = strtoul(end + 1, &end, 10);
    n++;
    s = *end == ',' ? end + 1 : end;
  }
  return n;
}

static const char *label_of(const char *path) {
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

static size_t maxg(const cfg *c, int n) {
  size_t m = 1;
  for (int i = 0; i < n; i++)
    if (c[i].g > m)
      m = c[i].g;
  return m;
}

/* A zeroed buffer of n uints. */
static cl_mem zeroed(const clhost *host, cl_uint n) {
  cl_int rc;
  cl_uint zero = 0;
  cl_mem m = clCreateBuffer(host->ctx, CL_MEM_READ_WRITE, n * 4u, NULL, &rc);
  if (rc)
    clhost_die("clCreateBuffer", rc);
  clEnqueueFillBuffer(host->queue, m, &zero, 4, 0, n * 4u, 0, NULL, NULL);
  return m;
}

/* Sets the arguments of loop.cl's kernel (or loop_nobar): data, n, iters. */
static void loop_args(cl_kernel k, cl_mem data, cl_uint n, cl_uint iters) {
  clSetKernelArg(k, 0, sizeof data, &data);
  clSetKernelArg(k, 1, sizeof n, &n);
  clSetKernelArg(k, 2, sizeof iters, &iters);
}

/* libgsync's gsync_time_barrier at each config (gsync-check uses it too). */
static int cmd_time(const clhost *host, const char *cl, const char *json,
                    cfg *c, int nc, cl_uint shrt, cl_uint lng, int reps) {
  clhost_gk x;
  char err[CLHOST_ERRLEN];
  clhost_load(host, &x, cl, json, "loop", maxg(c, nc));
  for (int i = 0; i < nc; i++) {
    gsync_timing t = {sizeof t, 0, 0, 0};
    if (gsync_time_barrier(x.gk, host->queue, c[i].g, c[i].l, shrt, lng, reps,
                           &t, err, sizeof err))
      clhost_die(err, 0);
    printf("RESULT %s %zu %zu %.3f %.1f %u\n", label_of(cl), c[i].g, c[i].l,
           t.us_per_barrier, t.launch_us, t.participants);
    fflush(stdout);
  }
  clhost_unload(&x);
  return 0;
}

/* One N-D launch shape: g groups of l items per dimension. */
typedef struct ndcfg {
  cl_uint dims;
  size_t g[3], l[3];
} ndcfg;

/* Parses "8x8" into v[0..2] (1 past the dimensions given) and returns the
 * dimensions, stopping at *end (',' ':' or the end). */
static cl_uint parse_dims(const char *s, size_t *v, const char **end) {
  cl_uint n = 0;
  char *e = (char *)s;
  v[0] = v[1] = v[2] = 1;
  for (;;) {
    if (n == 3)
      clhost_die("bad --configs (want GXxGY:LXxLY,...)", 0);
    v[n] = strtoul(e, &e, 10);
    n++;
    if (*e != 'x')
      break;
    e++;
  }
  *end = e;
  return n;
}

/* Parses "GXxGY:LXxLY,..." into c; returns how many. */
static int parse_nd_configs(const char *s, ndcfg *c) {
  int n = 0;
  while (*s && n < MAXCFG) {
    const char *e;
    c[n].dims = parse_dims(s, c[n].g, &e);
    if (*e != ':' || parse_dims(e + 1, c[n].l, &e) != c[n].dims)
      clhost_die("bad --configs (want GXxGY:LXxLY,...)", 0);
    n++;
    s = *e == ',' ? e + 1 : e;
  }
  return n;
}

/* Median wall time of reps N-D launches of x with iters phases. */
static double time_loop_nd(clhost_gk *x, cl_uint iters, const ndcfg *c,
                           int reps) {
  double t[64];
  clSetKernelArg(x->k, 4, sizeof iters, &iters);
  for (int r = 0; r < reps; r++) {
    double t0 = clhost_now();
    clhost_enqueue_nd(x, c->dims, c->g, c->l, NULL);
    clFinish(x->h->queue);
    t[r] = clhost_now() - t0;
  }
  clhost_finish(x);
  return clhost_median(t, reps);
}

/* The loopnd.cl loop without its barrier: a plain kernel, one phase a
 * launch, real ids (cmd_time_nd's nobar_us). */
static const char loopnd_nobar_src[] =
    "kernel void loopnd_nobar(global uint *data, uint w, uint h, uint d) {\n"
    "  for (uint z = get_global_id(2); z < d; z += get_global_size(2))\n"
    "    for (uint y = get_global_id(1); y < h; y += get_global_size(1))\n"
    "      for (uint x = get_global_id(0); x < w; x += get_global_size(0))\n"
    "        data[(z * h + y) * w + x] += 1u;\n"
    "}\n";

/* Median wall time of reps launches of `launches` back-to-back phases of
 * the plain kernel k in the shape c. */
static double time_relaunch_nd(const clhost *host, cl_kernel k,
                               cl_uint launches, const ndcfg *c, int reps) {
  double t[64];
  size_t global[3];
  for (cl_uint d = 0; d < 3; d++)
    global[d] = c->g[d] * c->l[d];
  for (int r = 0; r < reps; r++) {
    double t0 = clhost_now();
    for (cl_uint i = 0; i < launches; i++) {
      cl_int rc = clEnqueueNDRangeKernel(host->queue, k, c->dims, NULL, global,
                                         c->l, 0, NULL, NULL);
      if (rc)
        clhost_die("clEnqueueNDRangeKernel", rc);
    }
    clFinish(host->queue);
    t[r] = clhost_now() - t0;
  }
  return clhost_median(t, reps);
}

static int cmd_time_nd(const clhost *host, const char *cl, const char *json,
                       const ndcfg *c, int nc, cl_uint shrt, cl_uint lng,
                       int reps) {
  clhost_gk x;
  size_t most = 1;
  for (int i = 0; i < nc; i++)
    if (c[i].g[0] * c[i].g[1] * c[i].g[2] > most)
      most = c[i].g[0] * c[i].g[1] * c[i].g[2];
  clhost_load(host, &x, cl, json, "loopnd", most);
  cl_program pr = clhost_build(host, loopnd_nobar_src, "");
  cl_kernel nobar = clhost_kernel(pr, "loopnd_nobar");
  for (int i = 0; i < nc; i++) {
    cl_uint w = (cl_uint)(c[i].g[0] * c[i].l[0]);
    cl_uint h = (cl_uint)(c[i].g[1] * c[i].l[1]);
    cl_uint d = (cl_uint)(c[i].g[2] * c[i].l[2]);
    size_t bytes = (size_t)w * h * d * 4u;
    cl_uint zero = 0, one = 1;
    cl_int rc;
    cl_mem data =
        clCreateBuffer(host->ctx, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (rc)
      clhost_die("clCreateBuffer", rc);
    clEnqueueFillBuffer(host->queue, data, &zero, 4, 0, bytes, 0, NULL, NULL);
    clSetKernelArg(x.k, 0, sizeof data, &data);
    clSetKernelArg(x.k, 1, sizeof w, &w);
    clSetKernelArg(x.k, 2, sizeof h, &h);
    clSetKernelArg(x.k, 3, sizeof d, &d);
    clSetKernelArg(x.k, 4, sizeof one, &one);
    clSetKernelArg(nobar, 0, sizeof data, &data);
    clSetKernelArg(nobar, 1, sizeof w, &w);
    clSetKernelArg(nobar, 2, sizeof h, &h);
    clSetKernelArg(nobar, 3, sizeof d, &d);
    gsync_launch_info info;
    clhost_enqueue_nd(&x, c[i].dims, c[i].g, c[i].l, &info); /* warm-up; grid */
    double t0 = time_loop_nd(&x, 0, &c[i], reps);
    double ts = time_loop_nd(&x, shrt, &c[i], reps);
    double tl = time_loop_nd(&x, lng, &c[i], reps);
    time_relaunch_nd(host, nobar, 10, &c[i], 1); /* warm-up */
    double ns = time_relaunch_nd(host, nobar, shrt, &c[i], reps);
    double nl = time_relaunch_nd(host, nobar, lng, &c[i], reps);
    printf("RESULT_ND %s %zux%zux%zu %zux%zux%zu %.3f %.1f %u %zux%zux%zu %u "
           "%.3f\n",
           label_of(cl), c[i].g[0], c[i].g[1], c[i].g[2], c[i].l[0], c[i].l[1],
           c[i].l[2], (tl - ts) / (lng - shrt) * 1e6, t0 * 1e6,
           info.participants, info.groups[0], info.groups[1], info.groups[2],
           info.left_out, (nl - ns) / (lng - shrt) * 1e6);
    fflush(stdout);
    clReleaseMemObject(data);
  }
  clReleaseKernel(nobar);
  clReleaseProgram(pr);
  clhost_unload(&x);
  return 0;
}

static const char baseline_src[] =
    "kernel void one_phase(global uint *data, uint n) {\n"
    "  for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    data[i] += 1u;\n"
    "}\n"
    "kernel void loop_nobar(global uint *data, uint n, uint iters) {\n"
    "  for (uint it = 0; it < iters; it++)\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "      data[i] += 1u;\n"
    "}\n";

/* The parts of a rewritten kernel's entry, one by one (cmd_launch). */
static const char launch_src[] =
    "kernel void k_arg(global uint *data, uint n, uint iters,\n"
    "                  global uint *s) {\n"
    "  for (uint it = 0; it < iters; it++) data[it] = n;\n"
    "}\n"
    "kernel void k_store(global uint *data, uint n, uint iters,\n"
    "                    global uint *s) {\n"
    "  if (get_group_id(0) == 0 && get_local_id(0) == 0) s[5] = n;\n"
    "  for (uint it = 0; it < iters; it++) data[it] = n;\n"
    "}\n"
    "kernel void k_local(global uint *data, uint n, uint iters) {\n"
    "  local uint sh[11];\n"
    "  if (get_local_id(0) == 0) sh[0] = n;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint it = 0; it < iters; it++) data[it] = sh[0];\n"
    "}\n"
    "kernel void k_all(global uint *data, uint n, uint iters,\n"
    "                  global uint *s) {\n"
    "  local uint sh[11];\n"
    "  if (get_local_id(0) == 0) sh[0] = n;\n"
    "  if (get_group_id(0) == 0 && get_local_id(0) == 0) s[5] = n;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint it = 0; it < iters; it++) data[it] = sh[0];\n"
    "}\n";

static double time_relaunch(const clhost *host, cl_kernel k, cl_uint launches,
                            size_t g, size_t l, int reps) {
  ndcfg c = {1, {g, 1, 1}, {l, 1, 1}};
  return time_relaunch_nd(host, k, launches, &c, reps);
}

static double time_nobar(const clhost *host, cl_kernel k, cl_uint iters,
                         size_t g, size_t l, int reps) {
  clSetKernelArg(k, 2, sizeof iters, &iters);
  return time_relaunch(host, k, 1, g, l, reps);
}

static int cmd_baseline(const clhost *host, cfg *c, int nc, cl_uint shrt,
                        cl_uint lng, int reps) {
  cl_program pr = clhost_build(host, baseline_src, "");
  cl_int rc;
  cl_kernel step = clCreateKernel(pr, "one_phase", &rc);
  if (rc)
    clhost_die("clCreateKernel step", rc);
  cl_kernel nobar = clCreateKernel(pr, "loop_nobar", &rc);
  if (rc)
    clhost_die("clCreateKernel loop_nobar", rc);
  for (int i = 0; i < nc; i++) {
    cl_uint n = (cl_uint)(c[i].g * c[i].l);
    cl_mem data = zeroed(host, n);
    clSetKernelArg(step, 0, sizeof data, &data);
    clSetKernelArg(step, 1, sizeof n, &n);
    clSetKernelArg(nobar, 0, sizeof data, &data);
    clSetKernelArg(nobar, 1, sizeof n, &n);
    time_relaunch(host, step, 10, c[i].g, c[i].l, 1); /* warm-up */
    double rs = time_relaunch(host, step, shrt, c[i].g, c[i].l, reps);
    double rl = time_relaunch(host, step, lng, c[i].g, c[i].l, reps);
    double r1 = time_relaunch(host, step, 1, c[i].g, c[i].l, reps);
    printf("RESULT relaunch %zu %zu %.3f %.1f %zu\n", c[i].g, c[i].l,
           (rl - rs) / (lng - shrt) * 1e6, r1 * 1e6, c[i].g);
    double ns = time_nobar(host, nobar, shrt, c[i].g, c[i].l, reps);
    double nl = time_nobar(host, nobar, lng, c[i].g, c[i].l, reps);
    double n0 = time_nobar(host, nobar, 0, c[i].g, c[i].l, reps);
    printf("RESULT none %zu %zu %.3f %.1f %zu\n", c[i].g, c[i].l,
           (nl - ns) / (lng - shrt) * 1e6, n0 * 1e6, c[i].g);
    fflush(stdout);
    clReleaseMemObject(data);
  }
  return 0;
}

/* Median wall time of discovery launches against plain launches of the
 * same shape, interleaved so that both see the same device state. */
static int cmd_disc(const clhost *host, const char *cl, const char *json,
                    const char *nd, const char *ndjson, cfg *c, int nc,
                    int reps) {
  clhost_gk x, y;
  clhost_load(host, &x, cl, json, "loop", maxg(c, nc));
  if (nd)
    clhost_load(host, &y, nd, ndjson, "loop", maxg(c, nc));
  cl_program pr = clhost_build(host, baseline_src, "");
  cl_kernel plain = clhost_kernel(pr, "loop_nobar");
  for (int i = 0; i < nc; i++) {
    cl_uint n = (cl_uint)(c[i].g * c[i].l), lo = 0xffffffffu, hi = 0;
    cl_int rc;
    cl_mem data = zeroed(host, n);
    loop_args(x.k, data, n, 0);
    loop_args(plain, data, n, 0);
    if (nd)
      loop_args(y.k, data, n, 0);
    double td[64], tp[64], tn[64], tr[64], te[64];
    cl_event prev = NULL;
    size_t global = c[i].g * c[i].l;
    for (int r = -2; r < reps; r++) { /* two warm-up rounds */
      cl_uint parts = 0;
      double t0 = clhost_now();
      clhost_enqueue(&x, c[i].g, c[i].l, NULL);
      clFinish(host->queue);
      double t1 = clhost_now();
      char err[CLHOST_ERRLEN];
      if (gsync_finish(x.gk, host->queue, &parts, err, sizeof err))
        clhost_die(err, 0);
      double t2 = clhost_now();
      rc = clEnqueueNDRangeKernel(host->queue, plain, 1, NULL, &global, &c[i].l,
                                  0, NULL, NULL);
      if (rc)
        clhost_die("clEnqueueNDRangeKernel", rc);
      clFinish(host->queue);
      double t3 = clhost_now(), t4 = t3, t5 = t3, t6 = t3, t7 = t3;
      if (nd) { /* the kernel without discovery: through libgsync, raw */
        clhost_enqueue(&y, c[i].g, c[i].l, NULL);
        clFinish(host->queue);
        t4 = clhost_now();
        clhost_finish(&y);
        t5 = clhost_now();
        rc = clEnqueueNDRangeKernel(host->queue, y.k, 1, NULL, &global, &c[i].l,
                                    0, NULL, NULL);
        if (rc)
          clhost_die("clEnqueueNDRangeKernel", rc);
        clFinish(host->queue);
        t6 = clhost_now();
        /* raw again, but with an event that the next launch waits for,
         * as libgsync chains a kernel's launches */
        cl_event ev = NULL;
        rc = clEnqueueNDRangeKernel(host->queue, y.k, 1, NULL, &global, &c[i].l,
                                    prev ? 1 : 0, prev ? &prev : NULL, &ev);
        if (rc)
          clhost_die("clEnqueueNDRangeKernel", rc);
        clFinish(host->queue);
        t7 = clhost_now();
        if (prev)
          clReleaseEvent(prev);
        prev = ev;
      }
      if (r < 0)
        continue;
      td[r] = t1 - t0;
      tp[r] = t3 - t2;
      tn[r] = t4 - t3;
      tr[r] = t6 - t5;
      te[r] = t7 - t6;
      lo = parts < lo ? parts : lo;
      hi = parts > hi ? parts : hi;
    }
    double d = clhost_median(td, reps), p = clhost_median(tp, reps);
    printf("DLAUNCH %s %zu %zu %.1f %.1f %.2f %u %u", label_of(cl), c[i].g,
           c[i].l, d * 1e6, p * 1e6, d / p, lo, hi);
    if (nd)
      printf(" nodisc=%.1f raw=%.1f rawev=%.1f", clhost_median(tn, reps) * 1e6,
             clhost_median(tr, reps) * 1e6, clhost_median(te, reps) * 1e6);
    if (prev)
      clReleaseEvent(prev);
    printf("\n");
    fflush(stdout);
    clReleaseMemObject(data);
  }
  clReleaseKernel(plain);
  clReleaseProgram(pr);
  clhost_unload(&x);
  if (nd)
    clhost_unload(&y);
  return 0;
}

/* Medians of launches (enqueue to clFinish) of loop_nobar and of the
 * kernels of launch_src, with ITERS = 0, interleaved round by round. */
static int cmd_launch(const clhost *host, cfg *c, int nc, int reps) {
  static const char *const names[] = {"loop_nobar", "k_arg", "k_store",
                                      "k_local", "k_all"};
  enum { NK = 5 };
  cl_program base = clhost_build(host, baseline_src, "");
  cl_program parts = clhost_build(host, launch_src, "");
  cl_kernel k[NK];
  for (int j = 0; j < NK; j++)
    k[j] = clhost_kernel(j == 0 ? base : parts, names[j]);
  cl_mem state = zeroed(host, 64);
  for (int i = 0; i < nc; i++) {
    cl_uint n = (cl_uint)(c[i].g * c[i].l);
    cl_mem data = zeroed(host, n);
    double t[NK][64];
    for (int j = 0; j < NK; j++) {
      loop_args(k[j], data, n, 0);
      if (j == 1 || j == 2 || j == 4)
        clSetKernelArg(k[j], 3, sizeof state, &state);
    }
    for (int r = -2; r < reps; r++) /* two warm-up rounds */
      for (int j = 0; j < NK; j++) {
        double t1 = time_relaunch(host, k[j], 1, c[i].g, c[i].l, 1);
        if (r >= 0)
          t[j][r] = t1;
      }
    printf("LAUNCH %zu %zu", c[i].g, c[i].l);
    static const char *const labels[] = {"plain", "arg", "store", "local",
                                         "all"};
    for (int j = 0; j < NK; j++)
      printf(" %s=%.1f", labels[j], clhost_median(t[j], reps) * 1e6);
    printf("\n");
    fflush(stdout);
    clReleaseMemObject(data);
  }
  for (int j = 0; j < NK; j++)
    clReleaseKernel(k[j]);
  clReleaseMemObject(state);
  clReleaseProgram(base);
  clReleaseProgram(parts);
  return 0;
}

/* libgsync's gsync_stress at each config (gsync-check uses it too). */
static int cmd_stress(const clhost *host, const char *cl, const char *json,
                      cfg *c, int nc, cl_uint episodes) {
  clhost_gk x;
  char err[CLHOST_ERRLEN];
  clhost_load(host, &x, cl, json, "mp", maxg(c, nc));
  int bad = 0;
  for (int i = 0; i < nc; i++) {
    gsync_stress_result r = {sizeof r, 0, 0, 0};
    if (gsync_stress(x.gk, host->queue, c[i].g, c[i].l, episodes, &r, err,
                     sizeof err))
      clhost_die(err, 0);
    printf("STRESS %s %zu %zu episodes=%u stale=%llu participants=%u "
           "seconds=%.2f\n",
           label_of(cl), c[i].g, c[i].l, episodes, r.stale, r.participants,
           r.seconds);
    fflush(stdout);
    bad |= r.stale != 0;
  }
  clhost_unload(&x);
  return bad;
}

/* How many distinct values v[0 .. k-1] holds (each below 4096). */
static unsigned distinct(const cl_uint *v, size_t k) {
  static unsigned char seen[4096];
  unsigned d = 0;
  memset(seen, 0, sizeof seen);
  for (size_t i = 0; i < k; i++)
    if (!seen[v[i] & 4095u]++)
      d++;
  return d;
}

static int cmd_placement(const clhost *host, const char *cl, const char *json,
                         cfg *c, int nc) {
  clhost_gk x;
  clhost_load(host, &x, cl, json, "loop", maxg(c, nc));
  for (int i = 0; i < nc; i++) {
    cl_uint n = (cl_uint)c[i].g, parts = 0;
    cl_int rc;
    cl_mem data = zeroed(host, n);
    loop_args(x.k, data, n, 0);
    clhost_enqueue(&x, c[i].g, c[i].l, &parts);
    clFinish(host->queue);
    cl_uint *sm = malloc(n * sizeof *sm);
    if (sm == NULL)
      clhost_die("out of memory", 0);
    if ((rc = clEnqueueReadBuffer(host->queue, data, CL_TRUE, 0, n * 4u, sm, 0,
                                  NULL, NULL)))
      clhost_die("clEnqueueReadBuffer", rc);
    size_t p = parts < n ? parts : n;
    printf("PLACEMENT %s %zu %zu participants=%u sms=%u first8=%u first64=%u "
           "first256=%u ids0-15=",
           label_of(cl), c[i].g, c[i].l, parts, distinct(sm, p),
           distinct(sm, p < 8 ? p : 8), distinct(sm, p < 64 ? p : 64),
           distinct(sm, p < 256 ? p : 256));
    for (size_t j = 0; j < 16 && j < p; j++)
      printf("%s%u", j ? "," : "", sm[j]);
    printf("\n");
    fflush(stdout);
    free(sm);
    clReleaseMemObject(data);
  }
  clhost_unload(&x);
  return 0;
}

/* Which vendor macros the device's OpenCL C compiler defines. */
static const char probe_src[] =

    "kernel void probe(global uint *out) {\n"
    "#ifdef cl_nv_pragma_unroll\n  out[0] = 1u;\n#endif\n"
    "#ifdef cl_nv_compiler_options\n  out[1] = 1u;\n#endif\n"
    "#ifdef cl_nv_device_attribute_query\n  out[2] = 1u;\n#endif\n"
    "#ifdef __NV_CL_C_VERSION\n  out[3] = 1u;\n#endif\n"
    "#ifdef NVIDIA\n  out[4] = 1u;\n#endif\n"
    "#ifdef __NVPTX__\n  out[5] = 1u;\n#endif\n"
    "#ifdef __CUDA_ARCH__\n  out[6] = 1u;\n#endif\n"
    "#ifdef __OPENCL_C_VERSION__\n  out[7] = __OPENCL_C_VERSION__;\n#endif\n"
    "#ifdef __PTX__\n  out[8] = 1u;\n#endif\n"
    "#ifdef cl_khr_global_int32_base_atomics\n  out[9] = 1u;\n#endif\n"
    "#ifdef __ENDIAN_LITTLE__\n  out[10] = 1u;\n#endif\n"
    "#ifdef __IMAGE_SUPPORT__\n  out[11] = 1u;\n#endif\n"
    "}\n";

static int cmd_probe(const clhost *host) {
  static const char *names[] = {"cl_nv_pragma_unroll",
                                "cl_nv_compiler_options",
                                "cl_nv_device_attribute_query",
                                "__NV_CL_C_VERSION",
                                "NVIDIA",
                                "__NVPTX__",
                                "__CUDA_ARCH__",
                                "__OPENCL_C_VERSION__",
                                "__PTX__",
                                "cl_khr_global_int32_base_atomics",
                                "__ENDIAN_LITTLE__",
                                "__IMAGE_SUPPORT__"};
  cl_program pr = clhost_build(host, probe_src, "");
  cl_int rc;
  cl_kernel k = clCreateKernel(pr, "probe", &rc);
  cl_uint h[16] = {0};
  cl_mem m = clCreateBuffer(host->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            sizeof h, h, &rc);
  clSetKernelArg(k, 0, sizeof m, &m);
  size_t one = 1;
  clEnqueueNDRangeKernel(host->queue, k, 1, NULL, &one, &one, 0, NULL, NULL);
  clEnqueueReadBuffer(host->queue, m, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
  for (int i = 0; i < 12; i++)
    printf("MACRO %s %u\n", names[i], h[i]);
  return 0;
}

/* Writes the device binary (PTX on NVIDIA) of a rewritten file, built for
 * its kernel (--kernel, default loop) with libgsync's options and extra
 * (--build-options, e.g. -Dgsync_watch), to path. */
static int cmd_binary(const clhost *host, const char *cl, const char *json,
                      const char *path, const char *kernel, const char *extra) {
  clhost_gk x;
  clhost_load_opts(host, &x, cl, json, kernel, 1, NULL, extra);
  size_t sz = 0;
  clGetProgramInfo(x.pr, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL);
  unsigned char *bin = malloc(sz + 1);
  clGetProgramInfo(x.pr, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
  FILE *f = fopen(path, "wb");
  if (!f)
    clhost_die("fopen", 0);
  fwrite(bin, 1, sz, f);
  fclose(f);
  printf("BINARY %s %zu bytes -> %s\n", label_of(cl), sz, path);
  return 0;
}

static int cmd_limits(const clhost *host, const char *cl, const char *kernel,
                      const char *extra) {
  char *src = clhost_slurp(cl);
  cl_program pr = clhost_build(host, src, extra ? extra : "");
  free(src);
  size_t sz = 0;
  clGetProgramBuildInfo(pr, host->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &sz);
  char *log = calloc(sz + 1, 1);
  if (log == NULL)
    clhost_die("out of memory", 0);
  clGetProgramBuildInfo(pr, host->dev, CL_PROGRAM_BUILD_LOG, sz, log, NULL);
  printf("%s\n", log);
  free(log);
  cl_int rc;
  cl_kernel k = clCreateKernel(pr, kernel, &rc);
  if (rc)
    clhost_die("clCreateKernel", rc);
  size_t wg = 0, pref = 0;
  cl_ulong priv = 0, loc = 0;
  clGetKernelWorkGroupInfo(k, host->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg,
                           &wg, NULL);
  clGetKernelWorkGroupInfo(k, host->dev,
                           CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                           sizeof pref, &pref, NULL);
  clGetKernelWorkGroupInfo(k, host->dev, CL_KERNEL_PRIVATE_MEM_SIZE,
                           sizeof priv, &priv, NULL);
  clGetKernelWorkGroupInfo(k, host->dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof loc,
                           &loc, NULL);
  printf("LIMITS %s work_group_size=%zu preferred_multiple=%zu private=%llu "
         "local=%llu\n",
         label_of(cl), wg, pref, (unsigned long long)priv,
         (unsigned long long)loc);
  cl_uint nargs = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
  cl_mem data = zeroed(host, 1u << 18), state = zeroed(host, 1u << 14);
  loop_args(k, data, 0, 0);
  if (nargs > 3)
    clSetKernelArg(k, 3, sizeof state, &state);
  for (size_t l = 256; l <= 1024; l *= 2) {
    size_t g = l;
    rc = clEnqueueNDRangeKernel(host->queue, k, 1, NULL, &g, &l, 0, NULL, NULL);
    printf("LAUNCH %s local=%zu enqueue=%d finish=%d\n", label_of(cl), l,
           (int)rc, (int)clFinish(host->queue));
  }
  clReleaseMemObject(data);
  clReleaseMemObject(state);
  clReleaseKernel(k);
  clReleaseProgram(pr);
  return 0;
}

int main(int argc, char **argv) {
  clhost device;
  const char *cl = NULL, *json = NULL, *configs = NULL, *outp = NULL;
  const char *nd = NULL, *ndjson = NULL, *kname = "loop", *extra = NULL;
  cl_uint shrt = 100, lng = 2100, episodes = 100000;
  int reps = 7;
  if (argc < 2) {
    fprintf(stderr,
            "usage: gsync-bench time|time-nd|baseline|disc|launch|stress "
            "[options] "
            "(see bench/bench.c)\n");
    return 2;
  }
  for (int i = 2; i + 1 < argc; i += 2) {
    const char *a = argv[i], *v = argv[i + 1];
    if (!strcmp(a, "--cl"))
      cl = v;
    else if (!strcmp(a, "--constraints"))
      json = v;
    else if (!strcmp(a, "--configs"))
      configs = v;
    else if (!strcmp(a, "--short"))
      shrt = (cl_uint)atoi(v);
    else if (!strcmp(a, "--long"))
      lng = (cl_uint)atoi(v);
    else if (!strcmp(a, "--reps"))
      reps = atoi(v);
    else if (!strcmp(a, "--episodes"))
      episodes = (cl_uint)atoi(v);
    else if (!strcmp(a, "--out"))
      outp = v;
    else if (!strcmp(a, "--nd"))
      nd = v;
    else if (!strcmp(a, "--kernel"))
      kname = v;
    else if (!strcmp(a, "--nd-constraints"))
      ndjson = v;
    else if (!strcmp(a, "--build-options"))
      extra = v;
    else {
      fprintf(stderr, "gsync-bench: unknown option %s\n", a);
      return 2;
    }
  }
  if (!strcmp(argv[1], "probe") || !strcmp(argv[1], "binary") ||
      !strcmp(argv[1], "limits")) {
    clhost_open(&device);
    if (!strcmp(argv[1], "probe"))
      return cmd_probe(&device);
    if (!strcmp(argv[1], "limits") && cl)
      return cmd_limits(&device, cl, kname, extra);
    if (cl && json && outp)
      return cmd_binary(&device, cl, json, outp, kname, extra);
    return 2;
  }
  if (reps < 1 || reps > 64 || lng <= shrt || !configs) {
    fprintf(stderr, "gsync-bench: need --configs, 1..64 reps, long > short\n");
    return 2;
  }
  if (!strcmp(argv[1], "time-nd") && cl && json) {
    ndcfg nd[MAXCFG];
    int n = parse_nd_configs(configs, nd);
    clhost_open(&device);
    return cmd_time_nd(&device, cl, json, nd, n, shrt, lng, reps);
  }
  cfg c[MAXCFG];
  int nc = parse_configs(configs, c);
  clhost_open(&device);
  if (!strcmp(argv[1], "time") && cl && json)
    return cmd_time(&device, cl, json, c, nc, shrt, lng, reps);
  if (!strcmp(argv[1], "baseline"))
    return cmd_baseline(&device, c, nc, shrt, lng, reps);
  if (!strcmp(argv[1], "launch"))
    return cmd_launch(&device, c, nc, reps);
  if (!strcmp(argv[1], "stress") && cl && json)
    return cmd_stress(&device, cl, json, c, nc, episodes);
  if (!strcmp(argv[1], "placement") && cl && json)
    return cmd_placement(&device, cl, json, c, nc);
  if (!strcmp(argv[1], "disc") && cl && json)
    return cmd_disc(&device, cl, json, nd && ndjson ? nd : NULL, ndjson, c, nc,
                    reps);
  fprintf(stderr, "gsync-bench: bad command or missing --cl/--constraints\n");
  return 2;
}
