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

kernel void color(global const uint *row, global const uint *col,
                  global int *colour, global uchar *sel, global uint *flag,
                  uint n) {
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
    for (uint base = 0; base < n; base += threads) {
      uint v = base + tid;
      if (v < n)
        select_vertex(v, row, col, colour, sel, &flag[r % 3]);
    }
    global_barrier();
    for (uint base = 0; base < n; base += threads) {
      uint v = base + tid;
      if (v < n)
        assign_vertex(v, row, col, colour, sel);
    }
    global_barrier();
    if (flag[r % 3] == 0)
      break;
  }
}

// Relaunch baseline: one work-item per vertex in each.
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
                         global uint *flag, uint n, uint r) {
  uint v = get_global_id(0);
  if (v == 0)
    flag[(r + 1) % 3] = 0;
  if (v < n)
    select_vertex(v, row, col, colour, sel, &flag[r % 3]);
}

kernel void color_assign(global const uint *row, global const uint *col,
                         global int *colour, global uchar *sel, uint n) {
  uint v = get_global_id(0);
  if (v < n)
    assign_vertex(v, row, col, colour, sel);
}
