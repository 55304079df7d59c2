// A helper that reaches only work-group barriers, called from a kernel
// with a global barrier: PoCL runs it inlined there, so it gets anchors
// as the kernel's own code does (docs/pocl.md, sections 6 and 8). It
// writes gsync_anchor_here(): after each barrier(), after the if that
// returns, and at the end of a function that returns early. So does
// add_all(), though it takes a context for its remapped ids: plain()
// calls it too, and a context made from the real ids has no local words
// for gsync_anchor(gsync_ctx) to read. A kernel without a global barrier
// gets no anchors of its own.
// python/tests/test_launch.py runs this file's kernels on PoCL.
// RUN: %gsync %s -o %t.cl
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: %clang-cl -cl-std=CL1.2 %t.cl
// RUN: %gsync-run --build-only %t.cl

static uint group_sum(uint x, local uint *part) {
  part[get_local_id(0)] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint sum = 0;
  for (uint i = 0; i < get_local_size(0); i++)
    sum += part[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  return sum;
}

static void add_to(uint v, global uint *out, global const uint *skip,
                   local uint *part) {
  if (skip[v])
    return;
  uint s = group_sum(v + (uint)get_local_id(0), part);
  if (get_local_id(0) == 0)
    out[v] += s;
}

static void add_all(global uint *out, global const uint *skip, uint n,
                    local uint *part) {
  for (uint v = get_group_id(0); v < n; v += get_num_groups(0))
    add_to(v, out, skip, part);
}

kernel void rounds(global uint *out, global const uint *skip, uint n,
                   uint rounds, local uint *part) {
  for (uint r = 0; r < rounds; r++) {
    add_all(out, skip, n, part);
    global_barrier();
  }
}

kernel void plain(global uint *out, global const uint *skip, uint n,
                  local uint *part) {
  for (uint k = 0; k < 2; k++)
    add_all(out, skip, n, part);
}

// The same, with the first work-item's add behind a return that the others
// take: PoCL took that return as one the whole group takes, since the first
// return's way, before the barriers, reaches the same exit (docs/pocl.md,
// section 8). It becomes a goto to a label before the anchor at the body's
// end, where the ways after the barriers meet (test/pocl/late-jumps.test).
static void add_by_return(uint v, global uint *out, global const uint *skip,
                          local uint *part) {
  if (skip[v])
    return;
  uint s = group_sum(v + (uint)get_local_id(0), part);
  if (get_local_id(0) != 0)
    return;
  out[v] += s;
}

kernel void rounds_by_return(global uint *out, global const uint *skip,
                             uint n, uint rounds, local uint *part) {
  for (uint r = 0; r < rounds; r++) {
    for (uint v = get_group_id(0); v < n; v += get_num_groups(0))
      add_by_return(v, out, skip, part);
    global_barrier();
  }
}

// CHECK: static uint group_sum(uint x, local uint *part) {
// CHECK-NEXT:   part[get_local_id(0)] = x;
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE); gsync_anchor_here();
// CHECK-NEXT:   uint sum = 0;
// CHECK-NEXT:   for (uint i = 0; i < get_local_size(0); i++)
// CHECK-NEXT:     sum += part[i];
// CHECK-NEXT:   barrier(CLK_LOCAL_MEM_FENCE); gsync_anchor_here();
// CHECK-NEXT:   return sum;
// CHECK-NEXT: }
// CHECK:      static void add_to(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                    local uint *part) {
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     return; gsync_anchor_here();
// CHECK-NEXT:   uint s = group_sum(v + (uint)get_local_id(0), part);
// CHECK-NEXT:   if (get_local_id(0) == 0)
// CHECK-NEXT:     out[v] += s;
// CHECK-NEXT: gsync_anchor_here(); }
// CHECK:      static void add_all(global uint *out, global const uint *skip, uint n,
// CHECK-NEXT:                     local uint *part, private struct gsync_ctx *gsync_ctx) { struct gsync_ctx gsync_ctx_real; gsync_ctx = gsync_ctx_or_real(gsync_ctx, &gsync_ctx_real);
// CHECK-NEXT:   for (uint v = gsync_get_group_id(gsync_ctx, 0); v < n; v += gsync_get_num_groups(gsync_ctx, 0))
// CHECK-NEXT:     { gsync_anchor_here(); add_to(v, out, skip, part); gsync_anchor_here(); }
// CHECK-NEXT: }
// CHECK:        for (uint r = 0; r < rounds; r++) { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     add_all(out, skip, n, part, gsync_ctx);
// CHECK-NEXT:     gsync_barrier(gsync_ctx, 1);
// CHECK:      kernel void plain(global uint *out, global const uint *skip, uint n,
// CHECK-NEXT:                   local uint *part) {
// CHECK-NEXT:   for (uint k = 0; k < 2; k++)
// CHECK-NEXT:     add_all(out, skip, n, part, 0);
// CHECK-NEXT: }
// CHECK:      static void add_by_return(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                           local uint *part) {
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     return; gsync_anchor_here();
// CHECK-NEXT:   uint s = group_sum(v + (uint)get_local_id(0), part);
// CHECK-NEXT:   if (get_local_id(0) != 0)
// CHECK-NEXT:     goto gsync_return; gsync_anchor_here();
// CHECK-NEXT:   out[v] += s;
// CHECK-NEXT: gsync_return: gsync_anchor_here(); }
