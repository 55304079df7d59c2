/* Stage 5, apply: copies the input to the output with the planned edits.
 *
 * An edit is {offset, length, text} over the original bytes. Edits are
 * sorted; identical ones (the same macro body reached from several places)
 * collapse into one; any other overlap is an error, as is an edit of a span
 * that must be kept (text NULL: an id in a macro body that also expands in
 * code that does not take part). Outside the edits the output is the input,
 * byte for byte.
 */
#include "internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Records an edit. text NULL marks a span that must stay as it is. */
void gsri_add_edit(gsri_ctx *ctx, size_t offset, size_t length,
                   const char *text) {
  if (offset + length > ctx->src_len)
    return;
  if (ctx->n_edits == ctx->cap_edits) {
    size_t cap = ctx->cap_edits ? ctx->cap_edits * 2 : 32;
    gsri_edit *p = realloc(ctx->edits, cap * sizeof *p);
    if (!p) {
      gsri_nomem(ctx);
      return;
    }
    ctx->edits = p;
    ctx->cap_edits = cap;
  }
  /* An edit lies inside the input; NULL text keeps its span as it is. */
  assert(ctx->n_edits < ctx->cap_edits && offset <= ctx->src_len &&
         length <= ctx->src_len - offset);
  gsri_edit *e = &ctx->edits[ctx->n_edits];
  e->offset = offset;
  e->length = length;
  e->text = text ? gsri_strdup(text) : NULL;
  e->order = (unsigned)ctx->n_edits;
  e->rank = 0;
  if (text && !e->text) {
    gsri_nomem(ctx);
    return;
  }
  ctx->n_edits++;
}

void gsri_add_insert(gsri_ctx *ctx, size_t offset, const char *text,
                     long long rank) {
  size_t n = ctx->n_edits;
  gsri_add_edit(ctx, offset, 0, text);
  if (ctx->n_edits > n)
    ctx->edits[n].rank = rank;
}

/* Orders edits by offset, then by length, then by rank, then by insertion
 * order. */
static int cmp_edit(const void *pa, const void *pb) {
  const gsri_edit *a = pa, *b = pb;
  if (a->offset != b->offset)
    return a->offset < b->offset ? -1 : 1;
  if (a->length != b->length)
    return a->length < b->length ? -1 : 1;
  if (a->rank != b->rank)
    return a->rank < b->rank ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

/* Nonzero if two edits are the same change. */
static int same_edit(const gsri_edit *a, const gsri_edit *b) {
  return a->offset == b->offset && a->length == b->length &&
         ((!a->text && !b->text) ||
          (a->text && b->text && strcmp(a->text, b->text) == 0));
}

/* Applies the edits; appends the result to out. */
gsr_status gsri_apply(gsri_ctx *ctx, gsri_buf *out) {
  if (ctx->n_edits)
    qsort(ctx->edits, ctx->n_edits, sizeof *ctx->edits, cmp_edit);
  size_t n = 0;
  for (size_t i = 0; i < ctx->n_edits; i++) {
    if (n && same_edit(&ctx->edits[n - 1], &ctx->edits[i])) {
      free(ctx->edits[i].text);
      continue;
    }
    ctx->edits[n++] = ctx->edits[i];
  }
  ctx->n_edits = n;

  size_t pos = 0;
  unsigned before = ctx->errors;
  for (size_t i = 0; i < n; i++) {
    const gsri_edit *e = &ctx->edits[i];
    const gsri_edit *next = i + 1 < n ? &ctx->edits[i + 1] : NULL;
    int overlaps = next && (next->offset < e->offset + e->length ||
                            (next->offset == e->offset && e->length));
    if (overlaps && (e->text || next->text) && !(!e->text && !next->text)) {
      unsigned line, col;
      gsri_line_col(ctx, e->offset, &line, &col);
      gsri_report(ctx, GSR_ERROR, line, col,
                  "conflicting rewrites of the same text: a macro body used "
                  "both by code that takes part in a global barrier and by "
                  "code that does not");
      continue;
    }
    if (!e->text)
      continue;
    assert(e->offset >= pos);
    gsri_buf_append(out, ctx->src + pos, e->offset - pos);
    gsri_buf_puts(out, e->text);
    pos = e->offset + e->length;
  }
  gsri_buf_append(out, ctx->src + pos, ctx->src_len - pos);
  if (ctx->errors > before)
    return GSR_ERR_INPUT;
  return out->failed ? GSR_ERR_NOMEM : GSR_OK;
}
