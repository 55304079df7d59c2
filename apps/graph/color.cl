// Graph colouring by Jones-Plassmann: every vertex has a fixed random
// priority; in each round, every uncoloured vertex whose priority beats
// that of all its uncoloured neighbours is selected, and every selected
// vertex takes the smallest colour no neighbour has. Selected vertices are
// never adjacent, so a round's colours never conflict. The result depends
// only on the priorities, so a CPU running the same rounds gets the same
// colouring.
//
//   color      the persistent kernel: a round is two phases (select,
//              assign), each ended by global_barrier(); the loop leaves
//              when a round left no vertex uncoloured
//   color_init, color_select, color_assign
//              the relaunch baseline: one launch per phase, the host
//              reading the round's flag back
//
// Undirected CSR graph (row, col: each edge in both directions). colour[v]
// is v's colour, -1 while uncoloured; sel[v] says v was selected this
// round. flag[r % 3] is raised in round r when some vertex stays
// uncoloured; round r clears flag[(r + 1) % 3], which round r - 2 raised
// and which was read before round r - 1 began.
//
// A vertex of degree above hdeg is heavy: a whole work-group walks its
// edges, a work-item each, so that a hub of a power-law graph (thousands
// of edges) does not hold every group at the next barrier while one
// work-item walks it. heavy[0 .. nheavy - 1] lists the heavy vertices;
// work-group g takes entries g, g + groups, ... Both modes do so.

#define NONE (-1)

// A fixed pseudo-random priority for vertex v (an integer hash).
static uint priority(uint v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

// Whether u goes before v: higher priority first, ties to the higher id.
static bool goes_before(uint u, uint v) {
  uint pu = priority(u), pv = priority(v);
  return pu > pv || (pu == pv && u > v);
}

// Phase 1 for vertex v: an uncoloured v is selected if it goes before every
// uncoloured neighbour; one that is not selected raises the round's flag.
static void select_vertex(uint v, global const uint *row,
                          global const uint *col, global const int *colour,
                          global uchar *sel, global uint *flag) {
  if (colour[v] != NONE)
    return;
  bool best = true;
  for (uint e = row[v]; e < row[v + 1] && best; e++) {
    uint u = col[e];
    if (colour[u] == NONE && goes_before(u, v))
      best = false;
  }
  sel[v] = best;
  if (!best)
    *flag = 1;
}

// Whether vertex v is walked by a work-item (its degree is at most hdeg).
static bool light(uint v, global const uint *row, uint hdeg) {
  return row[v + 1] - row[v] <= hdeg;
}

// Phase 1 for a heavy vertex v, by the whole work-group (every work-item
// calls it with the same v). The group checks get_local_size(0) edges at a
// time; a work-item that finds a neighbour going first sets stop[i % 2] in
// chunk i, and the group leaves after the first chunk that set it. A chunk
// writes only its own word, which the chunk before it left 0 (or the
// group would have left), so the words need no clearing between chunks.
static void select_heavy(uint v, global const uint *row,
                         global const uint *col, global const int *colour,
                         global uchar *sel, global uint *flag,
                         local uint *stop) {
  if (colour[v] != NONE) /* no one writes colour in this phase: uniform */
    return;
  uint lid = get_local_id(0), end = row[v + 1];
  if (lid == 0)
    stop[0] = stop[1] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  bool best = true;
  for (uint s = row[v], i = 0; s < end; s += get_local_size(0), i++) {
    uint e = s + lid;
    if (e < end && colour[col[e]] == NONE && goes_before(col[e], v))
      atomic_or(&stop[i % 2], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (stop[i % 2]) {
      best = false;
      break;
    }
  }
  if (lid == 0) {
    sel[v] = best;
    if (!best)
      *flag = 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* every read of stop before the next use */
}

// Phase 2 for vertex v: a selected v takes the smallest colour that none of
// its neighbours has, searched 32 colours at a time with a bit mask.
static void assign_vertex(uint v, global const uint *row,
                          global const uint *col, global int *colour,
                          global uchar *sel) {
  if (!sel[v])
    return;
  sel[v] = 0;
  for (int base = 0;; base += 32) {
    uint used = 0;
    for (uint e = row[v]; e < row[v + 1]; e++) {
      int c = colour[col[e]];
      if (c >= base && c < base + 32)
        used |= 1u << (c - base);
    }
    if (used != 0xffffffffu) {
      uint free = ~used & (used + 1); /* lowest clear bit */
      colour[v] = base + 31 - (int)clz(free);
      return;
    }
  }
}

// Phase 2 for a heavy vertex v, by the whole work-group, like
// select_heavy: each 32-colour window's mask is gathered into used[i % 3]
// with atomic_or. Work-item 0 clears the next window's word before the
// barrier of this one: the last reads of that word were in window i - 2,
// before the barrier of window i - 1.
static void assign_heavy(uint v, global const uint *row,
                         global const uint *col, global int *colour,
                         global uchar *sel, local uint *used) {
  if (!sel[v]) /* sel[v] is cleared below, after every work-item read it */
    return;
  uint lid = get_local_id(0), end = row[v + 1];
  if (lid == 0)
    used[0] = used[1] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int base = 0, i = 0;; base += 32, i++) {
    uint bits = 0;
    for (uint e = row[v] + lid; e < end; e += get_local_size(0)) {
      int c = colour[col[e]];
      if (c >= base && c < base + 32)
        bits |= 1u << (c - base);
    }
    if (bits)
      atomic_or(&used[i % 3], bits);
    if (lid == 0)
      used[(i + 1) % 3] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint all = used[i % 3];
    if (all != 0xffffffffu) {
      if (lid == 0) {
        uint free = ~all & (all + 1);
        colour[v] = base + 31 - (int)clz(free);
        sel[v] = 0;
      }
      break;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* every read of used before the next use */
}

// A work-item's share of phase 1: the light vertices of its tiles, then,
// with its work-group, the heavy vertices of the group's entries. The
// relaunch kernels run the same with the launch's tiles and groups.
static void select_phase(uint n, global const uint *row,
                         global const uint *col, global const int *colour,
                         global uchar *sel, global uint *flag,
                         global const uint *heavy, uint nheavy, uint hdeg,
                         local uint *scratch) {
  for (uint base = 0; base < n; base += get_global_size(0)) {
    uint v = base + get_global_id(0);
    if (v < n && light(v, row, hdeg))
      select_vertex(v, row, col, colour, sel, flag);
  }
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0))
    select_heavy(heavy[h], row, col, colour, sel, flag, scratch);
}

// A work-item's share of phase 2, like select_phase.
static void assign_phase(uint n, global const uint *row,
                         global const uint *col, global int *colour,
                         global uchar *sel, global const uint *heavy,
                         uint nheavy, uint hdeg, local uint *scratch) {
  for (uint base = 0; base < n; base += get_global_size(0)) {
    uint v = base + get_global_id(0);
    if (v < n && light(v, row, hdeg))
      assign_vertex(v, row, col, colour, sel);
  }
  for (uint h = get_group_id(0); h < nheavy; h += get_num_groups(0))
    assign_heavy(heavy[h], row, col, colour, sel, scratch);
}

kernel void color(global const uint *row, global const uint *col,
                  global int *colour, global uchar *sel, global uint *flag,
                  uint n, global const uint *heavy, uint nheavy, uint hdeg) {
  local uint scratch[3];
  uint tid = get_global_id(0), threads = get_global_size(0);
  for (uint base = 0; base < n; base += threads) {
    uint v = base + tid;
    if (v < n) {
      colour[v] = NONE;
      sel[v] = 0;
    }
  }
  if (tid == 0)
    flag[0] = flag[1] = flag[2] = 0;
  global_barrier();
  /* Each round colours at least the uncoloured vertex of highest
   * priority, so n rounds colour every vertex and one more sees nothing
   * selected: the bound is never reached by a right run, and keeps a run
   * with a broken barrier (the teeth tests' no-op) from going on for
   * ever. */
  for (uint r = 0; r <= n; r++) {
    if (tid == 0)
      flag[(r + 1) % 3] = 0;
    select_phase(n, row, col, colour, sel, &flag[r % 3], heavy, nheavy, hdeg,
                 scratch);
    global_barrier();
    assign_phase(n, row, col, colour, sel, heavy, nheavy, hdeg, scratch);
    global_barrier();
    if (flag[r % 3] == 0)
      break;
  }
}

// Relaunch baseline: one work-item per vertex in each, the heavy ones by
// work-groups as in the persistent kernel.
kernel void color_init(global int *colour, global uchar *sel,
                       global uint *flag, uint n) {
  uint v = get_global_id(0);
  if (v < n) {
    colour[v] = NONE;
    sel[v] = 0;
  }
  if (v == 0)
    flag[0] = flag[1] = flag[2] = 0;
}

kernel void color_select(global const uint *row, global const uint *col,
                         global const int *colour, global uchar *sel,
                         global uint *flag, uint n, uint r,
                         global const uint *heavy, uint nheavy, uint hdeg) {
  local uint scratch[3];
  if (get_global_id(0) == 0)
    flag[(r + 1) % 3] = 0;
  select_phase(n, row, col, colour, sel, &flag[r % 3], heavy, nheavy, hdeg,
               scratch);
}

kernel void color_assign(global const uint *row, global const uint *col,
                         global int *colour, global uchar *sel, uint n,
                         global const uint *heavy, uint nheavy, uint hdeg) {
  local uint scratch[3];
  assign_phase(n, row, col, colour, sel, heavy, nheavy, hdeg, scratch);
}
