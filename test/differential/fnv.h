/* The differential test's result hash: FNV-1a (64 bits) over bytes, what
 * gsync-diffhost (host.c), fibers.c and run.py's digest() compute over a,
 * b and f[0..2], so that results from any device compare. Start from
 * FNV_START. */
#ifndef GSYNC_DIFF_FNV_H
#define GSYNC_DIFF_FNV_H
#include <stddef.h>
#include <stdint.h>

#define FNV_START 14695981039346656037ull

static inline uint64_t fnv(uint64_t h, const void *p, size_t len) {
  const unsigned char *b = p;
  for (size_t i = 0; i < len; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
#endif
