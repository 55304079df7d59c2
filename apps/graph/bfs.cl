// Breadth-first search from one source with a work-list: the frontier of
// each level is a queue of vertices, and visiting it appends the vertices it
// discovers to the next level's queue.
//
//   bfs        the persistent kernel: every level in one launch, a
//              global_barrier() between levels
//   bfs_init, bfs_level
//              the relaunch baseline: the same per-vertex work, one launch
//              per level, the host reading the next frontier's size back
//
// The graph is in CSR form: the neighbours of v are col[row[v]] ..
// col[row[v + 1] - 1]. dist[v] is v's level, -1 while v is unseen. queue
// holds two frontiers of up to n vertices each (level L reads half L % 2
// and fills the other). count[L % 3] is the size of level L's frontier;
// level L fills count[(L + 1) % 3] and clears count[(L + 2) % 3], which
// level L - 1 read before the barrier that ended it and level L + 1 fills
// after the next one: three counters and no race.
//
// A vertex of degree above hdeg is heavy: the work-item that finds it in
// the frontier leaves it, and the work-group that holds it in heavy[]
// (group g holds entries g, g + groups, ...) visits it, a work-item an
// edge, when its level is the frontier's. So a hub of a power-law graph
// (thousands of edges) does not hold every group at the next barrier
// while one work-item walks it. No work-group barrier is needed: a heavy
// vertex is in level L's frontier exactly when dist[v] == L, which no one
// changes while level L is visited.

#define UNSEEN (-1)

// Sets the start state of vertex v: the source at level 0, others unseen.
static void init_vertex(uint v, uint src, global int *dist) {
  dist[v] = v == src ? 0 : UNSEEN;
}

// Visits v, a vertex of level `level`, along its edges first, first +
// stride, ... (a work-item alone: 0, 1): every neighbour still unseen is
// claimed for level + 1 with atomic_cmpxchg (one visitor wins) and appended
// to the next frontier by its winner.
static void visit(uint v, uint first, uint stride, int level,
                  global const uint *row, global const uint *col,
                  global int *dist, global uint *next,
                  volatile global uint *next_count) {
  for (uint e = row[v] + first; e < row[v + 1]; e += stride) {
    uint u = col[e];
    if (dist[u] == UNSEEN &&
        atomic_cmpxchg((volatile global int *)&dist[u], UNSEEN, level + 1) ==
            UNSEEN)
      next[atomic_inc(next_count)] = u;
  }
}

// Whether vertex v is walked by a work-item (its degree is at most hdeg).
static bool light(uint v, global const uint *row, uint hdeg) {
  return row[v + 1] - row[v] <= hdeg;
}

// The work-group's heavy vertices of level `level`'s frontier, a
// work-item an edge.
static void visit_heavy_ones(int level, global const uint *row,
                             global const uint *col, global int *dist,
                             global uint *next, volatile global uint *next_count,
                             global const uint *heavy, uint nheavy) {
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0))
    if (dist[heavy[h]] == level)
      visit(heavy[h], get_local_id(0), get_local_size(0), level, row, col,
            dist, next, next_count);
}

kernel void bfs(global const uint *row, global const uint *col,
                global int *dist, global uint *queue, global uint *count,
                uint n, uint src, global const uint *heavy, uint nheavy,
                uint hdeg) {
  if (src >= n)
    return;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    init_vertex(v, src, dist);
  if (get_global_id(0) == 0) {
    queue[0] = src;
    count[0] = 1;
    count[1] = 0;
    count[2] = 0;
  }
  global_barrier();

  int level = 0;
  while (count[level % 3] > 0) {
    global uint *in = queue + (level % 2) * n;
    global uint *out = queue + ((level + 1) % 2) * n;
    if (get_global_id(0) == 0)
      count[(level + 2) % 3] = 0;
    for (uint i = get_global_id(0); i < count[level % 3];
         i += get_global_size(0))
      if (light(in[i], row, hdeg))
        visit(in[i], 0, 1, level, row, col, dist, out,
              &count[(level + 1) % 3]);
    visit_heavy_ones(level, row, col, dist, out, &count[(level + 1) % 3], heavy,
                     nheavy);
    global_barrier();
    level++;
  }
}

// Relaunch baseline: one work-item per vertex.
kernel void bfs_init(global int *dist, global uint *queue,
                     global uint *count, uint n, uint src) {
  uint v = get_global_id(0);
  if (v < n)
    init_vertex(v, src, dist);
  if (v == 0) {
    queue[0] = src;
    count[0] = 1;
    count[1] = 0;
    count[2] = 0;
  }
}

// Relaunch baseline: one level, one work-item per frontier vertex (the host
// launches at least count[level % 3] work-items), and the heavy ones by
// work-groups as in the persistent kernel.
kernel void bfs_level(global const uint *row, global const uint *col,
                      global int *dist, global uint *queue,
                      global uint *count, uint n, int level,
                      global const uint *heavy, uint nheavy, uint hdeg) {
  global uint *in = queue + (level % 2) * n;
  global uint *out = queue + ((level + 1) % 2) * n;
  uint i = get_global_id(0);
  if (i == 0)
    count[(level + 2) % 3] = 0;
  if (i < count[level % 3] && light(in[i], row, hdeg))
    visit(in[i], 0, 1, level, row, col, dist, out, &count[(level + 1) % 3]);
  visit_heavy_ones(level, row, col, dist, out, &count[(level + 1) % 3], heavy,
                   nheavy);
}
