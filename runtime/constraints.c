/* The constraints file's fields: validated access to the parsed JSON
 * document (each lookup checks the field's type, and its range, and names
 * the field in its message), and the loaders of the file's parts: the
 * spin limit and barrier sites, "requires", "build", and each kernel with
 * its state numbers and "params". program.c parses the document and calls
 * them; identity.c checks the fields that say which output the file
 * belongs to. */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The atomic capability names the constraints use, and their bits. */
const struct gsli_atomic_cap gsli_atomic_cap_names[] = {
    {"relaxed", CL_DEVICE_ATOMIC_ORDER_RELAXED},
    {"acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
    {"seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
    {"work_item_scope", CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM},
    {"work_group_scope", CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP},
    {"device_scope", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
    {"all_devices_scope", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
};
_Static_assert(sizeof gsli_atomic_cap_names / sizeof gsli_atomic_cap_names[0] ==
                   N_ATOMIC_CAPS,
               "N_ATOMIC_CAPS (internal.h) counts gsli_atomic_cap_names");

/* ---- Validated access to the JSON document ---- */

/* Returns the name of a json-c type as a message would say it. */
static const char *json_type_word(json_type t) {
  switch (t) {
  case json_type_boolean:
    return "a boolean";
  case json_type_int:
    return "an integer";
  case json_type_string:
    return "a string";
  case json_type_array:
    return "an array";
  case json_type_object:
    return "an object";
  default:
    return "a value of another type";
  }
}

/* Looks up key in obj and checks its type. Returns GSYNC_OK and sets *out,
 * or GSYNC_ERR_FORMAT naming the file and field. When optional is set, a
 * missing key is GSYNC_OK with *out = NULL. */
gsync_status gsli_get_field(const where *w, json_object *obj, const char *key,
                            json_type type, int optional, json_object **out) {
  json_object *v = NULL;
  const char *dot = w->path[0] != '\0' ? "." : "";
  *out = NULL;
  if (!json_object_object_get_ex(obj, key, &v) || v == NULL) {
    if (optional)
      return GSYNC_OK;
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s%s%s\" is missing", w->file, w->path, dot,
                     key);
  }
  if (!json_object_is_type(v, type))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s%s%s\" must be %s", w->file, w->path, dot,
                     key, json_type_word(type));
  *out = v;
  return GSYNC_OK;
}

/* The value of the integer v into *n; 0 if it lies beyond int64, which
 * json-c gives as int64's limit. */
int gsli_json_int(json_object *v, int64_t *n) {
  *n = json_object_get_int64(v);
  if (*n == INT64_MAX && json_object_get_uint64(v) != (uint64_t)INT64_MAX)
    return 0;
  if (*n == INT64_MIN && json_object_get_double(v) < (double)INT64_MIN)
    return 0;
  return 1;
}

/* Reads a non-negative integer field no larger than max into *out. Returns
 * GSYNC_OK, or GSYNC_ERR_FORMAT naming the field. When optional is set and
 * the key is missing, *out keeps its value. */
gsync_status gsli_get_count(const where *w, json_object *obj, const char *key,
                            int optional, int64_t max, size_t *out) {
  json_object *v;
  gsync_status st = gsli_get_field(w, obj, key, json_type_int, optional, &v);
  if (st != GSYNC_OK || v == NULL)
    return st;
  int64_t n;
  if (!gsli_json_int(v, &n) || n < 0 || n > max)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s%s%s\" is out of range", w->file, w->path,
                     w->path[0] != '\0' ? "." : "", key);
  *out = (size_t)n;
  return GSYNC_OK;
}

/* Reads a boolean field into *out (0 or 1). Returns GSYNC_OK or
 * GSYNC_ERR_FORMAT; when optional and missing, *out keeps its value. */
gsync_status gsli_get_bool(const where *w, json_object *obj, const char *key,
                           int optional, int *out) {
  json_object *v;
  gsync_status st =
      gsli_get_field(w, obj, key, json_type_boolean, optional, &v);
  if (st == GSYNC_OK && v != NULL)
    *out = json_object_get_boolean(v) ? 1 : 0;
  return st;
}

/* Parses "M.m" into major * 10 + minor. Returns -1 if s is not of that
 * form with single-digit parts. */
static int parse_version(const char *s) {
  if (s[0] < '0' || s[0] > '9' || s[1] != '.' || s[2] < '0' || s[2] > '9' ||
      s[3] != '\0')
    return -1;
  return (s[0] - '0') * 10 + (s[2] - '0');
}

/* Reads the array of strings obj.key (NULL and 0 if optional and absent)
 * into a new array of copies. Returns GSYNC_OK, GSYNC_ERR_FORMAT naming the
 * element that is not a string, or GSYNC_ERR_NOMEM. On failure the copies
 * made so far are in *out, *n of them, for the caller to free. */
static gsync_status get_strings(const where *w, json_object *obj,
                                const char *key, int optional, char ***out,
                                size_t *n) {
  json_object *arr;
  gsync_status st =
      gsli_get_field(w, obj, key, json_type_array, optional, &arr);
  if (st != GSYNC_OK || arr == NULL)
    return st;
  size_t len = json_object_array_length(arr);
  *out = calloc(len > 0 ? len : 1, sizeof **out);
  if (*out == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  for (size_t i = 0; i < len; i++) {
    json_object *e = json_object_array_get_idx(arr, i);
    if (!json_object_is_type(e, json_type_string))
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s%s%s[%zu]\" must be a string", w->file,
                       w->path, w->path[0] != '\0' ? "." : "", key, i);
    if (((*out)[i] = gsli_dup_string(json_object_get_string(e))) == NULL)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w->file);
    *n = i + 1;
  }
  return GSYNC_OK;
}

/* Nonzero if the macro name at v starts with the prefix gsync-rewrite
 * reserves, gsync_ in any case: its own macros and the rules' tunables. */
static int reserved_macro(const char *v) {
  static const char prefix[] = "gsync_";
  for (size_t i = 0; i < sizeof prefix - 1; i++)
    if ((v[i] >= 'A' && v[i] <= 'Z' ? v[i] - 'A' + 'a' : v[i]) != prefix[i])
      return 0;
  return 1;
}

/* Fills p->build_args from "build.options", optional (files from before
 * it have none). A -D or -U of a reserved name is refused: the tool never
 * writes one (it refuses them), and with one a rule built from these
 * options could use more state than the file's sizes give it. */
gsync_status gsli_load_build(const where *top, json_object *root,
                             gsync_program *p) {
  json_object *build;
  gsync_status st =
      gsli_get_field(top, root, "build", json_type_object, 1, &build);
  if (st != GSYNC_OK || build == NULL)
    return st;
  where w = *top;
  w.path = "build";
  st = get_strings(&w, build, "options", 0, &p->build_args, &p->n_build_args);
  for (size_t i = 0; st == GSYNC_OK && i < p->n_build_args; i++) {
    const char *a = p->build_args[i], *v = a + 2;
    if (a[0] != '-' || (a[1] != 'D' && a[1] != 'U'))
      continue;
    if (*v == '\0' && i + 1 < p->n_build_args)
      v = p->build_args[i + 1];
    v += strspn(v, " \t");
    if (reserved_macro(v))
      st =
          gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                    "%s: field \"build.options[%zu]\" (\"%.80s\") %s a macro "
                    "with the prefix gsync_ (in any case), which gsync-rewrite "
                    "reserves for its own macros and its rules' tunables: the "
                    "file was edited",
                    w.file, i, a, a[1] == 'D' ? "defines" : "undefines");
  }
  return st;
}

/* Fills *n from the requirements object req, which w names (its path is
 * "requires" or an "auto" rule's): "opencl_c_version", "extensions",
 * "atomic_capabilities" and, where features is set, "opencl_c_features"
 * (may be absent: none). Returns GSYNC_OK, GSYNC_ERR_FORMAT or
 * GSYNC_ERR_NOMEM; what was copied before a failure is in *n. */
static gsync_status load_needs(const where *w, json_object *req, int features,
                               gsli_needs *n) {
  json_object *v, *arr;
  gsync_status st;
  if ((st =
           gsli_get_field(w, req, "opencl_c_version", json_type_string, 0, &v)))
    return st;
  n->c_version = parse_version(json_object_get_string(v));
  if (n->c_version < 10)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.opencl_c_version\" is not a version "
                     "like \"1.2\": \"%s\"",
                     w->file, w->path, json_object_get_string(v));

  if ((st = get_strings(w, req, "extensions", 0, &n->extensions,
                        &n->n_extensions)) ||
      (features && (st = get_strings(w, req, "opencl_c_features", 1,
                                     &n->features, &n->n_features))))
    return st;

  if ((st = gsli_get_field(w, req, "atomic_capabilities", json_type_array, 0,
                           &arr)))
    return st;
  size_t len = json_object_array_length(arr);
  for (size_t i = 0; i < len; i++) {
    json_object *e = json_object_array_get_idx(arr, i);
    if (!json_object_is_type(e, json_type_string))
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.atomic_capabilities[%zu]\" must be a "
                       "string",
                       w->file, w->path, i);
    const char *name = json_object_get_string(e);
    size_t k = 0;
    while (k < N_ATOMIC_CAPS &&
           strcmp(gsli_atomic_cap_names[k].name, name) != 0)
      k++;
    if (k == N_ATOMIC_CAPS)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.atomic_capabilities[%zu]\" names an "
                       "unknown capability \"%s\"",
                       w->file, w->path, i, name);
    n->atomic_caps |= gsli_atomic_cap_names[k].bit;
  }
  return GSYNC_OK;
}

/* Fills program->needs from the "requires" object. Returns GSYNC_OK,
 * GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
gsync_status gsli_load_requires(const where *top, json_object *root,
                                gsync_program *p) {
  json_object *req;
  gsync_status st =
      gsli_get_field(top, root, "requires", json_type_object, 0, &req);
  if (st != GSYNC_OK)
    return st;
  where w = *top;
  w.path = "requires";
  return load_needs(&w, req, 1, &p->needs);
}

/* Frees what a gsli_needs holds. */
void gsli_free_needs(gsli_needs *n) {
  for (size_t i = 0; i < n->n_extensions; i++)
    free(n->extensions[i]);
  free(n->extensions);
  for (size_t i = 0; i < n->n_features; i++)
    free(n->features[i]);
  free(n->features);
  memset(n, 0, sizeof *n);
}

/* Whether define is the guard macro gsync-rewrite writes for the rule
 * name: GSYNC_BARRIER_ and the name in upper case, '-' as '_'. Nothing
 * else may reach the build options from the file. */
static int auto_define_of(const char *name, const char *define) {
  static const char prefix[] = "GSYNC_BARRIER_";
  if (*name == '\0' || strncmp(define, prefix, sizeof prefix - 1) != 0)
    return 0;
  define += sizeof prefix - 1;
  for (; *name; name++, define++) {
    char c = *name;
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == '_' || c == '-';
    char u = c == '-' ? '_' : c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
    if (!ok || *define != u)
      return 0;
  }
  return *define == '\0';
}

/* Fills p->auto_rules from "auto" (docs/auto.md): present exactly when
 * "barrier" is "auto", each rule's "name", "define" (its guard macro, and
 * nothing else), "splits", "requires" and "state_bytes", which must fit
 * in the state of every kernel with a state argument (so call it after
 * the kernels are loaded). Returns GSYNC_OK, GSYNC_ERR_FORMAT or
 * GSYNC_ERR_NOMEM. */
gsync_status gsli_load_auto(const where *top, json_object *root,
                            gsync_program *p) {
  json_object *a, *rules;
  gsync_status st = gsli_get_field(top, root, "auto", json_type_object, 1, &a);
  int is_auto = strcmp(p->barrier, "auto") == 0;
  p->chosen = -1;
  if (st != GSYNC_OK)
    return st;
  if (a == NULL && is_auto)
    return gsli_fail(top->err, top->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"auto\" is missing (\"barrier\" is "
                     "\"auto\")",
                     top->file);
  if (a == NULL)
    return GSYNC_OK;
  if (!is_auto)
    return gsli_fail(top->err, top->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"auto\" is there, but \"barrier\" is "
                     "\"%s\", not \"auto\"",
                     top->file, p->barrier);
  where w = *top;
  w.path = "auto";
  if ((st = gsli_get_field(&w, a, "rules", json_type_array, 0, &rules)))
    return st;
  size_t n = json_object_array_length(rules);
  if (n == 0)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"auto.rules\" is empty", w.file);
  p->auto_rules = calloc(n, sizeof *p->auto_rules);
  if (p->auto_rules == NULL)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w.file);
  for (size_t i = 0; i < n; i++) {
    char path[64];
    json_object *e = json_object_array_get_idx(rules, i), *v, *req, *bytes;
    gsli_auto_rule *r = &p->auto_rules[i];
    p->n_auto = i + 1;
    where rw = w;
    snprintf(path, sizeof path, "auto.rules[%zu]", i);
    rw.path = path;
    if (!json_object_is_type(e, json_type_object))
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s\" must be an object", w.file, path);
    if ((st = gsli_get_field(&rw, e, "name", json_type_string, 0, &v)))
      return st;
    r->name = gsli_dup_string(json_object_get_string(v));
    if ((st = gsli_get_field(&rw, e, "define", json_type_string, 0, &v)))
      return st;
    r->define = gsli_dup_string(json_object_get_string(v));
    if (r->name == NULL || r->define == NULL)
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w.file);
    if (!auto_define_of(r->name, r->define))
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.define\" (\"%.80s\") is not the "
                       "guard macro of rule \"%.80s\": the file was edited",
                       w.file, path, r->define, r->name);
    for (size_t k = 0; k < i; k++)
      if (strcmp(p->auto_rules[k].name, r->name) == 0)
        return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                         "%s: field \"%s.name\": rule \"%s\" is there "
                         "twice",
                         w.file, path, r->name);
    if ((st = gsli_get_bool(&rw, e, "splits", 0, &r->splits)) ||
        (st = gsli_get_field(&rw, e, "requires", json_type_object, 0, &req)))
      return st;
    char rpath[80];
    where qw = rw;
    snprintf(rpath, sizeof rpath, "%s.requires", path);
    qw.path = rpath;
    if ((st = load_needs(&qw, req, 0, &r->needs)) ||
        (st = gsli_get_field(&rw, e, "state_bytes", json_type_object, 0,
                             &bytes)))
      return st;
    char bpath[80];
    where bw = rw;
    snprintf(bpath, sizeof bpath, "%s.state_bytes", path);
    bw.path = bpath;
    if ((st = gsli_get_count(&bw, bytes, "fixed", 0, INT32_MAX,
                             &r->fixed_bytes)) ||
        (st = gsli_get_count(&bw, bytes, "per_group", 0, INT32_MAX,
                             &r->per_group_bytes)))
      return st;
    for (size_t k = 0; k < p->n_kernels; k++) {
      const kernel_info *ki = &p->kernels[k];
      if (ki->global_barrier && (r->fixed_bytes > ki->fixed_bytes ||
                                 r->per_group_bytes > ki->per_group_bytes))
        return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                         "%s: field \"%s.state_bytes\" (%zu + %zu per group) "
                         "does not fit the state of kernel %s (%zu + %zu)",
                         w.file, path, r->fixed_bytes, r->per_group_bytes,
                         ki->name, ki->fixed_bytes, ki->per_group_bytes);
    }
  }
  return GSYNC_OK;
}

/* Sets *w to look inside element index of the top-level array name, an
 * object, naming it "name[index]" in path (of len bytes). Returns GSYNC_OK,
 * or GSYNC_ERR_FORMAT if the element is not an object. */
static gsync_status enter_element(const where *top, const char *name,
                                  size_t index, json_object *obj, char *path,
                                  size_t len, where *w) {
  *w = *top;
  snprintf(path, len, "%s[%zu]", name, index);
  w->path = path;
  if (!json_object_is_type(obj, json_type_object))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s\" must be an object", w->file, path);
  return GSYNC_OK;
}

/* The kinds of "params" entries, as the file spells them: those the
 * probe sets (global, constant, local, private) and the handles it
 * cannot make up, with how a message names them. */
const struct gsli_param_kind gsli_param_kinds[] = {
    {"global", "a global pointer", PARAM_GLOBAL},
    {"constant", "a constant pointer", PARAM_CONSTANT},
    {"local", "a local pointer", PARAM_LOCAL},
    {"private", "a value", PARAM_PRIVATE},
    {"image", "an image", PARAM_OTHER},
    {"sampler", "a sampler", PARAM_OTHER},
    {"pipe", "a pipe", PARAM_OTHER},
    {"queue", "a device queue", PARAM_OTHER},
};
_Static_assert(sizeof gsli_param_kinds / sizeof gsli_param_kinds[0] ==
                   N_PARAM_KINDS,
               "N_PARAM_KINDS (internal.h) counts gsli_param_kinds");

/* Frees the parameters of k. */
void gsli_free_params(kernel_info *k) {
  for (size_t i = 0; i < k->n_params; i++) {
    free(k->params[i].name);
    free(k->params[i].kind_name);
  }
  free(k->params);
  k->params = NULL;
  k->n_params = 0;
}

/* Copies the parameters of src into dst, whose other fields are a copy of
 * src's. Returns 0 when out of memory, leaving dst with none. */
int gsli_copy_params(kernel_info *dst, const kernel_info *src) {
  dst->params =
      calloc(src->n_params > 0 ? src->n_params : 1, sizeof *dst->params);
  dst->n_params = 0;
  if (dst->params == NULL)
    return 0;
  for (size_t i = 0; i < src->n_params; i++) {
    param_info *p = &dst->params[i];
    *p = src->params[i];
    p->name = gsli_dup_string(src->params[i].name);
    p->kind_name = gsli_dup_string(src->params[i].kind_name);
    dst->n_params = i + 1;
    if (p->name == NULL || p->kind_name == NULL) {
      gsli_free_params(dst);
      return 0;
    }
  }
  return 1;
}

/* Fills k's parameters from the optional "params" of the kernel object
 * obj (w names it): one object per parameter before the state argument,
 * each with a "kind" string, "bytes" (1 to MAX_PARAM_BYTES) where the
 * kind is "private", and an optional "name". A kind this libgsync does
 * not know is PARAM_OTHER: only the probe refuses it. Returns GSYNC_OK,
 * GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
static gsync_status load_params(const where *w, json_object *obj,
                                kernel_info *k) {
  json_object *arr, *v;
  char path[96];
  gsync_status st = gsli_get_field(w, obj, "params", json_type_array, 1, &arr);
  if (st != GSYNC_OK || arr == NULL)
    return st;
  size_t n = json_object_array_length(arr);
  if (n != k->state_index)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.params\" lists %zu parameters, but the "
                     "state argument's index is %u",
                     w->file, w->path, n, (unsigned)k->state_index);
  k->has_params = 1;
  k->params = calloc(n > 0 ? n : 1, sizeof *k->params);
  if (k->params == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  for (size_t i = 0; i < n; i++) {
    param_info *p = &k->params[i];
    where e = *w;
    snprintf(path, sizeof path, "%s.params[%zu]", w->path, i);
    e.path = path;
    json_object *o = json_object_array_get_idx(arr, i);
    if (!json_object_is_type(o, json_type_object))
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s\" must be an object", w->file, path);
    k->n_params = i + 1;
    if ((st = gsli_get_field(&e, o, "name", json_type_string, 1, &v)))
      return st;
    if ((p->name = gsli_dup_string(v != NULL ? json_object_get_string(v)
                                             : "")) == NULL)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w->file);
    if ((st = gsli_get_field(&e, o, "kind", json_type_string, 0, &v)))
      return st;
    if ((p->kind_name = gsli_dup_string(json_object_get_string(v))) == NULL)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w->file);
    p->kind = PARAM_OTHER;
    for (size_t j = 0; j < N_PARAM_KINDS; j++)
      if (strcmp(gsli_param_kinds[j].name, p->kind_name) == 0)
        p->kind = gsli_param_kinds[j].kind;
    if (p->kind != PARAM_PRIVATE)
      continue;
    if ((st = gsli_get_count(&e, o, "bytes", 0, MAX_PARAM_BYTES, &p->bytes)))
      return st;
    if (p->bytes == 0)
      return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.bytes\" is out of range", w->file, path);
  }
  return GSYNC_OK;
}

/* Fills *k from kernels[index] of the constraints; its abort record, if
 * any, is record_bytes long. Returns GSYNC_OK, GSYNC_ERR_FORMAT or
 * GSYNC_ERR_NOMEM. */
gsync_status gsli_load_kernel(const where *top, json_object *obj, size_t index,
                              size_t record_bytes, kernel_info *k) {
  char path[64], sub[96];
  json_object *v, *state, *bytes;
  gsync_status st;
  where w;
  if ((st = enter_element(top, "kernels", index, obj, path, sizeof path, &w)) ||
      (st = gsli_get_field(&w, obj, "name", json_type_string, 0, &v)))
    return st;
  k->name = gsli_dup_string(json_object_get_string(v));
  if (k->name == NULL)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w.file);
  if ((st = gsli_get_bool(&w, obj, "global_barrier", 0, &k->global_barrier)))
    return st;
  if (!k->global_barrier)
    return GSYNC_OK;

  size_t dim = 1;
  if ((st = gsli_get_count(&w, obj, "work_dim", 0, 3, &dim)))
    return st;
  if (dim == 0)
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.work_dim\" is out of range", w.file, path);
  k->work_dim = (cl_uint)dim;
  if ((st = gsli_get_count(&w, obj, "max_work_groups", 0, INT64_MAX,
                           &k->max_work_groups)) ||
      (st = gsli_get_count(&w, obj, "min_local_size", 0, INT64_MAX,
                           &k->min_local_size)) ||
      (st = gsli_get_bool(&w, obj, "coresident_launch_required", 1,
                          &k->coresident_launch_required)))
    return st;

  if ((st = gsli_get_field(&w, obj, "state_arg", json_type_object, 0, &state)))
    return st;
  snprintf(sub, sizeof sub, "%s.state_arg", path);
  w.path = sub;
  size_t idx;
  if ((st = gsli_get_count(&w, state, "index", 0, UINT32_MAX - 1, &idx)) ||
      (st = gsli_get_field(&w, state, "init", json_type_string, 0, &v)))
    return st;
  k->state_index = (cl_uint)idx;
  if (strcmp(json_object_get_string(v), "zero") != 0)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.init\" is \"%s\"; this libgsync knows only "
        "\"zero\"",
        w.file, sub, json_object_get_string(v));
  if ((st = gsli_get_bool(&w, state, "reset_by_kernel", 0,
                          &k->reset_by_kernel)) ||
      (st = gsli_get_count(&w, state, "participants_offset", 0, INT64_MAX,
                           &k->participants_offset)) ||
      (st = gsli_get_field(&w, state, "bytes", json_type_object, 0, &bytes)))
    return st;
  snprintf(sub, sizeof sub, "%s.state_arg.bytes", path);
  if ((st = gsli_get_count(&w, bytes, "fixed", 0, MAX_STATE_FIXED,
                           &k->fixed_bytes)) ||
      (st = gsli_get_count(&w, bytes, "per_group", 0, MAX_STATE_PER_GROUP,
                           &k->per_group_bytes)))
    return st;
  if (k->participants_offset % 4 != 0 ||
      k->participants_offset + 4 > k->fixed_bytes)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.participants_offset\" (%zu) is not "
        "an aligned uint32 inside the %zu fixed bytes",
        w.file, path, k->participants_offset, k->fixed_bytes);
  /* Optional: constraints from before N-D launches have no grid. */
  k->grid_offset = SIZE_MAX;
  snprintf(sub, sizeof sub, "%s.state_arg", path);
  if ((st = gsli_get_count(&w, state, "grid_offset", 1, INT64_MAX,
                           &k->grid_offset)))
    return st;
  k->has_grid = k->grid_offset != SIZE_MAX;
  if (k->has_grid && (k->grid_offset % 4 != 0 || k->fixed_bytes < 12 ||
                      k->grid_offset > k->fixed_bytes - 12))
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.grid_offset\" (%zu) is not three "
        "aligned uint32 inside the %zu fixed bytes",
        w.file, path, k->grid_offset, k->fixed_bytes);
  if (k->participants_offset + 4 > STATE_READ_BYTES)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.participants_offset\" (%zu) lies "
        "beyond the first %u bytes of the state, which libgsync reads",
        w.file, path, k->participants_offset, STATE_READ_BYTES);
  /* Optional: constraints from before the spin limit have no record. */
  k->abort_offset = SIZE_MAX;
  if ((st = gsli_get_count(&w, state, "abort_offset", 1, INT64_MAX,
                           &k->abort_offset)))
    return st;
  k->has_abort_record = k->abort_offset != SIZE_MAX;
  k->abort_bytes = record_bytes;
  if (k->has_abort_record &&
      (k->abort_offset % 4 != 0 || k->fixed_bytes < record_bytes ||
       k->abort_offset > k->fixed_bytes - record_bytes))
    return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"%s.state_arg.abort_offset\" (%zu) is not an "
                     "aligned record of %zu bytes inside the %zu fixed bytes",
                     w.file, path, k->abort_offset, record_bytes,
                     k->fixed_bytes);
  if (k->has_abort_record && k->abort_offset + record_bytes > STATE_READ_BYTES)
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.abort_offset\" (%zu) lies beyond "
        "the first %u bytes of the state, which libgsync reads",
        w.file, path, k->abort_offset, STATE_READ_BYTES);
  /* Optional: only discovery rules that read a poll cap have one. */
  k->poll_cap_offset = SIZE_MAX;
  if ((st = gsli_get_count(&w, state, "poll_cap_offset", 1, INT64_MAX,
                           &k->poll_cap_offset)))
    return st;
  k->has_poll_cap = k->poll_cap_offset != SIZE_MAX;
  if (k->has_poll_cap &&
      (k->poll_cap_offset % 4 != 0 || k->poll_cap_offset + 4 > k->fixed_bytes))
    return gsli_fail(
        w.err, w.errlen, GSYNC_ERR_FORMAT,
        "%s: field \"%s.state_arg.poll_cap_offset\" (%zu) is not an "
        "aligned uint32 inside the %zu fixed bytes",
        w.file, path, k->poll_cap_offset, k->fixed_bytes);
  w.path = path;
  return load_params(&w, obj, k);
}

/* Fills p->abort from "spin_limit_ms" and "barrier_sites", both optional
 * (files from before the limit was a time have neither, or the older
 * "spin_limit", which counted polls and is not read). Returns GSYNC_OK,
 * GSYNC_ERR_FORMAT or GSYNC_ERR_NOMEM. */
gsync_status gsli_load_sites(const where *top, json_object *root,
                             gsync_program *p) {
  json_object *arr, *v;
  gsync_status st;
  p->abort.discovery = p->discovery;
  p->abort.spin_limit_ms = SIZE_MAX;
  if ((st = gsli_get_count(top, root, "spin_limit_ms", 1, UINT32_MAX,
                           &p->abort.spin_limit_ms)))
    return st;
  p->timed_record = p->abort.spin_limit_ms != SIZE_MAX;
  if (!p->timed_record)
    p->abort.spin_limit_ms = 0;
  if ((st = gsli_get_field(top, root, "barrier_sites", json_type_array, 1,
                           &arr)) ||
      (st = gsli_get_field(top, root, "barrier_sites", json_type_array, 1,
                           &arr)) ||
      arr == NULL)
    return st;
  size_t n = json_object_array_length(arr);
  p->abort.site_places = calloc(n > 0 ? n : 1, sizeof(char *));
  if (p->abort.site_places == NULL)
    return gsli_fail(top->err, top->errlen, GSYNC_ERR_NOMEM,
                     "%s: out of memory", top->file);
  p->abort.n_sites = n;
  for (size_t i = 0; i < n; i++) {
    char path[48], place[512];
    json_object *e = json_object_array_get_idx(arr, i);
    size_t site = 0, line = 0, col = 0;
    where w;
    if ((st = enter_element(top, "barrier_sites", i, e, path, sizeof path,
                            &w)) ||
        (st = gsli_get_count(&w, e, "site", 0, UINT32_MAX, &site)) ||
        (st = gsli_get_field(&w, e, "file", json_type_string, 0, &v)) ||
        (st = gsli_get_count(&w, e, "line", 0, UINT32_MAX, &line)) ||
        (st = gsli_get_count(&w, e, "column", 0, UINT32_MAX, &col)))
      return st;
    if (site != i + 1)
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_FORMAT,
                       "%s: field \"%s.site\" is %zu; sites are numbered 1, 2, "
                       "... in order",
                       w.file, path, site);
    snprintf(place, sizeof place, "%s:%zu:%zu", json_object_get_string(v), line,
             col);
    if ((p->abort.site_places[i] = gsli_dup_string(place)) == NULL)
      return gsli_fail(w.err, w.errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                       w.file);
  }
  return GSYNC_OK;
}
