// A 2-D kernel that strides in one dimension only: the other id still
// decides the address, so rows past the participants' are never reached.
// The note shows the loop for that dimension.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
kernel void rows(global float *u, uint w, uint h) {
  uint y = get_global_id(1);
  for (uint x = get_global_id(0); x < w; x += get_global_size(0))
    if (y < h)
      u[y * w + x] += 1.0f;
  // CHECK: partial-2d.cl:[[@LINE-1]]:7: warning: kernel 'rows' indexes memory by get_global_id(1) outside a grid-stride loop
  // CHECK-NEXT: note: {{.*}}; write 'for (uint i = get_global_id(1); i < n; i += get_global_size(1))'
  global_barrier();
}
