/* Device facts: what a device offers (OpenCL C versions, extensions,
 * atomic capabilities, OpenCL C features), checked against the
 * constraints' "requires"; the build options for a program on a device
 * (its -cl-std=, the rewrite's options, quoted or, for PoCL, aliased, and
 * the macros for NVIDIA's compute capability, the fit probe and a CPU's
 * clock rate); and what a program was built with (gsli_built_with). */
#include "internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

/* What check_device and build_options need to know about a device. */
typedef struct device_facts {
  char *name;
  char *extensions;
  int version;        /* the device's OpenCL version, major*10+minor */
  int c_versions[16]; /* OpenCL C versions offered, major*10+minor */
  size_t n_c_versions;
  cl_bitfield atomic_caps; /* CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES */
  char *features;          /* CL_DEVICE_OPENCL_C_FEATURES, space-separated; NULL
                              before OpenCL 3.0 */
} device_facts;

/* Queries a string-valued device property into a malloc'd buffer. Returns
 * CL_SUCCESS and sets *out, or the OpenCL error (CL_OUT_OF_HOST_MEMORY when
 * malloc fails). */
cl_int gsli_device_string(cl_device_id dev, cl_device_info what, char **out) {
  size_t size = 0;
  cl_int rc = clGetDeviceInfo(dev, what, 0, NULL, &size);
  if (rc != CL_SUCCESS)
    return rc;
  char *s = malloc(size + 1);
  if (s == NULL)
    return CL_OUT_OF_HOST_MEMORY;
  rc = clGetDeviceInfo(dev, what, size, s, NULL);
  if (rc != CL_SUCCESS) {
    free(s);
    return rc;
  }
  s[size] = '\0';
  *out = s;
  return CL_SUCCESS;
}

/* Finds the first "M.m" after prefix in s (as in "OpenCL C 1.2 PoCL").
 * Returns major*10+minor, or -1 when s does not start with prefix. */
static int version_after(const char *s, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(s, prefix, n) != 0)
    return -1;
  s += n;
  int major = 0, minor = 0;
  if (*s < '0' || *s > '9')
    return -1;
  while (*s >= '0' && *s <= '9')
    major = major * 10 + (*s++ - '0');
  if (*s++ != '.' || *s < '0' || *s > '9')
    return -1;
  minor = *s - '0';
  return major * 10 + minor;
}

/* Adds version v to the facts' list of OpenCL C versions unless present. */
static void add_c_version(device_facts *f, int v) {
  for (size_t i = 0; i < f->n_c_versions; i++)
    if (f->c_versions[i] == v)
      return;
  if (f->n_c_versions < sizeof f->c_versions / sizeof f->c_versions[0])
    f->c_versions[f->n_c_versions++] = v;
}

/* Returns whether the device offers OpenCL C version v. */
static int offers_c_version(const device_facts *f, int v) {
  for (size_t i = 0; i < f->n_c_versions; i++)
    if (f->c_versions[i] == v)
      return 1;
  return 0;
}

/* Frees what gather_facts allocated. */
static void free_facts(device_facts *f) {
  free(f->name);
  free(f->extensions);
  free(f->features);
}

/* Queries CL_DEVICE_OPENCL_C_FEATURES into f->features as a list of names
 * separated by spaces. Returns CL_SUCCESS or the OpenCL error. */
static cl_int query_features(cl_device_id dev, device_facts *f) {
  size_t size = 0;
  cl_int rc = clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size);
  cl_name_version *all = malloc(size > 0 ? size : 1);
  size_t n = size / sizeof *all;
  f->features = calloc(n * (CL_NAME_VERSION_MAX_NAME_SIZE + 1) + 1, 1);
  if (rc == CL_SUCCESS && (all == NULL || f->features == NULL))
    rc = CL_OUT_OF_HOST_MEMORY;
  if (rc == CL_SUCCESS && size > 0)
    rc = clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, size, all, NULL);
  size_t used = 0;
  for (size_t i = 0; rc == CL_SUCCESS && i < n; i++) {
    const char *end = memchr(all[i].name, '\0', CL_NAME_VERSION_MAX_NAME_SIZE);
    size_t len = end != NULL ? (size_t)(end - all[i].name) : 0;
    if (i > 0)
      f->features[used++] = ' ';
    memcpy(f->features + used, all[i].name, len);
    used += len;
  }
  free(all);
  return rc;
}

/* Queries dev into *f. Returns GSYNC_OK, or GSYNC_ERR_OPENCL naming the
 * failed query; on failure *f holds nothing to free. */
static gsync_status gather_facts(cl_device_id dev, device_facts *f, char *err,
                                 size_t errlen) {
  char *s = NULL;
  cl_int rc;
  memset(f, 0, sizeof *f);
  if ((rc = gsli_device_string(dev, CL_DEVICE_NAME, &f->name)) != CL_SUCCESS ||
      (rc = gsli_device_string(dev, CL_DEVICE_EXTENSIONS, &f->extensions)) !=
          CL_SUCCESS ||
      (rc = gsli_device_string(dev, CL_DEVICE_VERSION, &s)) != CL_SUCCESS) {
    free_facts(f);
    return gsli_cl_fail(err, errlen, "clGetDeviceInfo", rc);
  }
  f->version = version_after(s, "OpenCL ");
  free(s);
  s = NULL;
  if ((rc = gsli_device_string(dev, CL_DEVICE_OPENCL_C_VERSION, &s)) !=
      CL_SUCCESS) {
    free_facts(f);
    return gsli_cl_fail(err, errlen,
                        "clGetDeviceInfo(CL_DEVICE_OPENCL_C_VERSION)", rc);
  }
  /* Before OpenCL 3.0 a device offers every OpenCL C version up to its
   * highest; from 3.0 on it lists them. */
  int max_c = version_after(s, "OpenCL C ");
  free(s);
  static const int older[] = {10, 11, 12, 20};
  for (size_t i = 0; i < sizeof older / sizeof older[0]; i++)
    if (older[i] <= max_c)
      add_c_version(f, older[i]);

  if (f->version >= 30) {
    cl_name_version all[16];
    size_t size = 0;
    rc = clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof all, all,
                         &size);
    if (rc == CL_SUCCESS)
      for (size_t i = 0; i < size / sizeof all[0]; i++)
        add_c_version(f, (int)CL_VERSION_MAJOR(all[i].version) * 10 +
                             (int)CL_VERSION_MINOR(all[i].version));
    cl_device_atomic_capabilities caps = 0;
    rc = clGetDeviceInfo(dev, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof caps,
                         &caps, NULL);
    if (rc != CL_SUCCESS) {
      free_facts(f);
      return gsli_cl_fail(
          err, errlen, "clGetDeviceInfo(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES)",
          rc);
    }
    f->atomic_caps = caps;
    if ((rc = query_features(dev, f)) != CL_SUCCESS) {
      free_facts(f);
      return gsli_cl_fail(err, errlen,
                          "clGetDeviceInfo(CL_DEVICE_OPENCL_C_FEATURES)", rc);
    }
  } else if (f->version >= 20) {
    /* OpenCL 2.x makes these mandatory and has no query for them. */
    f->atomic_caps =
        CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
        CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
        CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  }
  return GSYNC_OK;
}

/* Returns whether the space-separated list holds exactly the word ext. */
static int has_word(const char *list, const char *ext) {
  size_t n = strlen(ext);
  if (n == 0)
    return 0;
  for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n) {
    int starts = p == list || p[-1] == ' ';
    int ends = p[n] == '\0' || p[n] == ' ';
    if (starts && ends)
      return 1;
  }
  return 0;
}

/* Returns whether ext became core in OpenCL 1.1, so that a 1.1+ device
 * need not list it. */
static int core_since_1_1(const char *ext) {
  return strcmp(ext, "cl_khr_global_int32_base_atomics") == 0 ||
         strcmp(ext, "cl_khr_global_int32_extended_atomics") == 0 ||
         strcmp(ext, "cl_khr_local_int32_base_atomics") == 0 ||
         strcmp(ext, "cl_khr_local_int32_extended_atomics") == 0;
}

/* Writes the device's OpenCL C versions as "1.2, 3.0" into buf. */
static void format_c_versions(const device_facts *f, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < f->n_c_versions && used < len; i++) {
    int n = snprintf(buf + used, len - used, "%s%d.%d", i > 0 ? ", " : "",
                     f->c_versions[i] / 10, f->c_versions[i] % 10);
    if (n < 0)
      break;
    used += (size_t)n;
  }
}

/* The first OpenCL C feature the program uses that the device does not
 * declare for OpenCL C 3.0, or NULL. */
static const char *missing_feature(const gsli_needs *n, const device_facts *f) {
  for (size_t i = 0; i < n->n_features; i++)
    if (f->features == NULL || !has_word(f->features, n->features[i]))
      return n->features[i];
  return NULL;
}

/* Checks dev against "requires": atomic capabilities, OpenCL C version
 * (3.0 with the features the kernels use; 2.0 has them all), extensions,
 * in that order. Returns GSYNC_OK or the first that fails. */
static int is_pocl(cl_device_id dev);

/* Whether c is whitespace that PoCL's option parser splits at but that a
 * blank stands for outside quotes (append_option writes it as one). */
static int pocl_blank(char c) { return c == '\t' || c == '\v' || c == '\f'; }

/* Fails with GSYNC_ERR_DEVICE, naming the option, where one of program's
 * build options cannot reach PoCL's compiler as it is (append_option): a
 * double quote or a line break, or a tab in a value with a single quote
 * (a character constant could hold it), in any but an -I, whose
 * directory PoCL is given through /proc (include_alias). */
static gsync_status pocl_unfit(const gsync_program *program, const char *dev,
                               char *err, size_t errlen) {
  for (size_t i = 0; i < program->n_build_args; i++) {
    const char *a = program->build_args[i];
    size_t bad = strcspn(a, strchr(a, '\'') ? "\"\n\r\t\v\f" : "\"\n\r");
    if (a[bad] == '\0' || strncmp(a, "-I", 2) == 0)
      continue;
    /* The option as the message quotes it: at most 80 bytes, a control
     * character as \xNN. */
    char shown[4 * 80 + 1], *o = shown;
    for (const char *c = a; *c && c - a < 80; c++)
      o += (unsigned char)*c < 0x20
               ? snprintf(o, 5, "\\x%02x", (unsigned char)*c)
               : snprintf(o, 2, "%c", *c);
    return gsli_fail(
        err, errlen, GSYNC_ERR_DEVICE,
        "device \"%s\" (PoCL) cannot take build.options[%zu] of the "
        "constraints, \"%s\": its clBuildProgram %s; define the macro "
        "without it, or in the source",
        dev, i, shown,
        a[bad] == '"'        ? "reads every double quote as a blank"
        : pocl_blank(a[bad]) ? "splits an option at a tab, which a "
                               "blank cannot stand for in quotes"
                             : "splits an option at a line break");
  }
  return GSYNC_OK;
}

gsync_status gsli_check_needs(const gsync_program *program, cl_device_id dev,
                              const gsli_needs *needs, const char *barrier,
                              char *err, size_t errlen) {
  device_facts f;
  gsync_status st = gather_facts(dev, &f, err, errlen);
  if (st != GSYNC_OK)
    return st;

  /* Capabilities first: on an OpenCL 3.0 device they decide whether
   * OpenCL C 3.0 can stand in for 2.0, and naming them is more useful. */
  for (size_t k = 0; k < N_ATOMIC_CAPS; k++) {
    cl_bitfield bit = gsli_atomic_cap_names[k].bit;
    if ((needs->atomic_caps & bit) && !(f.atomic_caps & bit)) {
      st = gsli_fail(
          err, errlen, GSYNC_ERR_DEVICE,
          "device \"%s\" lacks atomic capability %s required by barrier "
          "%s",
          f.name, gsli_atomic_cap_names[k].name, barrier);
      goto done;
    }
  }

  int need = needs->c_version;
  const char *lacks = missing_feature(needs, &f);
  int ok = need >= 30   ? offers_c_version(&f, 30) && !lacks
           : need == 20 ? offers_c_version(&f, 20) ||
                              (offers_c_version(&f, 30) && !lacks)
                        : offers_c_version(&f, need);
  if (!ok && lacks && offers_c_version(&f, 30)) {
    st = gsli_fail(
        err, errlen, GSYNC_ERR_DEVICE,
        "device \"%s\" lacks OpenCL C feature %s that the kernels use "
        "(it offers OpenCL C 3.0 without it%s)",
        f.name, lacks, need == 20 ? ", and not 2.0" : "");
    goto done;
  }
  if (!ok) {
    char have[96];
    format_c_versions(&f, have, sizeof have);
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "device \"%s\" lacks OpenCL C %d.%d that the kernels need "
                   "(barrier %s; it offers %s)",
                   f.name, need / 10, need % 10, barrier,
                   have[0] != '\0' ? have : "none");
    goto done;
  }

  for (size_t i = 0; i < needs->n_extensions; i++) {
    const char *ext = needs->extensions[i];
    if (has_word(f.extensions, ext) || (f.version >= 11 && core_since_1_1(ext)))
      continue;
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "device \"%s\" lacks extension %s required by barrier %s",
                   f.name, ext, barrier);
    goto done;
  }
  if (is_pocl(dev))
    st = pocl_unfit(program, f.name, err, errlen);
done:
  free_facts(&f);
  return st;
}

/* Returns the static -cl-std= option for program on dev (see gsync.h). */
/* The -cl-std= option for the program's OpenCL C version on dev. */
static const char *c_std_option(const gsli_needs *n, cl_device_id dev) {
  switch (n->c_version) {
  case 11:
    return "-cl-std=CL1.1";
  case 12:
    return "-cl-std=CL1.2";
  case 30:
    return "-cl-std=CL3.0";
  case 20: {
    /* OpenCL C 3.0 with the 2.0 features the kernels use builds them, and
     * PoCL 3.1 builds OpenCL 2.0 atomics only under -cl-std=CL3.0. */
    device_facts f;
    int use_30 = 0;
    if (gather_facts(dev, &f, NULL, 0) == GSYNC_OK) {
      use_30 = offers_c_version(&f, 30) &&
               (f.atomic_caps & n->atomic_caps) == n->atomic_caps &&
               !missing_feature(n, &f);
      free_facts(&f);
    }
    return use_30 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
  }
  default:
    return "";
  }
}

/* NVIDIA's compute capability as major * 10 + minor (90 on an H100), from
 * cl_nv_device_attribute_query; 0 on other devices. */
unsigned gsli_nv_compute_capability(cl_device_id dev) {
  char *ext = NULL;
  unsigned cc = 0;
  if (gsli_device_string(dev, CL_DEVICE_EXTENSIONS, &ext) != CL_SUCCESS)
    return 0;
  if (strstr(ext, "cl_nv_device_attribute_query")) {
    const cl_device_info major_nv = 0x4000, minor_nv = 0x4001;
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(dev, major_nv, sizeof major, &major, NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(dev, minor_nv, sizeof minor, &minor, NULL) ==
            CL_SUCCESS &&
        minor < 10)
      cc = major * 10 + minor;
  }
  free(ext);
  return cc;
}

/* The rate of the time-stamp counter that the kernels of a CPU device read
 * as their clock (rewrite-rules/prelude.cl), in ticks a second, measured
 * against CLOCK_MONOTONIC over 20 ms; 0 where it cannot be read (not x86).
 * A CPU device runs on this host, so its counter is this one. */
unsigned long long gsli_tsc_hz(void) {
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
  struct timespec t0, t1, pause = {0, 20000000};
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned long long c0 = __builtin_ia32_rdtsc();
  nanosleep(&pause, NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  unsigned long long c1 = __builtin_ia32_rdtsc();
  double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  if (!(s > 0 && c1 > c0))
    return 0;
  /* To a multiple of 50 MHz (at most 1 % off a counter of 2.5 GHz or
   * more): every process then passes the same option, and a driver's
   * cache of built programs (PoCL's) finds the build of an earlier one. */
  unsigned long long step = 50000000ull,
                     hz = (unsigned long long)((double)(c1 - c0) / s);
  return hz < step ? hz : (hz + step / 2) / step * step;
#else
  return 0;
#endif
}

/* Whether arg must be quoted for clBuildProgram's option parsers, which
 * split at blanks: for PoCL, at a blank or what it writes as one (see
 * append_option). */
static int needs_quotes(const char *arg, int pocl) {
  return strpbrk(arg, pocl ? " \t\v\f" : " \t\n\v\f\r\"'\\") != NULL;
}

/* Appends to b (of *len bytes used, *cap allocated) a space and then arg,
 * quoted if it needs it as OpenCL compilers take a quoted value: an
 * option's value after its flag in double quotes (-I"/a b", -D"N=a b"),
 * with \ and " escaped; any other argument whole. For PoCL (pocl nonzero)
 * nothing is escaped: PoCL splits the options at blanks outside double
 * quotes, then turns every double quote into a blank (3.1; later versions
 * drop it) and keeps each backslash as it is, so -D"N=a\\b" defined N as
 * a\\b; it splits at a tab even in quotes, so a tab is written as the
 * blank that stands for it in a macro, and a double quote or a line break
 * cannot reach its compiler at all (pocl_unfit). Returns 0 when out of
 * memory. */
static int append_option(char **b, size_t *len, size_t *cap, const char *arg,
                         int pocl) {
  size_t need = *len + 2 * strlen(arg) + 4;
  if (need > *cap) {
    size_t c = need * 2;
    char *p = realloc(*b, c);
    if (p == NULL)
      return 0;
    *b = p;
    *cap = c;
  }
  int quote = needs_quotes(arg, pocl);
  size_t flag = quote && arg[0] == '-' &&
                        ((arg[1] >= 'A' && arg[1] <= 'Z') ||
                         (arg[1] >= 'a' && arg[1] <= 'z'))
                    ? 2
                    : 0;
  char *o = *b + *len;
  if (*len > 0)
    *o++ = ' ';
  memcpy(o, arg, flag);
  o += flag;
  if (quote)
    *o++ = '"';
  for (const char *s = arg + flag; *s; s++) {
    if (quote && !pocl && (*s == '"' || *s == '\\'))
      *o++ = '\\';
    *o++ = pocl && pocl_blank(*s) ? ' ' : *s;
  }
  if (quote)
    *o++ = '"';
  *o = '\0';
  *len = (size_t)(o - *b);
  return 1;
}

/* Whether dev is PoCL's (its platform's name). */
static int is_pocl(cl_device_id dev) {
  cl_platform_id platform;
  char name[64] = "";
  return dev != NULL &&
         clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform,
                         NULL) == CL_SUCCESS &&
         clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name,
                           NULL) == CL_SUCCESS &&
         strstr(name, "Portable Computing Language") != NULL;
}

/* Writes into out (outlen bytes) an -I option for the directory dir that
 * holds no blank or quote: PoCL 3.1 turns the quotes of -I"/a b" into
 * blanks and searches " /a b ", so for it the directory is held open (in
 * p, until the program is released) and named as /proc/self/fd/N, which
 * its compiler, in this process, reads as the directory. Returns 0 where
 * that cannot be done (no /proc), and the option is quoted instead. */
static int include_alias(gsync_program *p, const char *dir, char *out,
                         size_t outlen) {
  size_t i = 0;
  while (i < p->n_alias && strcmp(p->alias_dirs[i], dir) != 0)
    i++;
  if (i == p->n_alias) {
    char **dirs = realloc(p->alias_dirs, (i + 1) * sizeof *dirs);
    if (dirs != NULL)
      p->alias_dirs = dirs;
    int *fds = realloc(p->alias_fds, (i + 1) * sizeof *fds);
    if (fds != NULL)
      p->alias_fds = fds;
    char *copy = dirs != NULL && fds != NULL ? gsli_dup_string(dir) : NULL;
    int fd = copy != NULL ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (fd < 0) {
      free(copy);
      return 0;
    }
    p->alias_dirs[i] = copy;
    p->alias_fds[i] = fd;
    p->n_alias++;
  }
  struct stat st;
  snprintf(out, outlen, "/proc/self/fd/%d", p->alias_fds[i]);
  if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
    return 0;
  snprintf(out, outlen, "-I/proc/self/fd/%d", p->alias_fds[i]);
  return 1;
}

const char *gsli_build_options(const gsync_program *program, cl_device_id dev,
                               const gsli_needs *needs, const char *define) {
  /* The options live in the program (a cache, not part of its value). */
  gsync_program *p = (gsync_program *)program;
  char *b = NULL, num[64];
  size_t len = 0, cap = 0;
  int pocl = is_pocl(dev);
  int ok = append_option(&b, &len, &cap, c_std_option(needs, dev), pocl);
  for (size_t i = 0; ok && i < p->n_build_args; i++) {
    const char *a = p->build_args[i];
    if (pocl && strncmp(a, "-I", 2) == 0 && a[2] != '\0' &&
        needs_quotes(a, 0) && include_alias(p, a + 2, num, sizeof num))
      a = num;
    ok = append_option(&b, &len, &cap, a, pocl);
  }
  if (ok && define != NULL) {
    /* The chosen rule of an output of --barrier=auto (auto.c). */
    size_t n = strlen(define) + 3;
    char *d = malloc(n);
    if (d != NULL)
      snprintf(d, n, "-D%s", define);
    ok = d != NULL && append_option(&b, &len, &cap, d, pocl);
    free(d);
  }
  unsigned cc = gsli_nv_compute_capability(dev);
  if (ok && cc) {
    snprintf(num, sizeof num, "-DGSYNC_NV_SM=%u", cc);
    ok = append_option(&b, &len, &cap, num, pocl);
  }
  /* Without discovery, the kernels can measure how many groups fit
   * (gsync_groups_that_fit). */
  if (ok && !p->discovery && p->any_barrier)
    ok = append_option(&b, &len, &cap, "-D" FIT_MACRO, pocl);
  cl_device_type type = 0;
  unsigned long long hz;
  if (ok && p->abort.spin_limit_ms != 0 &&
      clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
          CL_SUCCESS &&
      (type & CL_DEVICE_TYPE_CPU) && (hz = gsli_tsc_hz()) != 0) {
    snprintf(num, sizeof num, "-Dgsync_clock_hz=%lluul", hz);
    ok = append_option(&b, &len, &cap, num, pocl);
  }
  if (!ok) {
    free(b);
    return NULL;
  }
  free(p->build_options);
  p->build_options = b;
  return b != NULL ? b : "";
}

/* Sets *found to whether the program of k's kernel was built for dev with
 * macro defined (-Dmacro or -D macro, with or without a value), as its
 * build options say. */
gsync_status gsli_built_with(const gsync_kernel *k, cl_device_id dev,
                             const char *macro, int *found, char *err,
                             size_t errlen) {
  cl_program prog = NULL;
  size_t size = 0, n = strlen(macro);
  cl_int rc =
      clGetKernelInfo(k->kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, 0, NULL,
                               &size);
  char *opts = rc == CL_SUCCESS ? malloc(size + 1) : NULL;
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetProgramBuildInfo(BUILD_OPTIONS)",
                        rc);
  if (opts == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  rc = clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_OPTIONS, size, opts,
                             NULL);
  opts[rc == CL_SUCCESS ? size : 0] = '\0';
  *found = 0;
  for (const char *o = opts; !*found && (o = strstr(o, macro)) != NULL;
       o += n) {
    const char *e = o + n;
    int defined = (o - opts >= 2 && !memcmp(o - 2, "-D", 2)) ||
                  (o - opts >= 3 && !memcmp(o - 3, "-D ", 3));
    *found = defined && (*e == '\0' || *e == ' ' || *e == '=');
  }
  free(opts);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetProgramBuildInfo(BUILD_OPTIONS)",
                        rc);
  return GSYNC_OK;
}

/* ---- gsync_pick_device: the one way the project's programs find theirs */

gsync_status gsync_pick_device(const char *platform, cl_uint index,
                               cl_platform_id *platform_out,
                               cl_device_id *device_out, char *err,
                               size_t errlen) {
  if (device_out == NULL)
    return gsli_null_argument(err, errlen, "gsync_pick_device", "device_out");
  if (platform == NULL)
    platform = getenv("GSYNC_PLATFORM");
  cl_platform_id all[16];
  cl_uint n = 0;
  cl_int rc = clGetPlatformIDs(16, all, &n);
  if (rc != CL_SUCCESS || n == 0)
    return gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                     "no OpenCL platform (clGetPlatformIDs: %s (%d)); is an "
                     "ICD installed, e.g. pocl-opencl-icd?",
                     gsli_cl_error_name(rc), (int)rc);
  if (n > 16)
    n = 16;
  char names[512] = "";
  for (cl_uint i = 0; i < n; i++) {
    char name[256] = "";
    clGetPlatformInfo(all[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (platform != NULL && platform[0] != '\0' &&
        strstr(name, platform) == NULL) {
      size_t at = strlen(names);
      snprintf(names + at, sizeof names - at, "%s'%s'", at ? ", " : "", name);
      continue;
    }
    cl_uint devices = 0;
    cl_device_id ids[64];
    rc = clGetDeviceIDs(all[i], CL_DEVICE_TYPE_ALL, 64, ids, &devices);
    if (rc != CL_SUCCESS)
      devices = 0;
    if (index >= devices || index >= 64)
      return gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                       "platform '%s' has no device %u (it has %u)", name,
                       (unsigned)index, (unsigned)devices);
    if (platform_out != NULL)
      *platform_out = all[i];
    *device_out = ids[index];
    return GSYNC_OK;
  }
  return gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "no OpenCL platform named like '%s' (there are: %s)",
                   platform, names);
}
