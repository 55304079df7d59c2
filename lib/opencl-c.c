/* The OpenCL C language of the input: its version (-cl-std=) and the
 * optional features of OpenCL C 3.0 (-cl-ext=), turned into libclang's
 * arguments before the parse; and, after it, the features the output uses,
 * which the constraints name so that the host can check the device.
 *
 * OpenCL C 3.0 made most of 2.0 optional. A 3.0 device lists the features
 * it has (CL_DEVICE_OPENCL_C_FEATURES) and its compiler defines a macro of
 * the same name for each, so a source parsed with other features than the
 * device's can mean something else (#ifdef __opencl_c_...) or not build
 * there. The input is parsed as the driver of a full-profile 3.0 device
 * with C11 atomics would parse it: by default with the features PoCL 3.1
 * declares (the device CI builds on), which are also those the default
 * forms of the C11 atomic functions need; -cl-ext=+NAME,-NAME changes them
 * as it does for clang. OpenCL C 2.0 has every feature.
 *
 * libclang 14 does not know every feature as a compiler option (device
 * scope atomics are a header macro there), so each feature that is on is
 * also defined as a macro, as a driver does; a redefinition with the same
 * value is silent. So are the macros every driver predefines and clang's
 * OpenCL parse lacks (__OPENCL_VERSION__, __IMAGE_SUPPORT__): what the
 * tool sees as a kernel must be what the driver sees as one.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Bits of the known features, in the order of gsri_feature_names, which
 * is alphabetical (the order the constraints list them in). */
enum {
  F_3D_IMAGE_WRITES,
  F_ACQ_REL,
  F_SEQ_CST,
  F_SCOPE_ALL,
  F_SCOPE_DEVICE,
  F_DEVICE_ENQUEUE,
  F_FP64,
  F_GENERIC,
  F_IMAGES,
  F_INT64,
  F_PIPES,
  F_PROGRAM_SCOPE,
  F_READ_WRITE_IMAGES,
  F_SUBGROUPS,
  F_WG_COLLECTIVE
};
#define BIT(f) (1u << (f))

const char *const gsri_feature_names[GSR_N_FEATURES] = {
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_device_enqueue",
    "__opencl_c_fp64",
    "__opencl_c_generic_address_space",
    "__opencl_c_images",
    "__opencl_c_int64",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions"};

/* The OpenCL C 3.0 default: what PoCL 3.1's CPU device declares. */
#define DEFAULT_30                                                             \
  (BIT(F_3D_IMAGE_WRITES) | BIT(F_ACQ_REL) | BIT(F_SEQ_CST) |                  \
   BIT(F_SCOPE_DEVICE) | BIT(F_FP64) | BIT(F_IMAGES) | BIT(F_INT64) |          \
   BIT(F_READ_WRITE_IMAGES))

/* A feature that a compiler accepts only together with others, and the
 * extension a device declares with it (the compiler wants both alike). */
static const struct {
  unsigned feature, needs;
  const char *extension;
} ties[] = {
    {F_3D_IMAGE_WRITES, BIT(F_IMAGES), "cl_khr_3d_image_writes"},
    {F_READ_WRITE_IMAGES, BIT(F_IMAGES), NULL},
    {F_PIPES, BIT(F_GENERIC), NULL},
    {F_DEVICE_ENQUEUE, BIT(F_GENERIC) | BIT(F_PROGRAM_SCOPE), NULL},
    {F_FP64, 0, "cl_khr_fp64"},
};

/* The versions -cl-std= may name (in either case). */
static const char *const versions[] = {"1.0", "1.1", "1.2", "2.0", "3.0"};

/* Nonzero if a and b are equal ignoring the case of ASCII letters. */
static int same_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
    char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
    if (x != y)
      return 0;
  }
  return *a == *b;
}

/* Sets ctx->cl_std from one -cl-std= value ("CL3.0"). Returns 0 if it
 * names no version the tool knows. */
static int set_version(gsri_ctx *ctx, const char *value) {
  if ((value[0] != 'C' && value[0] != 'c') ||
      (value[1] != 'L' && value[1] != 'l'))
    return 0;
  for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++)
    if (same_ignoring_case(value + 2, versions[i])) {
      memcpy(ctx->cl_std, versions[i], 4);
      return 1;
    }
  return 0;
}

/* The known feature called name (len bytes), or -1. */
static int feature_named(const char *name, size_t len) {
  for (int f = 0; f < GSR_N_FEATURES; f++)
    if (strlen(gsri_feature_names[f]) == len &&
        memcmp(gsri_feature_names[f], name, len) == 0)
      return f;
  return -1;
}

/* Nonzero if s[0, len) is a C identifier. */
static int is_identifier(const char *s, size_t len) {
  if (!len || (s[0] >= '0' && s[0] <= '9'))
    return 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_'))
      return 0;
  }
  return 1;
}

/* What the -cl-ext= entries do, gathered while they are read. */
typedef struct ext_state {
  unsigned on;                     /* known features that are on */
  unsigned entries;                /* entries applied so far */
  unsigned set_at[GSR_N_FEATURES]; /* the entry (from 1) that last turned
                                      each on or off; 0: the default */
  gsri_buf list;    /* the entries for libclang, comma-separated */
  gsri_buf defines; /* unknown __opencl_c_ names turned on, space-separated */
} ext_state;

/* Appends one entry ("+name") to the list for libclang. */
static void put_entry(ext_state *s, char sign, const char *name, size_t len) {
  if (s->list.len)
    gsri_buf_puts(&s->list, ",");
  gsri_buf_append(&s->list, &sign, 1);
  gsri_buf_append(&s->list, name, len);
}

/* Applies one -cl-ext entry: +NAME, -NAME or NAME (on), "all" for every
 * known feature. A feature tied to an extension turns that extension on or
 * off with it, and the extension the feature. */
static void apply_entry(ext_state *s, char sign, const char *name, size_t len) {
  int on = sign != '-';
  put_entry(s, on ? '+' : '-', name, len);
  int f = feature_named(name, len);
  unsigned bits = len == 3 && memcmp(name, "all", 3) == 0
                      ? (1u << GSR_N_FEATURES) - 1
                  : f >= 0 ? BIT(f)
                           : 0;
  for (size_t t = 0; !bits && t < sizeof ties / sizeof ties[0]; t++)
    if (ties[t].extension && strlen(ties[t].extension) == len &&
        memcmp(ties[t].extension, name, len) == 0) {
      bits = BIT(ties[t].feature);
      f = (int)ties[t].feature;
      put_entry(s, on ? '+' : '-', gsri_feature_names[f],
                strlen(gsri_feature_names[f]));
    }
  if (f >= 0)
    for (size_t t = 0; t < sizeof ties / sizeof ties[0]; t++)
      if (ties[t].feature == (unsigned)f && ties[t].extension &&
          strncmp(ties[t].extension, name, len) != 0)
        put_entry(s, on ? '+' : '-', ties[t].extension,
                  strlen(ties[t].extension));
  s->entries++;
  for (int b = 0; b < GSR_N_FEATURES; b++)
    if (bits & BIT(b))
      s->set_at[b] = s->entries;
  if (on)
    s->on |= bits;
  else
    s->on &= ~bits;
  if (on && !bits && len > 11 && memcmp(name, "__opencl_c_", 11) == 0) {
    gsri_buf_append(&s->defines, name, len);
    gsri_buf_puts(&s->defines, " ");
  }
}

/* Reads one -cl-ext= value into s. Returns 0 (after reporting) if an entry
 * is not +NAME, -NAME or NAME. */
static int read_ext(gsri_ctx *ctx, ext_state *s, const char *arg) {
  const char *v = arg + strlen("-cl-ext=");
  for (;;) {
    const char *comma = strchr(v, ',');
    size_t len = comma ? (size_t)(comma - v) : strlen(v);
    char sign = len && (v[0] == '+' || v[0] == '-') ? v[0] : '+';
    const char *name = v + (len && (v[0] == '+' || v[0] == '-'));
    size_t nlen = len - (size_t)(name - v);
    if (!is_identifier(name, nlen)) {
      gsri_report(ctx, GSR_ERROR, 0, 0,
                  "bad entry '%.*s' in '%s': write +NAME or -NAME, "
                  "separated by commas",
                  (int)len, v, arg);
      return 0;
    }
    apply_entry(s, sign, name, nlen);
    if (!comma)
      return 1;
    v = comma + 1;
  }
}

/* Makes the features one set that a device could declare: a feature that
 * is on while a feature it needs was turned off after it goes off too (with
 * its extension); one turned on after what it needs was turned off is an
 * error. Returns GSR_OK or GSR_ERR_OPTIONS after reporting. */
static gsr_status settle_ties(gsri_ctx *ctx, ext_state *s) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t t = 0; t < sizeof ties / sizeof ties[0]; t++) {
      unsigned f = ties[t].feature;
      unsigned off = ties[t].needs & ~s->on;
      if (!(s->on & BIT(f)) || !off)
        continue;
      for (int b = 0; b < GSR_N_FEATURES; b++)
        if ((off & BIT(b)) && s->set_at[f] > s->set_at[b]) {
          gsri_report(ctx, GSR_ERROR, 0, 0,
                      "-cl-ext: %s needs %s, which is off",
                      gsri_feature_names[f], gsri_feature_names[b]);
          return GSR_ERR_OPTIONS;
        }
      s->on &= ~BIT(f);
      put_entry(s, '-', gsri_feature_names[f], strlen(gsri_feature_names[f]));
      if (ties[t].extension)
        put_entry(s, '-', ties[t].extension, strlen(ties[t].extension));
      changed = 1;
    }
  }
  return GSR_OK;
}

/* Appends a copy of arg to ctx->lang_args. Returns 0 when out of memory. */
static int add_arg(gsri_ctx *ctx, const char *arg) {
  char **p = realloc(ctx->lang_args, (ctx->n_lang_args + 1) * sizeof *p);
  if (!p)
    return 0;
  ctx->lang_args = p;
  p[ctx->n_lang_args] = gsri_strdup(arg);
  return p[ctx->n_lang_args++] != NULL;
}

/* Appends -DNAME=1 for a feature that is on. Returns 0 when out of memory. */
static int add_define(gsri_ctx *ctx, const char *name, size_t len) {
  gsri_buf b = {0};
  gsri_buf_puts(&b, "-D");
  gsri_buf_append(&b, name, len);
  gsri_buf_puts(&b, "=1");
  int ok = !b.failed && add_arg(ctx, b.data);
  gsri_buf_free(&b);
  return ok;
}

/* Nonzero if the user's -D or -U options name the macro name. */
static int user_names_macro(const gsr_options *opt, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < opt->num_parser_args; i++) {
    const char *a = opt->parser_args[i];
    if (strcmp(a, "-include") == 0 || strcmp(a, "-I") == 0) {
      i++; /* a value, whatever it spells */
      continue;
    }
    if (a[0] != '-' || (a[1] != 'D' && a[1] != 'U'))
      continue;
    const char *v = a + 2;
    if (!*v && i + 1 < opt->num_parser_args)
      v = opt->parser_args[++i];
    if (strncmp(v, name, n) == 0 && (v[n] == '\0' || v[n] == '='))
      return 1;
  }
  return 0;
}

/* Defines what an OpenCL driver predefines and clang's own OpenCL parse
 * does not (clang has __OPENCL_C_VERSION__, CL_VERSION_1_0 to _3_0 and
 * __ENDIAN_LITTLE__): __OPENCL_VERSION__, the OpenCL version of the
 * device, here the oldest that builds the output (the version the
 * constraints require), and __IMAGE_SUPPORT__ where the device parsed for
 * has images (before 3.0 every full-profile device; in 3.0 one with
 * __opencl_c_images). Code that hides __kernel and __global from other
 * compilers behind #ifndef __OPENCL_VERSION__ would otherwise parse as
 * having no kernel. A -D or -U of the same name is the user's to make.
 * Returns 0 when out of memory. */
static int add_predefines(gsri_ctx *ctx, int has_images) {
  const char *v = gsri_output_version(ctx);
  gsri_buf b = {0};
  gsri_buf_printf(&b, "-D__OPENCL_VERSION__=%d%d0", v[0] - '0', v[2] - '0');
  int ok = !b.failed;
  if (ok && !user_names_macro(ctx->opt, "__OPENCL_VERSION__"))
    ok = add_arg(ctx, b.data);
  gsri_buf_free(&b);
  if (ok && has_images && !user_names_macro(ctx->opt, "__IMAGE_SUPPORT__"))
    ok = add_arg(ctx, "-D__IMAGE_SUPPORT__=1");
  return ok;
}

/* Refuses a -D or -U of a reserved name (gsync_ in any case: what the
 * tool injects, and the rules' tunables, GSYNC_TREE_LEAF): what the
 * rewrite is given goes into the constraints' build options, with which
 * libgsync builds the output, and a rule reconfigured there could use
 * more state than the constraints promise. Returns GSR_OK, or GSR_ERR_OPTIONS
 * after reporting. */
static gsr_status check_macro_options(gsri_ctx *ctx) {
  const gsr_options *opt = ctx->opt;
  for (int i = 0; i < opt->num_parser_args; i++) {
    const char *a = opt->parser_args[i], *v;
    if (strcmp(a, "-include") == 0 || strcmp(a, "-I") == 0) {
      i++; /* a value, whatever it spells */
      continue;
    }
    if (a[0] != '-' || (a[1] != 'D' && a[1] != 'U'))
      continue;
    v = a + 2;
    if (!*v && i + 1 < opt->num_parser_args)
      v = opt->parser_args[++i];
    if (!gsri_reserved_name(v, strlen(v)))
      continue;
    gsri_report(ctx, GSR_ERROR, 0, 0,
                "option '%s%s%s' %s '%.*s', a name with the prefix '%s' (in "
                "any case) that gsync-rewrite reserves for its own macros and "
                "its rules' tunables",
                a, v == a + 2 ? "" : " ", v == a + 2 ? "" : v,
                a[1] == 'D' ? "defines" : "undefines", (int)strcspn(v, "="), v,
                GSR_PREFIX);
    return GSR_ERR_OPTIONS;
  }
  return GSR_OK;
}

/* Works out the language from the -cl-std= and -cl-ext= options: the
 * version, the 3.0 features, and the arguments that tell libclang
 * (ctx->lang_args). Returns GSR_OK, GSR_ERR_OPTIONS after reporting a bad
 * option, or GSR_ERR_NOMEM. */
gsr_status gsri_language_options(gsri_ctx *ctx) {
  const gsr_options *opt = ctx->opt;
  if (check_macro_options(ctx) != GSR_OK)
    return GSR_ERR_OPTIONS;
  memcpy(ctx->cl_std, "1.2", 4);
  for (int i = 0; i < opt->num_parser_args; i++) {
    const char *a = opt->parser_args[i];
    if (strcmp(a, "-include") == 0 || strcmp(a, "-I") == 0 ||
        strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0) {
      i++; /* a value, whatever it spells */
      continue;
    }
    if (strncmp(a, "-cl-std=", 8) != 0)
      continue;
    if (!set_version(ctx, a + 8)) {
      gsri_report(ctx, GSR_ERROR, 0, 0,
                  "unknown OpenCL C version in '%s' (CL1.0, CL1.1, CL1.2, "
                  "CL2.0 or CL3.0)",
                  a);
      return GSR_ERR_OPTIONS;
    }
    ctx->cl_std_given = 1;
  }

  int v30 = strcmp(ctx->cl_std, "3.0") == 0;
  ext_state s;
  memset(&s, 0, sizeof s);
  if (v30) {
    for (int f = 0; f < GSR_N_FEATURES; f++)
      put_entry(&s, DEFAULT_30 & BIT(f) ? '+' : '-', gsri_feature_names[f],
                strlen(gsri_feature_names[f]));
    s.on = DEFAULT_30;
  }
  gsr_status st = GSR_OK;
  for (int i = 0; i < opt->num_parser_args && st == GSR_OK; i++) {
    const char *a = opt->parser_args[i];
    if (strcmp(a, "-include") == 0 || strcmp(a, "-I") == 0 ||
        strcmp(a, "-D") == 0 || strcmp(a, "-U") == 0)
      i++;
    else if (strncmp(a, "-cl-ext=", 8) == 0 && !read_ext(ctx, &s, a))
      st = GSR_ERR_OPTIONS;
  }
  if (v30 && st == GSR_OK)
    st = settle_ties(ctx, &s);
  ctx->features = v30 ? s.on : 0;

  gsri_buf std = {0};
  gsri_buf_printf(&std, "-cl-std=CL%s", ctx->cl_std);
  if (st == GSR_OK && (std.failed || !add_arg(ctx, std.data)))
    st = GSR_ERR_NOMEM;
  if (st == GSR_OK && s.list.len) {
    gsri_buf ext = {0};
    gsri_buf_printf(&ext, "-cl-ext=%s", s.list.data);
    if (ext.failed || !add_arg(ctx, "-Xclang") || !add_arg(ctx, ext.data))
      st = GSR_ERR_NOMEM;
    gsri_buf_free(&ext);
  }
  for (int f = 0; v30 && st == GSR_OK && f < GSR_N_FEATURES; f++)
    if ((s.on & BIT(f)) &&
        !add_define(ctx, gsri_feature_names[f], strlen(gsri_feature_names[f])))
      st = GSR_ERR_NOMEM;
  for (const char *d = s.defines.data; v30 && st == GSR_OK && d && *d;) {
    const char *sp = strchr(d, ' ');
    if (!add_define(ctx, d, (size_t)(sp - d)))
      st = GSR_ERR_NOMEM;
    d = sp + 1;
  }
  if (st == GSR_OK && !add_predefines(ctx, !v30 || (s.on & BIT(F_IMAGES))))
    st = GSR_ERR_NOMEM;
  if (st == GSR_OK && (s.list.failed || s.defines.failed))
    st = GSR_ERR_NOMEM;
  gsri_buf_free(&std);
  gsri_buf_free(&s.list);
  gsri_buf_free(&s.defines);
  return st;
}

/* Frees the arguments gsri_language_options() made. */
void gsri_language_dispose(gsri_ctx *ctx) {
  for (int i = 0; i < ctx->n_lang_args; i++)
    free(ctx->lang_args[i]);
  free(ctx->lang_args);
  ctx->lang_args = NULL;
  ctx->n_lang_args = 0;
}

/* ---- the features the output uses ---- */

/* Built-in functions that need features by name: a prefix (ending in '_')
 * or a whole name. */
static const struct {
  const char *name;
  unsigned needs;
} calls[] = {
    {"work_group_all", BIT(F_WG_COLLECTIVE)},
    {"work_group_any", BIT(F_WG_COLLECTIVE)},
    {"work_group_broadcast", BIT(F_WG_COLLECTIVE)},
    {"work_group_reduce_", BIT(F_WG_COLLECTIVE)},
    {"work_group_scan_", BIT(F_WG_COLLECTIVE)},
    {"work_group_reserve_", BIT(F_PIPES)},
    {"work_group_commit_", BIT(F_PIPES)},
    {"sub_group_reserve_", BIT(F_PIPES) | BIT(F_SUBGROUPS)},
    {"sub_group_commit_", BIT(F_PIPES) | BIT(F_SUBGROUPS)},
    {"sub_group_", BIT(F_SUBGROUPS)},
    {"get_sub_group_", BIT(F_SUBGROUPS)},
    {"get_num_sub_groups", BIT(F_SUBGROUPS)},
    {"get_max_sub_group_size", BIT(F_SUBGROUPS)},
    {"get_enqueued_num_sub_groups", BIT(F_SUBGROUPS)},
    {"read_pipe", BIT(F_PIPES)},
    {"write_pipe", BIT(F_PIPES)},
    {"reserve_read_pipe", BIT(F_PIPES)},
    {"reserve_write_pipe", BIT(F_PIPES)},
    {"commit_read_pipe", BIT(F_PIPES)},
    {"commit_write_pipe", BIT(F_PIPES)},
    {"is_valid_reserve_id", BIT(F_PIPES)},
    {"get_pipe_", BIT(F_PIPES)},
    {"enqueue_kernel", BIT(F_DEVICE_ENQUEUE)},
    {"enqueue_marker", BIT(F_DEVICE_ENQUEUE)},
    {"get_default_queue", BIT(F_DEVICE_ENQUEUE)},
    {"ndrange_", BIT(F_DEVICE_ENQUEUE)},
    {"get_kernel_", BIT(F_DEVICE_ENQUEUE)},
    {"retain_event", BIT(F_DEVICE_ENQUEUE)},
    {"release_event", BIT(F_DEVICE_ENQUEUE)},
    {"create_user_event", BIT(F_DEVICE_ENQUEUE)},
    {"is_valid_event", BIT(F_DEVICE_ENQUEUE)},
    {"set_user_event_status", BIT(F_DEVICE_ENQUEUE)},
    {"capture_event_profiling_info", BIT(F_DEVICE_ENQUEUE)},
    {"to_global", BIT(F_GENERIC)},
    {"to_local", BIT(F_GENERIC)},
    {"to_private", BIT(F_GENERIC)},
    {"get_fence", BIT(F_GENERIC)},
    {"read_image", BIT(F_IMAGES)},
    {"write_image", BIT(F_IMAGES)},
    {"get_image_", BIT(F_IMAGES)},
};

/* The C11 atomic functions: how many arguments the form without an order
 * takes. Without _explicit they need seq_cst order and device scope; the
 * _explicit form without a scope argument needs device scope. */
static const struct {
  const char *name;
  int args;
} c11_atomics[] = {
    {"atomic_store", 2},
    {"atomic_load", 1},
    {"atomic_exchange", 2},
    {"atomic_compare_exchange_strong", 3},
    {"atomic_compare_exchange_weak", 3},
    {"atomic_fetch_add", 2},
    {"atomic_fetch_sub", 2},
    {"atomic_fetch_or", 2},
    {"atomic_fetch_xor", 2},
    {"atomic_fetch_and", 2},
    {"atomic_fetch_min", 2},
    {"atomic_fetch_max", 2},
    {"atomic_flag_test_and_set", 1},
    {"atomic_flag_clear", 1},
};

/* Enumerators of memory_order and memory_scope that need a feature. */
static const struct {
  const char *name;
  unsigned needs;
} enumerators[] = {
    {"memory_order_seq_cst", BIT(F_SEQ_CST)},
    {"memory_order_acq_rel", BIT(F_ACQ_REL)},
    {"memory_order_acquire", BIT(F_ACQ_REL)},
    {"memory_order_release", BIT(F_ACQ_REL)},
    {"memory_scope_device", BIT(F_SCOPE_DEVICE)},
    {"memory_scope_all_devices", BIT(F_SCOPE_ALL)},
    {"memory_scope_all_svm_devices", BIT(F_SCOPE_ALL)},
    {"memory_scope_sub_group", BIT(F_SUBGROUPS)},
};

/* The features a call of the built-in called name with n_args arguments
 * needs. */
static unsigned call_needs(const char *name, int n_args) {
  for (size_t i = 0; i < sizeof c11_atomics / sizeof c11_atomics[0]; i++) {
    size_t len = strlen(c11_atomics[i].name);
    if (strncmp(name, c11_atomics[i].name, len) != 0)
      continue;
    if (name[len] == '\0')
      return BIT(F_SEQ_CST) | BIT(F_SCOPE_DEVICE);
    if (strcmp(name + len, "_explicit") == 0)
      /* the orders (one, two for compare-exchange) without a scope */
      return n_args <= c11_atomics[i].args + (c11_atomics[i].args == 3 ? 2 : 1)
                 ? BIT(F_SCOPE_DEVICE)
                 : 0;
  }
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    size_t len = strlen(calls[i].name);
    if (calls[i].name[len - 1] == '_' ? strncmp(name, calls[i].name, len) == 0
                                      : strcmp(name, calls[i].name) == 0)
      return calls[i].needs;
  }
  return 0;
}

/* The features that values of type t need: double, 64-bit integers,
 * images, pipes, queues and blocks, also as elements, pointees or array
 * elements. */
static unsigned type_needs(CXType t) {
  unsigned needs = 0;
  for (int depth = 0; depth < 16 && t.kind != CXType_Invalid; depth++) {
    switch (t.kind) {
    case CXType_Typedef: {
      /* Address-sized integers are as wide as the device's addresses. */
      CXString s = clang_getTypedefName(t);
      const char *n = clang_getCString(s);
      int sized = strcmp(n, "size_t") == 0 || strcmp(n, "ptrdiff_t") == 0 ||
                  strcmp(n, "intptr_t") == 0 || strcmp(n, "uintptr_t") == 0;
      clang_disposeString(s);
      if (sized)
        return needs;
      t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
      break;
    }
    case CXType_Elaborated:
      t = clang_Type_getNamedType(t);
      break;
    case CXType_Double:
      return needs | BIT(F_FP64);
    case CXType_Long:
    case CXType_ULong:
    case CXType_LongLong:
    case CXType_ULongLong:
      return needs | BIT(F_INT64);
    case CXType_Pipe:
    case CXType_OCLReserveID:
      return needs | BIT(F_PIPES);
    case CXType_OCLQueue:
    case CXType_BlockPointer:
      return needs | BIT(F_DEVICE_ENQUEUE);
    case CXType_OCLSampler:
      return needs | BIT(F_IMAGES);
    case CXType_Pointer:
      t = clang_getPointeeType(t);
      break;
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
    case CXType_VariableArray:
    case CXType_Vector:
    case CXType_ExtVector:
      t = clang_getElementType(t);
      break;
    default:
      if (t.kind >= CXType_OCLImage1dRO && t.kind <= CXType_OCLImage3dRW) {
        needs |= BIT(F_IMAGES);
        if (t.kind == CXType_OCLImage3dWO)
          needs |= BIT(F_3D_IMAGE_WRITES);
        if (t.kind >= CXType_OCLImage1dRW)
          needs |= BIT(F_READ_WRITE_IMAGES);
        return needs;
      }
      /* Sugar libclang does not name (attributed, parenthesized types). */
      CXType c = clang_getCanonicalType(t);
      if (c.kind == t.kind)
        return needs;
      t = c;
      break;
    }
  }
  return needs;
}

/* The address space of the objects a pointer type points to, in libclang's
 * numbering of clang's OpenCL spaces; -1 for a type that is no pointer. */
enum { AS_GLOBAL = 1, AS_LOCAL = 2, AS_GENERIC = 5 };
static int pointee_space(CXType t) {
  t = clang_getCanonicalType(t);
  if (t.kind != CXType_Pointer)
    return -1;
  return (int)clang_getAddressSpace(clang_getPointeeType(t));
}

/* Visitor: the first child of a cursor. */
static enum CXChildVisitResult first_child(CXCursor c, CXCursor parent,
                                           CXClientData data) {
  (void)parent;
  *(CXCursor *)data = c;
  return CXChildVisit_Break;
}

typedef struct feature_walk {
  gsri_ctx *ctx;
  unsigned used;
} feature_walk;

/* Visitor: adds what each cursor of the user's code needs. */
static enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
                                     CXClientData data) {
  feature_walk *w = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (clang_getCursorKind(parent) == CXCursor_TranslationUnit) {
    if (k == CXCursor_MacroDefinition || k == CXCursor_MacroExpansion ||
        k == CXCursor_InclusionDirective)
      return CXChildVisit_Continue;
    CXSourceLocation loc = clang_getCursorLocation(c);
    CXFile f;
    clang_getSpellingLocation(loc, &f, NULL, NULL, NULL);
    if (clang_Location_isInSystemHeader(loc) || gsri_is_decl_header(f))
      return CXChildVisit_Continue;
  }
  switch (k) {
  case CXCursor_VarDecl: {
    CXType t = clang_getCursorType(c);
    w->used |= type_needs(t);
    enum CXCursorKind pk =
        clang_getCursorKind(clang_getCursorSemanticParent(c));
    if ((pk == CXCursor_TranslationUnit ||
         clang_Cursor_getStorageClass(c) == CX_SC_Static) &&
        (int)clang_getAddressSpace(t) == AS_GLOBAL)
      w->used |= BIT(F_PROGRAM_SCOPE);
    break;
  }
  case CXCursor_ParmDecl:
  case CXCursor_FieldDecl:
  case CXCursor_CStyleCastExpr:
    w->used |= type_needs(clang_getCursorType(c));
    break;
  case CXCursor_TypedefDecl:
    w->used |= type_needs(clang_getTypedefDeclUnderlyingType(c));
    break;
  case CXCursor_FunctionDecl:
    w->used |= type_needs(clang_getCursorResultType(c));
    break;
  case CXCursor_BlockExpr:
    w->used |= BIT(F_DEVICE_ENQUEUE);
    break;
  case CXCursor_UnexposedExpr:
    /* An implicit conversion of a global or local pointer to a generic
     * one: without the feature there is no generic space to convert to.
     * Built-in functions (declared, never defined) have overloads for each
     * named space there, so an argument passed to one needs none. */
    if (pointee_space(clang_getCursorType(c)) == AS_GENERIC &&
        (clang_getCursorKind(parent) != CXCursor_CallExpr ||
         !clang_Cursor_isNull(
             clang_getCursorDefinition(clang_getCursorReferenced(parent))))) {
      CXCursor from = clang_getNullCursor();
      clang_visitChildren(c, first_child, &from);
      int space = clang_Cursor_isNull(from)
                      ? -1
                      : pointee_space(clang_getCursorType(from));
      if (space == AS_GLOBAL || space == AS_LOCAL)
        w->used |= BIT(F_GENERIC);
    }
    break;
  case CXCursor_CallExpr:
  case CXCursor_DeclRefExpr: {
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    if (k == CXCursor_CallExpr) {
      w->used |= call_needs(name, clang_Cursor_getNumArguments(c));
    } else if (strncmp(name, "memory_", 7) == 0) {
      for (size_t i = 0; i < sizeof enumerators / sizeof enumerators[0]; i++)
        if (strcmp(name, enumerators[i].name) == 0)
          w->used |= enumerators[i].needs;
    }
    clang_disposeString(s);
    break;
  }
  default:
    break;
  }
  return CXChildVisit_Recurse;
}

/* Nonzero if the input spells the keyword generic or __generic outside
 * comments and skipped #if branches: the explicit address space. */
static int spells_generic(gsri_ctx *ctx) {
  if (!gsri_input_mentions(ctx, "generic"))
    return 0;
  CXToken *toks;
  unsigned n = gsri_tokenize_input(ctx, &toks);
  CXSourceRangeList *skipped = clang_getSkippedRanges(ctx->tu, ctx->main_file);
  int found = 0;
  for (unsigned i = 0; i < n && !found; i++) {
    CXString s = clang_getTokenSpelling(ctx->tu, toks[i]);
    const char *t = clang_getCString(s);
    if (strcmp(t, "generic") == 0 || strcmp(t, "__generic") == 0) {
      unsigned off;
      clang_getSpellingLocation(clang_getTokenLocation(ctx->tu, toks[i]), NULL,
                                NULL, NULL, &off);
      found = 1;
      for (unsigned r = 0; skipped && r < skipped->count; r++) {
        unsigned rb, re;
        clang_getSpellingLocation(clang_getRangeStart(skipped->ranges[r]), NULL,
                                  NULL, NULL, &rb);
        clang_getSpellingLocation(clang_getRangeEnd(skipped->ranges[r]), NULL,
                                  NULL, NULL, &re);
        if (rb <= off && off < re)
          found = 0;
      }
    }
    clang_disposeString(s);
  }
  if (skipped)
    clang_disposeSourceRangeList(skipped);
  clang_disposeTokens(ctx->tu, toks, n);
  return found;
}

/* Works out the optional features the output uses (ctx->features_used):
 * the input's, read from its declarations and calls, and those the rules
 * need for their atomics. Only OpenCL C 2.0 and 3.0 have features. */
void gsri_find_features(gsri_ctx *ctx) {
  ctx->features_used = 0;
  if (strcmp(gsri_output_version(ctx), "2.0") < 0)
    return;
  feature_walk w = {ctx, 0};
  if (strcmp(ctx->cl_std, "2.0") >= 0) {
    clang_visitChildren(clang_getTranslationUnitCursor(ctx->tu), visit, &w);
    if (spells_generic(ctx))
      w.used |= BIT(F_GENERIC);
  }
  /* A rule's atomic capabilities are features in OpenCL C 3.0. */
  static const struct {
    const char *capability;
    unsigned feature;
  } caps[] = {{"acq_rel", F_ACQ_REL},
              {"seq_cst", F_SEQ_CST},
              {"device_scope", F_SCOPE_DEVICE},
              {"all_devices_scope", F_SCOPE_ALL}};
  const gsri_rule *rules[] = {ctx->barrier, ctx->discovery};
  for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
    for (size_t i = 0; rules[r] && i < rules[r]->n_capabilities; i++)
      for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++)
        if (strcmp(rules[r]->capabilities[i], caps[k].capability) == 0)
          w.used |= BIT(caps[k].feature);
  ctx->features_used = w.used;
}

/* The OpenCL C version the output needs: the highest of the rules' and the
 * input's, when -cl-std= named one. */
const char *gsri_output_version(const gsri_ctx *ctx) {
  const char *v = ctx->barrier->opencl_c;
  if (strcmp(ctx->discovery->opencl_c, v) > 0)
    v = ctx->discovery->opencl_c;
  if (strcmp(ctx->cl_std, v) > 0)
    v = ctx->cl_std;
  return v;
}

/* Reports the calls that the rewrite would give this launch's state inside
 * a block (OpenCL C 2.0's device-side enqueue): global_barrier(), the
 * remapped ids and calls of functions that take the context. A block that
 * enqueue_kernel runs is a launch of its own, whose ids and barrier are not
 * the enclosing kernel's. Returns nonzero if it reported any. */
int gsri_check_blocks(gsri_ctx *ctx) {
  int found = 0;
  for (size_t i = 0; i < ctx->n_funcs; i++) {
    const gsri_func *fn = &ctx->funcs[i];
    if (!fn->takes_ctx && !(fn->is_kernel && fn->reaches_barrier))
      continue;
    for (size_t k = 0; k < fn->n_sites; k++) {
      const gsri_site *s = &fn->sites[k];
      if (s->kind == GSR_SITE_CALL && !ctx->funcs[s->callee].takes_ctx)
        continue;
      unsigned n = ctx->nodes[s->node].parent;
      while (n != GSR_NO_NODE && ctx->nodes[n].kind != CXCursor_BlockExpr)
        n = ctx->nodes[n].parent;
      if (n == GSR_NO_NODE)
        continue;
      gsri_report_in(ctx, GSR_ERROR, s->file, s->line, s->col,
                     "'%s' in a block: a block that enqueue_kernel runs is a "
                     "launch of its own, and the rewrite cannot give it this "
                     "launch's %s",
                     s->callee_name,
                     s->kind == GSR_SITE_BARRIER ? "barrier"
                     : s->kind == GSR_SITE_ID    ? "work-groups"
                                                 : "state");
      found = 1;
    }
  }
  return found;
}

/* ---- names of a later version or an optional feature ----
 *
 * OpenCL C 2.0 code rewritten without -cl-std= is parsed as 1.2, and clang
 * then says only "unknown type name 'atomic_uint'". After a parse with
 * errors, each name such an error calls unknown is looked up again in a
 * small parse of the same options with -cl-std=CL2.0 (input parsed as 1.0
 * to 1.2) or with one more 3.0 feature (input parsed as 3.0), or, for a
 * name that no one feature declares, with every feature the parse has off
 * and then as few of them as still declare it; a note says which option
 * declares it. */

#define HINT_NAMES 16 /* the distinct unknown names looked up, at most */
#define HINT_LISTED 4 /* the most that a note names */
#define PROBE_PATH "/gsync-rewrite-builtin/probe.cl"

/* The name an error about an unknown identifier is about, copied into
 * name (size bytes); 0 if text is no such error. */
static int unknown_name(const char *text, char *name, size_t size) {
  static const char *const forms[] = {"unknown type name '",
                                      "use of undeclared identifier '",
                                      "implicit declaration of function '"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    size_t n = strlen(forms[i]);
    if (strncmp(text, forms[i], n) != 0)
      continue;
    const char *end = strchr(text + n, '\'');
    if (!end || end == text + n || (size_t)(end - text - n) >= size)
      return 0;
    memcpy(name, text + n, (size_t)(end - text - n));
    name[end - text - n] = '\0';
    return is_identifier(name, strlen(name));
  }
  return 0;
}

/* Which of names[0..n) a parse with ctx's options plus extra declares:
 * bit i set for names[i]. */
static unsigned probe_names(const gsri_ctx *ctx, const char *extra,
                            char names[][64], int n) {
  gsr_options o = *ctx->opt;
  const char **args = calloc((size_t)o.num_parser_args + 1, sizeof *args);
  if (!args)
    return 0;
  memcpy(args, o.parser_args, (size_t)o.num_parser_args * sizeof *args);
  args[o.num_parser_args] = extra;
  o.parser_args = args;
  o.num_parser_args++;
  gsri_ctx probe;
  memset(&probe, 0, sizeof probe);
  probe.opt = &o;               /* no diag callback: its reports go nowhere */
  probe.barrier = ctx->barrier; /* for the predefined version */
  probe.discovery = ctx->discovery;
  unsigned known = 0;
  gsri_buf src = {0};
  for (int i = 0; i < n; i++)
    gsri_buf_printf(&src,
                    "#ifndef %s\nvoid gsync_probe_%d(void) { "
                    "(void)sizeof(__typeof__(%s) *); }\n#endif\n",
                    names[i], i, names[i]);
  const char **pargs = NULL;
  if (gsri_language_options(&probe) == GSR_OK && !src.failed &&
      (pargs = calloc((size_t)probe.n_lang_args + 1, sizeof *pargs)) != NULL) {
    pargs[0] = "-xcl";
    for (int i = 0; i < probe.n_lang_args; i++)
      pargs[i + 1] = probe.lang_args[i];
    struct CXUnsavedFile f = {PROBE_PATH, src.data, (unsigned long)src.len};
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    if (clang_parseTranslationUnit2(
            index, PROBE_PATH, pargs, probe.n_lang_args + 1, &f, 1,
            CXTranslationUnit_KeepGoing, &tu) == CXError_Success) {
      known = (1u << n) - 1;
      for (unsigned d = 0; d < clang_getNumDiagnostics(tu); d++) {
        CXDiagnostic diag = clang_getDiagnostic(tu, d);
        unsigned line;
        clang_getSpellingLocation(clang_getDiagnosticLocation(diag), NULL,
                                  &line, NULL, NULL);
        CXString s = clang_getDiagnosticSpelling(diag);
        char name[64];
        /* Line 2 + 3i holds names[i]. */
        if (line >= 2 && (line - 2) % 3 == 0 && (int)(line - 2) / 3 < n &&
            unknown_name(clang_getCString(s), name, sizeof name))
          known &= ~(1u << ((line - 2) / 3));
        clang_disposeString(s);
        clang_disposeDiagnostic(diag);
      }
      clang_disposeTranslationUnit(tu);
    }
    clang_disposeIndex(index);
  }
  free(pargs);
  gsri_language_dispose(&probe);
  gsri_buf_free(&src);
  free(args);
  return known;
}

/* The names of names[0..n) in bits, as a list for a note: 'a', 'b' and 'c';
 * past HINT_LISTED of them, 'a', 'b', 'c', 'd' and 3 more. */
static void list_names(gsri_buf *b, char names[][64], int n, unsigned bits) {
  int total = 0, done = 0;
  for (int i = 0; i < n; i++)
    total += (bits >> i) & 1;
  int shown = total > HINT_LISTED ? HINT_LISTED : total;
  for (int i = 0; i < n && done < shown; i++) {
    if (!((bits >> i) & 1))
      continue;
    gsri_buf_printf(b, "%s'%s'",
                    done == 0                             ? ""
                    : done == total - 1 && shown == total ? " and "
                                                          : ", ",
                    names[i]);
    done++;
  }
  if (shown < total)
    gsri_buf_printf(b, " and %d more", total - shown);
}

/* The -cl-ext= option that turns on the features in bits, into b. */
static void ext_option(gsri_buf *b, unsigned bits) {
  gsri_buf_puts(b, "-cl-ext=");
  const char *sep = "";
  for (int f = 0; f < GSR_N_FEATURES; f++)
    if (bits & BIT(f)) {
      gsri_buf_printf(b, "%s+%s", sep, gsri_feature_names[f]);
      sep = ",";
    }
}

/* Which of names[0..n) a parse with ctx's options plus the features in
 * bits declares (probe_names). */
static unsigned probe_features(const gsri_ctx *ctx, unsigned bits,
                               char names[][64], int n) {
  gsri_buf ext = {0};
  ext_option(&ext, bits);
  unsigned known = ext.failed ? 0 : probe_names(ctx, ext.data, names, n);
  gsri_buf_free(&ext);
  return known;
}

/* Appends to note the names in known and the features in bits that
 * declare them, with the -cl-ext= option that turns those on. */
static void note_features(gsri_buf *note, char names[][64], int n,
                          unsigned known, unsigned bits) {
  int several = (bits & (bits - 1)) != 0;
  gsri_buf_puts(note, note->len ? "; " : "");
  list_names(note, names, n, known);
  gsri_buf_printf(note, " %s the OpenCL C 3.0 feature%s ",
                  known & (known - 1) ? "need" : "needs", several ? "s" : "");
  int listed = 0, total = 0;
  for (int f = 0; f < GSR_N_FEATURES; f++)
    total += (bits & BIT(f)) != 0;
  for (int f = 0; f < GSR_N_FEATURES; f++)
    if (bits & BIT(f))
      gsri_buf_printf(note, "%s%s",
                      listed++ == 0     ? ""
                      : listed == total ? " and "
                                        : ", ",
                      gsri_feature_names[f]);
  gsri_buf_printf(note, ", which the input is parsed without: ");
  ext_option(note, bits);
  gsri_buf_printf(note, ", if the device declares %s", several ? "them" : "it");
}

/* See internal.h. */
void gsri_language_hint(gsri_ctx *ctx) {
  if (!ctx->tu || strcmp(ctx->cl_std, "2.0") == 0)
    return; /* 2.0 has every feature */
  char names[HINT_NAMES][64];
  CXSourceLocation at[HINT_NAMES];
  int n = 0;
  for (unsigned d = 0; d < clang_getNumDiagnostics(ctx->tu) && n < HINT_NAMES;
       d++) {
    CXDiagnostic diag = clang_getDiagnostic(ctx->tu, d);
    CXString s = clang_getDiagnosticSpelling(diag);
    int fresh = clang_getDiagnosticSeverity(diag) >= CXDiagnostic_Error &&
                unknown_name(clang_getCString(s), names[n], sizeof names[n]);
    for (int i = 0; fresh && i < n; i++)
      fresh = strcmp(names[i], names[n]) != 0;
    if (fresh)
      at[n++] = clang_getDiagnosticLocation(diag);
    clang_disposeString(s);
    clang_disposeDiagnostic(diag);
  }
  if (n == 0)
    return;
  gsri_buf note = {0};
  unsigned all = (1u << n) - 1, declared = 0;
  if (strcmp(ctx->cl_std, "3.0") != 0) {
    declared = probe_names(ctx, "-cl-std=CL2.0", names, n);
    if (declared) {
      list_names(&note, names, n, declared);
      gsri_buf_printf(&note,
                      " %s OpenCL C 2.0, and the input is parsed as OpenCL "
                      "C %s%s: give gsync-rewrite the -cl-std= the program is "
                      "built with (-cl-std=CL2.0, or -cl-std=CL3.0 for a 3.0 "
                      "device)",
                      declared & (declared - 1) ? "are" : "is", ctx->cl_std,
                      ctx->cl_std_given ? "" : " (no -cl-std= given)");
    }
  } else {
    unsigned off = 0;
    for (int f = 0; f < GSR_N_FEATURES; f++)
      if (!(ctx->features & BIT(f)))
        off |= BIT(f);
    for (int f = 0; f < GSR_N_FEATURES && declared != all; f++) {
      if (!(off & BIT(f)))
        continue;
      unsigned known = probe_features(ctx, BIT(f), names, n) & ~declared;
      if (known)
        note_features(&note, names, n, known, BIT(f));
      declared |= known;
    }
    /* A name that no one feature declares (atomic_load without either of
     * seq_cst order and device scope): all of them, then as few as still
     * declare what they do. */
    unsigned known = declared != all && off
                         ? probe_features(ctx, off, names, n) & ~declared
                         : 0;
    if (known) {
      /* Until no feature can go: one that another needs (the generic
       * address space, for device-side enqueue) goes only after it. */
      unsigned need = off, was = 0;
      while (need != was) {
        was = need;
        for (int f = 0; f < GSR_N_FEATURES; f++)
          if ((need & BIT(f)) &&
              (probe_features(ctx, need & ~BIT(f), names, n) & known) == known)
            need &= ~BIT(f);
      }
      note_features(&note, names, n, known, need);
      declared |= known;
    }
  }
  /* At the first name the note is about. */
  int first = 0;
  while (first < n && !(declared & (1u << first)))
    first++;
  if (note.len)
    gsri_report_loc(ctx, GSR_NOTE, at[first], "%s", gsri_buf_text(ctx, &note));
  gsri_buf_free(&note);
}
