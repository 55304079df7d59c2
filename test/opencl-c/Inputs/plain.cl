kernel void k(global uint *a) { a[get_global_id(0)] = 1; global_barrier(); }
