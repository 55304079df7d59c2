/* A hash table from keys to positions in the caller's arrays, so that the
 * stages look a function, a macro or a variable up in constant time instead
 * of scanning every one (which made large inputs quadratic).
 *
 * The table stores only (hash, position); the keys stay in the caller's
 * array, and the caller's equality callback compares the key sought with
 * the one at a position. Open addressing with linear probing; nothing is
 * ever removed.
 */
#include "internal.h"

#include <stdlib.h>

#define EMPTY ((size_t)-1)

/* Inserts without growing; the table has a free slot. */
static void put(gsri_table *t, unsigned hash, size_t pos) {
  size_t mask = t->cap - 1;
  size_t i = hash & mask;
  while (t->slots[i].pos != EMPTY)
    i = (i + 1) & mask;
  t->slots[i].hash = hash;
  t->slots[i].pos = pos;
  t->n++;
}

/* Records that the key at pos has this hash. Returns 0 if out of memory. */
int gsri_table_add(gsri_table *t, unsigned hash, size_t pos) {
  if ((t->n + 1) * 4 > t->cap * 3) { /* keep it at most 3/4 full */
    gsri_table old = *t;
    t->cap = old.cap ? old.cap * 2 : 64;
    t->n = 0;
    t->slots = malloc(t->cap * sizeof *t->slots);
    if (!t->slots) {
      *t = old;
      return 0;
    }
    for (size_t i = 0; i < t->cap; i++)
      t->slots[i].pos = EMPTY;
    for (size_t i = 0; i < old.cap; i++)
      if (old.slots[i].pos != EMPTY)
        put(t, old.slots[i].hash, old.slots[i].pos);
    free(old.slots);
  }
  put(t, hash, pos);
  return 1;
}

/* Returns the position of a key with this hash for which eq(user, pos) is
 * nonzero, or (size_t)-1. */
size_t gsri_table_find(const gsri_table *t, unsigned hash,
                       int (*eq)(const void *user, size_t pos),
                       const void *user) {
  if (!t->cap)
    return EMPTY;
  size_t mask = t->cap - 1;
  for (size_t i = hash & mask; t->slots[i].pos != EMPTY; i = (i + 1) & mask)
    if (t->slots[i].hash == hash && eq(user, t->slots[i].pos))
      return t->slots[i].pos;
  return EMPTY;
}

/* Frees the table and empties it. */
void gsri_table_free(gsri_table *t) {
  free(t->slots);
  t->slots = NULL;
  t->n = t->cap = 0;
}

/* FNV-1a over a NUL-terminated string. */
unsigned gsri_hash_string(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}
