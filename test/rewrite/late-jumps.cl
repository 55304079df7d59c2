// Late jumps (docs/pocl.md, section 8): a return after a function's last
// barrier, a continue after its loop's last, a switch's break after the
// last in its case, a goto after the last before its label, that only
// some work-items take, becomes a goto to a label where the ways after
// that barrier meet, before an anchor and before any label or case where
// other ways come in, and not at the exit (the loop's next turn, the
// switch's end, the label) that a way past no barrier also reaches. A
// value goes through gsync_ret; the code between that label and the
// jump's target is skipped by gsync_jump, which the target sets back. A
// goto into a block stays, and the tool warns. test/pocl/late-jumps.test
// runs every shape on PoCL.
// RUN: %gsync %s -o %t.cl 2> %t.err
// RUN: FileCheck --match-full-lines %s < %t.cl
// RUN: FileCheck --check-prefix=WARN %s < %t.err
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

// Returns in a loop without a barrier, and a value: gsync_ret, returned
// after the label; the final return goes there too.
static uint leader_sum(uint v, global uint *out, global const uint *skip,
                       local uint *part) {
  if (skip[v])
    return 0;
  uint s = group_sum(v, part);
  for (uint i = 1; i < get_local_size(0); i++)
    if (get_local_id(0) == i)
      return i;
  out[v] += s;
  return 0;
}

// A return in a branch that more code follows: it meets the branch's
// other ways at its end (gsync_return_2), and gsync_jump skips the rest.
static void in_branch(uint v, global uint *out, global const uint *skip,
                      local uint *part) {
  if (skip[v])
    return;
  if (v < 100) {
    uint s = group_sum(v, part);
    if (get_local_id(0) != 0)
      return;
    out[v] += s;
  }
  out[v + 100] += 1;
}

// A label after the late return: the goto's way comes in there, so the
// return's ways meet before it, and gsync_jump skips what follows it; an
// anchor goes before every label.
static void after_label(uint v, global uint *out, global const uint *skip,
                        local uint *part) {
  if (skip[v])
    goto done;
  uint s = group_sum(v, part);
  if (get_local_id(0) != 0)
    return;
  out[v] += s;
done:
  out[v + 200] = 1;
}

// A barrier in a test, and a return in a switch's case: its ways and the
// case's break meet before the next case, which both skip; the break's
// value of gsync_jump ends after the switch.
static uint in_switch(uint v, local uint *part) {
  switch (v % 3) {
  case 0:
    if (group_sum(v, part) > 10 && get_local_id(0) != 0)
      return 1;
    break;
  default:
    break;
  }
  return 0;
}

// A late goto to the label that a goto before the barriers goes to: its
// ways meet before the label.
static void goto_both(uint v, global uint *out, global const uint *skip,
                      local uint *part) {
  if (skip[v])
    goto done;
  uint s = group_sum(v, part);
  if (get_local_id(0) != 0)
    goto done;
  out[v] += s;
done:
  ;
}

// A late goto to a label that a way past no barrier reaches too (the
// if's other way), with code between: gsync_jump skips it, and the label
// sets it back.
static void fall_through(uint v, global uint *out, global const uint *skip,
                         local uint *part) {
  if (skip[v] == 0) {
    uint s = group_sum(v, part);
    if (get_local_id(0) != 0)
      goto done;
    out[v] += s;
  }
  out[v + 400] += 1;
done:
  out[v + 500] += 1;
}

// A late goto into a block: nothing can meet before it; the tool warns.
static void into_block(uint v, global uint *out, global const uint *skip,
                       local uint *part) {
  if (skip[v])
    return;
  uint s = group_sum(v, part);
  if (get_local_id(0) != 0)
    goto inside;
  out[v] += s;
  if (v < 100) {
  inside:
    out[v + 600] += 1;
  }
}

// A late continue, and a late return in the kernel, whose discovery exit
// is the way past every barrier.
kernel void k(global uint *out, global const uint *skip, uint n,
              local uint *part) {
  for (uint v = get_group_id(0); v < n; v += get_num_groups(0)) {
    if (skip[v])
      continue;
    in_branch(v, out, skip, part);
    after_label(v, out, skip, part);
    out[v + 300] += in_switch(v, part);
    goto_both(v, out, skip, part);
    fall_through(v, out, skip, part);
    into_block(v, out, skip, part);
    uint s = leader_sum(v, out, skip, part);
    if (get_local_id(0) != 0)
      continue;
    out[v] += s;
  }
  global_barrier();
  if (get_local_id(0) != 0)
    return;
  out[n + get_group_id(0)] = 1;
}

// CHECK:      static uint leader_sum(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                        local uint *part) { uint gsync_ret;
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     return 0; gsync_anchor_here();
// CHECK-NEXT:   uint s = group_sum(v, part);
// CHECK-NEXT:   for (uint i = 1; i < get_local_size(0); i++)
// CHECK-NEXT:     { if (get_local_id(0) == i)
// CHECK-NEXT:       { gsync_ret = (i); goto gsync_return; } gsync_anchor_here(); } gsync_anchor_here();
// CHECK-NEXT:   out[v] += s;
// CHECK-NEXT:   { gsync_ret = (0); goto gsync_return; }
// CHECK-NEXT: gsync_return: gsync_anchor_here(); return gsync_ret; }
// CHECK:      static void in_branch(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                       local uint *part) { int gsync_jump = 0;
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     return; gsync_anchor_here();
// CHECK-NEXT:   if (v < 100) { gsync_anchor_here();
// CHECK-NEXT:     uint s = group_sum(v, part);
// CHECK-NEXT:     if (get_local_id(0) != 0)
// CHECK-NEXT:       { gsync_jump = 1; goto gsync_return_2; } gsync_anchor_here();
// CHECK-NEXT:     out[v] += s;
// CHECK-NEXT:   gsync_return_2: gsync_anchor_here(); } gsync_anchor_here();
// CHECK-NEXT:   if (!gsync_jump) { out[v + 100] += 1;
// CHECK-NEXT: } gsync_anchor_here(); }
// CHECK:      static void after_label(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                         local uint *part) { int gsync_jump = 0;
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     goto done; gsync_anchor_here();
// CHECK-NEXT:   uint s = group_sum(v, part);
// CHECK-NEXT:   if (get_local_id(0) != 0)
// CHECK-NEXT:     { gsync_jump = 1; goto gsync_return_2; } gsync_anchor_here();
// CHECK-NEXT:   out[v] += s; gsync_return_2: gsync_anchor_here();
// CHECK-NEXT: gsync_anchor_here(); done:
// CHECK-NEXT:   if (!gsync_jump) { out[v + 200] = 1;
// CHECK-NEXT: } gsync_anchor_here(); }
// CHECK:      static uint in_switch(uint v, local uint *part) { uint gsync_ret; int gsync_jump = 0;
// CHECK-NEXT:   switch (v % 3) {
// CHECK-NEXT:   case 0:
// CHECK-NEXT:     { gsync_anchor_here(); if (group_sum(v, part) > 10 && get_local_id(0) != 0)
// CHECK-NEXT:       { gsync_anchor_here(); { gsync_ret = (1); gsync_jump = 1; goto gsync_return_2; } gsync_anchor_here(); } gsync_anchor_here(); }
// CHECK-NEXT:     { gsync_jump = 2; goto gsync_return_2; } gsync_return_2: gsync_anchor_here();
// CHECK-NEXT:   default:
// CHECK-NEXT:     if (!gsync_jump) { break;
// CHECK-NEXT:   } } gsync_jump *= gsync_jump != 2; gsync_anchor_here();
// CHECK-NEXT:   if (!gsync_jump) { { gsync_ret = (0); goto gsync_return; }
// CHECK-NEXT: } gsync_return: gsync_anchor_here(); return gsync_ret; }
// CHECK:      static void goto_both(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                       local uint *part) {
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     goto done; gsync_anchor_here();
// CHECK-NEXT:   uint s = group_sum(v, part);
// CHECK-NEXT:   if (get_local_id(0) != 0)
// CHECK-NEXT:     goto gsync_goto; gsync_anchor_here();
// CHECK-NEXT:   out[v] += s; gsync_goto: gsync_anchor_here();
// CHECK-NEXT: gsync_anchor_here(); done:
// CHECK-NEXT:   ;
// CHECK-NEXT: }
// CHECK:      static void fall_through(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                          local uint *part) { int gsync_jump = 0;
// CHECK-NEXT:   if (skip[v] == 0) { gsync_anchor_here();
// CHECK-NEXT:     uint s = group_sum(v, part);
// CHECK-NEXT:     if (get_local_id(0) != 0)
// CHECK-NEXT:       { gsync_jump = 2; goto gsync_goto; } gsync_anchor_here();
// CHECK-NEXT:     out[v] += s;
// CHECK-NEXT:   gsync_goto: gsync_anchor_here(); } gsync_anchor_here();
// CHECK-NEXT:   if (!gsync_jump) { out[v + 400] += 1; }
// CHECK-NEXT: gsync_anchor_here(); done:
// CHECK-NEXT:   gsync_jump *= gsync_jump != 2; out[v + 500] += 1;
// CHECK-NEXT: }
// CHECK:      static void into_block(uint v, global uint *out, global const uint *skip,
// CHECK-NEXT:                        local uint *part) {
// CHECK-NEXT:   if (skip[v])
// CHECK-NEXT:     return; gsync_anchor_here();
// CHECK-NEXT:   uint s = group_sum(v, part);
// CHECK-NEXT:   if (get_local_id(0) != 0)
// CHECK-NEXT:     goto inside; gsync_anchor_here();
// CHECK-NEXT:   out[v] += s;
// CHECK-NEXT:   if (v < 100) {
// CHECK-NEXT:   gsync_anchor_here(); inside:
// CHECK-NEXT:     out[v + 600] += 1;
// CHECK-NEXT:   }
// CHECK-NEXT: gsync_anchor_here(); }
// CHECK:      kernel void k(global uint *out, global const uint *skip, uint n,
// CHECK-NEXT:               local uint *part, global uint *gsync_state) { local uint gsync_shared[GSYNC_SHARED_WORDS]; struct gsync_ctx gsync_ctx_v; private struct gsync_ctx *gsync_ctx = &gsync_ctx_v; if (!gsync_join(gsync_state, gsync_shared, gsync_ctx) || !gsync_ctx_grid(gsync_ctx, gsync_shared)) return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   for (uint v = gsync_get_group_id(gsync_ctx, 0); v < n; v += gsync_get_num_groups(gsync_ctx, 0)) { gsync_anchor(gsync_ctx);
// CHECK-NEXT:     if (skip[v])
// CHECK-NEXT:       continue; gsync_anchor(gsync_ctx);
// CHECK-NEXT:     in_branch(v, out, skip, part);
// CHECK-NEXT:     after_label(v, out, skip, part);
// CHECK-NEXT:     out[v + 300] += in_switch(v, part);
// CHECK-NEXT:     goto_both(v, out, skip, part);
// CHECK-NEXT:     fall_through(v, out, skip, part);
// CHECK-NEXT:     into_block(v, out, skip, part);
// CHECK-NEXT:     uint s = leader_sum(v, out, skip, part);
// CHECK-NEXT:     if (get_local_id(0) != 0)
// CHECK-NEXT:       goto gsync_continue; gsync_anchor(gsync_ctx);
// CHECK-NEXT:     out[v] += s;
// CHECK-NEXT:   gsync_continue: gsync_anchor(gsync_ctx); }
// CHECK-NEXT:   gsync_barrier(gsync_ctx, 1);
// CHECK-NEXT:   if (get_local_id(0) != 0)
// CHECK-NEXT:     goto gsync_return; gsync_anchor(gsync_ctx);
// CHECK-NEXT:   out[n + gsync_get_group_id(gsync_ctx, 0)] = 1;
// CHECK-NEXT: gsync_return: gsync_anchor(gsync_ctx); }
// WARN: {{.*}}late-jumps.cl:124:5: warning: 'into_block' leaves after its last barrier by a goto whose ways cannot meet before others come in: its label is not after it in a block around it (1 place); PoCL can run the code after it in every work-item (docs/pocl.md, section 8)
