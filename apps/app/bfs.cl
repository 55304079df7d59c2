// Breadth-first search in ONE launch: every level is a grid-stride scan of
// the vertices, separated by global_barrier(). The graph is in CSR form
// (row[v]..row[v+1] index col[]); dist[v] is v's level, -1 if not reached.
// changed[level % 3] is raised when a level reaches a new vertex; everyone
// reads it after the barrier and stops when it stayed 0. The flag for
// level + 1 is cleared during level, after every group read it (in level -
// 2) and before anyone writes it (in level + 1): three flags, no race.
kernel void bfs(global const uint *row, global const uint *col,
                global int *dist, global uint *changed, uint n) {
  for (int level = 0;; level++) {
    if (get_global_id(0) == 0)
      changed[(level + 1) % 3] = 0;
    for (uint v = get_global_id(0); v < n; v += get_global_size(0)) {
      if (dist[v] != level)
        continue;
      for (uint e = row[v]; e < row[v + 1]; e++) {
        uint u = col[e];
        if (dist[u] < 0) {
          dist[u] = level + 1;
          changed[level % 3] = 1;
        }
      }
    }
    global_barrier();
    if (changed[level % 3] == 0)
      break;
  }
}
