// Run-test input: stencil.cl's work, except that in the first iteration
// local id 0 of work-group 0 busies itself for a while between the read
// and the write phase, as a serial phase of a real kernel would: every
// other group waits at the barrier meanwhile. A healthy launch, and it must
// not be aborted unless the wait outlasts the spin limit, which is a time.
// SLOW_MS must come from the rewrite's -D (the build gets it through the
// constraints); the busy loop reads the x86 time-stamp counter (PoCL only)
// and lasts at least SLOW_MS ms on any counter up to 4 GHz. (It stores
// each reading: PoCL 3.1's compiler crashes on a loop that only reads the
// counter, docs/pocl.md.)
#ifndef SLOW_MS
#error "rewrite with -DSLOW_MS=<milliseconds>"
#endif
static void busy(local uint *sink) {
  ulong start = __builtin_readcyclecounter(), now;
  do {
    now = __builtin_readcyclecounter();
    *sink = (uint)now;
  } while (now - start < (ulong)SLOW_MS * 4000000ul);
}

kernel void slow(global uint *a, global uint *b, uint n, uint iters) {
  local uint sink;
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      b[i] = a[i] + a[(i + 1) % n] + a[(i + 2) % n];
    if (it == 0 && get_group_id(0) == 0 && get_local_id(0) == 0)
      busy(&sink);
    global_barrier();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      a[i] = b[i];
    global_barrier();
  }
}
