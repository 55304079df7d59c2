// A loop that steps by a stride the host passes is no grid-stride loop:
// with discovery the host cannot know how many work-items take part, and
// the loop covers what the launched ones would have. Stepping by
// get_global_size() held in a variable, or divided into shares by it, is
// right.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
kernel void host(global float *a, uint n, uint stride) {
  for (uint i = get_global_id(0); i < n; i += stride)
    a[i] += 1.0f;
  // CHECK: host-stride.cl:[[@LINE-1]]:5: warning: kernel 'host' indexes memory by get_global_id(0) outside a grid-stride loop
  // CHECK-NEXT: note: with discovery
  global_barrier();
}

kernel void held(global float *a, uint n) {
  uint stride = get_global_size(0);
  for (uint i = get_global_id(0); i < n; i += stride)
    a[i] += 1.0f;
  global_barrier();
}
