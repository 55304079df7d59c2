// PageRank by power iteration on an undirected graph (each edge counts in
// both directions), pulling: an iteration first lets every vertex publish
// its rank divided by its degree, then every vertex sums what its
// neighbours published,
//   rank[v] = (1 - DAMP) / n + DAMP * sum over neighbours u of
//             rank[u] / degree(u),
// until no rank moves by more than tol, or after max_iter iterations.
//
//   pagerank   the persistent kernel; step() runs both phases of an
//              iteration, each ended by global_barrier(), and returns
//              whether some rank moved by more than tol
//   pr_init, pr_contribute, pr_gather
//              the relaunch baseline: one launch per phase, the host
//              reading the iteration's flag back
//
// Undirected CSR graph (row, col). share[v] holds rank[v] / degree(v).
// flag[it % 3] is raised in iteration it by a rank that moved; iteration
// it clears flag[(it + 1) % 3] (see color.cl). A vertex of degree above
// hdeg is heavy: a whole work-group sums its neighbours (see color.cl),
// each work-item a share into part[], which holds a float per work-item.

#define DAMP 0.85f

// Phase 1 for vertex v: publishes its share of rank.
static void contribute(uint v, global const uint *row, global const float *rank,
                       global float *share) {
  uint deg = row[v + 1] - row[v];
  share[v] = deg ? rank[v] / (float)deg : 0.0f;
}

// The shares of v's neighbours along its edges first, first + stride, ...
// (a work-item alone: 0, 1), added in that order.
static float neighbour_sum(uint v, uint first, uint stride,
                           global const uint *row, global const uint *col,
                           global const float *share) {
  float sum = 0.0f;
  for (uint e = row[v] + first; e < row[v + 1]; e += stride)
    sum += share[col[e]];
  return sum;
}

// Sets v's new rank from the sum of its neighbours' shares; raises the
// flag if it moved by more than tol.
static void set_rank(uint v, uint n, float tol, float sum, global float *rank,
                     global uint *flag) {
  float r = (1.0f - DAMP) / (float)n + DAMP * sum;
  if (fabs(r - rank[v]) > tol)
    *flag = 1;
  rank[v] = r;
}

// Phase 2 for vertex v: its new rank from its neighbours' shares.
static void gather(uint v, uint n, float tol, global const uint *row,
                   global const uint *col, global const float *share,
                   global float *rank, global uint *flag) {
  set_rank(v, n, tol, neighbour_sum(v, 0, 1, row, col, share), rank, flag);
}

// Whether vertex v is walked by a work-item (its degree is at most hdeg).
static bool light(uint v, global const uint *row, uint hdeg) {
  return row[v + 1] - row[v] <= hdeg;
}

// gather() for a heavy vertex v by the whole work-group (every work-item
// calls it with the same v): work-item i sums edges i, i + size, ... into
// part[i]; work-items 0 .. 31 each add a run of ceil(size / 32) shares, and
// work-item 0 their 32 sums, an order fixed by the local size. The group
// code has no early exit, and its loops hold no barrier: PoCL's work-group
// compiler gets such code wrong (docs/pocl.md, section 6).
static void gather_heavy(uint v, uint n, float tol, global const uint *row,
                         global const uint *col, global const float *share,
                         global float *rank, global uint *flag,
                         local float *part) {
  uint lid = get_local_id(0), size = get_local_size(0);
  float sum = neighbour_sum(v, lid, size, row, col, share);
  uint run = (size + 31) / 32;
  part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  sum = 0.0f;
  if (lid < 32)
    for (uint i = lid * run; i < (lid + 1) * run && i < size; i++)
      sum += part[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 32)
    part[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    sum = 0.0f;
    for (uint i = 0; i < 32 && i < size; i++)
      sum += part[i];
    set_rank(v, n, tol, sum, rank, flag);
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* every read of part before the next use */
}

// A work-item's share of the gather phase: the light vertices of its
// tiles, then, with its work-group, the heavy vertices of the group's
// entries of heavy[] (g, g + groups, ...). The relaunch kernel runs the
// same with the launch's tiles and groups.
static void gather_phase(uint n, float tol, global const uint *row,
                         global const uint *col, global const float *share,
                         global float *rank, global uint *flag,
                         global const uint *heavy, uint nheavy, uint hdeg,
                         local float *part) {
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    if (light(v, row, hdeg))
      gather(v, n, tol, row, col, share, rank, flag);
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0))
    gather_heavy(heavy[h], n, tol, row, col, share, rank, flag, part);
}

// One iteration of the persistent kernel; returns whether a rank moved by
// more than tol.
static bool step(uint it, global const uint *row, global const uint *col,
                 global float *rank, global float *share, global uint *flag,
                 uint n, float tol, global const uint *heavy, uint nheavy,
                 uint hdeg, local float *part) {
  if (get_global_id(0) == 0)
    flag[(it + 1) % 3] = 0;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    contribute(v, row, rank, share);
  global_barrier();
  gather_phase(n, tol, row, col, share, rank, &flag[it % 3], heavy, nheavy,
               hdeg, part);
  global_barrier();
  return flag[it % 3] != 0;
}

kernel void pagerank(global const uint *row, global const uint *col,
                     global float *rank, global float *share,
                     global uint *flag, global uint *iters, uint n, float tol,
                     uint max_iter, global const uint *heavy, uint nheavy,
                     uint hdeg, local float *part) {
  if (n == 0)
    return;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    rank[v] = 1.0f / (float)n;
  if (get_global_id(0) == 0)
    flag[0] = flag[1] = flag[2] = 0;
  global_barrier();
  uint it = 0;
  do {
    bool moved = step(it, row, col, rank, share, flag, n, tol, heavy, nheavy,
                      hdeg, part);
    it++;
    if (!moved)
      break;
  } while (it < max_iter);
  if (get_global_id(0) == 0)
    *iters = it;
}

// Relaunch baseline: one work-item per vertex in each, the heavy ones by
// work-groups as in the persistent kernel.
kernel void pr_init(global float *rank, global uint *flag, uint n) {
  uint v = get_global_id(0);
  if (v < n)
    rank[v] = 1.0f / (float)n;
  if (v == 0)
    flag[0] = flag[1] = flag[2] = 0;
}

kernel void pr_contribute(global const uint *row, global const float *rank,
                          global float *share, global uint *flag, uint n,
                          uint it) {
  uint v = get_global_id(0);
  if (v == 0)
    flag[(it + 1) % 3] = 0;
  if (v < n)
    contribute(v, row, rank, share);
}

kernel void pr_gather(global const uint *row, global const uint *col,
                      global const float *share, global float *rank,
                      global uint *flag, uint n, float tol, uint it,
                      global const uint *heavy, uint nheavy, uint hdeg,
                      local float *part) {
  gather_phase(n, tol, row, col, share, rank, &flag[it % 3], heavy, nheavy,
               hdeg, part);
}
