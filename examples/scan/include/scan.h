// scan.h: one step of a Hillis-Steele prefix sum over the whole grid.
// It calls global_barrier(), so gsync-rewrite gives it the hidden context
// parameter; that takes --inline-includes (INLINE_INCLUDES in CMake), which
// also makes the rewritten kernel need no include path at run time.
#ifndef SCAN_H
#define SCAN_H

// dst[i] = src[i] + src[i - offset] (src[i] for the first offset items),
// then every work-item of the launch waits, so that the next step reads
// only finished sums. N, the array length, comes from -DN=... .
void scan_step(global const uint *src, global uint *dst, uint offset) {
  for (uint i = get_global_id(0); i < N; i += get_global_size(0))
    dst[i] = i >= offset ? src[i] + src[i - offset] : src[i];
  global_barrier();
}

#endif
