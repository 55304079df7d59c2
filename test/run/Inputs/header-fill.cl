// test/run/hostile.test: a kernel that includes a header of its own
// directory and uses a value given with -D (V): it writes 40 + V.
#include "header-fill.h"
kernel void fill(global uint *out) {
  global_barrier();
  if (get_global_id(0) == 0)
    out[0] = FROM_HEADER + V;
}
