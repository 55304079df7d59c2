// A value every work-item reads between the same two barriers is the same
// for all, read with an atomic or not, as long as nothing writes it there:
// a convergence flag read with atomic_or(&flag, 0), the portable way, keeps
// the loop uniform. A write to the same place between the same barriers
// makes the read differ between work-items: an error with both places.
// RUN: %gsync %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// The reads that vary: atomic-read-errors.cl.
kernel void converge(global uint *flag, global uint *a, uint n) {
  uint again = 1;
  while (again) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      if (a[i] > 1) {
        a[i] /= 2;
        atomic_or(&flag[0], 1u);
      }
    global_barrier();
    again = atomic_or(&flag[0], 0u);
    global_barrier();
    if (get_global_id(0) == 0)
      atomic_xchg(&flag[0], 0u);
    global_barrier();
  }
}
kernel void reads(global uint *flag, global uint *a) {
  do {
    global_barrier();
    if (get_global_id(0) == 0)
      flag[1] += 1;
    global_barrier();
  } while (atomic_add(&flag[1], 0) < 10 && atomic_and(flag, ~0u) == 0);
}
