// OpenCL C 2.0: a generic pointer may point to global memory. One that no
// caller gives the address of a variable (here, a kernel's global buffer)
// writes memory, which every work-item reads alike after a barrier: not a
// change of a variable, even where the place written varies.
// RUN: %gsync -cl-std=CL2.0 %s -o %t.cl 2>&1 | count 0
// RUN: %clang-cl -cl-std=CL2.0 %t.cl
// Given a variable's address too, it changes that variable:
// RUN: not %gsync -cl-std=CL2.0 -DPRIVATE %s -o %t.private.cl 2>&1 | FileCheck %s
void mark_seen(uint *seen, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    seen[i] = 1;
}
kernel void generic_memory(global uint *seen, uint n) {
  uint mine[2] = {0, 0};
  mark_seen(seen, n);
#ifdef PRIVATE
  mark_seen(mine, 2);
#endif
  global_barrier();
  if (seen[0])
    global_barrier();
  for (uint t = 0; t < n + mine[1]; t++)
    global_barrier();
  // CHECK: changes-generic.cl:[[@LINE-1]]:5: error: global_barrier() in a loop whose trip count depends on the work-item or group id
  // CHECK-NEXT: changes-generic.cl:[[@LINE-3]]:28: note: the condition depends on the work-item or group id here
  // CHECK-NEXT: changes-generic.cl:11:5: note: 'mine' may be changed here through a pointer in a loop whose trip count depends on the work-item or group id
}
