/* Stage 6, emit: the launch constraints as JSON, format version 1 (see
 * docs/constraints.md). Built with json-c so that quoting is never ours to
 * get wrong.
 */
#include "internal.h"

#include "gsync-state.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The dimensions that the work-item calls of kernel fn ask about, its own
 * and those of every function it calls at any depth (gsri_func.dims bits);
 * (unsigned)-1 when out of memory. */
static unsigned kernel_dims(gsri_ctx *ctx, const gsri_func *fn) {
  unsigned char *seen = calloc(ctx->n_funcs ? ctx->n_funcs : 1, 1);
  size_t *work = malloc((ctx->n_funcs ? ctx->n_funcs : 1) * sizeof *work);
  size_t n = 0;
  unsigned dims = (unsigned)-1;
  if (!seen || !work)
    goto free_work;
  dims = 0;
  work[n++] = (size_t)(fn - ctx->funcs);
  seen[work[0]] = 1;
  while (n) {
    const gsri_func *f = &ctx->funcs[work[--n]];
    dims |= f->dims;
    for (size_t s = 0; s < f->n_sites; s++) {
      size_t c = (size_t)f->sites[s].callee;
      if (f->sites[s].kind == GSR_SITE_CALL && !seen[c]) {
        seen[c] = 1;
        work[n++] = c;
      }
    }
  }
free_work:
  free(seen);
  free(work);
  return dims;
}

/* Clang's numbering of the OpenCL address spaces (LangAS), as
 * clang_getAddressSpace gives them for a pointee (opencl-c.c, uniform.c). */
enum { AS_GLOBAL = 1, AS_LOCAL = 2, AS_CONSTANT = 3 };

/* The "params" entry of kernel parameter parm: its name, what kind of
 * argument it takes and, for a value, its size, so that libgsync can set
 * a harmless argument of each for the probe of how many work-groups fit
 * (docs/constraints.md). Images, samplers, pipes and queues are handles
 * the host makes; the probe cannot make one up, and refuses them. */
static json_object *param_object(CXCursor parm) {
  json_object *p = json_object_new_object();
  CXString name = clang_getCursorSpelling(parm);
  add(p, "name", json_object_new_string(clang_getCString(name)));
  clang_disposeString(name);
  CXType t = clang_getCanonicalType(clang_getCursorType(parm));
  const char *kind = "private";
  long long bytes = -1;
  int array = t.kind == CXType_ConstantArray ||
              t.kind == CXType_IncompleteArray ||
              t.kind == CXType_VariableArray;
  if (t.kind == CXType_Pointer || array) {
    /* A parameter written as an array is a pointer; libclang gives its
     * type as written, the address space on the array. */
    unsigned as = clang_getAddressSpace(array ? t : clang_getPointeeType(t));
    kind = as == AS_GLOBAL     ? "global"
           : as == AS_CONSTANT ? "constant"
           : as == AS_LOCAL    ? "local"
                               : "unknown"; /* clang refuses others */
  } else if (t.kind >= CXType_OCLImage1dRO && t.kind <= CXType_OCLImage3dRW) {
    kind = "image";
  } else if (t.kind == CXType_OCLSampler) {
    kind = "sampler";
  } else if (t.kind == CXType_Pipe) {
    kind = "pipe";
  } else if (t.kind == CXType_OCLQueue) {
    kind = "queue";
  } else if ((bytes = clang_Type_getSizeOf(t)) <= 0) {
    kind = "unknown"; /* an incomplete type: clang has reported it */
  }
  add(p, "kind", json_object_new_string(kind));
  if (bytes > 0)
    add(p, "bytes", json_object_new_int64(bytes));
  return p;
}

/* The JSON object describing one kernel; NULL when out of memory. */
static json_object *kernel_object(gsri_ctx *ctx, const gsri_func *fn) {
  json_object *k = json_object_new_object();
  add(k, "name", json_object_new_string(fn->name));
  add(k, "global_barrier", json_object_new_boolean(fn->reaches_barrier));
  if (!fn->reaches_barrier)
    return k;
  unsigned dims = kernel_dims(ctx, fn);
  if (dims == (unsigned)-1) {
    json_object_put(k);
    return NULL;
  }
  int work_dim = dims & 4u ? 3 : dims & 2u ? 2 : 1;
  add(k, "work_dim", json_object_new_int(work_dim));
  json_object *used = json_object_new_array();
  for (int d = 0; d < 3; d++)
    if (dims & (1u << d))
      json_object_array_add(used, json_object_new_int(d));
  add(k, "dimensions", used);
  add(k, "run_time_dimension",
      json_object_new_boolean((dims & GSR_DIM_RUN_TIME) != 0));
  json_object *params = json_object_new_array();
  for (unsigned i = 0; i < fn->num_params; i++)
    json_object_array_add(params,
                          param_object(clang_Cursor_getArgument(fn->def, i)));
  add(k, "params", params);
  json_object *arg = json_object_new_object();
  add(arg, "index", json_object_new_int((int)fn->num_params));
  add(arg, "type", json_object_new_string("global uint *"));
  json_object *bytes = json_object_new_object();
  add(bytes, "fixed", json_object_new_int((int)gsri_state_fixed_bytes(ctx)));
  add(bytes, "per_group",
      json_object_new_int((int)gsri_state_per_group_bytes(ctx)));
  add(arg, "bytes", bytes);
  add(arg, "init", json_object_new_string("zero"));
  add(arg, "reset_by_kernel", json_object_new_boolean(1));
  add(arg, "participants_offset",
      json_object_new_int(GSR_WORD_participants * 4));
  add(arg, "grid_offset", json_object_new_int(GSR_WORD_grid * 4));
  add(arg, "abort_offset", json_object_new_int(GSR_WORD_abort * 4));
  if (!ctx->no_discovery && ctx->discovery->poll_cap)
    add(arg, "poll_cap_offset", json_object_new_int(GSR_WORD_poll_cap * 4));
  add(k, "state_arg", arg);
  add(k, "max_work_groups",
      json_object_new_int64((int64_t)gsri_max_groups(ctx)));
  add(k, "min_local_size", json_object_new_int(1));
  add(k, "coresident_launch_required",
      json_object_new_boolean(ctx->no_discovery));
  return k;
}

/* The table of barrier sites: number -> where the call is written. */
static json_object *sites_array(gsri_ctx *ctx) {
  json_object *sites = json_object_new_array();
  for (size_t i = 0; i < ctx->n_bsites; i++) {
    const gsri_barrier_site *b = &ctx->bsites[i];
    json_object *o = json_object_new_object();
    add(o, "site", json_object_new_int((int)b->number));
    add(o, "file", json_object_new_string(b->file));
    add(o, "line", json_object_new_int((int)b->line));
    add(o, "column", json_object_new_int((int)b->col));
    json_object_array_add(sites, o);
  }
  return sites;
}

/* Adds to arr option opt joined to path, made absolute against the working
 * directory (the host that builds the output runs elsewhere). */
static void add_path_option(gsri_ctx *ctx, json_object *arr, const char *opt,
                            const char *path, size_t path_len) {
  gsri_buf b = {0};
  gsri_buf_puts(&b, opt);
  if (path_len == 0 || path[0] != '/') {
    char *cwd = getcwd(NULL, 0);
    gsri_buf_printf(&b, "%s/", cwd ? cwd : ".");
    free(cwd);
  }
  gsri_buf_append(&b, path, path_len);
  const char *text = gsri_buf_text(ctx, &b);
  json_object_array_add(arr,
                        json_object_new_string_len(text, (int)strlen(text)));
  gsri_buf_free(&b);
}

/* Nonzero if the -D option d ("-DNAME" or "-DNAME=VALUE") defines name. */
static int defines(const char *d, const char *name) {
  size_t n = strlen(name);
  return strncmp(d + 2, name, n) == 0 && (d[2 + n] == '\0' || d[2 + n] == '=');
}

/* The options clBuildProgram needs besides -cl-std= (which follows from
 * "requires"): the preprocessor options the input was rewritten with, as
 * OpenCL's clBuildProgram takes them (-D and -I only), one argument each,
 * -I paths made absolute, and first -I for the input's directory, where its
 * quoted includes were found. A -U cancels the -D of its name before it;
 * a -U of any other macro and an -include cannot be passed on, and are
 * reported (once the output needs a build of ours: it calls a barrier).
 * -cl-ext= describes the device to the parse; drivers refuse it
 * (CL_INVALID_BUILD_OPTIONS), and "requires" names the features the output
 * uses. With --inline-includes the output holds every included text, so
 * no -I is needed, whether or not the input included anything. */
static json_object *build_options(gsri_ctx *ctx) {
  json_object *arr = json_object_new_array();
  const gsr_options *o = ctx->opt;
  int warn = ctx->n_barrier_sites > 0;
  int inlined = o->inline_includes;
  if (!inlined) {
    const char *slash = strrchr(ctx->main_path, '/');
    add_path_option(
        ctx, arr, "-I", ctx->main_path,
        slash && slash > ctx->main_path ? (size_t)(slash - ctx->main_path) : 1);
  }
  for (int i = 0; i < o->num_parser_args; i++) {
    const char *a = o->parser_args[i];
    if (strcmp(a, "-include") == 0 && i + 1 < o->num_parser_args) {
      const char *file = o->parser_args[++i];
      if (!inlined && warn)
        gsri_report(ctx, GSR_WARNING, 0, 0,
                    "clBuildProgram takes no -include: the output needs '%s' "
                    "included before it (--inline-includes writes its text "
                    "into the output)",
                    file);
      continue;
    }
    if (a[0] == '-' && (a[1] == 'D' || a[1] == 'U' || a[1] == 'I')) {
      char flag[3] = {'-', a[1], '\0'};
      const char *value = a + 2;
      if (!*value && i + 1 < o->num_parser_args)
        value = o->parser_args[++i];
      if (a[1] == 'I') {
        if (!inlined)
          add_path_option(ctx, arr, flag, value, strlen(value));
        continue;
      }
      if (a[1] == 'U') {
        int cancelled = 0;
        for (size_t k = json_object_array_length(arr); k-- > 0;) {
          const char *d =
              json_object_get_string(json_object_array_get_idx(arr, k));
          if (d[1] == 'D' && defines(d, value)) {
            json_object_array_del_idx(arr, k, 1);
            cancelled = 1;
          }
        }
        if (!cancelled && warn)
          gsri_report(ctx, GSR_WARNING, 0, 0,
                      "clBuildProgram takes no -U: libgsync builds the output "
                      "without '-U%s'",
                      value);
        continue;
      }
      gsri_buf b = {0};
      gsri_buf_printf(&b, "%s%s", flag, value);
      json_object_array_add(arr,
                            json_object_new_string(gsri_buf_text(ctx, &b)));
      gsri_buf_free(&b);
    }
    /* Nothing else: -cl-std= follows from "requires", and -cl-ext= told
     * the parse about the device. */
  }
  return arr;
}

/* The "auto" object of --barrier=auto (docs/auto.md): each candidate
 * rule inside the output with what the output needs when it is the one
 * built: its guard macro, whether it splits, the OpenCL C version,
 * extensions and atomic capabilities, and the state's bytes, each
 * counted as for the top-level fields of an output of that rule alone. */
static json_object *auto_object(gsri_ctx *ctx) {
  json_object *rules = json_object_new_array();
  const gsri_rule *prelude = gsri_rules_find(&ctx->rules, "prelude", NULL);
  for (size_t i = 0; i < ctx->n_auto; i++) {
    const gsri_rule *r = ctx->auto_rules[i];
    json_object *o = json_object_new_object();
    add(o, "name", json_object_new_string(r->name + strlen("barrier-")));
    gsri_buf macro = {0};
    gsri_auto_macro(&macro, r->name);
    add(o, "define", json_object_new_string(gsri_buf_text(ctx, &macro)));
    gsri_buf_free(&macro);
    add(o, "splits", json_object_new_boolean(r->splits));
    json_object *req = json_object_new_object();
    const char *v = r->opencl_c;
    if (strcmp(ctx->discovery->opencl_c, v) > 0)
      v = ctx->discovery->opencl_c;
    if (strcmp(ctx->cl_std, v) > 0)
      v = ctx->cl_std;
    add(req, "opencl_c_version", json_object_new_string(v));
    json_object *ext = json_object_new_array();
    add_unique(ext, r->extensions, r->n_extensions);
    if (prelude)
      add_unique(ext, prelude->extensions, prelude->n_extensions);
    add_unique(ext, ctx->discovery->extensions, ctx->discovery->n_extensions);
    add(req, "extensions", ext);
    json_object *caps = json_object_new_array();
    add_unique(caps, r->capabilities, r->n_capabilities);
    add_unique(caps, ctx->discovery->capabilities,
               ctx->discovery->n_capabilities);
    add(req, "atomic_capabilities", caps);
    add(o, "requires", req);
    json_object *bytes = json_object_new_object();
    add(bytes, "fixed",
        json_object_new_int64((int64_t)GSR_WORD_rules * 4 + r->state_fixed +
                              ctx->discovery->state_fixed));
    add(bytes, "per_group",
        json_object_new_int64((int64_t)r->state_per_group +
                              ctx->discovery->state_per_group));
    add(o, "state_bytes", bytes);
    json_object_array_add(rules, o);
  }
  json_object *a = json_object_new_object();
  add(a, "rules", rules);
  return a;
}

/* Writes the constraints JSON into out, and seals the fingerprint of the
 * two files (gsri_seal_fingerprint) into both: output is the finished
 * output, rendered whether it has the prelude. */
gsr_status gsri_emit_constraints(gsri_ctx *ctx, gsri_buf *output, int rendered,
                                 gsri_buf *out) {
  json_object *root = json_object_new_object();
  if (!root)
    return GSR_ERR_NOMEM;
  add(root, "format", json_object_new_string("gsync-constraints"));
  add(root, "version", json_object_new_int(1));
  add(root, "tool", json_object_new_string("gsync-rewrite " GSR_VERSION));
  add(root, "input", json_object_new_string(ctx->name));
  add(root, "barrier",
      json_object_new_string(ctx->barrier->name + strlen("barrier-")));
  if (ctx->n_auto)
    add(root, "auto", auto_object(ctx));
  add(root, "discovery", json_object_new_boolean(!ctx->no_discovery));
  add(root, "spin_limit_ms", json_object_new_int64((int64_t)ctx->spin_limit));

  json_object *req = json_object_new_object();
  add(req, "opencl_c_version",
      json_object_new_string(gsri_output_version(ctx)));
  json_object *ext = json_object_new_array();
  const gsri_rule *prelude = gsri_rules_find(&ctx->rules, "prelude", NULL);
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
  json_object *features = json_object_new_array();
  for (int f = 0; f < GSR_N_FEATURES; f++)
    if (ctx->features_used & (1u << f))
      json_object_array_add(features,
                            json_object_new_string(gsri_feature_names[f]));
  add(req, "opencl_c_features", features);
  add(root, "requires", req);
  json_object *build = json_object_new_object();
  add(build, "options", build_options(ctx));
  add(root, "build", build);

  json_object *kernels = json_object_new_array();
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    if (!ctx->funcs[i].is_kernel || !ctx->funcs[i].has_def)
      continue;
    json_object *k = kernel_object(ctx, &ctx->funcs[i]);
    if (!k) {
      json_object_put(root);
      return GSR_ERR_NOMEM;
    }
    json_object_array_add(kernels, k);
  }
  add(root, "kernels", kernels);
  add(root, "barrier_sites", sites_array(ctx));
  /* What ties this file to its output (layout.c): the output's length
   * (a program's source begins with the output, and may go on) and the
   * fingerprint of both, taken with its placeholder here. */
  add(root, "output_bytes", json_object_new_int64((int64_t)output->len));
  add(root, "fingerprint",
      json_object_new_string(GSYNC_FINGERPRINT_PLACEHOLDER));
  gsri_buf layout = {0};
  gsri_layout_string(ctx, &layout);
  add(root, "state_layout",
      json_object_new_string(layout.data ? layout.data : ""));
  int failed = layout.failed;
  gsri_buf_free(&layout);
  const char *canon = json_object_to_json_string_ext(
      root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
  if (canon == NULL) {
    json_object_put(root);
    return GSR_ERR_NOMEM;
  }
  gsri_seal_fingerprint(ctx, output, rendered, canon);
  /* In place of the placeholder, where the key is. */
  json_object_object_add(root, "fingerprint",
                         json_object_new_string(ctx->fingerprint));

  gsri_buf_puts(out,
                json_object_to_json_string_ext(
                    root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                              JSON_C_TO_STRING_NOSLASHESCAPE));
  gsri_buf_puts(out, "\n");
  json_object_put(root);
  return failed || out->failed ? GSR_ERR_NOMEM : GSR_OK;
}
