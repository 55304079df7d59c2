// Minimum spanning forest by Boruvka's algorithm: in each round every
// component picks its lightest edge to another component, the components
// hook onto the ones those edges reach, and pointer jumping flattens the
// resulting trees until every vertex points at its component's root.
// Edge keys are unique (weight << 24 | edge id), so the lightest edges
// never form a cycle longer than two (a pair of components that picked the
// same edge: the lower id stays the root) and the forest is unique: the
// CPU's Kruskal finds the same edges.
//
//   mst        the persistent kernel: per round the phases find (over the
//              edges), hook and apply (over the vertices), each ended by
//              global_barrier(), then jump() until
//              nothing moves (a loop inside the round's loop); the round
//              loop leaves as soon as a round hooked nothing
//   mst_init, mst_find, mst_hook, mst_apply, mst_jump
//              the relaunch baseline: one launch per phase, the host
//              reading the flags back
//
// Undirected CSR graph (row, col) with key[e] per directed edge (both
// directions of an edge have the same key) and the two ends of edge id i
// at ends[2 i], ends[2 i + 1]. parent[v] is v's component root (a root is
// its own parent); best[c] the lightest key out of root c (NO_EDGE: none);
// hook[c] the root c hooks onto this round; in_mst[i] marks edge i taken.
// flag[r % 3] is raised in round r when a component hooks; jflag[j % 3]
// when jump step j (counted over all rounds) moves a pointer. Each clears
// the slot that step + 1 (mod 3) names, as in color.cl.

#define NO_EDGE 0xffffffffu
#define ID_MASK 0x00ffffffu

// Phase find for directed edge e of the CSR, one work-item an edge: an
// edge between two components, taken from its lower end (so each
// undirected edge once), folds its key into both roots' best with
// atomic_min; a best already at or below the key needs no atomic (best only
// falls within a round, and is reset between rounds). Edge-parallel, so a
// hub vertex's edges are spread over the grid: walking them in one
// work-item made the find phase as slow as the hub (docs/apps.md).
static void find_edge(uint e, global const uint *col, global const uint *key,
                      global const uint *ends, global const uint *parent,
                      volatile global uint *best) {
  uint k = key[e], v = col[e], id = k & ID_MASK;
  uint a = ends[2 * id], b = ends[2 * id + 1];
  uint u = a == v ? b : a;
  if (u > v)
    return;
  uint cu = parent[u], cv = parent[v];
  if (cu == cv)
    return;
  if (k < best[cu])
    atomic_min(&best[cu], k);
  if (k < best[cv])
    atomic_min(&best[cv], k);
}

// Phase hook for vertex c: a root with an edge out takes the edge and hooks
// onto the root at its other end, unless that root picked the same edge
// and has the higher id (then c stays the root of both).
static void hook_vertex(uint c, global const uint *ends,
                        global const uint *parent, global const uint *best,
                        global uint *hook, global uchar *in_mst,
                        global uint *flag) {
  uint lightest = best[c];
  if (parent[c] != c || lightest == NO_EDGE)
    return;
  uint id = lightest & ID_MASK;
  uint a = parent[ends[2 * id]], b = parent[ends[2 * id + 1]];
  uint other = a == c ? b : a;
  hook[c] = best[other] == lightest && c < other ? c : other;
  in_mst[id] = 1;
  *flag = 1;
}

// Phase apply for vertex c: a root that took an edge points at the root it
// hooked onto, and its best is reset for the next round.
static void apply_vertex(uint c, global uint *parent, global uint *best,
                         global const uint *hook) {
  if (parent[c] != c || best[c] == NO_EDGE)
    return;
  parent[c] = hook[c];
  best[c] = NO_EDGE;
}

// Pointer jumping for vertex v: v points at its grandparent; raises the
// flag if that moved it. Concurrent jumps only shorten paths to a root.
static void jump_vertex(uint v, global uint *parent, global uint *flag) {
  uint p = parent[v], g = parent[p];
  if (g != p) {
    parent[v] = g;
    *flag = 1;
  }
}

// One pointer-jumping step of the persistent kernel; returns whether a
// pointer moved.
static bool jump(uint j, global uint *parent, global uint *jflag, uint n) {
  if (get_global_id(0) == 0)
    jflag[(j + 1) % 3] = 0;
  for (uint v = get_global_id(0); v < n; v += get_global_size(0))
    jump_vertex(v, parent, &jflag[j % 3]);
  global_barrier();
  return jflag[j % 3] != 0;
}

kernel void mst(global const uint *row, global const uint *col,
                global const uint *key, global const uint *ends,
                global uint *parent, global uint *best, global uint *hook,
                global uchar *in_mst, global uint *flag, global uint *jflag,
                uint n, uint nedges) {
  uint tid = get_global_id(0), threads = get_global_size(0);
  for (uint v = tid; v < n; v += threads) {
    parent[v] = v;
    best[v] = NO_EDGE;
    hook[v] = v;
  }
  for (uint i = tid; i < nedges; i += threads)
    in_mst[i] = 0;
  if (tid == 0)
    flag[0] = flag[1] = flag[2] = jflag[0] = jflag[1] = jflag[2] = 0;
  global_barrier();
  // A round at least halves the number of components and a jump step
  // at least halves the longest path to a root, so n of each are plenty;
  // the bounds only matter if the barrier is broken (the tests' no-op
  // control), which must not loop forever.
  uint j = 0, m = row[n];
  for (uint r = 0; r < n; r++) {
    if (tid == 0)
      flag[(r + 1) % 3] = 0;
    for (uint e = tid; e < m; e += threads)
      find_edge(e, col, key, ends, parent, best);
    global_barrier();
    for (uint c = tid; c < n; c += threads)
      hook_vertex(c, ends, parent, best, hook, in_mst, &flag[r % 3]);
    global_barrier();
    if (!flag[r % 3])
      break;
    for (uint c = tid; c < n; c += threads)
      apply_vertex(c, parent, best, hook);
    global_barrier();
    for (uint k = 0; k < n && jump(j++, parent, jflag, n); k++)
      ;
  }
}

// Relaunch baseline: one work-item per vertex (or edge) in each; mst_find
// one per directed edge (m of them).
kernel void mst_init(global uint *parent, global uint *best,
                     global uint *hook, global uchar *in_mst,
                     global uint *flag, global uint *jflag, uint n,
                     uint nedges) {
  uint i = get_global_id(0);
  if (i < n) {
    parent[i] = i;
    best[i] = NO_EDGE;
    hook[i] = i;
  }
  if (i < nedges)
    in_mst[i] = 0;
  if (i == 0)
    flag[0] = flag[1] = flag[2] = jflag[0] = jflag[1] = jflag[2] = 0;
}

kernel void mst_find(global const uint *col, global const uint *key,
                     global const uint *ends, global const uint *parent,
                     global uint *best, global uint *flag, uint m, uint r) {
  uint e = get_global_id(0);
  if (e == 0)
    flag[(r + 1) % 3] = 0;
  if (e < m)
    find_edge(e, col, key, ends, parent, best);
}

kernel void mst_hook(global const uint *ends, global const uint *parent,
                     global const uint *best, global uint *hook,
                     global uchar *in_mst, global uint *flag, uint n, uint r) {
  uint c = get_global_id(0);
  if (c < n)
    hook_vertex(c, ends, parent, best, hook, in_mst, &flag[r % 3]);
}

kernel void mst_apply(global uint *parent, global uint *best,
                      global const uint *hook, uint n) {
  uint c = get_global_id(0);
  if (c < n)
    apply_vertex(c, parent, best, hook);
}

kernel void mst_jump(global uint *parent, global uint *jflag, uint n,
                     uint j) {
  uint v = get_global_id(0);
  if (v == 0)
    jflag[(j + 1) % 3] = 0;
  if (v < n)
    jump_vertex(v, parent, &jflag[j % 3]);
}
