// local sizes: 256
// A 1-D Jacobi as issue 24 reported it wrong on PoCL built optimised
// (docs/pocl.md, section 6; before the anchors, at this local size with
// two groups): the loop runs while (moved && it < limit);
// sweep(), a static helper, does one sweep, raises the round's flag with
// atomic_or where a value moved, calls global_barrier() and returns the
// flag read after it; copy_back(), from a header, copies the grid back
// and waits again. The flags rotate through f[0..2]; work-item 0 clears the
// next round's before the barrier. The result is a, b and f[0..2], so the
// number of sweeps shows in the flags' last state and in a.
#include "jacobi-copy.h"

static int sweep(global const int *a, global int *b, int n,
                 volatile global int *f, int it) {
  int mine = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    int v = i == 0 || i == n - 1 ? a[i] : (a[i - 1] + a[i + 1]) / 2;
    if (v != a[i])
      mine = 1;
    b[i] = v;
  }
  if (mine)
    atomic_or(&f[it % 3], 1);
  if (get_global_id(0) == 0)
    f[(it + 1) % 3] = 0;
  global_barrier();
  return f[it % 3];
}

kernel void k(global int *a, global int *b, global int *f, int n, int k) {
  int moved = 1, it = 0;
  if (get_global_id(0) == 0)
    f[0] = 0;
  global_barrier();
  while (moved && it < 400 * k) {
    moved = sweep(a, b, n, f, it);
    copy_back(a, b, n);
    it++;
  }
  if (get_global_id(0) == 0)
    f[2] = it;
}
