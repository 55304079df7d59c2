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
// it clears flag[(it + 1) % 3] (see color.cl).

#define DAMP 0.85f

// Phase 1 for vertex v: publishes its share of rank.
static void contribute(uint v, global const uint *row, global const float *rank,
                       global float *share) {
  uint deg = row[v + 1] - row[v];
  share[v] = deg ? rank[v] / (float)deg : 0.0f;
}

// Phase 2 for vertex v: its new rank from its neighbours' shares; raises
// the flag if it moved by more than tol.
static void gather(uint v, uint n, float tol, global const uint *row,
                   global const uint *col, global const float *share,
                   global float *rank, global uint *flag) {
  float sum = 0.0f;
  for (uint e = row[v]; e < row[v + 1]; e++)
    sum += share[col[e]];
  float r = (1.0f - DAMP) / (float)n + DAMP * sum;
  if (fabs(r - rank[v]) > tol)
    *flag = 1;
  rank[v] = r;
}

// One iteration of the persistent kernel; returns whether a rank moved by
// more than tol.
static bool step(uint it, global const uint *row, global const uint *col,
                 global float *rank, global float *share, global uint *flag,
                 uint n, float tol) {
  if (get_global_id(0) == 0)
    flag[(it + 1) % 3] = 0;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    contribute(v, row, rank, share);
  global_barrier();
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    gather(v, n, tol, row, col, share, rank, &flag[it % 3]);
  global_barrier();
  return flag[it % 3] != 0;
}

kernel void pagerank(global const uint *row, global const uint *col,
                     global float *rank, global float *share,
                     global uint *flag, global uint *iters, uint n, float tol,
                     uint max_iter) {
  if (n == 0)
    return;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    rank[v] = 1.0f / (float)n;
  if (get_global_id(0) == 0)
    flag[0] = flag[1] = flag[2] = 0;
  global_barrier();
  uint it = 0;
  do {
    bool moved = step(it, row, col, rank, share, flag, n, tol);
    it++;
    if (!moved)
      break;
  } while (it < max_iter);
  if (get_global_id(0) == 0)
    *iters = it;
}

// Relaunch baseline: one work-item per vertex in each.
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
                      global uint *flag, uint n, float tol, uint it) {
  uint v = get_global_id(0);
  if (v < n)
    gather(v, n, tol, row, col, share, rank, &flag[it % 3]);
}
