kernel void k(global double *a) {
  a[get_global_id(0)] *= 2;
  global_barrier();
}
