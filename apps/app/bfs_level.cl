// One level of breadth-first search per launch (the relaunch baseline for
// bfs.cl): vertices at `level` reach their unvisited neighbours, and
// changed[level] is raised if any was reached.
kernel void bfs_level(global const uint *row, global const uint *col,
                      global int *dist, global uint *changed, uint n,
                      int level) {
  for (uint v = get_global_id(0); v < n; v += get_global_size(0)) {
    if (dist[v] != level)
      continue;
    for (uint e = row[v]; e < row[v + 1]; e++) {
      uint u = col[e];
      if (dist[u] < 0) {
        dist[u] = level + 1;
        changed[level] = 1;
      }
    }
  }
}
