/* The state layout and the output's fingerprint.
 *
 * The host must launch a rewritten kernel with a state buffer laid out as
 * the rules in its source expect; the sizes and offsets reach it through
 * the constraints file, a separate file that can be stale, mixed up with
 * another rewrite's, or edited. So the output and the constraints carry
 * the same two strings (docs/constraints.md, "Fingerprint"):
 *   gsync_state_layout  the rules (their names and a hash of their text)
 *                       and every size and offset of the state buffer;
 *   gsync_fingerprint   a hash of the whole output, which therefore
 *                       identifies one rewrite.
 * libgsync compares both with the source a program was built from, and
 * every size and offset of the constraints with the layout, before it
 * creates a state buffer. The hash is 64-bit FNV-1a: it detects accidents,
 * not forgeries.
 */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* The placeholder the fingerprint replaces: as long as the hash in hex. */
#define FINGERPRINT_PLACEHOLDER "0000000000000000"
#define FINGERPRINT_LINE "#define gsync_fingerprint \""

/* Folds n bytes of s into the FNV-1a hash h. Returns the new hash. */
static uint64_t hash_bytes(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= FNV_PRIME;
  }
  return h;
}

/* Folds a rule's name and text into h, each followed by a NUL so that no
 * two different rule sets hash as one string. */
static uint64_t hash_rule(uint64_t h, const gsri_rule *r) {
  h = hash_bytes(h, r->name, strlen(r->name) + 1);
  return hash_bytes(h, r->text, r->len);
}

/* Bytes of the state buffer's fixed part: the words every rule shares,
 * then the barrier's and the discovery's own. */
unsigned gsri_state_fixed_bytes(const gsri_ctx *ctx) {
  return GSR_STATE_BARRIER_WORD * 4 + ctx->barrier->state_fixed +
         ctx->discovery->state_fixed;
}

/* Bytes of state per launched work-group. */
unsigned gsri_state_per_group_bytes(const gsri_ctx *ctx) {
  return ctx->barrier->state_per_group + ctx->discovery->state_per_group;
}

/* The most work-groups a launch may have: the smaller bound of the
 * barrier's and the discovery's @max-groups; 0 when neither has one. */
unsigned long gsri_max_groups(const gsri_ctx *ctx) {
  unsigned long b = ctx->barrier->max_groups, d = ctx->discovery->max_groups;
  return b == 0 ? d : d == 0 || b < d ? b : d;
}

/* Appends the layout string: the rules by name and by a hash of their
 * text, and the layout of the state buffer. libgsync parses it, so its
 * grammar is fixed (docs/constraints.md). */
void gsri_layout_string(const gsri_ctx *ctx, gsri_buf *out) {
  uint64_t h = FNV_OFFSET;
  const gsri_rule *prelude = gsri_rules_find(&ctx->rules, "prelude", NULL);
  if (prelude)
    h = hash_rule(h, prelude);
  h = hash_rule(h, ctx->barrier);
  h = hash_rule(h, ctx->discovery);
  gsri_buf_printf(out,
                  "gsync-layout/1 barrier=%s discovery=%s rules=%016llx "
                  "fixed=%u per_group=%u participants=%u grid=%u abort=%u "
                  "record=%u",
                  ctx->barrier->name + strlen("barrier-"),
                  ctx->discovery->name + strlen("discovery-"),
                  (unsigned long long)h, gsri_state_fixed_bytes(ctx),
                  gsri_state_per_group_bytes(ctx),
                  GSR_STATE_PARTICIPANTS_WORD * 4, GSR_STATE_GRID_WORD * 4,
                  GSR_STATE_ABORT_WORD * 4, GSR_STATE_ABORT_RECORD_BYTES);
}

/* Appends the two lines that identify the output, the fingerprint still a
 * placeholder that gsri_seal_fingerprint() fills in. */
void gsri_render_fingerprint(const gsri_ctx *ctx, gsri_buf *out) {
  gsri_buf_puts(out, FINGERPRINT_LINE FINGERPRINT_PLACEHOLDER "\"\n");
  gsri_buf_puts(out, "#define gsync_state_layout \"");
  gsri_layout_string(ctx, out);
  gsri_buf_puts(out, "\"\n");
}

/* Hashes the finished output into ctx->fingerprint and, if rendered is
 * set (the output begins with the prelude; a file with no
 * global_barrier() passes through without it, untouched), writes the hash
 * over the placeholder. The hash is taken with the placeholder in place,
 * so a reader can recompute it. */
void gsri_seal_fingerprint(gsri_ctx *ctx, gsri_buf *output, int rendered) {
  static const char line[] = FINGERPRINT_LINE FINGERPRINT_PLACEHOLDER;
  const char *text = output->data ? output->data : "";
  uint64_t h = hash_bytes(FNV_OFFSET, text, output->len);
  snprintf(ctx->fingerprint, sizeof ctx->fingerprint, "%016llx",
           (unsigned long long)h);
  if (!rendered)
    return;
  /* The first occurrence is the prelude's: nothing comes before it. */
  for (size_t i = 0; i + sizeof line - 1 <= output->len; i++)
    if (memcmp(output->data + i, line, sizeof line - 1) == 0) {
      memcpy(output->data + i + strlen(FINGERPRINT_LINE), ctx->fingerprint,
             strlen(FINGERPRINT_PLACEHOLDER));
      return;
    }
}
