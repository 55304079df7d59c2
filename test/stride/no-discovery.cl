// Without discovery every launched group takes part and the ids are the
// real ones: the kernel of reported.cl is right as written, and there is
// no warning.
// RUN: %gsync --no-discovery %s -o %t.cl 2>&1 | count 0
// RUN: %gsync --discovery=none %s -o %t.none.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
kernel void k(global float *a, global float *b, uint n) {
  uint i = get_global_id(0);
  if (i < n) a[i] = 2 * b[i];
  global_barrier();
  if (i < n) b[i] = a[(i + 1) % n];
}
