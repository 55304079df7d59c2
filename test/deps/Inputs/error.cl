// An input with an error: no output and no dependency file.
#include "local.h"
kernel void k(global uint *a) { a[0] = undeclared; global_barrier(); }
