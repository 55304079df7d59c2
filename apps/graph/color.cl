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
// scratch[] holds a word per work-item.

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
// calls it with the same v): each work-item checks its share of the edges,
// and one that finds a neighbour going first sets scratch[0]. The group
// code here and in assign_heavy has no early exit, and its loops hold no
// barrier: PoCL's work-group compiler gets such code wrong (docs/pocl.md,
// section 6).
static void select_heavy(uint v, global const uint *row,
                         global const uint *col, global const int *colour,
                         global uchar *sel, global uint *flag,
                         local uint *scratch) {
  uint lid = get_local_id(0);
  bool uncoloured = colour[v] == NONE; /* no one writes colour here */
  bool beaten = false;
  if (lid == 0)
    scratch[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  /* A work-item stops early once another has found one (scratch[0] read
   * as it goes: a hint; the group decides after the barrier). */
  if (uncoloured)
    for (uint e = row[v] + lid;
         e < row[v + 1] && !beaten && !*(volatile local uint *)scratch;
         e += get_local_size(0))
      if (colour[col[e]] == NONE && goes_before(col[e], v)) {
        beaten = true;
        atomic_or(&scratch[0], 1u);
      }
  barrier(CLK_LOCAL_MEM_FENCE);
  /* Only work-item 0 reads scratch[0], before it clears it again. */
  if (uncoloured && lid == 0) {
    sel[v] = scratch[0] == 0;
    if (scratch[0] != 0)
      *flag = 1;
  }
}

// The smallest colour from `base` on that no neighbour of v has, searched
// 32 colours at a time with a bit mask.
static int first_free_colour(uint v, int base, global const uint *row,
                             global const uint *col, global const int *colour) {
  for (;; base += 32) {
    uint used = 0;
    for (uint e = row[v]; e < row[v + 1]; e++) {
      int c = colour[col[e]];
      if (c >= base && c < base + 32)
        used |= 1u << (c - base);
    }
    if (used != 0xffffffffu) {
      uint free = ~used & (used + 1); /* lowest clear bit */
      return base + 31 - (int)clz(free);
    }
  }
}

// Phase 2 for vertex v: a selected v takes the smallest colour that none of
// its neighbours has.
static void assign_vertex(uint v, global const uint *row,
                          global const uint *col, global int *colour,
                          global uchar *sel) {
  if (!sel[v])
    return;
  sel[v] = 0;
  colour[v] = first_free_colour(v, 0, row, col, colour);
}

// Phase 2 for a heavy vertex v, by the whole work-group: the neighbours'
// colours below 32 x the local size go into a bit mask in scratch[] (a
// word per work-item), and work-item 0 takes the lowest clear bit, or
// searches on from there alone where the mask is full.
static void assign_heavy(uint v, global const uint *row,
                         global const uint *col, global int *colour,
                         global uchar *sel, local uint *scratch) {
  uint lid = get_local_id(0), size = get_local_size(0);
  bool selected = sel[v] != 0; /* work-item 0 clears it after the barriers */
  scratch[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (selected)
    for (uint e = row[v] + lid; e < row[v + 1]; e += size) {
      int c = colour[col[e]];
      if (c >= 0 && (uint)c < 32 * size)
        atomic_or(&scratch[c / 32], 1u << (c % 32));
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (selected && lid == 0) {
    uint i = 0;
    while (i < size && scratch[i] == 0xffffffffu)
      i++;
    uint free = i < size ? ~scratch[i] & (scratch[i] + 1) : 0;
    colour[v] = i < size ? (int)(32 * i) + 31 - (int)clz(free)
                         : first_free_colour(v, (int)(32 * size), row, col,
                                             colour);
    sel[v] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE); /* work-item 0's reads before the next use */
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
                  uint n, global const uint *heavy, uint nheavy, uint hdeg,
                  local uint *scratch) {
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
                         global const uint *heavy, uint nheavy, uint hdeg,
                         local uint *scratch) {
  if (get_global_id(0) == 0)
    flag[(r + 1) % 3] = 0;
  select_phase(n, row, col, colour, sel, &flag[r % 3], heavy, nheavy, hdeg,
               scratch);
}

kernel void color_assign(global const uint *row, global const uint *col,
                         global int *colour, global uchar *sel, uint n,
                         global const uint *heavy, uint nheavy, uint hdeg,
                         local uint *scratch) {
  assign_phase(n, row, col, colour, sel, heavy, nheavy, hdeg, scratch);
}
