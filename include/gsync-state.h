/* gsync-state.h: what the tool and libgsync must compute alike: the
 * fingerprint of an output and its constraints, and the hash of the state
 * table (gsync-state.def) that an output's layout string carries
 * ("table=H"), so that the tool that writes them and the libgsync that
 * reads them agree by construction (docs/constraints.md).
 */
#ifndef GSYNC_STATE_H
#define GSYNC_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* The fingerprint's value while it is hashed: as long as the hash in
 * hex. */
#define GSYNC_FINGERPRINT_PLACEHOLDER "0000000000000000"

/* The fingerprint of an output of n bytes and of its constraints' compact
 * form canon (docs/constraints.md, "Fingerprint"): FNV-1a over the output
 * with the 16 bytes at value read as the placeholder (value past the
 * output: it has no fingerprint line), a NUL, and canon. The tool writes
 * it; libgsync takes it again from a program's source. */
static inline uint64_t gsync_fingerprint(const char *out, size_t n,
                                         size_t value, const char *canon) {
  size_t fl = sizeof GSYNC_FINGERPRINT_PLACEHOLDER - 1;
  uint64_t h;
  if (value < n && n - value >= fl) {
    h = gsync_fnv1a(GSYNC_FNV_OFFSET, out, value);
    h = gsync_fnv1a(h, GSYNC_FINGERPRINT_PLACEHOLDER, fl);
    h = gsync_fnv1a(h, out + value + fl, n - value - fl);
  } else {
    h = gsync_fnv1a(GSYNC_FNV_OFFSET, out, n);
  }
  h = gsync_fnv1a(h, "", 1);
  return gsync_fnv1a(h, canon, strlen(canon));
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
