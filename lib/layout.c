/* The state layout and the output's fingerprint.
 *
 * The host must launch a rewritten kernel with a state buffer laid out as
 * the rules in its source expect; the sizes and offsets reach it through
 * the constraints file, a separate file that can be stale, mixed up with
 * another rewrite's, or edited. So the output and the constraints carry
 * the same two strings (docs/constraints.md, "Fingerprint"):
 *   gsync_state_layout  the rules (their names and a hash of their text),
 *                       the state table (a hash of it) and every size and
 *                       offset of the state buffer;
 *   gsync_fingerprint   a hash of the whole output and of everything the
 *                       constraints say, which therefore identifies one
 *                       rewrite: its output, and its constraints to the
 *                       last build option.
 * libgsync recomputes the fingerprint from the source a program was built
 * from and the constraints it loaded, and compares every size and offset
 * of the constraints with the layout, before it creates a state buffer.
 * The hash is 64-bit FNV-1a: it detects accidents, not forgeries.
 */
#include "internal.h"

#include "gsync-state.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FINGERPRINT_LINE "#define gsync_fingerprint \""

/* Folds a rule's name and text into h, each followed by a NUL so that no
 * two different rule sets hash as one string. */
static uint64_t hash_rule(uint64_t h, const gsri_rule *r) {
  h = gsync_fnv1a(h, r->name, strlen(r->name) + 1);
  return gsync_fnv1a(h, r->text, r->len);
}

/* Appends the table as macros: gsync_word_NAME (and gsync_words_NAME, a
 * region's length) for the words, gsync_NAME for the values. */
void gsri_render_state_table(gsri_buf *out) {
  gsri_buf_puts(out, "/* The state buffer's words (docs/constraints.md). */\n");
#define GSYNC_STATE_REGION(name, first, words, owner, text)                    \
  gsri_buf_puts(out, "#define gsync_word_" #name " " #first "u\n"              \
                     "#define gsync_words_" #name " " #words "u\n");
#define GSYNC_STATE_WORD(name, word, text)                                     \
  gsri_buf_puts(out, "#define gsync_word_" #name " " #word "u\n");
#define GSYNC_STATE_VALUE(word, name, value, text)                             \
  gsri_buf_puts(out, "#define gsync_" #name " " #value "u\n");
#include "gsync-state.def"
#undef GSYNC_STATE_REGION
#undef GSYNC_STATE_WORD
#undef GSYNC_STATE_VALUE
}

/* Bytes of the state buffer's fixed part: the words every rule shares,
 * then the barrier's and the discovery's own. */
unsigned gsri_state_fixed_bytes(const gsri_ctx *ctx) {
  return GSR_WORD_rules * 4 + ctx->barrier->state_fixed +
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
 * text, the state table by a hash of its entries, and the layout of the
 * state buffer. libgsync parses it, so its grammar is fixed
 * (docs/constraints.md). */
void gsri_layout_string(const gsri_ctx *ctx, gsri_buf *out) {
  uint64_t h = GSYNC_FNV_OFFSET;
  const gsri_rule *prelude = gsri_rules_find(&ctx->rules, "prelude", NULL);
  if (prelude)
    h = hash_rule(h, prelude);
  h = hash_rule(h, ctx->barrier);
  h = hash_rule(h, ctx->discovery);
  uint64_t table = gsync_state_table_hash();
  gsri_buf_printf(out,
                  "gsync-layout/2 barrier=%s discovery=%s rules=%016llx "
                  "table=%016llx fixed=%u per_group=%u participants=%u "
                  "grid=%u abort=%u record=%u",
                  ctx->barrier->name + strlen("barrier-"),
                  ctx->discovery->name + strlen("discovery-"),
                  (unsigned long long)h, (unsigned long long)table,
                  gsri_state_fixed_bytes(ctx), gsri_state_per_group_bytes(ctx),
                  GSR_WORD_participants * 4, GSR_WORD_grid * 4,
                  GSR_WORD_abort * 4, GSR_WORDS_abort * 4);
  if (!ctx->no_discovery && ctx->discovery->poll_cap)
    gsri_buf_printf(out, " poll_cap=%u", GSR_WORD_poll_cap * 4);
}

/* Appends the two lines that identify the output, the fingerprint still a
 * placeholder that gsri_seal_fingerprint() fills in. */
void gsri_render_fingerprint(const gsri_ctx *ctx, gsri_buf *out) {
  gsri_buf_puts(out, FINGERPRINT_LINE GSYNC_FINGERPRINT_PLACEHOLDER "\"\n");
  gsri_buf_puts(out, "#define gsync_state_layout \"");
  gsri_layout_string(ctx, out);
  gsri_buf_puts(out, "\"\n");
}

/* Hashes the finished output and the constraints (canon, their compact
 * form with the placeholder as "fingerprint") into ctx->fingerprint and,
 * if rendered is set (the output begins with the prelude; a file with no
 * global_barrier() passes through without it, untouched), writes the hash
 * over the placeholder: FNV-1a over the output, a NUL, and canon. Both
 * are hashed with the placeholder in place, so a reader can recompute it,
 * and so the fingerprint covers everything either file says: two runs
 * whose outputs are byte for byte the same but whose constraints differ
 * (another -D in the build options) write different fingerprints. */
void gsri_seal_fingerprint(gsri_ctx *ctx, gsri_buf *output, int rendered,
                           const char *canon) {
  static const char line[] = FINGERPRINT_LINE GSYNC_FINGERPRINT_PLACEHOLDER;
  const char *text = output->data ? output->data : "";
  /* The placeholder's place: the first occurrence is the prelude's,
   * nothing comes before it. */
  size_t at = (size_t)-1;
  for (size_t i = 0; rendered && i + sizeof line - 1 <= output->len; i++)
    if (memcmp(text + i, line, sizeof line - 1) == 0) {
      at = i + strlen(FINGERPRINT_LINE);
      break;
    }
  snprintf(ctx->fingerprint, sizeof ctx->fingerprint, "%016llx",
           (unsigned long long)gsync_fingerprint(text, output->len, at, canon));
  if (at != (size_t)-1)
    memcpy(output->data + at, ctx->fingerprint,
           strlen(GSYNC_FINGERPRINT_PLACEHOLDER));
}
