/* constraints-fuzzer: a libFuzzer harness for libgsync's constraints
 * loader and the check of a program's source against it.
 *
 * An input is constraints text, optionally followed by a NUL byte and a
 * program source. The harness links libgsync and reaches its internals
 * through runtime/internal.h: the loader without a file, and the
 * state-size arithmetic of gsync_kernel_create without an OpenCL device.
 * No OpenCL call is made, so no driver (and no driver's signal handler)
 * is loaded. Besides the sanitizers it checks libgsync's contract on
 * every input:
 *   - a refused file gets GSYNC_ERR_FORMAT (or GSYNC_ERR_NOMEM), no
 *     program, and a message;
 *   - for an accepted file, every kernel with a state argument has a
 *     state whose size is within libgsync's bounds and holds the
 *     participant count and the abort record, and the bytes gsync_finish
 *     reads, for every group count gsync_kernel_create accepts: the size
 *     it computes is exact, never wrapped;
 *   - its "params", where it has them, are one per parameter before the
 *     state argument, each named and of a kind, a value's size within
 *     bounds, and the copy gsync_kernel_create makes of them is equal;
 *   - the source check answers GSYNC_OK or GSYNC_ERR_MISMATCH, and OK for
 *     a file with a state argument and a fingerprint only if the source
 *     holds that fingerprint;
 *   - the message of an aborted launch, for an abort record taken from the
 *     input, is a terminated string that fits the buffer, however small.
 * A broken contract aborts, which libFuzzer records as a crash.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Says which part of the contract broke, then aborts. */
static void broken(const char *what) {
  fprintf(stderr, "constraints-fuzzer: contract broken: %s\n", what);
  abort();
}

/* Nonzero if the n bytes at s contain the string w. */
static int contains(const char *s, size_t n, const char *w) {
  size_t wl = strlen(w);
  for (size_t i = 0; i + wl <= n; i++)
    if (memcmp(s + i, w, wl) == 0)
      return 1;
  return 0;
}

/* Checks that err holds a terminated message of fewer than len bytes (an
 * empty one only when len leaves no room). */
static void check_message(const char *err, size_t len) {
  if (len > 0 &&
      (memchr(err, '\0', len) == NULL || (len > 1 && err[0] == '\0')))
    broken("a failure without a terminated message");
}

/* Checks the state of kernel k for launches of up to groups work-groups,
 * as gsync_kernel_create computes it. */
static void check_groups(const kernel_info *k, size_t groups) {
  size_t bytes = 0, extra = 0;
  int fits = !__builtin_mul_overflow(k->per_group_bytes, groups, &extra) &&
             extra <= SIZE_MAX - k->fixed_bytes;
  if (gsli_state_size(k, groups, &bytes) != fits)
    broken("gsli_state_size disagrees with exact arithmetic");
  if (!fits)
    return;
  if (bytes != k->fixed_bytes + extra)
    broken("gsli_state_size is not fixed + per_group x groups");
  size_t end = k->participants_offset + 4;
  if (k->has_abort_record && k->abort_offset + k->abort_bytes > end)
    end = k->abort_offset + k->abort_bytes;
  if (end > bytes || end > STATE_READ_BYTES)
    broken("the words gsync_finish reads lie outside the state");
}

/* Checks one accepted kernel's state numbers. */
static void check_kernel(const kernel_info *k) {
  if (k->name == NULL || strlen(k->name) == SIZE_MAX)
    broken("a kernel without a name");
  if (!k->global_barrier)
    return;
  if (k->fixed_bytes > MAX_STATE_FIXED ||
      k->per_group_bytes > MAX_STATE_PER_GROUP)
    broken("a state size above the bounds");
  if (k->participants_offset % 4 != 0 ||
      k->participants_offset + 4 > k->fixed_bytes)
    broken("the participant count outside the fixed state");
  /* Older constraints (a spin limit in polls) have the shorter record. */
  if (k->has_abort_record &&
      (k->abort_offset % 4 != 0 ||
       (k->abort_bytes != ABORT_RECORD_BYTES &&
        k->abort_bytes != ABORT_RECORD_BYTES_UNTIMED) ||
       k->abort_offset + k->abort_bytes > k->fixed_bytes))
    broken("the abort record outside the fixed state");
  if (k->has_params) {
    if (k->n_params != k->state_index)
      broken("params other than one per parameter before the state");
    kernel_info copy = *k;
    if (!gsli_copy_params(&copy, k))
      return; /* out of memory: nothing to compare */
    for (size_t i = 0; i < k->n_params; i++) {
      const param_info *p = &k->params[i], *c = &copy.params[i];
      if (p->name == NULL || p->kind_name == NULL ||
          (p->kind == PARAM_PRIVATE &&
           (p->bytes == 0 || p->bytes > MAX_PARAM_BYTES)))
        broken("a parameter without a name, a kind, or a size in bounds");
      if (strcmp(p->name, c->name) != 0 ||
          strcmp(p->kind_name, c->kind_name) != 0 || p->kind != c->kind ||
          p->bytes != c->bytes)
        broken("a copy of the params that differs");
    }
    gsli_free_params(&copy);
  }
  size_t g[] = {1,
                2,
                3,
                64,
                1000,
                1u << 20,
                (size_t)1 << 32,
                SIZE_MAX / 2,
                SIZE_MAX - 1,
                SIZE_MAX,
                0,
                0,
                0};
  if (k->per_group_bytes != 0) { /* around where the size overflows */
    size_t edge = (SIZE_MAX - k->fixed_bytes) / k->per_group_bytes;
    g[10] = edge - 1;
    g[11] = edge;
    g[12] = edge + 1;
  }
  for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
    if (g[i] != 0)
      check_groups(k, g[i]);
}

/* Formats the abort message for an abort record taken from the input,
 * into buffers of several sizes. */
static void check_abort_message(const gsync_program *p, const kernel_info *k,
                                const uint8_t *data, size_t size) {
  cl_uint rec[ABORT_WORDS] = {0};
  size_t n = size < sizeof rec ? size : sizeof rec;
  memcpy(rec, data + size - n, n);
  if (rec[ABORT_KIND] == 0)
    rec[ABORT_KIND] = ABORTED_IN_BARRIER;
  gsync_kernel gk;
  memset(&gk, 0, sizeof gk);
  gk.info = *k;
  gk.abort = p->abort;
  gk.last_groups = rec[ABORT_EXPECTED];
  static const size_t lens[] = {1, 7, 64, 512};
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    char err[512];
    if (gsli_timeout_error(&gk, rec, err, lens[i]) != GSYNC_ERR_TIMEOUT)
      broken("an abort record not reported as GSYNC_ERR_TIMEOUT");
    check_message(err, lens[i]);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, '\0', size);
  size_t jlen = nul != NULL ? (size_t)(nul - data) : size;
  const char *src = nul != NULL ? (const char *)nul + 1 : NULL;
  size_t slen = nul != NULL ? size - jlen - 1 : 0;
  char err[512];
  gsync_program *p = (gsync_program *)1; /* must be overwritten */

  gsync_status st = gsli_load_text("fuzz.json", (const char *)data, jlen, &p,
                                   err, sizeof err);
  if (st != GSYNC_OK) {
    if (p != (gsync_program *)1 && p != NULL)
      broken("a refused file with a program");
    if (st != GSYNC_ERR_FORMAT && st != GSYNC_ERR_NOMEM)
      broken("a refused file with a status other than FORMAT or NOMEM");
    check_message(err, sizeof err);
    return 0;
  }
  if (p == NULL || p == (gsync_program *)1)
    broken("an accepted file without a program");
  if ((p->fingerprint == NULL) != (p->layout == NULL))
    broken("a fingerprint without a layout, or the other way round");
  for (size_t i = 0; i < p->n_kernels; i++) {
    check_kernel(&p->kernels[i]);
    if (p->kernels[i].global_barrier)
      check_abort_message(p, &p->kernels[i], data, size);
  }
  if (src != NULL) {
    st = gsync_program_check_source(p, src, slen, err, sizeof err);
    if (st != GSYNC_OK && st != GSYNC_ERR_MISMATCH)
      broken("a source check with a status other than OK or MISMATCH");
    if (st != GSYNC_OK)
      check_message(err, sizeof err);
    else if (p->fingerprint != NULL && p->any_barrier &&
             !contains(src, slen, p->fingerprint))
      broken("a source accepted without the constraints' fingerprint");
  }
  gsync_program_release(p);
  return 0;
}
