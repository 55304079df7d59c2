// Loops around global_barrier() in each form the abort guard rewrites
// (lib/abort.c): a while loop with a continue and a break, a for loop whose
// body is one statement, a do loop with a continue inside a switch, a for
// loop with a continue in a switch and an inner loop with a continue of its
// own. sweep() is a static helper that reaches the barrier and returns how
// many elements changed; counts go to f[t % 3] in round t, whose next slot
// work-item 0 clears before the same barrier (gen.py's scheme).
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
  int t = 0;
  while (t < 12 * k) {
    int changed = sweep(a, b, f, n, t++);
    if (t % 3 == 1)
      continue;
    if (changed < n / 4)
      break;
  }
  for (int r = 0; r < k; r++)
    sweep(a, b, f, n, t++);
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
  int s = 0;
  for (int r = 0; r < 6; r++) {
    for (int j = 0; j < 3; j++) {
      if (j == r % 3)
        continue;
      s += j;
    }
    switch (r % 3) {
    case 0:
      continue;
    default:
      break;
    }
    if (sweep(a, b, f, n, t++) == 0)
      t++;
  }
  if (get_global_id(0) == 0)
    f[t % 3] += s;
}
