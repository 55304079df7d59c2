// Benchmark input: ITERS phases, each a grid-stride increment of every
// element followed by a global barrier. bench/bench.c times it against the
// same loop with no barrier (loop_nobar in bench.c) and a relaunch per phase.
kernel void loop(global uint *data, uint n, uint iters) {
  for (uint it = 0; it < iters; it++) {
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
      data[i] += 1u;
    global_barrier();
  }
}
