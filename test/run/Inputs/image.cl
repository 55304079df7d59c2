// libgsync-misuse's kernel with an image parameter (misuse.test): the probe
// of how many groups fit cannot make one up, and says which parameter it
// is. Rewritten with --no-discovery.
kernel void stencil(global int *a, global int *b, read_only image2d_t img,
                    int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = i;
  global_barrier();
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    b[i] = a[(i + 1) % n];
}
