#include "api.h"
kernel void k(global uint *a) { a[get_global_id(0)] = API_VALUE; global_barrier(); }
