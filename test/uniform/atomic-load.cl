// OpenCL C 2.0 / 3.0: a flag read with atomic_load (or its _explicit form)
// between the same two barriers is the same for every work-item, as a plain
// read is, and keeps the loop on it uniform; atomic_fetch_add's result is
// each work-item's own.
// RUN: %gsync -cl-std=CL3.0 %s -o %t.cl 2>&1 | count 0
// The atomic that modifies: atomic-fetch.cl.
kernel void converge(global atomic_uint *flag, global uint *a, uint n) {
  for (;;) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      if (a[i] > 1) {
        a[i] /= 2;
        atomic_store_explicit(flag, 1u, memory_order_relaxed,
                              memory_scope_device);
      }
    global_barrier();
    if (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0)
      break;
    global_barrier();
    if (get_global_id(0) == 0)
      atomic_store(flag, 0u);
    global_barrier();
  }
}
kernel void count(global atomic_uint *done, global uint *a) {
  do {
    global_barrier();
    if (get_global_id(0) == 0)
      atomic_fetch_add(done, 1u);
    global_barrier();
  } while (atomic_load(done) < 10);
}
