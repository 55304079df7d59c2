/* gsync-graph: the graph applications of apps/graph/, each a persistent
 * kernel with global_barrier() and a relaunch-per-phase baseline doing the
 * same per-vertex work, run on the same device in the same process and
 * checked against a CPU reference.
 *
 *   gsync-graph APP --input SPEC --cl REWRITTEN.cl --constraints C.json
 *               [--mode persistent|relaunch|both] [--groups G] [--local L]
 *               [--reps R] [--seed S] [--sources K] [--heavy D]
 *               [--build-options OPTS]
 *
 * APP is bfs, sssp, color, mis, bc, pagerank or mst; REWRITTEN.cl is
 * apps/graph/APP.cl after gsync-rewrite: it holds the persistent kernel
 * (launched through libgsync, G groups of L) and the relaunch kernels
 * (launched plainly, one work-item per vertex or per work-list entry, the
 * host reading a flag or count back after each round as a relaunch
 * program must to know whether to go on). SPEC is an input of graphgen.h
 * (grid:WxH, rmat:S[:F], ba:N[:K], file:PATH). OPTS are added to the build
 * options libgsync gives (e.g. -cl-opt-disable). bc runs from sources
 * 0 .. K-1 (default 4). A vertex of degree above D (default 64) is heavy:
 * both modes walk its edges with a whole work-group, a work-item each,
 * where a light vertex's are walked by one work-item (the kernels say
 * how; docs/apps.md why).
 *
 * Prints the graph, what the CPU found, and how many vertices are heavy
 * (bfs, sssp, color, pagerank and bc walk those by work-groups; mis walks
 * every vertex by one work-item, mst every edge); then, per mode, whether
 * a first run matched the CPU and the median time of R more (each from
 * the first enqueue to the end of the last command, the graph already on
 * the device; with R = 0, the first run's time):
 *   RESULT APP SPEC persistent 1.23 ms groups=P ok
 *   RESULT APP SPEC relaunch 4.56 ms launches=N MISMATCH: DETAIL
 *   SPEEDUP APP SPEC 3.71x
 * P is how many work-groups took part. Exit status 0 when every check
 * passed, 1 on a mismatch or any error, 2 on a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include "clhost.h"
#include "graphgen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXREPS 32
#define DETAIL 256

typedef struct opts {
  const char *app, *input, *cl, *json, *mode, *build_options;
  unsigned long long seed;
  unsigned reps, sources, hdeg;
  size_t groups, local;
} opts;

/* Device buffers, CPU reference and counters of one application run. Only
 * the buffers an application uses are created. */
typedef struct run {
  const opts *o;
  const graph *g;
  clhost_gk x; /* the persistent kernel and the whole program */
  cl_mem row, col, wt, key, ends;
  cl_mem heavy;   /* the vertices of degree above o->hdeg, in id order */
  cl_uint nheavy; /* how many */
  cl_mem a, b, c, d, e, f, h, i, j; /* per application, named in setup */
  void *ref;                        /* the CPU's answer */
  unsigned launches;                /* kernels the last relaunch run enqueued */
  unsigned info; /* rounds, levels, ... of the CPU reference */
} run;

/* One application: setup creates its buffers and the CPU reference and
 * binds the persistent kernel's arguments; relaunch runs it as a sequence
 * of launches; check compares the device's answer with the CPU's, writing
 * what differs into detail, and returns whether they agree. */
typedef struct app {
  const char *name;
  void (*setup)(run *r);
  void (*relaunch)(run *r);
  int (*check)(run *r, char *detail);
  const char *info; /* what run.info counts */
} app;

/* ---- small helpers ------------------------------------------------------ */

/* Sets argument i of k, exiting on failure. */
static void arg(cl_kernel k, cl_uint i, size_t size, const void *p) {
  cl_int rc = clSetKernelArg(k, i, size, p);
  if (rc)
    clhost_die("clSetKernelArg", rc);
}
#define SET(k, i, v) arg((k), (i), sizeof(v), &(v))

/* A buffer of bytes, uploaded from init, or zeroed if init is NULL: every
 * kernel initializes what it uses, but a broken barrier (the tests' no-op
 * one) lets a phase read what the initialization has not written yet,
 * which should then be a wrong answer, not an index out of bounds. */
static cl_mem zbuffer(const clhost *host, size_t bytes, const void *init) {
  if (bytes == 0)
    bytes = 4;
  cl_mem m = clhost_buffer(host, bytes, (void *)init);
  if (!init) {
    cl_uint zero = 0;
    cl_int rc =
        clEnqueueFillBuffer(host->queue, m, &zero, 1, 0, bytes, 0, NULL, NULL);
    if (rc)
      clhost_die("clEnqueueFillBuffer", rc);
  }
  return m;
}

/* A buffer of count 4-byte words (see zbuffer). */
static cl_mem words(const clhost *host, size_t count, const void *init) {
  return zbuffer(host, count * 4, init);
}

/* Relaunch: enqueues k over at least `items` work-items (one group if
 * none), in groups of the local size. */
static void launch(run *r, cl_kernel k, size_t items) {
  size_t l = r->o->local, global = (items + l - 1) / l * l;
  if (global == 0)
    global = l;
  cl_int rc = clEnqueueNDRangeKernel(r->x.h->queue, k, 1, NULL, &global, &l, 0,
                                     NULL, NULL);
  if (rc)
    clhost_die("clEnqueueNDRangeKernel", rc);
  r->launches++;
}

/* Sets arguments i .. i + 2 of k to the heavy vertices' list, their
 * number and the degree above which a vertex is heavy. */
static void heavy_args(const run *r, cl_kernel k, cl_uint i) {
  SET(k, i, r->heavy), SET(k, i + 1, r->nheavy), SET(k, i + 2, r->o->hdeg);
}

/* Work-items a relaunch of a work-list round needs at least, so that its
 * work-groups share the heavy vertices as the persistent kernel's do: one
 * group per heavy vertex up to --groups of them. */
static size_t heavy_items(const run *r) {
  size_t g = r->nheavy < r->o->groups ? r->nheavy : r->o->groups;
  return g * r->o->local;
}

/* Sets argument i of k to local memory of `bytes` per work-item. */
static void local_arg(const run *r, cl_kernel k, cl_uint i, size_t bytes) {
  arg(k, i, bytes * r->o->local, NULL);
}

/* Reads word i of m, waiting for everything enqueued before. */
static cl_uint read_word(const clhost *host, cl_mem m, size_t i) {
  cl_uint v;
  cl_int rc =
      clEnqueueReadBuffer(host->queue, m, CL_TRUE, i * 4, 4, &v, 0, NULL, NULL);
  if (rc)
    clhost_die("clEnqueueReadBuffer", rc);
  return v;
}

/* Reads bytes of m into a new allocation. */
static void *read_all(const clhost *host, cl_mem m, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    clhost_die("out of memory", 0);
  cl_int rc =
      clEnqueueReadBuffer(host->queue, m, CL_TRUE, 0, bytes, p, 0, NULL, NULL);
  if (rc)
    clhost_die("clEnqueueReadBuffer", rc);
  return p;
}

/* malloc that exits when out of memory. */
static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p)
    clhost_die("out of memory", 0);
  return p;
}

/* A relaunch kernel of the program. */
static cl_kernel rk(run *r, const char *name) {
  return clhost_kernel(r->x.pr, name);
}

/* Compares n 32-bit words exactly; describes the first difference. */
static int same_words(const cl_uint *got, const cl_uint *want, unsigned n,
                      const char *what, char *detail) {
  unsigned bad = 0, first = 0;
  for (unsigned v = 0; v < n; v++)
    if (got[v] != want[v] && bad++ == 0)
      first = v;
  if (bad)
    snprintf(detail, DETAIL, "%u of %u %s differ, first %u: got %d want %d",
             bad, n, what, first, (int)got[first], (int)want[first]);
  return bad == 0;
}

/* ---- bfs: a = dist, b = queue (2 n), c = count (3) ---------------------- */

/* Levels from vertex 0 by a queue; run.info: the number of levels. */
static void bfs_setup(run *r) {
  const graph *g = r->g;
  cl_int *dist = xmalloc((size_t)g->n * 4);
  cl_uint *q = xmalloc((size_t)g->n * 4), head = 0, tail = 0;
  for (cl_uint v = 0; v < g->n; v++)
    dist[v] = -1;
  dist[0] = 0;
  q[tail++] = 0;
  while (head < tail) {
    cl_uint v = q[head++];
    r->info = (unsigned)dist[v] + 1;
    for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
      if (dist[g->col[e]] < 0) {
        dist[g->col[e]] = dist[v] + 1;
        q[tail++] = g->col[e];
      }
  }
  free(q);
  r->ref = dist;
  r->a = words(r->x.h, g->n, NULL);
  r->b = words(r->x.h, 2 * (size_t)g->n, NULL);
  r->c = words(r->x.h, 3, NULL);
  cl_uint src = 0;
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->a), SET(k, 3, r->b);
  SET(k, 4, r->c), SET(k, 5, g->n), SET(k, 6, src);
  heavy_args(r, k, 7);
}

/* Relaunch: bfs_init, then one bfs_level per level over the frontier
 * whose size the last launch left in count (and over heavy_items() at
 * least). */
static void bfs_relaunch(run *r) {
  static cl_kernel init, level;
  const graph *g = r->g;
  cl_uint src = 0;
  if (!init) {
    init = rk(r, "bfs_init"), level = rk(r, "bfs_level");
    SET(init, 0, r->a), SET(init, 1, r->b), SET(init, 2, r->c);
    SET(init, 3, g->n), SET(init, 4, src);
    SET(level, 0, r->row), SET(level, 1, r->col), SET(level, 2, r->a);
    SET(level, 3, r->b), SET(level, 4, r->c), SET(level, 5, g->n);
    heavy_args(r, level, 7);
  }
  launch(r, init, g->n);
  cl_uint count = 1;
  for (cl_int l = 0; count > 0; l++) {
    SET(level, 6, l);
    launch(r, level, count > heavy_items(r) ? count : heavy_items(r));
    count = read_word(r->x.h, r->c, (size_t)(l + 1) % 3);
  }
}

/* Levels exactly. */
static int bfs_check(run *r, char *detail) {
  cl_uint *got = read_all(r->x.h, r->a, (size_t)r->g->n * 4);
  int ok = same_words(got, r->ref, r->g->n, "levels", detail);
  free(got);
  return ok;
}

/* ---- sssp: a = dist, b = stamp, c = list (2 n), d = count (3) ----------- */

/* A binary heap of (distance, vertex) for Dijkstra. */
typedef struct heap {
  cl_uint *d, *v;
  size_t len;
} heap;

/* Adds (d, v), sifting it up. */
static void heap_push(heap *h, cl_uint d, cl_uint v) {
  size_t i = h->len++;
  while (i > 0 && h->d[(i - 1) / 2] > d) {
    h->d[i] = h->d[(i - 1) / 2];
    h->v[i] = h->v[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->d[i] = d;
  h->v[i] = v;
}

/* Removes the smallest (d, v) into *d, *v; the heap is not empty. */
static void heap_pop(heap *h, cl_uint *d, cl_uint *v) {
  *d = h->d[0];
  *v = h->v[0];
  cl_uint ld = h->d[--h->len], lv = h->v[h->len];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->len)
      break;
    if (c + 1 < h->len && h->d[c + 1] < h->d[c])
      c++;
    if (h->d[c] >= ld)
      break;
    h->d[i] = h->d[c];
    h->v[i] = h->v[c];
    i = c;
  }
  h->d[i] = ld;
  h->v[i] = lv;
}

/* Distances from vertex 0 by Dijkstra; run.info: the vertices reached. */
static void sssp_setup(run *r) {
  const graph *g = r->g;
  cl_uint *dist = xmalloc((size_t)g->n * 4);
  heap h = {xmalloc(((size_t)g->m + 1) * 4), xmalloc(((size_t)g->m + 1) * 4),
            0};
  for (cl_uint v = 0; v < g->n; v++)
    dist[v] = 0xffffffffu;
  dist[0] = 0;
  heap_push(&h, 0, 0);
  r->info = 0;
  while (h.len) {
    cl_uint d, v;
    heap_pop(&h, &d, &v);
    if (d != dist[v])
      continue;
    r->info++;
    for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
      if (d + g->wt[e] < dist[g->col[e]]) {
        dist[g->col[e]] = d + g->wt[e];
        heap_push(&h, dist[g->col[e]], g->col[e]);
      }
  }
  free(h.d);
  free(h.v);
  r->ref = dist;
  r->a = words(r->x.h, g->n, NULL);
  r->b = words(r->x.h, g->n, NULL);
  r->c = words(r->x.h, 2 * (size_t)g->n, NULL);
  r->d = words(r->x.h, 3, NULL);
  cl_uint src = 0;
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->wt), SET(k, 3, r->a);
  SET(k, 4, r->b), SET(k, 5, r->c), SET(k, 6, r->d), SET(k, 7, g->n);
  SET(k, 8, src);
  heavy_args(r, k, 9);
}

/* Relaunch: sssp_init, then one sssp_round per round over its list (and
 * over heavy_items() at least). */
static void sssp_relaunch(run *r) {
  static cl_kernel init, round;
  const graph *g = r->g;
  cl_uint src = 0;
  if (!init) {
    init = rk(r, "sssp_init"), round = rk(r, "sssp_round");
    SET(init, 0, r->a), SET(init, 1, r->b), SET(init, 2, r->c);
    SET(init, 3, r->d), SET(init, 4, g->n), SET(init, 5, src);
    SET(round, 0, r->row), SET(round, 1, r->col), SET(round, 2, r->wt);
    SET(round, 3, r->a), SET(round, 4, r->b), SET(round, 5, r->c);
    SET(round, 6, r->d), SET(round, 7, g->n), SET(round, 9, src);
    heavy_args(r, round, 10);
  }
  launch(r, init, g->n);
  cl_uint count = 1;
  for (cl_uint i = 0; count > 0; i++) {
    SET(round, 8, i);
    launch(r, round, count > heavy_items(r) ? count : heavy_items(r));
    count = read_word(r->x.h, r->d, (i + 1) % 3);
  }
}

/* Distances exactly. */
static int sssp_check(run *r, char *detail) {
  cl_uint *got = read_all(r->x.h, r->a, (size_t)r->g->n * 4);
  int ok = same_words(got, r->ref, r->g->n, "distances", detail);
  free(got);
  return ok;
}

/* ---- color and mis: the same rounds on the CPU ------------------------- */

/* The kernels' priority hash (apps/graph/color.cl, mis.cl). */
static cl_uint priority(cl_uint v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

/* Whether u goes before v: higher priority, ties to the higher id. */
static int goes_before(cl_uint u, cl_uint v) {
  cl_uint pu = priority(u), pv = priority(v);
  return pu > pv || (pu == pv && u > v);
}

/* color: a = colour, b = sel (bytes), c = flag (3). Jones-Plassmann rounds
 * as the kernel runs them; run.info: colours used. Checks on the way that
 * the colouring is proper. */
static void color_setup(run *r) {
  const graph *g = r->g;
  cl_int *colour = xmalloc((size_t)g->n * 4);
  unsigned char *sel = xmalloc(g->n);
  for (cl_uint v = 0; v < g->n; v++)
    colour[v] = -1;
  for (int more = 1; more;) {
    more = 0;
    for (cl_uint v = 0; v < g->n; v++) {
      sel[v] = 0;
      if (colour[v] >= 0)
        continue;
      sel[v] = 1;
      for (cl_uint e = g->row[v]; e < g->row[v + 1] && sel[v]; e++)
        if (colour[g->col[e]] < 0 && goes_before(g->col[e], v))
          sel[v] = 0;
      more |= !sel[v];
    }
    for (cl_uint v = 0; v < g->n; v++) {
      if (!sel[v])
        continue;
      cl_int c = 0;
      for (int taken = 1; taken;) { /* the smallest colour no neighbour has */
        taken = 0;
        for (cl_uint e = g->row[v]; e < g->row[v + 1] && !taken; e++)
          taken = colour[g->col[e]] == c;
        c += taken;
      }
      colour[v] = c;
    }
  }
  r->info = 0;
  for (cl_uint v = 0; v < g->n; v++) {
    if ((unsigned)colour[v] + 1 > r->info)
      r->info = (unsigned)colour[v] + 1;
    for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
      if (colour[g->col[e]] == colour[v])
        clhost_die("CPU colouring is not proper", 0);
  }
  free(sel);
  r->ref = colour;
  r->a = words(r->x.h, g->n, NULL);
  r->b = zbuffer(r->x.h, g->n, NULL);
  r->c = words(r->x.h, 3, NULL);
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->a), SET(k, 3, r->b);
  SET(k, 4, r->c), SET(k, 5, g->n);
  heavy_args(r, k, 6);
  local_arg(r, k, 9, sizeof(cl_uint));
}

/* Relaunch: color_init, then color_select and color_assign per round
 * until a round's flag stays down. */
static void color_relaunch(run *r) {
  static cl_kernel init, sel, assign;
  const graph *g = r->g;
  if (!init) {
    init = rk(r, "color_init"), sel = rk(r, "color_select");
    assign = rk(r, "color_assign");
    SET(init, 0, r->a), SET(init, 1, r->b), SET(init, 2, r->c);
    SET(init, 3, g->n);
    SET(sel, 0, r->row), SET(sel, 1, r->col), SET(sel, 2, r->a);
    SET(sel, 3, r->b), SET(sel, 4, r->c), SET(sel, 5, g->n);
    heavy_args(r, sel, 7);
    local_arg(r, sel, 10, sizeof(cl_uint));
    SET(assign, 0, r->row), SET(assign, 1, r->col), SET(assign, 2, r->a);
    SET(assign, 3, r->b), SET(assign, 4, g->n);
    heavy_args(r, assign, 5);
    local_arg(r, assign, 8, sizeof(cl_uint));
  }
  launch(r, init, g->n);
  for (cl_uint i = 0;; i++) {
    SET(sel, 6, i);
    launch(r, sel, g->n);
    launch(r, assign, g->n);
    if (!read_word(r->x.h, r->c, i % 3))
      break;
  }
}

/* Colours exactly. */
static int color_check(run *r, char *detail) {
  cl_uint *got = read_all(r->x.h, r->a, (size_t)r->g->n * 4);
  int ok = same_words(got, r->ref, r->g->n, "colours", detail);
  free(got);
  return ok;
}

/* The states of mis.cl. */
enum { UNDECIDED, IN, OUT };

/* mis: a = state (bytes), b = flag (3). Luby's rounds as the kernel runs
 * them; run.info: the size of the set. Checks on the way that the set is
 * independent and maximal. */
static void mis_setup(run *r) {
  const graph *g = r->g;
  unsigned char *state = xmalloc(g->n);
  memset(state, UNDECIDED, g->n);
  for (int more = 1; more;) {
    more = 0;
    for (cl_uint v = 0; v < g->n; v++) {
      if (state[v] != UNDECIDED)
        continue;
      int join = 1;
      for (cl_uint e = g->row[v]; e < g->row[v + 1] && join; e++)
        if (state[g->col[e]] != OUT && goes_before(g->col[e], v))
          join = 0;
      if (join)
        state[v] = IN;
    }
    for (cl_uint v = 0; v < g->n; v++) {
      if (state[v] != UNDECIDED)
        continue;
      for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
        if (state[g->col[e]] == IN)
          state[v] = OUT;
      more |= state[v] == UNDECIDED;
    }
  }
  r->info = 0;
  for (cl_uint v = 0; v < g->n; v++) {
    int in_nbr = 0;
    for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
      in_nbr |= state[g->col[e]] == IN;
    if (state[v] == IN ? in_nbr : !in_nbr)
      clhost_die("CPU set is not maximal independent", 0);
    r->info += state[v] == IN;
  }
  r->ref = state;
  r->a = zbuffer(r->x.h, g->n, NULL);
  r->b = words(r->x.h, 3, NULL);
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->a), SET(k, 3, r->b);
  SET(k, 4, g->n);
}

/* Relaunch: mis_init, then mis_join and mis_leave per round until a
 * round's flag stays down. */
static void mis_relaunch(run *r) {
  static cl_kernel init, join, leave;
  const graph *g = r->g;
  if (!init) {
    init = rk(r, "mis_init"), join = rk(r, "mis_join");
    leave = rk(r, "mis_leave");
    SET(init, 0, r->a), SET(init, 1, r->b), SET(init, 2, g->n);
    SET(join, 0, r->row), SET(join, 1, r->col), SET(join, 2, r->a);
    SET(join, 3, r->b), SET(join, 4, g->n);
    SET(leave, 0, r->row), SET(leave, 1, r->col), SET(leave, 2, r->a);
    SET(leave, 3, r->b), SET(leave, 4, g->n);
  }
  launch(r, init, g->n);
  for (cl_uint i = 0;; i++) {
    SET(join, 5, i);
    SET(leave, 5, i);
    launch(r, join, g->n);
    launch(r, leave, g->n);
    if (!read_word(r->x.h, r->b, i % 3))
      break;
  }
}

/* States exactly. */
static int mis_check(run *r, char *detail) {
  unsigned char *got = read_all(r->x.h, r->a, r->g->n), *want = r->ref;
  unsigned bad = 0, first = 0;
  for (cl_uint v = 0; v < r->g->n; v++)
    if (got[v] != want[v] && bad++ == 0)
      first = v;
  if (bad)
    snprintf(detail, DETAIL,
             "%u of %u states differ, first %u: got %d "
             "want %d",
             bad, r->g->n, first, got[first], want[first]);
  free(got);
  return bad == 0;
}

/* ---- bc: a = dist, b = sigma, c = delta, d = bc (doubles), e = flag ----- */

/* Brandes from sources 0 .. K-1, pulling as the kernel does (a light
 * vertex's sums in the same order; a heavy one's the device adds by
 * work-items' shares); run.info: the deepest level. */
static void bc_setup(run *r) {
  const graph *g = r->g;
  cl_uint n = g->n, nsrc = r->o->sources < n ? r->o->sources : n;
  cl_int *dist = xmalloc((size_t)n * 4);
  double *sigma = xmalloc((size_t)n * 8), *delta = xmalloc((size_t)n * 8);
  double *bc = calloc(n ? n : 1, 8);
  cl_uint *order = xmalloc((size_t)n * 4);
  r->info = 0;
  for (cl_uint s = 0; s < nsrc; s++) {
    cl_uint head = 0, tail = 0;
    for (cl_uint v = 0; v < n; v++)
      dist[v] = -1, sigma[v] = 0.0, delta[v] = 0.0;
    dist[s] = 0;
    sigma[s] = 1.0;
    order[tail++] = s;
    while (head < tail) { /* levels, then sigma pulled as on the device */
      cl_uint v = order[head++];
      for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
        if (dist[g->col[e]] < 0) {
          dist[g->col[e]] = dist[v] + 1;
          order[tail++] = g->col[e];
        }
    }
    for (cl_uint i = 1; i < tail; i++) {
      cl_uint v = order[i];
      double paths = 0.0;
      for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
        if (dist[g->col[e]] == dist[v] - 1)
          paths += sigma[g->col[e]];
      sigma[v] = paths;
    }
    if (tail && (unsigned)dist[order[tail - 1]] > r->info)
      r->info = (unsigned)dist[order[tail - 1]];
    for (cl_uint i = tail; i-- > 0;) {
      cl_uint v = order[i];
      double dep = 0.0;
      for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++) {
        cl_uint w = g->col[e];
        if (dist[w] == dist[v] + 1)
          dep += sigma[v] / sigma[w] * (1.0 + delta[w]);
      }
      delta[v] = dep;
      if (v != s)
        bc[v] += dep;
    }
  }
  for (cl_uint v = 0; v < n; v++)
    if (!isfinite(bc[v]))
      clhost_die(
          "path counts overflow a double on this input: use a smaller one", 0);
  free(dist), free(sigma), free(delta), free(order);
  r->ref = bc;
  r->a = words(r->x.h, n, NULL);
  r->b = zbuffer(r->x.h, (size_t)n * 8, NULL);
  r->c = zbuffer(r->x.h, (size_t)n * 8, NULL);
  r->d = zbuffer(r->x.h, (size_t)n * 8, NULL);
  r->e = words(r->x.h, 3, NULL);
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->a), SET(k, 3, r->b);
  SET(k, 4, r->c), SET(k, 5, r->d), SET(k, 6, r->e), SET(k, 7, n);
  SET(k, 8, nsrc);
  heavy_args(r, k, 9);
  local_arg(r, k, 12, sizeof(cl_double));
}

/* Relaunch: bc_clear; per source bc_init, bc_forward per level until a
 * level reaches nothing, then bc_backward per level, deepest first. */
static void bc_relaunch(run *r) {
  static cl_kernel clear, init, fwd, bwd;
  const graph *g = r->g;
  cl_uint n = g->n, nsrc = r->o->sources < n ? r->o->sources : n;
  if (!clear) {
    clear = rk(r, "bc_clear"), init = rk(r, "bc_init");
    fwd = rk(r, "bc_forward"), bwd = rk(r, "bc_backward");
    SET(clear, 0, r->d), SET(clear, 1, r->e), SET(clear, 2, n);
    SET(init, 0, r->a), SET(init, 1, r->b), SET(init, 2, r->c);
    SET(init, 3, n);
    SET(fwd, 0, r->row), SET(fwd, 1, r->col), SET(fwd, 2, r->a);
    SET(fwd, 3, r->b), SET(fwd, 4, r->e), SET(fwd, 5, n);
    heavy_args(r, fwd, 8);
    local_arg(r, fwd, 11, sizeof(cl_double));
    SET(bwd, 0, r->row), SET(bwd, 1, r->col), SET(bwd, 2, r->a);
    SET(bwd, 3, r->b), SET(bwd, 4, r->c), SET(bwd, 5, r->d);
    SET(bwd, 6, n);
    heavy_args(r, bwd, 9);
    local_arg(r, bwd, 12, sizeof(cl_double));
  }
  launch(r, clear, n);
  cl_uint step = 0;
  for (cl_uint s = 0; s < nsrc; s++) {
    SET(init, 4, s);
    launch(r, init, n);
    cl_int depth = 0;
    for (;;) {
      SET(fwd, 6, depth), SET(fwd, 7, step);
      launch(r, fwd, n);
      cl_uint raised = read_word(r->x.h, r->e, step % 3);
      if (raised != ++step)
        break;
      depth++;
    }
    SET(bwd, 8, s);
    for (cl_int d = depth - 1; d >= 0; d--) {
      SET(bwd, 7, d);
      launch(r, bwd, n);
    }
  }
}

/* Centralities within 1e-9 of the largest (the device may fuse a
 * multiply and an add that the CPU rounds apart). */
static int bc_check(run *r, char *detail) {
  cl_uint n = r->g->n;
  double *got = read_all(r->x.h, r->d, (size_t)n * 8), *want = r->ref,
         top = 1.0;
  for (cl_uint v = 0; v < n; v++)
    top = fmax(top, fabs(want[v]));
  unsigned bad = 0, first = 0;
  for (cl_uint v = 0; v < n; v++)
    if (!(fabs(got[v] - want[v]) <= 1e-9 * top) && bad++ == 0)
      first = v;
  if (bad)
    snprintf(detail, DETAIL,
             "%u of %u centralities differ by more than "
             "1e-9 of the largest (%.6g), first %u: got %.17g want %.17g",
             bad, n, top, first, got[first], want[first]);
  free(got);
  return bad == 0;
}

/* ---- pagerank: a = rank, b = share, c = flag (3), d = iterations -------- */

#define PR_DAMP 0.85f
#define PR_MAX_ITER 1000u

/* The convergence bound: no rank moves by more than this. */
static float pr_tol(const graph *g) { return 1e-4f / (float)(g->n ? g->n : 1); }

/* The kernel's iteration in float on the CPU, a light vertex's sums in the
 * same order (a heavy one's the device adds by its work-items' shares);
 * run.info: iterations. */
static void pr_setup(run *r) {
  const graph *g = r->g;
  cl_uint n = g->n, max_iter = PR_MAX_ITER;
  float *rank = xmalloc((size_t)n * 4), *share = xmalloc((size_t)n * 4);
  float tol = pr_tol(g);
  for (cl_uint v = 0; v < n; v++)
    rank[v] = 1.0f / (float)n;
  r->info = 0;
  for (int moved = 1; moved && r->info < PR_MAX_ITER; r->info++) {
    moved = 0;
    for (cl_uint v = 0; v < n; v++) {
      cl_uint deg = g->row[v + 1] - g->row[v];
      share[v] = deg ? rank[v] / (float)deg : 0.0f;
    }
    for (cl_uint v = 0; v < n; v++) {
      float sum = 0.0f;
      for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
        sum += share[g->col[e]];
      float x = (1.0f - PR_DAMP) / (float)n + PR_DAMP * sum;
      moved |= fabsf(x - rank[v]) > tol;
      rank[v] = x;
    }
  }
  free(share);
  r->ref = rank;
  r->a = words(r->x.h, n, NULL);
  r->b = words(r->x.h, n, NULL);
  r->c = words(r->x.h, 3, NULL);
  r->d = words(r->x.h, 1, NULL);
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->a), SET(k, 3, r->b);
  SET(k, 4, r->c), SET(k, 5, r->d), SET(k, 6, n), SET(k, 7, tol);
  SET(k, 8, max_iter);
  heavy_args(r, k, 9);
  local_arg(r, k, 12, sizeof(cl_float));
}

/* Relaunch: pr_init, then pr_contribute and pr_gather per iteration
 * until no rank moved; the iteration count goes where the kernel puts it. */
static void pr_relaunch(run *r) {
  static cl_kernel init, contribute, gather;
  const graph *g = r->g;
  cl_uint n = g->n;
  float tol = pr_tol(g);
  if (!init) {
    init = rk(r, "pr_init"), contribute = rk(r, "pr_contribute");
    gather = rk(r, "pr_gather");
    SET(init, 0, r->a), SET(init, 1, r->c), SET(init, 2, n);
    SET(contribute, 0, r->row), SET(contribute, 1, r->a);
    SET(contribute, 2, r->b), SET(contribute, 3, r->c), SET(contribute, 4, n);
    SET(gather, 0, r->row), SET(gather, 1, r->col), SET(gather, 2, r->b);
    SET(gather, 3, r->a), SET(gather, 4, r->c), SET(gather, 5, n);
    SET(gather, 6, tol);
    heavy_args(r, gather, 8);
    local_arg(r, gather, 11, sizeof(cl_float));
  }
  launch(r, init, n);
  cl_uint it = 0;
  for (int moved = 1; moved && it < PR_MAX_ITER; it++) {
    SET(contribute, 5, it);
    SET(gather, 7, it);
    launch(r, contribute, n);
    launch(r, gather, n);
    moved = read_word(r->x.h, r->c, it % 3) != 0;
  }
  cl_int rc = clEnqueueWriteBuffer(r->x.h->queue, r->d, CL_TRUE, 0, 4, &it, 0,
                                   NULL, NULL);
  if (rc)
    clhost_die("clEnqueueWriteBuffer", rc);
}

/* Ranks agree within a few convergence bounds plus float rounding (the
 * device's division need not round as the CPU's does, so an iteration
 * more or less is possible). */
static int pr_check(run *r, char *detail) {
  cl_uint n = r->g->n, iters = read_word(r->x.h, r->d, 0);
  float *got = read_all(r->x.h, r->a, (size_t)n * 4), *want = r->ref,
        top = 0.0f;
  for (cl_uint v = 0; v < n; v++)
    top = fmaxf(top, want[v]);
  float bound = 4.0f * pr_tol(r->g) + 1e-4f * top;
  unsigned bad = 0, first = 0;
  for (cl_uint v = 0; v < n; v++)
    if (!(fabsf(got[v] - want[v]) <= bound) && bad++ == 0)
      first = v;
  if (bad)
    snprintf(detail, DETAIL,
             "%u of %u ranks differ by more than %.3g, "
             "first %u: got %.9g want %.9g (%u iterations, CPU %u)",
             bad, n, bound, first, got[first], want[first], iters, r->info);
  else if (iters + 1 < r->info || iters > r->info + 1) {
    snprintf(detail, DETAIL, "%u iterations, CPU %u", iters, r->info);
    bad = 1;
  }
  free(got);
  return bad == 0;
}

/* ---- mst: a = parent, b = best, c = hook, d = in_mst (bytes), e = flag,
 *      f = jflag ------------------------------------------------------------
 */

/* Union-find root with path halving. */
static cl_uint uf_find(cl_uint *p, cl_uint v) {
  while (p[v] != v)
    v = p[v] = p[p[v]];
  return v;
}

/* Orders 32-bit keys. */
static int cmp_key(const void *x, const void *y) {
  cl_uint a = *(const cl_uint *)x, b = *(const cl_uint *)y;
  return (a > b) - (a < b);
}

/* mst: Kruskal over the unique keys; run.info: the forest's weight. */
static void mst_setup(run *r) {
  const graph *g = r->g;
  cl_uint n = g->n, ne = g->nedges;
  cl_uint *keys = xmalloc((size_t)ne * 4), *p = xmalloc((size_t)n * 4);
  unsigned char *in = calloc(ne ? ne : 1, 1);
  for (cl_uint v = 0; v < n; v++) /* each edge's key from its lower end */
    for (cl_uint e = g->row[v]; e < g->row[v + 1]; e++)
      if (g->col[e] > v)
        keys[g->key[e] & 0xffffffu] = g->key[e];
  qsort(keys, ne, 4, cmp_key);
  for (cl_uint v = 0; v < n; v++)
    p[v] = v;
  r->info = 0;
  for (cl_uint i = 0; i < ne; i++) {
    cl_uint id = keys[i] & 0xffffffu;
    cl_uint a = uf_find(p, g->ends[2 * id]),
            b = uf_find(p, g->ends[2 * id + 1]);
    if (a != b) {
      p[a] = b;
      in[id] = 1;
      r->info += keys[i] >> 24;
    }
  }
  free(keys), free(p);
  r->ref = in;
  r->a = words(r->x.h, n, NULL);
  r->b = words(r->x.h, n, NULL);
  r->c = words(r->x.h, n, NULL);
  r->d = zbuffer(r->x.h, ne, NULL);
  r->e = words(r->x.h, 3, NULL);
  r->f = words(r->x.h, 3, NULL);
  cl_kernel k = r->x.k;
  SET(k, 0, r->row), SET(k, 1, r->col), SET(k, 2, r->key), SET(k, 3, r->ends);
  SET(k, 4, r->a), SET(k, 5, r->b), SET(k, 6, r->c), SET(k, 7, r->d);
  SET(k, 8, r->e), SET(k, 9, r->f), SET(k, 10, n), SET(k, 11, ne);
}

/* Relaunch: mst_init; per round mst_find (one work-item per directed
 * edge) and mst_hook, and if something hooked, mst_apply and mst_jump
 * until no pointer moves. */
static void mst_relaunch(run *r) {
  static cl_kernel init, find, hook, apply, jump;
  const graph *g = r->g;
  cl_uint n = g->n, ne = g->nedges;
  if (!init) {
    init = rk(r, "mst_init"), find = rk(r, "mst_find");
    hook = rk(r, "mst_hook"), apply = rk(r, "mst_apply");
    jump = rk(r, "mst_jump");
    SET(init, 0, r->a), SET(init, 1, r->b), SET(init, 2, r->c);
    SET(init, 3, r->d), SET(init, 4, r->e), SET(init, 5, r->f);
    SET(init, 6, n), SET(init, 7, ne);
    SET(find, 0, r->col), SET(find, 1, r->key), SET(find, 2, r->ends);
    SET(find, 3, r->a), SET(find, 4, r->b), SET(find, 5, r->e);
    SET(find, 6, g->m);
    SET(hook, 0, r->ends), SET(hook, 1, r->a), SET(hook, 2, r->b);
    SET(hook, 3, r->c), SET(hook, 4, r->d), SET(hook, 5, r->e);
    SET(hook, 6, n);
    SET(apply, 0, r->a), SET(apply, 1, r->b), SET(apply, 2, r->c);
    SET(apply, 3, n);
    SET(jump, 0, r->a), SET(jump, 1, r->f), SET(jump, 2, n);
  }
  launch(r, init, n > ne ? n : ne);
  cl_uint j = 0;
  for (cl_uint i = 0;; i++) {
    SET(find, 7, i), SET(hook, 7, i);
    launch(r, find, g->m);
    launch(r, hook, n);
    if (!read_word(r->x.h, r->e, i % 3))
      break;
    launch(r, apply, n);
    for (int moved = 1; moved; j++) {
      SET(jump, 3, j);
      launch(r, jump, n);
      moved = read_word(r->x.h, r->f, j % 3) != 0;
    }
  }
}

/* The forest's edges exactly. */
static int mst_check(run *r, char *detail) {
  cl_uint ne = r->g->nedges;
  unsigned char *got = read_all(r->x.h, r->d, ne), *want = r->ref;
  unsigned bad = 0, first = 0;
  for (cl_uint i = 0; i < ne; i++)
    if (got[i] != want[i] && bad++ == 0)
      first = i;
  if (bad)
    snprintf(detail, DETAIL,
             "%u of %u edges differ, first %u: got %s want "
             "%s",
             bad, ne, first, got[first] ? "taken" : "not taken",
             want[first] ? "taken" : "not taken");
  free(got);
  return bad == 0;
}

/* ---- main --------------------------------------------------------------- */

static const app apps[] = {
    {"bfs", bfs_setup, bfs_relaunch, bfs_check, "levels"},
    {"sssp", sssp_setup, sssp_relaunch, sssp_check, "vertices reached"},
    {"color", color_setup, color_relaunch, color_check, "colours"},
    {"mis", mis_setup, mis_relaunch, mis_check, "vertices in the set"},
    {"bc", bc_setup, bc_relaunch, bc_check, "levels at most"},
    {"pagerank", pr_setup, pr_relaunch, pr_check, "iterations"},
    {"mst", mst_setup, mst_relaunch, mst_check, "forest weight"},
};

/* Prints why and the usage; returns the usage error status, 2. */
static int usage(const char *why) {
  fprintf(
      stderr,
      "gsync-graph: error: %s\n"
      "usage: gsync-graph bfs|sssp|color|mis|bc|pagerank|mst --input SPEC\n"
      "         --cl REWRITTEN.cl --constraints C.json\n"
      "         [--mode persistent|relaunch|both] [--groups G] [--local L]\n"
      "         [--reps R] [--seed S] [--sources K] [--heavy D]\n"
      "         [--build-options OPTS]\n"
      "SPEC: grid:WxH, rmat:SCALE[:FACTOR], ba:N[:K], file:PATH.gr "
      "(see apps/graph.c)\n",
      why);
  return 2;
}

/* Parses a decimal number into *out; returns 0, or -1 if v is not one. */
static int number(const char *v, unsigned long long *out) {
  char *end;
  *out = strtoull(v, &end, 10);
  return *v >= '0' && *v <= '9' && !*end ? 0 : -1;
}

/* Parses the options, makes the graph, runs the application. */
int main(int argc, char **argv) {
  clhost device;
  opts o = {NULL, NULL, NULL, NULL, "both", "", 1, 5, 4, 64, 1, 64};
  if (argc < 2)
    return usage("no application named");
  o.app = argv[1];
  const app *a = NULL;
  for (size_t i = 0; i < sizeof apps / sizeof *apps; i++)
    if (!strcmp(apps[i].name, o.app))
      a = &apps[i];
  if (!a)
    return usage("unknown application");
  for (int i = 2; i < argc; i += 2) {
    const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    unsigned long long x = 0;
    if (!v)
      return usage("option without a value");
    if (!strcmp(k, "--input"))
      o.input = v;
    else if (!strcmp(k, "--cl"))
      o.cl = v;
    else if (!strcmp(k, "--constraints"))
      o.json = v;
    else if (!strcmp(k, "--mode"))
      o.mode = v;
    else if (!strcmp(k, "--build-options"))
      o.build_options = v;
    else if (strcmp(k, "--groups") && strcmp(k, "--local") &&
             strcmp(k, "--reps") && strcmp(k, "--sources") &&
             strcmp(k, "--heavy") && strcmp(k, "--seed"))
      return usage("unknown option");
    else if (number(v, &x) || x > 1u << 30)
      return usage("an option's value is not a number, or too large");
    else if (!strcmp(k, "--groups"))
      o.groups = x;
    else if (!strcmp(k, "--local"))
      o.local = x;
    else if (!strcmp(k, "--reps"))
      o.reps = (unsigned)x;
    else if (!strcmp(k, "--sources"))
      o.sources = (unsigned)x;
    else if (!strcmp(k, "--heavy"))
      o.hdeg = (unsigned)x;
    else
      o.seed = x;
  }
  int do_p = !strcmp(o.mode, "persistent") || !strcmp(o.mode, "both");
  int do_r = !strcmp(o.mode, "relaunch") || !strcmp(o.mode, "both");
  if (!o.input || !o.cl || !o.json)
    return usage("need --input, --cl and --constraints");
  if (!do_p && !do_r)
    return usage("--mode is persistent, relaunch or both");
  if (!o.groups || !o.local || !o.sources || o.reps > MAXREPS)
    return usage("--groups, --local, --sources: positive; --reps: 0..32");

  graph g;
  char err[CLHOST_ERRLEN];
  if (graph_make(&g, o.input, o.seed, err, sizeof err)) {
    fprintf(stderr, "gsync-graph: error: %s\n", err);
    return 1;
  }
  clhost_open(&device);
  run r;
  memset(&r, 0, sizeof r);
  r.o = &o;
  r.g = &g;
  /* The kernels use OpenCL C 1.2 (static functions). */
  clhost_load_opts(&device, &r.x, o.cl, o.json, o.app, o.groups, "1.2",
                   o.build_options);
  r.row = words(&device, g.n + 1, g.row);
  r.col = words(&device, g.m, g.col);
  r.wt = words(&device, g.m, g.wt);
  r.key = words(&device, g.m, g.key);
  r.ends = words(&device, g.m, g.ends);
  cl_uint *heavy = xmalloc((size_t)g.n * 4);
  for (cl_uint v = 0; v < g.n; v++)
    if (g.row[v + 1] - g.row[v] > o.hdeg)
      heavy[r.nheavy++] = v;
  r.heavy = words(&device, r.nheavy, r.nheavy ? heavy : NULL);
  free(heavy);
  a->setup(&r);
  printf("graph %s seed %llu: %u vertices, %u edges, max degree %u; "
         "%s: %u %s (CPU); %u heavy (degree > %u)\n",
         g.name, o.seed, g.n, g.nedges, g.max_degree, o.app, r.info, a->info,
         r.nheavy, o.hdeg);
  fflush(stdout);

  double tp[MAXREPS], tr[MAXREPS];
  int ok_p = 1, ok_r = 1;
  char dp[DETAIL] = "", dr[DETAIL] = "";
  cl_uint parts = 0;
  /* Run 0 is checked and not timed: it also pays for what a driver does
   * at a kernel's first launch. */
  for (unsigned i = 0; i <= o.reps; i++) {
    if (do_p) {
      double t0 = clhost_now();
      clhost_enqueue(&r.x, o.groups, o.local, &parts);
      tp[i ? i - 1 : 0] = clhost_now() - t0;
      if (i == 0)
        ok_p = a->check(&r, dp);
    }
    if (do_r) {
      r.launches = 0;
      double t0 = clhost_now();
      a->relaunch(&r);
      clFinish(device.queue);
      tr[i ? i - 1 : 0] = clhost_now() - t0;
      if (i == 0)
        ok_r = a->check(&r, dr);
    }
  }
  double p = !do_p    ? 0
             : o.reps ? clhost_median(tp, (int)o.reps) * 1e3
                      : tp[0] * 1e3;
  double q = !do_r    ? 0
             : o.reps ? clhost_median(tr, (int)o.reps) * 1e3
                      : tr[0] * 1e3;
  if (do_p)
    printf("RESULT %s %s persistent %.3f ms groups=%u %s%s\n", o.app, g.name, p,
           parts, ok_p ? "ok" : "MISMATCH: ", dp);
  if (do_r)
    printf("RESULT %s %s relaunch %.3f ms launches=%u %s%s\n", o.app, g.name, q,
           r.launches, ok_r ? "ok" : "MISMATCH: ", dr);
  if (do_p && do_r)
    printf("SPEEDUP %s %s %.2fx\n", o.app, g.name, q / p);
  graph_free(&g);
  return !(ok_p && ok_r);
}
