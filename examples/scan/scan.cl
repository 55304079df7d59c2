// scan.cl: the inclusive prefix sum of N numbers in one kernel launch,
// log2(N) steps separated by global barriers. The result ends in a; tmp is
// scratch space of the same size.
#include "scan.h"

kernel void scan(global uint *a, global uint *tmp) {
  for (uint offset = 1; offset < N; offset *= 4) {
    scan_step(a, tmp, offset);
    scan_step(tmp, a, offset * 2);
  }
}
