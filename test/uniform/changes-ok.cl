// Changes that every work-item makes alike stay silent: ++ and += of a
// value that does not vary, under a condition that does not; a variable
// changed through a pointer or by a helper given its address, alike; an
// array whose elements vary, passed on by address to a helper whose
// result does not (the address itself is the same for all); a private
// array read in a condition, which is a variable, not memory; the counter
// of a loop that some work-items continue early, which goes round as
// often in each.
// RUN: %gsync %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// A generic pointer that no caller gives the address of a variable:
// changes-generic.cl. The changes that vary: increment.cl,
// through-pointer.cl, exits-and-loops.cl, and the table of
// gen-mutations.py.
void twice(uint *x) { *x *= 2; }
uint fill(local uint *tile, uint n) {
  tile[get_local_id(0)] = get_global_id(0);
  return n / 2;
}
kernel void alike(global uint *a, uint n, uint steps) {
  uint rounds = 0, scale[2] = {1, 1};
  uint *p = &rounds;
  for (uint t = 0; t < steps; t++) {
    if (n > 8)
      ++rounds;
    *p += n % 3;
    twice(&rounds);
    scale[t % 2] <<= 1;
  }
  for (uint r = 0; r < rounds; r++)
    global_barrier();
  if (scale[0] > 4)
    global_barrier();
}
kernel void tile_passed(global uint *a, uint n) {
  local uint tile[64];
  if (fill(tile, n) > 2)
    global_barrier();
  uint rest = fill(tile, n);
  while (rest-- > 0)
    global_barrier();
}
kernel void continued(global uint *a, uint n) {
  uint i;
  for (i = 0; i < n; i++) {
    if (i % get_global_size(0) != get_global_id(0))
      continue;
    a[i] = 1;
  }
  for (uint t = 0; t < i; t++)
    global_barrier();
}
