// Betweenness centrality by Brandes' algorithm, unweighted, from the
// sources 0 .. nsrc - 1: for each source a forward sweep, level by level,
// counts the shortest paths to every vertex (sigma) and a backward sweep,
// from the deepest level up, accumulates each vertex's dependency (delta)
// into its centrality. Both sweeps pull: a vertex reads its neighbours and
// writes only its own entries, so no atomics are needed and a light
// vertex's sums are taken in the same order as on the CPU.
//
//   bc         the persistent kernel: every level of both sweeps for every
//              source in one launch, one work-item per vertex in tiles of
//              the global size; forward_level() ends a level with
//              global_barrier() and returns whether it reached anything,
//              backward_level() ends one with global_barrier()
//   bc_clear, bc_init, bc_forward, bc_backward
//              the relaunch baseline: one launch per level, the host
//              reading each forward level's flag back
//
// Undirected CSR graph (row, col). For the current source: dist[v] is v's
// level (-1 unseen), sigma[v] its number of shortest paths, delta[v] its
// dependency; bc[v] sums delta over the sources. Path counts grow
// exponentially with depth (a grid's are binomial coefficients), hence
// double. Forward level `step` (counted over all sources, so never reused
// within a launch) writes step + 1 into flag[step % 3] when it reaches a
// vertex: the flag needs no clearing, and the slot is written again three
// levels later, after everyone has read it.
//
// A vertex of degree above hdeg is heavy: a whole work-group walks its
// edges (see color.cl), each work-item a share, which group_sum() adds in
// an order fixed by the local size (part[], a double per work-item).
// heavy[0 .. nheavy - 1] lists the heavy vertices; work-group g takes
// entries g, g + groups, ... The group code has no early exit, and its
// loops hold no barrier (see color.cl).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Sets the start state of vertex v for source s.
static void init_vertex(uint v, uint s, global int *dist, global double *sigma,
                        global double *delta) {
  dist[v] = v == s ? 0 : -1;
  sigma[v] = v == s ? 1.0 : 0.0;
  delta[v] = 0.0;
}

// The shortest paths to v through its neighbours at level d, along its
// edges first, first + stride, ... (a work-item alone: 0, 1).
static double paths_to(uint v, uint first, uint stride, int d,
                       global const uint *row, global const uint *col,
                       global const int *dist, global const double *sigma) {
  double paths = 0.0;
  for (uint e = row[v] + first; e < row[v + 1]; e += stride) {
    uint u = col[e];
    if (dist[u] == d)
      paths += sigma[u];
  }
  return paths;
}

// An unseen v on `paths` shortest paths through level d, if any, is at
// level d + 1; forward level `step` raises its flag.
static void reach(uint v, int d, uint step, double paths, global int *dist,
                  global double *sigma, global uint *flag) {
  if (paths > 0.0) {
    dist[v] = d + 1;
    sigma[v] = paths;
    flag[step % 3] = step + 1;
  }
}

// Forward sweep at level d for vertex v: an unseen v with neighbours at
// level d is at level d + 1, on as many shortest paths as they are.
static void forward_vertex(uint v, int d, uint step, global const uint *row,
                           global const uint *col, global int *dist,
                           global double *sigma, global uint *flag) {
  if (dist[v] >= 0)
    return;
  reach(v, d, step, paths_to(v, 0, 1, d, row, col, dist, sigma), dist, sigma,
        flag);
}

// The dependency of v, at level d, from its successors at level d + 1,
// along its edges first, first + stride, ... (a work-item alone: 0, 1).
static double dependency(uint v, uint first, uint stride, int d,
                         global const uint *row, global const uint *col,
                         global const int *dist, global const double *sigma,
                         global const double *delta) {
  double dep = 0.0;
  for (uint e = row[v] + first; e < row[v + 1]; e += stride) {
    uint w = col[e];
    if (dist[w] == d + 1)
      dep += sigma[v] / sigma[w] * (1.0 + delta[w]);
  }
  return dep;
}

// Records v's dependency, added to its centrality unless it is the source.
static void settle(uint v, uint s, double dep, global double *delta,
                   global double *bc) {
  delta[v] = dep;
  if (v != s)
    bc[v] += dep;
}

// Backward sweep at level d for vertex v (at level d): its dependency from
// its successors at level d + 1, added to its centrality unless it is the
// source.
static void backward_vertex(uint v, int d, uint s, global const uint *row,
                            global const uint *col, global const int *dist,
                            global const double *sigma, global double *delta,
                            global double *bc) {
  if (dist[v] != d)
    return;
  settle(v, s, dependency(v, 0, 1, d, row, col, dist, sigma, delta), delta,
         bc);
}

// Whether vertex v is walked by a work-item (its degree is at most hdeg).
static bool light(uint v, global const uint *row, uint hdeg) {
  return row[v + 1] - row[v] <= hdeg;
}

// The sum of every work-item's x, by the whole work-group, in an order
// fixed by the local size: work-items 0 .. 31 each add a run of
// ceil(size / 32) shares, and every work-item adds their 32 sums. part[]
// holds a double per work-item.
static double group_sum(double x, local double *part) {
  uint lid = get_local_id(0), size = get_local_size(0), run = (size + 31) / 32;
  part[lid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  double sum = 0.0;
  if (lid < 32)
    for (uint i = lid * run; i < (lid + 1) * run && i < size; i++)
      sum += part[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 32)
    part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  sum = 0.0;
  for (uint i = 0; i < 32 && i < size; i++)
    sum += part[i];
  barrier(CLK_LOCAL_MEM_FENCE); /* every read of part before the next use */
  return sum;
}

// forward_vertex() for a heavy vertex v by the whole work-group (every
// work-item calls it with the same v).
static void forward_heavy(uint v, int d, uint step, global const uint *row,
                          global const uint *col, global int *dist,
                          global double *sigma, global uint *flag,
                          local double *part) {
  bool unseen = dist[v] < 0;
  double paths = group_sum(unseen ? paths_to(v, get_local_id(0),
                                             get_local_size(0), d, row, col,
                                             dist, sigma)
                                  : 0.0,
                           part);
  if (unseen && get_local_id(0) == 0)
    reach(v, d, step, paths, dist, sigma, flag);
}

// backward_vertex() for a heavy vertex v by the whole work-group.
static void backward_heavy(uint v, int d, uint s, global const uint *row,
                           global const uint *col, global const int *dist,
                           global const double *sigma, global double *delta,
                           global double *bc, local double *part) {
  bool here = dist[v] == d;
  double dep = group_sum(here ? dependency(v, get_local_id(0),
                                           get_local_size(0), d, row, col,
                                           dist, sigma, delta)
                              : 0.0,
                         part);
  if (here && get_local_id(0) == 0)
    settle(v, s, dep, delta, bc);
}

// A work-item's share of forward level d: the light vertices of its tiles,
// then, with its work-group, the group's heavy vertices. The relaunch
// kernel runs the same with the launch's tiles and groups.
static void forward_phase(int d, uint step, global const uint *row,
                          global const uint *col, global int *dist,
                          global double *sigma, global uint *flag, uint n,
                          global const uint *heavy, uint nheavy, uint hdeg,
                          local double *part) {
  for (uint base = 0; base < n; base += get_global_size(0)) {
    uint v = base + get_global_id(0);
    if (v < n && light(v, row, hdeg))
      forward_vertex(v, d, step, row, col, dist, sigma, flag);
  }
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0))
    forward_heavy(heavy[h], d, step, row, col, dist, sigma, flag, part);
}

// A work-item's share of backward level d, like forward_phase.
static void backward_phase(int d, uint s, global const uint *row,
                           global const uint *col, global const int *dist,
                           global const double *sigma, global double *delta,
                           global double *bc, uint n, global const uint *heavy,
                           uint nheavy, uint hdeg, local double *part) {
  for (uint base = 0; base < n; base += get_global_size(0)) {
    uint v = base + get_global_id(0);
    if (v < n && light(v, row, hdeg))
      backward_vertex(v, d, s, row, col, dist, sigma, delta, bc);
  }
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0))
    backward_heavy(heavy[h], d, s, row, col, dist, sigma, delta, bc, part);
}

// One forward level of the persistent kernel, one work-item per vertex
// in tiles of the global size; returns whether it reached a vertex.
static bool forward_level(int d, uint step, global const uint *row,
                          global const uint *col, global int *dist,
                          global double *sigma, global uint *flag, uint n,
                          global const uint *heavy, uint nheavy, uint hdeg,
                          local double *part) {
  forward_phase(d, step, row, col, dist, sigma, flag, n, heavy, nheavy, hdeg,
                part);
  global_barrier();
  return flag[step % 3] == step + 1;
}

// One backward level of the persistent kernel, like forward_level.
static void backward_level(int d, uint s, global const uint *row,
                           global const uint *col, global const int *dist,
                           global const double *sigma, global double *delta,
                           global double *bc, uint n, global const uint *heavy,
                           uint nheavy, uint hdeg, local double *part) {
  backward_phase(d, s, row, col, dist, sigma, delta, bc, n, heavy, nheavy,
                 hdeg, part);
  global_barrier();
}

kernel void bc(global const uint *row, global const uint *col,
               global int *dist, global double *sigma, global double *delta,
               global double *bc, global uint *flag, uint n, uint nsrc,
               global const uint *heavy, uint nheavy, uint hdeg,
               local double *part) {
  uint tid = get_global_id(0), threads = get_global_size(0);
  for (uint v = tid; v < n; v += threads)
    bc[v] = 0.0;
  if (tid == 0)
    flag[0] = flag[1] = flag[2] = 0;
  uint step = 0;
  for (uint s = 0; s < nsrc && s < n; s++) {
    for (uint v = tid; v < n; v += threads)
      init_vertex(v, s, dist, sigma, delta);
    global_barrier();
    int depth = 0;
    while (forward_level(depth, step++, row, col, dist, sigma, flag, n, heavy,
                         nheavy, hdeg, part))
      depth++;
    for (int d = depth - 1; d >= 0; d--)
      backward_level(d, s, row, col, dist, sigma, delta, bc, n, heavy, nheavy,
                     hdeg, part);
  }
}

// Relaunch baseline: one work-item per vertex in each, the heavy ones by
// work-groups as in the persistent kernel.
kernel void bc_clear(global double *bc, global uint *flag, uint n) {
  uint v = get_global_id(0);
  if (v < n)
    bc[v] = 0.0;
  if (v == 0)
    flag[0] = flag[1] = flag[2] = 0;
}

kernel void bc_init(global int *dist, global double *sigma,
                    global double *delta, uint n, uint s) {
  uint v = get_global_id(0);
  if (v < n)
    init_vertex(v, s, dist, sigma, delta);
}

kernel void bc_forward(global const uint *row, global const uint *col,
                       global int *dist, global double *sigma,
                       global uint *flag, uint n, int d, uint step,
                       global const uint *heavy, uint nheavy, uint hdeg,
                       local double *part) {
  forward_phase(d, step, row, col, dist, sigma, flag, n, heavy, nheavy, hdeg,
                part);
}

kernel void bc_backward(global const uint *row, global const uint *col,
                        global const int *dist, global const double *sigma,
                        global double *delta, global double *bc, uint n, int d,
                        uint s, global const uint *heavy, uint nheavy,
                        uint hdeg, local double *part) {
  backward_phase(d, s, row, col, dist, sigma, delta, bc, n, heavy, nheavy, hdeg,
                 part);
}
