// Included by included-function.cl.

// Every participating work-item waits here.
void sync_all(global uint *a) {
  a[get_global_id(0)] = 0u;
  global_barrier();
}
