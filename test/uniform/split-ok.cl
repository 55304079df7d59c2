// What a pair may hold and where it may stand: in a loop's body, a pair
// after a pair, work between the halves that only some work-items do, a
// loop with a break that stays inside it, a switch, and a helper without a
// barrier. The rewrite is accepted and builds.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --allow-empty --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
uint twice(uint x) { return 2u * x; }

kernel void k(global uint *a, global uint *b, uint n, uint steps) {
  for (uint t = 0; t < steps; t++) {
    global_barrier_arrive();
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
      if (a[i] == 0)
        continue;
      for (uint j = 0; j < 4; j++)
        if (j == a[i])
          break;
      switch (a[i] % 3) {
      case 0:
        b[i] = twice(b[i]);
        break;
      default:
        break;
      }
    }
    global_barrier_wait();
    global_barrier_arrive();
    global_barrier_wait();
  }
}
