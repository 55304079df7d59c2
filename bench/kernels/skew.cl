// Benchmark input for bench/skew.sh: ITERS phases in which only work-group
// 0 works and every other group waits at the barrier, as in the uneven
// phases of graph kernels (one hub vertex). Group 0's work-items chase
// SKEW_WORK dependent loads through a table of data[0 .. 4095] (16 KiB,
// which an L1 keeps), then store their sum past the table. A barrier whose
// waiting groups disturb the working group (polls that invalidate the SM's
// L1, or flood its memory path) makes each phase slower the more groups
// wait; skew.sh compares the phase's time with many waiting groups against
// few, minus the same kernel built with SKEW_WORK 0 (the barrier alone).
// Signature of loop.cl (gsync-bench time): n is the buffer's length,
// at least 4096 + the group's size.
#ifndef SKEW_WORK
#define SKEW_WORK 256
#endif
kernel void loop(global uint *data, uint n, uint iters) {
  uint lid = get_local_id(0);
  for (uint it = 0; it < iters; it++) {
    if (get_group_id(0) == 0 && 4096u + lid < n) {
      uint at = lid * 37u;
      for (uint k = 0; k < SKEW_WORK; k++)
        at = data[at & 4095u] + at * 5u + k;
      data[4096u + lid] = at;
    }
    global_barrier();
  }
}
