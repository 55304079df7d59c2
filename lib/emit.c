/* Stage 6, emit: the launch constraints as JSON, format version 1 (see
 * docs/constraints.md). Built with json-c so that quoting is never ours to
 * get wrong.
 */
#include "internal.h"

#include <json-c/json.h>
#include <stdint.h>
#include <string.h>

/* Adds a member whose key is a string constant not yet in obj: json-c then
 * neither copies nor looks the key up. */
static void add(json_object *obj, const char *key, json_object *val) {
  json_object_object_add_ex(obj, key, val,
                            JSON_C_OBJECT_ADD_KEY_IS_NEW |
                                JSON_C_OBJECT_KEY_IS_CONSTANT);
}

/* Adds each string of arr to a new JSON array, skipping duplicates of
 * what the array already holds. */
static void add_unique(json_object *array, char **arr, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int dup = 0;
    for (size_t j = 0; j < json_object_array_length(array); j++)
      dup |= strcmp(json_object_get_string(json_object_array_get_idx(array, j)),
                    arr[i]) == 0;
    if (!dup)
      json_object_array_add(array, json_object_new_string(arr[i]));
  }
}

/* Returns the higher of two "major.minor" version strings. */
static const char *max_version(const char *a, const char *b) {
  return strcmp(a, b) >= 0 ? a : b;
}

/* The JSON object describing one kernel. */
static json_object *kernel_object(gsr_ctx *ctx, const gsr_func *fn) {
  json_object *k = json_object_new_object();
  add(k, "name", json_object_new_string(fn->name));
  add(k, "global_barrier", json_object_new_boolean(fn->reaches_barrier));
  if (!fn->reaches_barrier)
    return k;
  add(k, "work_dim", json_object_new_int(1));
  json_object *arg = json_object_new_object();
  add(arg, "index", json_object_new_int((int)fn->num_params));
  add(arg, "type", json_object_new_string("global uint *"));
  json_object *bytes = json_object_new_object();
  add(bytes, "fixed", json_object_new_int((int)gsr_state_fixed_bytes(ctx)));
  add(bytes, "per_group",
      json_object_new_int((int)gsr_state_per_group_bytes(ctx)));
  add(arg, "bytes", bytes);
  add(arg, "init", json_object_new_string("zero"));
  add(arg, "reset_by_kernel", json_object_new_boolean(1));
  add(arg, "participants_offset",
      json_object_new_int(GSR_STATE_PARTICIPANTS_WORD * 4));
  add(arg, "abort_offset", json_object_new_int(GSR_STATE_ABORT_WORD * 4));
  add(k, "state_arg", arg);
  add(k, "max_work_groups", json_object_new_int(0));
  add(k, "min_local_size", json_object_new_int(1));
  add(k, "coresident_launch_required",
      json_object_new_boolean(ctx->no_discovery));
  return k;
}

/* The table of barrier sites: number -> where the call is written. */
static json_object *sites_array(gsr_ctx *ctx) {
  json_object *sites = json_object_new_array();
  for (size_t i = 0; i < ctx->n_bsites; i++) {
    const gsr_barrier_site *b = &ctx->bsites[i];
    json_object *o = json_object_new_object();
    add(o, "site", json_object_new_int((int)b->number));
    add(o, "file", json_object_new_string(b->file));
    add(o, "line", json_object_new_int((int)b->line));
    add(o, "column", json_object_new_int((int)b->col));
    json_object_array_add(sites, o);
  }
  return sites;
}

/* Writes the constraints JSON into out. */
gsr_status gsr_emit_constraints(gsr_ctx *ctx, gsr_buf *out) {
  json_object *root = json_object_new_object();
  if (!root)
    return GSR_ERR_NOMEM;
  add(root, "format", json_object_new_string("gsync-constraints"));
  add(root, "version", json_object_new_int(1));
  add(root, "tool", json_object_new_string("gsync-rewrite " GSR_VERSION));
  add(root, "input", json_object_new_string(ctx->name));
  add(root, "barrier",
      json_object_new_string(ctx->barrier->name + strlen("barrier-")));
  add(root, "discovery", json_object_new_boolean(!ctx->no_discovery));
  add(root, "spin_limit", json_object_new_int64((int64_t)ctx->spin_limit));

  json_object *req = json_object_new_object();
  add(req, "opencl_c_version",
      json_object_new_string(
          max_version(ctx->barrier->opencl_c, ctx->discovery->opencl_c)));
  json_object *ext = json_object_new_array();
  const gsr_rule *prelude = gsr_rules_find(&ctx->rules, "prelude", NULL);
  add_unique(ext, ctx->barrier->extensions, ctx->barrier->n_extensions);
  if (prelude)
    add_unique(ext, prelude->extensions, prelude->n_extensions);
  add_unique(ext, ctx->discovery->extensions, ctx->discovery->n_extensions);
  add(req, "extensions", ext);
  json_object *caps = json_object_new_array();
  add_unique(caps, ctx->barrier->capabilities, ctx->barrier->n_capabilities);
  add_unique(caps, ctx->discovery->capabilities,
             ctx->discovery->n_capabilities);
  add(req, "atomic_capabilities", caps);
  add(root, "requires", req);

  json_object *kernels = json_object_new_array();
  for (size_t i = 0; i < ctx->n_funcs; i++)
    if (ctx->funcs[i].is_kernel && ctx->funcs[i].has_def)
      json_object_array_add(kernels, kernel_object(ctx, &ctx->funcs[i]));
  add(root, "kernels", kernels);
  add(root, "barrier_sites", sites_array(ctx));
  /* What ties this file to its output (layout.c). */
  add(root, "fingerprint", json_object_new_string(ctx->fingerprint));
  gsr_buf layout = {0};
  gsr_layout_string(ctx, &layout);
  add(root, "state_layout",
      json_object_new_string(layout.data ? layout.data : ""));
  int failed = layout.failed;
  gsr_buf_free(&layout);

  gsr_buf_puts(out, json_object_to_json_string_ext(
                        root, JSON_C_TO_STRING_PRETTY |
                                  JSON_C_TO_STRING_SPACED |
                                  JSON_C_TO_STRING_NOSLASHESCAPE));
  gsr_buf_puts(out, "\n");
  json_object_put(root);
  return failed || out->failed ? GSR_ERR_NOMEM : GSR_OK;
}
