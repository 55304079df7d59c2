// A group id is a warning where the kernel never asks how many groups
// there are; a slot per group read back by get_num_groups is right with
// any number of groups (grid-stride.cl), and a group-stride loop is too.
// RUN: %gsync %s -o %t.cl 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
kernel void per_group(global float *out, global const float *in) {
  out[get_group_id(0) * get_local_size(0) + get_local_id(0)] = in[0];
  // CHECK: group-id.cl:[[@LINE-1]]:3: warning: kernel 'per_group' indexes memory by get_group_id(0) outside a grid-stride loop
  // CHECK-NEXT: note: with discovery only the co-resident work-groups take part, however many are launched; write 'for (uint g = get_group_id(0); g < n; g += get_num_groups(0))'
  global_barrier();
}

kernel void tiles(global float *out, uint tiles) {
  for (uint g = get_group_id(0); g < tiles; g += get_num_groups(0))
    out[g * get_local_size(0) + get_local_id(0)] = 1.0f;
  global_barrier();
}
