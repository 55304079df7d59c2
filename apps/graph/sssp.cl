// Single-source shortest paths by Bellman-Ford over a work-list: a round
// relaxes every edge out of the vertices whose distance fell in the round
// before, and each vertex whose distance falls now joins the next
// work-list, once per round. It stops when a round lowers nothing.
//
//   sssp       the persistent kernel: every round in one launch; relax()
//              ends each round with global_barrier() and returns the size
//              of the next work-list, the loop's condition
//   sssp_init, sssp_round
//              the relaunch baseline: the same work, one launch per round,
//              the host reading the next work-list's size back
//
// CSR graph (row, col) with a weight per directed edge (wt). dist[v] is the
// distance from src, INF while unknown; stamp[v] is the last round that
// put v on a work-list. list holds two work-lists of up to n vertices
// (round r reads half r % 2). count[r % 3] is the size of round r's list;
// round r fills count[(r + 1) % 3] and clears count[(r + 2) % 3] (see
// bfs.cl for why three counters suffice).
//
// A vertex of degree above hdeg is heavy: the work-item that finds it in
// the list leaves it, and the work-group that holds it in heavy[] (group g
// holds entries g, g + groups, ...) relaxes its edges, a work-item an
// edge, when it is on the round's list (see bfs.cl). Round r's list holds
// v exactly when stamp[v] == r (and only the source in round 0). A vertex
// lowered again in round r gets stamp r + 1 while its group reads it, and
// the work-items that see r + 1 leave their edges to round r + 1, which
// relaxes them all from the lower distance: Bellman-Ford needs nothing
// more.

#define INF 0xffffffffu

// Sets the start state of vertex v.
static void init_vertex(uint v, uint src, global uint *dist,
                        global uint *stamp) {
  dist[v] = v == src ? 0 : INF;
  stamp[v] = 0;
}

// Relaxes the edges first, first + stride, ... out of v (a work-item alone:
// 0, 1) in round `round`: atomic_min lowers each neighbour's distance, and
// a neighbour whose distance this call lowered joins the next list unless
// an earlier relaxation of this round put it there (stamp).
static void relax_vertex(uint v, uint first, uint stride, uint round,
                         global const uint *row, global const uint *col,
                         global const uint *wt, volatile global uint *dist,
                         volatile global uint *stamp, global uint *next,
                         volatile global uint *next_count) {
  uint dv = dist[v];
  for (uint e = row[v] + first; e < row[v + 1]; e += stride) {
    uint u = col[e], d = dv + wt[e];
    if (d < dist[u] && atomic_min(&dist[u], d) > d &&
        atomic_xchg(&stamp[u], round + 1) != round + 1)
      next[atomic_inc(next_count)] = u;
  }
}

// Whether vertex v is walked by a work-item (its degree is at most hdeg).
static bool light(uint v, global const uint *row, uint hdeg) {
  return row[v + 1] - row[v] <= hdeg;
}

// The work-group's heavy vertices of round r's list, a work-item an edge.
static void relax_heavy_ones(uint r, uint src, global const uint *row,
                             global const uint *col, global const uint *wt,
                             volatile global uint *dist,
                             volatile global uint *stamp, global uint *next,
                             volatile global uint *next_count,
                             global const uint *heavy, uint nheavy) {
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0)) {
    uint v = heavy[h];
    if (r == 0 ? v == src : stamp[v] == r)
      relax_vertex(v, get_local_id(0), get_local_size(0), r, row, col, wt,
                   dist, stamp, next, next_count);
  }
}

// One round of the persistent kernel: relaxes the edges out of round r's
// list, waits for every work-item, and returns the size of the next list.
static uint relax(uint r, global const uint *row, global const uint *col,
                  global const uint *wt, global uint *dist,
                  global uint *stamp, global uint *list, global uint *count,
                  uint n, uint src, global const uint *heavy, uint nheavy,
                  uint hdeg) {
  global uint *in = list + (r % 2) * n, *out = list + ((r + 1) % 2) * n;
  if (get_global_id(0) == 0)
    count[(r + 2) % 3] = 0;
  for (uint i = get_global_id(0); i < count[r % 3]; i += get_global_size(0))
    if (light(in[i], row, hdeg))
      relax_vertex(in[i], 0, 1, r, row, col, wt, dist, stamp, out,
                   &count[(r + 1) % 3]);
  relax_heavy_ones(r, src, row, col, wt, dist, stamp, out, &count[(r + 1) % 3],
                   heavy, nheavy);
  global_barrier();
  return count[(r + 1) % 3];
}

kernel void sssp(global const uint *row, global const uint *col,
                 global const uint *wt, global uint *dist, global uint *stamp,
                 global uint *list, global uint *count, uint n, uint src,
                 global const uint *heavy, uint nheavy, uint hdeg) {
  if (src >= n)
    return;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    init_vertex(v, src, dist, stamp);
  if (get_global_id(0) == 0) {
    list[0] = src;
    count[0] = 1;
    count[1] = 0;
    count[2] = 0;
  }
  global_barrier();
  uint r = 0;
  while (relax(r, row, col, wt, dist, stamp, list, count, n, src, heavy,
               nheavy, hdeg) > 0)
    r++;
}

// Relaunch baseline: one work-item per vertex.
kernel void sssp_init(global uint *dist, global uint *stamp, global uint *list,
                      global uint *count, uint n, uint src) {
  uint v = get_global_id(0);
  if (v < n)
    init_vertex(v, src, dist, stamp);
  if (v == 0) {
    list[0] = src;
    count[0] = 1;
    count[1] = 0;
    count[2] = 0;
  }
}

// Relaunch baseline: round r, one work-item per vertex of its list, and
// the heavy ones by work-groups as in the persistent kernel.
kernel void sssp_round(global const uint *row, global const uint *col,
                       global const uint *wt, global uint *dist,
                       global uint *stamp, global uint *list,
                       global uint *count, uint n, uint r, uint src,
                       global const uint *heavy, uint nheavy, uint hdeg) {
  global uint *in = list + (r % 2) * n, *out = list + ((r + 1) % 2) * n;
  uint i = get_global_id(0);
  if (i == 0)
    count[(r + 2) % 3] = 0;
  if (i < count[r % 3] && light(in[i], row, hdeg))
    relax_vertex(in[i], 0, 1, r, row, col, wt, dist, stamp, out,
                 &count[(r + 1) % 3]);
  relax_heavy_ones(r, src, row, col, wt, dist, stamp, out, &count[(r + 1) % 3],
                   heavy, nheavy);
}
