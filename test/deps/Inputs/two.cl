// Includes local.h, which includes nested.h.
#include "local.h"
kernel void k(global uint *a) { a[get_global_id(0)] = SCALE; global_barrier(); }
