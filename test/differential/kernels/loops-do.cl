// A loop around global_barrier() of one form the abort guard rewrites
// (lib/abort.c): a do loop with a continue inside a switch. The four forms are
// loops-while.cl, loops-for.cl, loops-do.cl and loops-nested.cl, one
// kernel each: PoCL 3.1 takes about 170 s to build the four in one kernel
// and 5 s for each alone. sweep() is a static helper that reaches the
// barrier and returns how many elements changed; counts go to f[t % 3] in
// round t, whose next slot work-item 0 clears before the same barrier
// (gen.py's scheme).
static int sweep(global int *a, global int *b, global int *f, int n, int t) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    b[i] = (a[i] + a[(i + 1) % n] + (t & 1)) >> 1;
  if (get_global_id(0) == 0)
    f[(t + 1) % 3] = 0;
  global_barrier();
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    if (a[i] != b[i])
      atomic_add(&f[t % 3], 1);
    a[i] = b[i];
  }
  global_barrier();
  return f[t % 3];
}

kernel void k(global int *a, global int *b, global int *f, int n, int k) {
  int t = k;
  int u = 0;
  do {
    u++;
    if (u == 2)
      continue;
    switch (u % 4) {
    case 3:
      continue;
    default:
      t += sweep(a, b, f, n, t) > 0;
    }
  } while (u < 6);
  if (get_global_id(0) == 0)
    f[t % 3] += u;
}
