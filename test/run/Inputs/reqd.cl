// misuse.test: a kernel compiled for one local size, 16 work-items.
kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void reqd(global uint *a, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] += 1;
  global_barrier();
}
