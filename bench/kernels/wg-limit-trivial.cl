// gsync-bench limits' smallest kernel: loop.cl's arguments, no barrier.
kernel void loop(global uint *data, uint n, uint iters) {
  size_t i = get_global_id(0);
  if (i < n) data[i] += iters;
}
