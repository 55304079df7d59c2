/* gsync-state.h: what the tool and libgsync must compute alike: the hash
 * of the state table (gsync-state.def) that an output's layout string
 * carries ("table=H"), so that the tool that writes it and the libgsync
 * that reads it can tell whether they were built from one table; and the
 * hash function of that and of the fingerprint (docs/constraints.md).
 */
#ifndef GSYNC_STATE_H
#define GSYNC_STATE_H

#include <stddef.h>
#include <stdint.h>

/* The hash that fingerprints and the table's hash use: 64-bit FNV-1a.
 * gsync_fnv1a(GSYNC_FNV_OFFSET, p, n) hashes n bytes; passing the result
 * back in continues the hash with more. */
#define GSYNC_FNV_OFFSET 0xcbf29ce484222325ull
static inline uint64_t gsync_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* The FNV-1a hash of the table's entries as one string of their kinds,
 * names and numbers as written ("R name first words;W name word;V word
 * name value;"); python/gsync/layout.py builds the same string. */
static inline uint64_t gsync_state_table_hash(void) {
  static const char text[] =
#define GSYNC_STATE_REGION(name, first, words, owner, doc)                     \
  "R " #name " " #first " " #words ";"
#define GSYNC_STATE_WORD(name, word, doc) "W " #name " " #word ";"
#define GSYNC_STATE_VALUE(word, name, value, doc)                              \
  "V " #word " " #name " " #value ";"
#include "gsync-state.def"
#undef GSYNC_STATE_REGION
#undef GSYNC_STATE_WORD
#undef GSYNC_STATE_VALUE
      ;
  return gsync_fnv1a(GSYNC_FNV_OFFSET, text, sizeof text - 1);
}

#endif
