/* Graph generators and the DIMACS reader: see graphgen.h. */
#define _POSIX_C_SOURCE 200809L
#include "graphgen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An undirected edge while a graph is built: a < b. */
typedef struct edge {
  uint32_t a, b, w;
} edge;

/* A growable list of edges. */
typedef struct edges {
  edge *v;
  size_t len, cap;
} edges;

/* splitmix64 (graphgen.h). */
uint64_t graph_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* A uniform number in 0 .. bound - 1 (bound > 0; the bias of the modulo is
 * below 2^-32 for the bounds used here). */
static uint32_t below(uint64_t *state, uint32_t bound) {
  return (uint32_t)(graph_rand(state) % bound);
}

/* Appends edge {a, b} of weight w, ends ordered; a self-loop is dropped.
 * Returns 0, or -1 when out of memory. */
static int add_edge(edges *es, uint32_t a, uint32_t b, uint32_t w) {
  if (a == b)
    return 0;
  if (es->len == es->cap) {
    size_t cap = es->cap ? 2 * es->cap : 1024;
    edge *v = realloc(es->v, cap * sizeof *v);
    if (!v)
      return -1;
    es->v = v;
    es->cap = cap;
  }
  es->v[es->len++] = a < b ? (edge){a, b, w} : (edge){b, a, w};
  return 0;
}

/* Orders edges by their ends, then by weight. */
static int cmp_edge(const void *x, const void *y) {
  const edge *p = x, *q = y;
  if (p->a != q->a)
    return p->a < q->a ? -1 : 1;
  if (p->b != q->b)
    return p->b < q->b ? -1 : 1;
  return (p->w > q->w) - (p->w < q->w);
}

/* Sorts the edges and keeps the lightest of each set of parallel ones. */
static void dedupe(edges *es) {
  qsort(es->v, es->len, sizeof *es->v, cmp_edge);
  size_t k = 0;
  for (size_t i = 0; i < es->len; i++)
    if (k == 0 || es->v[i].a != es->v[k - 1].a || es->v[i].b != es->v[k - 1].b)
      es->v[k++] = es->v[i];
  es->len = k;
}

/* Fills g's CSR arrays from n vertices and the sorted, deduplicated edges.
 * Returns 0, or -1 with a message. */
static int build_csr(graph *g, uint32_t n, const edges *es, char *err,
                     size_t errlen) {
  if (es->len >= GRAPH_MAX_EDGES) {
    snprintf(err, errlen, "%s: %zu edges, more than %u", g->name, es->len,
             GRAPH_MAX_EDGES - 1);
    return -1;
  }
  g->n = n;
  g->nedges = (uint32_t)es->len;
  g->m = 2 * g->nedges;
  g->row = calloc((size_t)n + 1, sizeof *g->row);
  g->col = malloc(((size_t)g->m + 1) * sizeof *g->col);
  g->wt = malloc(((size_t)g->m + 1) * sizeof *g->wt);
  g->key = malloc(((size_t)g->m + 1) * sizeof *g->key);
  g->ends = malloc(((size_t)g->m + 1) * sizeof *g->ends);
  uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!g->row || !g->col || !g->wt || !g->key || !g->ends || !fill) {
    free(fill);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < es->len; i++) {
    g->row[es->v[i].a + 1]++;
    g->row[es->v[i].b + 1]++;
  }
  g->max_degree = 0;
  for (uint32_t v = 0; v < n; v++) {
    if (g->row[v + 1] > g->max_degree)
      g->max_degree = g->row[v + 1];
    g->row[v + 1] += g->row[v];
  }
  memcpy(fill, g->row, (size_t)n * sizeof *fill);
  /* Edges sorted by (a, b): visiting them in order appends each vertex's
   * higher neighbours in increasing order; its lower neighbours arrive,
   * in increasing order too, while a runs below it. Lower ones come first
   * because every edge with a < v precedes every edge with a = v. */
  for (size_t i = 0; i < es->len; i++) {
    const edge *x = &es->v[i];
    uint32_t key = x->w << 24 | (uint32_t)i;
    g->ends[2 * i] = x->a;
    g->ends[2 * i + 1] = x->b;
    uint32_t e = fill[x->a]++;
    g->col[e] = x->b, g->wt[e] = x->w, g->key[e] = key;
    e = fill[x->b]++;
    g->col[e] = x->a, g->wt[e] = x->w, g->key[e] = key;
  }
  free(fill);
  return 0;
}

/* Parses an unsigned decimal at *s into *out, advancing *s. Returns 0, or
 * -1 when there is no number or it does not fit 32 bits. */
static int parse_u32(const char **s, uint32_t *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(*s, &end, 10);
  if (end == *s || errno || v > 0xffffffffu || **s == '-')
    return -1;
  *s = end;
  *out = (uint32_t)v;
  return 0;
}

/* The W x H grid, random weights. */
static int make_grid(edges *es, uint32_t w, uint32_t h, uint64_t *rng) {
  for (uint32_t y = 0; y < h; y++)
    for (uint32_t x = 0; x < w; x++) {
      uint32_t v = y * w + x;
      if (x + 1 < w && add_edge(es, v, v + 1, 1 + below(rng, GRAPH_MAX_WEIGHT)))
        return -1;
      if (y + 1 < h && add_edge(es, v, v + w, 1 + below(rng, GRAPH_MAX_WEIGHT)))
        return -1;
    }
  return 0;
}

/* R-MAT: each edge drops through `scale` quadrant choices of the adjacency
 * matrix with probabilities a, b, c, d = .57, .19, .19, .05. */
static int make_rmat(edges *es, uint32_t scale, uint32_t factor,
                     uint64_t *rng) {
  uint64_t count = (uint64_t)factor << scale;
  for (uint64_t i = 0; i < count; i++) {
    uint32_t a = 0, b = 0;
    for (uint32_t bit = 0; bit < scale; bit++) {
      uint32_t p = below(rng, 100);
      uint32_t down = p >= 57 + 19, right = (p >= 57 && p < 76) || p >= 95;
      a |= down << bit;
      b |= right << bit;
    }
    if (add_edge(es, a, b, 1 + below(rng, GRAPH_MAX_WEIGHT)))
      return -1;
  }
  return 0;
}

/* Barabasi-Albert: a clique of k + 1 vertices, then each vertex joins k
 * distinct earlier ones, each picked as a random end of a random edge so
 * far (probability proportional to degree). */
static int make_ba(edges *es, uint32_t n, uint32_t k, uint64_t *rng) {
  uint32_t *ends = malloc(2 * ((size_t)n * k + (size_t)k * k) * sizeof *ends);
  uint32_t *pick = malloc((size_t)k * sizeof *pick);
  size_t len = 0;
  int rc = -1;
  if (!ends || !pick)
    goto done;
  for (uint32_t a = 0; a <= k; a++)
    for (uint32_t b = a + 1; b <= k; b++) {
      if (add_edge(es, a, b, 1 + below(rng, GRAPH_MAX_WEIGHT)))
        goto done;
      ends[len++] = a;
      ends[len++] = b;
    }
  for (uint32_t v = k + 1; v < n; v++) {
    for (uint32_t i = 0; i < k; i++) {
      uint32_t u;
      int again;
      do {
        u = ends[below(rng, (uint32_t)len)];
        again = 0;
        for (uint32_t j = 0; j < i; j++)
          again |= pick[j] == u;
      } while (again);
      pick[i] = u;
    }
    for (uint32_t i = 0; i < k; i++) {
      if (add_edge(es, pick[i], v, 1 + below(rng, GRAPH_MAX_WEIGHT)))
        goto done;
      ends[len++] = pick[i];
      ends[len++] = v;
    }
  }
  rc = 0;
done:
  free(pick);
  free(ends);
  return rc;
}

/* A DIMACS shortest-path file. Returns the vertex count, or 0 with a
 * message on any error. */
static uint32_t read_dimacs(edges *es, const char *path, char *err,
                            size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
    return 0;
  }
  char line[256];
  uint32_t n = 0;
  unsigned long lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    const char *s = line + 1;
    uint32_t a, b, w, m;
    if (line[0] == 'p') {
      while (*s == ' ')
        s++;
      if (strncmp(s, "sp", 2) || (s += 2, parse_u32(&s, &n)) ||
          parse_u32(&s, &m) || n == 0)
        goto bad;
    } else if (line[0] == 'a') {
      if (n == 0 || parse_u32(&s, &a) || parse_u32(&s, &b) ||
          parse_u32(&s, &w) || a < 1 || b < 1 || a > n || b > n)
        goto bad;
      w = w < 1 ? 1 : w > GRAPH_MAX_WEIGHT ? GRAPH_MAX_WEIGHT : w;
      if (add_edge(es, a - 1, b - 1, w)) {
        snprintf(err, errlen, "out of memory");
        fclose(f);
        return 0;
      }
    } else if (line[0] != 'c' && line[0] != '\n') {
      goto bad;
    }
  }
  fclose(f);
  if (n == 0)
    snprintf(err, errlen, "%s: no \"p sp\" line", path);
  return n;
bad:
  snprintf(err, errlen, "%s:%lu: not a DIMACS shortest-path line", path,
           lineno);
  fclose(f);
  return 0;
}

int graph_make(graph *g, const char *spec, uint64_t seed, char *err,
               size_t errlen) {
  memset(g, 0, sizeof *g);
  snprintf(g->name, sizeof g->name, "%s", spec);
  uint64_t rng = seed;
  edges es = {NULL, 0, 0};
  uint32_t n = 0, x = 0, y = 0;
  const char *s;
  int rc = -1;
  if (!strncmp(spec, "grid:", 5)) {
    s = spec + 5;
    if (parse_u32(&s, &x) || *s++ != 'x' || parse_u32(&s, &y) || *s || !x ||
        !y || (uint64_t)x * y >= GRAPH_MAX_EDGES / 2)
      goto usage;
    n = x * y;
    if (make_grid(&es, x, y, &rng))
      goto nomem;
  } else if (!strncmp(spec, "rmat:", 5)) {
    s = spec + 5;
    y = 8;
    if (parse_u32(&s, &x) || (*s == ':' && (s++, parse_u32(&s, &y))) || *s ||
        x < 1 || x > 24 || y < 1 || ((uint64_t)y << x) >= GRAPH_MAX_EDGES)
      goto usage;
    n = 1u << x;
    if (make_rmat(&es, x, y, &rng))
      goto nomem;
  } else if (!strncmp(spec, "ba:", 3)) {
    s = spec + 3;
    y = 4;
    if (parse_u32(&s, &x) || (*s == ':' && (s++, parse_u32(&s, &y))) || *s ||
        y < 1 || x <= y || (uint64_t)x * y >= GRAPH_MAX_EDGES)
      goto usage;
    n = x;
    if (make_ba(&es, x, y, &rng))
      goto nomem;
  } else if (!strncmp(spec, "file:", 5)) {
    if (!(n = read_dimacs(&es, spec + 5, err, errlen)))
      goto done;
  } else {
    goto usage;
  }
  dedupe(&es);
  rc = build_csr(g, n, &es, err, errlen);
  goto done;
usage:
  snprintf(err, errlen,
           "bad input '%s' (want grid:WxH, rmat:SCALE[:FACTOR], ba:N[:K] or "
           "file:PATH; at most %u edges)",
           spec, GRAPH_MAX_EDGES - 1);
  goto done;
nomem:
  snprintf(err, errlen, "out of memory");
done:
  free(es.v);
  if (rc)
    graph_free(g);
  return rc;
}

/* Frees g's arrays; g may be freed twice. */
void graph_free(graph *g) {
  free(g->row);
  free(g->col);
  free(g->wt);
  free(g->key);
  free(g->ends);
  g->row = g->col = g->wt = g->key = g->ends = NULL;
}
