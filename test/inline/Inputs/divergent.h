// A helper whose barrier only some work-items reach.
#warning this header warns
void first_only(global uint *a) {
  if (get_global_id(0) == 0)
    global_barrier();
  a[0] = 1u;
}
