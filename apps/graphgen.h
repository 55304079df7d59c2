/* Graphs for the application benchmarks (gsync-graph, gsync-app): inputs
 * generated from a fixed seed, or read from a DIMACS shortest-path file,
 * in CSR form with a weight and a unique key per edge. */
#ifndef GSYNC_APPS_GRAPHGEN_H
#define GSYNC_APPS_GRAPHGEN_H

#include <stddef.h>
#include <stdint.h>

/* An undirected graph without self-loops or parallel edges, in CSR form:
 * each of the nedges edges appears in both directions, so the neighbours of
 * v are col[row[v]] .. col[row[v + 1] - 1], in increasing order. Edge i has
 * ends ends[2 i] < ends[2 i + 1] and a weight in 1..GRAPH_MAX_WEIGHT; per
 * directed entry e, wt[e] is its edge's weight and key[e] =
 * weight << 24 | i, unique per edge (what Boruvka needs to find one
 * forest). */
typedef struct graph {
  uint32_t n, m, nedges; /* vertices, directed entries (2 nedges), edges */
  uint32_t *row, *col, *wt, *key, *ends;
  uint32_t max_degree;
  char name[96]; /* the spec it came from, e.g. "grid:60x40" */
} graph;

#define GRAPH_MAX_WEIGHT 100u
#define GRAPH_MAX_EDGES (1u << 24) /* edge ids fit the key's low 24 bits */

/* Makes the graph that spec names, with weights (and the random structure
 * of rmat and ba) drawn from seed:
 *   grid:WxH        a W x H grid, 4 neighbours: a road network's low degree
 *                   and large diameter (W + H - 2)
 *   rmat:S[:F]      R-MAT (a, b, c, d = .57, .19, .19, .05), 2^S vertices,
 *                   F x 2^S edges drawn (default F = 8) before self-loops
 *                   and duplicates are dropped: a power-law graph of small
 *                   diameter, not connected
 *   ba:N[:K]        Barabasi-Albert: N vertices, each new one attached to K
 *                   (default 4) distinct earlier ones with probability
 *                   proportional to degree: power-law and connected
 *   file:PATH       a DIMACS shortest-path file ("p sp N M", "a U V W"
 *                   lines, 1-based ids); arcs in both directions become one
 *                   edge of the lower weight, weights are clamped to
 *                   1..GRAPH_MAX_WEIGHT
 * Returns 0, or -1 with a one-line message in err. */
int graph_make(graph *g, const char *spec, uint64_t seed, char *err,
               size_t errlen);
void graph_free(graph *g);

/* The next number of a splitmix64 sequence in *state. */
uint64_t graph_rand(uint64_t *state);

#endif
