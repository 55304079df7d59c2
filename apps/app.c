/* gsync-app: two applications end to end, one persistent kernel with
 * global_barrier() against the same work relaunched per phase, on the same
 * device in the same run. Results are checked against a CPU reference.
 *
 *   gsync-app bfs --cl bfs.out.cl --constraints bfs.json
 *                 --relaunch-cl apps/app/bfs_level.cl
 *                 [--grid 1000x1000] [--groups G] [--local L] [--reps R]
 *     breadth-first search from vertex 0 of a W x H grid graph (4
 *     neighbours; diameter W + H - 2 levels). Relaunch: one bfs_level
 *     launch per level, (a) reading the level's flag back after each launch
 *     to decide whether to go on ("relaunch-sync", the usual way), and (b)
 *     enqueueing 32 levels at a time before reading flags back
 *     ("relaunch-batch32", extra levels past the end find nothing).
 *   gsync-app heat --cl heat.out.cl --constraints heat.json
 *                  --relaunch-cl apps/app/heat_step.cl
 *                  [--n N] [--steps S] [--groups G] [--local L] [--reps R]
 *     examples/heat.cl over S steps (two phases, two barriers, per step)
 *     against heat_compute + heat_copy launched per phase.
 *
 * Prints one APP line per variant: name, milliseconds (median of R runs),
 * speed-up of the persistent kernel over it, groups that took part; then
 * CHECK lines. Exit 1 if any result differs from the CPU reference.
 */
#define _POSIX_C_SOURCE 200809L
#include "clhost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREPS 32

typedef struct opts {
  const char *cl, *json, *relaunch_cl;
  unsigned w, h, n, steps, reps;
  size_t groups, local;
} opts;

static int failed;

static void report(const char *app, const char *variant, double ms,
                   double persistent_ms, unsigned parts) {
  printf("APP %s %-18s %10.2f ms  %6.2fx  groups=%u\n", app, variant, ms,
         ms / persistent_ms, parts);
  fflush(stdout);
}

static void verdict(const char *what, int ok, const char *detail) {
  printf("CHECK %s %s%s%s\n", what, ok ? "ok" : "MISMATCH", *detail ? ": " : "",
         detail);
  failed |= !ok;
}

/* ---- BFS ---------------------------------------------------------------- */

typedef struct graph {
  unsigned n, m;
  cl_uint *row, *col;
} graph;

/* The W x H grid graph in CSR form: v = y * W + x, neighbours in the order
 * left, right, up, down. */
static graph grid_graph(unsigned w, unsigned h) {
  graph g = {w * h, 0, malloc(((size_t)w * h + 1) * 4),
             malloc((size_t)w * h * 4 * 4)};
  if (!g.row || !g.col)
    clhost_die("out of memory", 0);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++) {
      g.row[y * w + x] = g.m;
      if (x > 0)
        g.col[g.m++] = y * w + x - 1;
      if (x + 1 < w)
        g.col[g.m++] = y * w + x + 1;
      if (y > 0)
        g.col[g.m++] = (y - 1) * w + x;
      if (y + 1 < h)
        g.col[g.m++] = (y + 1) * w + x;
    }
  g.row[g.n] = g.m;
  return g;
}

/* Levels from vertex 0 by a queue; returns the number of levels. */
static int cpu_bfs(const graph *g, cl_int *dist) {
  unsigned *q = malloc((size_t)g->n * sizeof *q), head = 0, tail = 0;
  for (unsigned v = 0; v < g->n; v++)
    dist[v] = -1;
  dist[0] = 0;
  q[tail++] = 0;
  int levels = 0;
  while (head < tail) {
    unsigned v = q[head++];
    if (dist[v] + 1 > levels)
      levels = dist[v] + 1;
    for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
      if (dist[g->col[e]] < 0) {
        dist[g->col[e]] = dist[v] + 1;
        q[tail++] = g->col[e];
      }
  }
  free(q);
  return levels;
}

typedef struct bfs_bufs {
  cl_mem row, col, dist, flags;
  cl_int *init;
} bfs_bufs;

/* dist = -1 except the source; every flag 0. */
static void bfs_reset(const clhost *host, const graph *g, bfs_bufs *b,
                      size_t nflags) {
  cl_uint zero = 0;
  clEnqueueWriteBuffer(host->queue, b->dist, CL_FALSE, 0, (size_t)g->n * 4,
                       b->init, 0, NULL, NULL);
  clEnqueueFillBuffer(host->queue, b->flags, &zero, 4, 0, nflags * 4, 0, NULL,
                      NULL);
  clFinish(host->queue);
}

static void bfs_check(const clhost *host, const graph *g, bfs_bufs *b,
                      const cl_int *ref, const char *what) {
  cl_int *d = malloc((size_t)g->n * 4);
  clEnqueueReadBuffer(host->queue, b->dist, CL_TRUE, 0, (size_t)g->n * 4, d, 0,
                      NULL, NULL);
  unsigned bad = 0;
  for (unsigned v = 0; v < g->n; v++)
    bad += d[v] != ref[v];
  char detail[128];
  snprintf(detail, sizeof detail, "%u of %u vertices at the wrong level", bad,
           g->n);
  verdict(what, bad == 0, bad ? detail : "");
  free(d);
}

/* Relaunch: one launch per level; reads flags back every `batch` levels. */
static double bfs_relaunch(const clhost *host, const graph *g, bfs_bufs *b,
                           cl_kernel k, const opts *o, unsigned batch) {
  size_t global = o->groups * o->local;
  bfs_reset(host, g, b, g->n + 2);
  double t0 = clhost_now();
  cl_uint *flags = malloc(batch * 4);
  for (cl_int level = 0;; level += (cl_int)batch) {
    for (unsigned i = 0; i < batch; i++) {
      cl_int l = level + (cl_int)i;
      clSetKernelArg(k, 5, sizeof l, &l);
      cl_int rc = clEnqueueNDRangeKernel(host->queue, k, 1, NULL, &global,
                                         &o->local, 0, NULL, NULL);
      if (rc)
        clhost_die("clEnqueueNDRangeKernel bfs_level", rc);
    }
    clEnqueueReadBuffer(host->queue, b->flags, CL_TRUE, (size_t)level * 4,
                        batch * 4, flags, 0, NULL, NULL);
    unsigned i = 0;
    while (i < batch && flags[i])
      i++;
    if (i < batch || (unsigned)level + batch >= g->n)
      break;
  }
  free(flags);
  return clhost_now() - t0;
}

static void app_bfs(const clhost *host, const opts *o) {
  graph g = grid_graph(o->w, o->h);
  cl_int *ref = malloc((size_t)g.n * 4);
  int levels = cpu_bfs(&g, ref);
  bfs_bufs b = {clhost_buffer(host, (size_t)(g.n + 1) * 4, g.row),
                clhost_buffer(host, (size_t)g.m * 4, g.col),
                clhost_buffer(host, (size_t)g.n * 4, NULL),
                clhost_buffer(host, (size_t)(g.n + 2) * 4, NULL),
                malloc((size_t)g.n * 4)};
  for (unsigned v = 0; v < g.n; v++)
    b.init[v] = v == 0 ? 0 : -1;
  printf("bfs: %ux%u grid, %u vertices, %u edges, %d levels; %zu groups x "
         "%zu\n",
         o->w, o->h, g.n, g.m, levels, o->groups, o->local);

  clhost_gk x;
  clhost_load(host, &x, o->cl, o->json, "bfs", o->groups);
  clSetKernelArg(x.k, 0, sizeof b.row, &b.row);
  clSetKernelArg(x.k, 1, sizeof b.col, &b.col);
  clSetKernelArg(x.k, 2, sizeof b.dist, &b.dist);
  clSetKernelArg(x.k, 3, sizeof b.flags, &b.flags);
  clSetKernelArg(x.k, 4, sizeof g.n, &g.n);
  char *src = clhost_slurp(o->relaunch_cl);
  cl_program pr = clhost_build(host, src, "");
  free(src);
  cl_kernel k = clhost_kernel(pr, "bfs_level");
  clSetKernelArg(k, 0, sizeof b.row, &b.row);
  clSetKernelArg(k, 1, sizeof b.col, &b.col);
  clSetKernelArg(k, 2, sizeof b.dist, &b.dist);
  clSetKernelArg(k, 3, sizeof b.flags, &b.flags);
  clSetKernelArg(k, 4, sizeof g.n, &g.n);

  double tp[MAXREPS], ts[MAXREPS], tb[MAXREPS];
  cl_uint parts = 0;
  for (unsigned r = 0; r < o->reps; r++) {
    bfs_reset(host, &g, &b, 3);
    double t0 = clhost_now();
    clhost_enqueue(&x, o->groups, o->local, &parts);
    clFinish(host->queue);
    tp[r] = clhost_now() - t0;
    if (r == 0)
      bfs_check(host, &g, &b, ref, "bfs persistent");
    ts[r] = bfs_relaunch(host, &g, &b, k, o, 1);
    if (r == 0)
      bfs_check(host, &g, &b, ref, "bfs relaunch-sync");
    tb[r] = bfs_relaunch(host, &g, &b, k, o, 32);
    if (r == 0)
      bfs_check(host, &g, &b, ref, "bfs relaunch-batch32");
  }
  double p = clhost_median(tp, (int)o->reps) * 1e3;
  report("bfs", "persistent", p, p, parts);
  report("bfs", "relaunch-sync", clhost_median(ts, (int)o->reps) * 1e3, p,
         (unsigned)o->groups);
  report("bfs", "relaunch-batch32", clhost_median(tb, (int)o->reps) * 1e3, p,
         (unsigned)o->groups);
  clhost_unload(&x);
}

/* ---- heat --------------------------------------------------------------- */

static void heat_init(float *u, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    u[i] = i % 4096 == 0 ? 1000.0f : 0.0f;
}

/* Largest |a - b| relative to the largest |b|. */
static double rel_diff(const float *a, const float *b, unsigned n) {
  double d = 0, m = 1e-30;
  for (unsigned i = 0; i < n; i++) {
    d = fmax(d, fabs((double)a[i] - b[i]));
    m = fmax(m, fabs((double)b[i]));
  }
  return d / m;
}

static void app_heat(const clhost *host, const opts *o) {
  const float alpha = 0.25f;
  unsigned n = o->n, check_steps = o->steps < 1000 ? o->steps : 1000;
  float *u0 = malloc((size_t)n * 4), *ref = malloc((size_t)n * 4),
        *tmp = malloc((size_t)n * 4), *got = malloc((size_t)n * 4),
        *persistent = malloc((size_t)n * 4);
  heat_init(ref, n);
  for (unsigned t = 0; t < check_steps; t++) {
    for (unsigned i = 0; i < n; i++)
      tmp[i] = ref[i] + alpha * (ref[(i + n - 1) % n] - 2.0f * ref[i] +
                                 ref[(i + 1) % n]);
    memcpy(ref, tmp, (size_t)n * 4);
  }
  heat_init(u0, n);
  printf("heat: %u points, %u steps (%u barriers); %zu groups x %zu\n", n,
         o->steps, 2 * o->steps, o->groups, o->local);
  cl_mem u = clhost_buffer(host, (size_t)n * 4, NULL),
         t = clhost_buffer(host, (size_t)n * 4, NULL);

  clhost_gk x;
  clhost_load(host, &x, o->cl, o->json, "heat", o->groups);
  clSetKernelArg(x.k, 0, sizeof u, &u);
  clSetKernelArg(x.k, 1, sizeof t, &t);
  clSetKernelArg(x.k, 2, sizeof n, &n);
  clSetKernelArg(x.k, 4, sizeof alpha, &alpha);
  char *src = clhost_slurp(o->relaunch_cl);
  cl_program pr = clhost_build(host, src, "");
  free(src);
  cl_kernel kc = clhost_kernel(pr, "heat_compute"),
            kk = clhost_kernel(pr, "heat_copy");
  clSetKernelArg(kc, 0, sizeof u, &u);
  clSetKernelArg(kc, 1, sizeof t, &t);
  clSetKernelArg(kc, 2, sizeof n, &n);
  clSetKernelArg(kc, 3, sizeof alpha, &alpha);
  clSetKernelArg(kk, 0, sizeof u, &u);
  clSetKernelArg(kk, 1, sizeof t, &t);
  clSetKernelArg(kk, 2, sizeof n, &n);
  size_t global = o->groups * o->local;

  double tp[MAXREPS], tr[MAXREPS];
  cl_uint parts = 0;
  for (unsigned r = 0; r <= o->reps; r++) {
    /* Run 0 checks both against the CPU over the first steps. */
    cl_uint steps = r == 0 ? check_steps : o->steps;
    clEnqueueWriteBuffer(host->queue, u, CL_TRUE, 0, (size_t)n * 4, u0, 0, NULL,
                         NULL);
    clSetKernelArg(x.k, 3, sizeof steps, &steps);
    double t0 = clhost_now();
    clhost_enqueue(&x, o->groups, o->local, &parts);
    clFinish(host->queue);
    if (r > 0)
      tp[r - 1] = clhost_now() - t0;
    clEnqueueReadBuffer(host->queue, u, CL_TRUE, 0, (size_t)n * 4, persistent,
                        0, NULL, NULL);
    clEnqueueWriteBuffer(host->queue, u, CL_TRUE, 0, (size_t)n * 4, u0, 0, NULL,
                         NULL);
    t0 = clhost_now();
    for (cl_uint s = 0; s < steps; s++) {
      cl_int rc = clEnqueueNDRangeKernel(host->queue, kc, 1, NULL, &global,
                                         &o->local, 0, NULL, NULL);
      rc |= clEnqueueNDRangeKernel(host->queue, kk, 1, NULL, &global, &o->local,
                                   0, NULL, NULL);
      if (rc)
        clhost_die("clEnqueueNDRangeKernel heat", rc);
    }
    clFinish(host->queue);
    if (r > 0)
      tr[r - 1] = clhost_now() - t0;
    clEnqueueReadBuffer(host->queue, u, CL_TRUE, 0, (size_t)n * 4, got, 0, NULL,
                        NULL);
    char detail[160];
    if (r == 0) {
      double dp = rel_diff(persistent, ref, n), dr = rel_diff(got, ref, n);
      snprintf(detail, sizeof detail,
               "%u steps against the CPU: largest difference %.2g "
               "(persistent), %.2g (relaunch), relative to the peak",
               steps, dp, dr);
      verdict("heat", dp < 1e-4 && dr < 1e-4, detail);
    } else if (r == 1) {
      double d = rel_diff(persistent, got, n);
      snprintf(detail, sizeof detail,
               "%u steps, persistent against relaunch: largest difference "
               "%.2g relative to the peak",
               steps, d);
      verdict("heat", d < 1e-4, detail);
    }
  }
  double p = clhost_median(tp, (int)o->reps) * 1e3;
  report("heat", "persistent", p, p, parts);
  report("heat", "relaunch", clhost_median(tr, (int)o->reps) * 1e3, p,
         (unsigned)o->groups);
  clhost_unload(&x);
}

int main(int argc, char **argv) {
  clhost device;
  opts o = {NULL, NULL, NULL, 1000, 1000, 1u << 18, 100000, 5, 0, 256};
  if (argc < 2 || (strcmp(argv[1], "bfs") && strcmp(argv[1], "heat"))) {
    fprintf(stderr, "usage: gsync-app bfs|heat [options] (see apps/app.c)\n");
    return 2;
  }
  for (int i = 2; i + 1 < argc; i += 2) {
    const char *a = argv[i], *v = argv[i + 1];
    if (!strcmp(a, "--cl"))
      o.cl = v;
    else if (!strcmp(a, "--constraints"))
      o.json = v;
    else if (!strcmp(a, "--relaunch-cl"))
      o.relaunch_cl = v;
    else if (!strcmp(a, "--grid")) {
      if (sscanf(v, "%ux%u", &o.w, &o.h) != 2 || !o.w || !o.h) {
        fprintf(stderr, "gsync-app: bad --grid (want WxH)\n");
        return 2;
      }
    } else if (!strcmp(a, "--n"))
      o.n = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--steps"))
      o.steps = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--reps"))
      o.reps = (unsigned)strtoul(v, NULL, 10);
    else if (!strcmp(a, "--groups"))
      o.groups = strtoul(v, NULL, 10);
    else if (!strcmp(a, "--local"))
      o.local = strtoul(v, NULL, 10);
    else {
      fprintf(stderr, "gsync-app: unknown option %s\n", a);
      return 2;
    }
  }
  if (!o.cl || !o.json || !o.relaunch_cl || !o.groups || !o.local || !o.n ||
      !o.steps || o.reps < 1 || o.reps > MAXREPS) {
    fprintf(stderr,
            "gsync-app: need --cl, --constraints, --relaunch-cl, "
            "--groups; 1..%d reps\n",
            MAXREPS);
    return 2;
  }
  clhost_open(&device);
  if (!strcmp(argv[1], "bfs"))
    app_bfs(&device, &o);
  else
    app_heat(&device, &o);
  return failed;
}
