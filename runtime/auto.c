/* Outputs of --barrier=auto on the host (docs/auto.md): which rule inside
 * to build for a device, and the public calls that depend on it, the
 * check of a device and its build options; gsync-check's cache of the
 * rule it recommends for a device.
 *
 * The choice, for a device, takes the first of these that names a rule
 * inside the output that the device can build (its "requires"):
 *   1. the rule forced by gsync_program_set_barrier, else by the
 *      environment variable GSYNC_BARRIER (no fallback: a forced rule the
 *      output lacks or the device cannot build is an error);
 *   2. gsync-check's recommendation cached for this very device (platform,
 *      name, version and driver version all the same);
 *   3. the device table of include/gsync-auto.def;
 *   4. the rules inside, in order.
 * The chosen rule's guard macro then goes into the build options.
 */
#include "internal.h"

#include "gsync-state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The device table (include/gsync-auto.def): a kind of device, the rule
 * for it, and why. */
static const struct {
  const char *kind, *rule, *text;
} device_table[] = {
#define GSYNC_AUTO_RULE(name)
#define GSYNC_AUTO_DEVICE(kind, name, text) {#kind, name, text},
#include "gsync-auto.def"
#undef GSYNC_AUTO_RULE
#undef GSYNC_AUTO_DEVICE
};
#define N_DEVICE_ROWS (sizeof device_table / sizeof device_table[0])

#define CACHE_FORMAT "gsync-check-cache"
#define CACHE_MAX_BYTES (1 << 20)

/* Whether dev is of the table's kind: "nvidia_sm70" (compute capability
 * 7.0 or newer, from cl_nv_device_attribute_query), "amd_gpu" (a GPU
 * whose vendor is AMD), "cpu", "other" (any device). */
static int device_is(cl_device_id dev, const char *kind) {
  cl_device_type type = 0;
  clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  if (strcmp(kind, "nvidia_sm70") == 0)
    return gsli_nv_compute_capability(dev) >= 70;
  if (strcmp(kind, "amd_gpu") == 0) {
    char *vendor = NULL;
    int amd = 0;
    if ((type & CL_DEVICE_TYPE_GPU) &&
        gsli_device_string(dev, CL_DEVICE_VENDOR, &vendor) == CL_SUCCESS) {
      amd = strstr(vendor, "Advanced Micro Devices") != NULL ||
            strstr(vendor, "AMD") != NULL;
      free(vendor);
    }
    return amd;
  }
  if (strcmp(kind, "cpu") == 0)
    return (type & CL_DEVICE_TYPE_CPU) != 0;
  return strcmp(kind, "other") == 0;
}

/* The index of rule name inside p, or -1. */
static int rule_inside(const gsync_program *p, const char *name) {
  for (size_t i = 0; i < p->n_auto; i++)
    if (strcmp(p->auto_rules[i].name, name) == 0)
      return (int)i;
  return -1;
}

/* What rule i needs: its own requirements and the output's features. */
static gsli_needs rule_needs(const gsync_program *p, size_t i) {
  gsli_needs n = p->auto_rules[i].needs;
  n.features = p->needs.features;
  n.n_features = p->needs.n_features;
  return n;
}

/* Whether dev can build rule i of p; why not into err. */
static int rule_fits(const gsync_program *p, cl_device_id dev, size_t i,
                     char *err, size_t errlen) {
  gsli_needs n = rule_needs(p, i);
  return gsli_check_needs(p, dev, &n, p->auto_rules[i].name, err, errlen) ==
         GSYNC_OK;
}

/* ---- gsync-check's cache ---- */

/* The device's identity as the cache keeps it: platform name, device
 * name, device version, driver version. Returns 0 when one cannot be
 * read. */
typedef struct device_id_strings {
  char *s[4];
} device_id_strings;
static const char *const id_keys[4] = {"platform", "name", "version",
                                       "driver_version"};

static void free_ids(device_id_strings *d) {
  for (int i = 0; i < 4; i++)
    free(d->s[i]);
}

static int read_ids(cl_device_id dev, device_id_strings *d) {
  cl_platform_id platform;
  memset(d, 0, sizeof *d);
  if (clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform,
                      NULL) != CL_SUCCESS)
    return 0;
  size_t size = 0;
  if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, NULL, &size) !=
          CL_SUCCESS ||
      (d->s[0] = calloc(size + 1, 1)) == NULL ||
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, d->s[0], NULL) !=
          CL_SUCCESS ||
      gsli_device_string(dev, CL_DEVICE_NAME, &d->s[1]) != CL_SUCCESS ||
      gsli_device_string(dev, CL_DEVICE_VERSION, &d->s[2]) != CL_SUCCESS ||
      gsli_device_string(dev, CL_DRIVER_VERSION, &d->s[3]) != CL_SUCCESS) {
    free_ids(d);
    return 0;
  }
  return 1;
}

/* The cache's directory into dir (len bytes): $GSYNC_CHECK_CACHE, else
 * $XDG_CACHE_HOME/gsync, else $HOME/.cache/gsync. Returns 0 where there
 * is none: GSYNC_CHECK_CACHE set but empty, or none of them set. */
static int cache_dir(char *dir, size_t len) {
  const char *v = getenv("GSYNC_CHECK_CACHE");
  int n;
  if (v != NULL)
    n = *v ? snprintf(dir, len, "%s", v) : -1;
  else if ((v = getenv("XDG_CACHE_HOME")) != NULL && *v == '/')
    n = snprintf(dir, len, "%s/gsync", v);
  else if ((v = getenv("HOME")) != NULL && *v)
    n = snprintf(dir, len, "%s/.cache/gsync", v);
  else
    n = -1;
  return n > 0 && (size_t)n < len;
}

gsync_status gsync_check_cache_path(cl_device_id dev, char *path, size_t len,
                                    char *err, size_t errlen) {
  char dir[4096];
  device_id_strings ids;
  if (dev == NULL)
    return gsli_null_argument(err, errlen, "gsync_check_cache_path", "dev");
  if (path == NULL || len == 0)
    return gsli_null_argument(err, errlen, "gsync_check_cache_path", "path");
  path[0] = '\0';
  if (!cache_dir(dir, sizeof dir))
    return GSYNC_OK;
  if (!read_ids(dev, &ids))
    return gsli_fail(err, errlen, GSYNC_ERR_OPENCL,
                     "cannot read the device's platform, name and versions");
  uint64_t h = GSYNC_FNV_OFFSET;
  for (int i = 0; i < 4; i++)
    h = gsync_fnv1a(h, ids.s[i], strlen(ids.s[i]) + 1);
  free_ids(&ids);
  int n =
      snprintf(path, len, "%s/check-%016llx.json", dir, (unsigned long long)h);
  if (n < 0 || (size_t)n >= len) {
    path[0] = '\0';
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "the cache's path is longer than %zu bytes", len - 1);
  }
  return GSYNC_OK;
}

/* Makes the directory of path and its parent, where missing. */
static int make_dirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  char *slash = strrchr(buf, '/');
  if (slash == NULL || slash == buf)
    return 1;
  *slash = '\0';
  if (mkdir(buf, 0777) == 0 || errno == EEXIST)
    return 1;
  char *up = strrchr(buf, '/');
  if (errno != ENOENT || up == NULL || up == buf)
    return 0;
  *up = '\0';
  if (mkdir(buf, 0777) != 0 && errno != EEXIST)
    return 0;
  *up = '/';
  return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

gsync_status gsync_check_cache_store(cl_device_id dev, const char *rule,
                                     const char *why, char *path, size_t len,
                                     char *err, size_t errlen) {
  char own[4096], *where = path != NULL && len > 0 ? path : own;
  size_t wlen = where == own ? sizeof own : len;
  if (rule == NULL)
    return gsli_null_argument(err, errlen, "gsync_check_cache_store", "rule");
  gsync_status st = gsync_check_cache_path(dev, where, wlen, err, errlen);
  if (st != GSYNC_OK || where[0] == '\0')
    return st;
  device_id_strings ids;
  if (!read_ids(dev, &ids))
    return gsli_fail(err, errlen, GSYNC_ERR_OPENCL,
                     "cannot read the device's platform, name and versions");
  json_object *root = json_object_new_object(), *d = json_object_new_object();
  json_object_object_add(root, "format", json_object_new_string(CACHE_FORMAT));
  json_object_object_add(root, "version", json_object_new_int(1));
  for (int i = 0; i < 4; i++)
    json_object_object_add(d, id_keys[i], json_object_new_string(ids.s[i]));
  free_ids(&ids);
  json_object_object_add(root, "device", d);
  json_object_object_add(root, "rule", json_object_new_string(rule));
  json_object_object_add(root, "why", json_object_new_string(why ? why : ""));
  const char *text = json_object_to_json_string_ext(
      root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                JSON_C_TO_STRING_NOSLASHESCAPE);
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", where, (long)getpid());
  FILE *f = make_dirs(where) ? fopen(tmp, "w") : NULL;
  int ok = f != NULL && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
  ok = (f != NULL && fclose(f) == 0) && ok;
  ok = ok && rename(tmp, where) == 0;
  int e = errno;
  json_object_put(root);
  if (!ok) {
    unlink(tmp);
    return gsli_fail(err, errlen, GSYNC_ERR_IO, "cannot write %s: %s", where,
                     strerror(e));
  }
  return GSYNC_OK;
}

/* Reads the cached rule for dev into *rule (malloc'd), or leaves it NULL
 * and says in note (len bytes) why none was taken: no file is no note; a
 * file that is not the cache's format, or was written for another device
 * or driver (stale: the driver was updated, or the file copied), is one. */
static void read_cache(cl_device_id dev, char **rule, char *file, size_t flen,
                       char *note, size_t len) {
  char err[256];
  *rule = NULL;
  note[0] = '\0';
  if (gsync_check_cache_path(dev, file, flen, err, sizeof err) != GSYNC_OK ||
      file[0] == '\0')
    return;
  struct stat sb;
  if (stat(file, &sb) != 0)
    return;
  json_object *root = NULL, *v, *d;
  FILE *f = S_ISREG(sb.st_mode) && sb.st_size < CACHE_MAX_BYTES
                ? fopen(file, "r")
                : NULL;
  char *text = f != NULL ? calloc((size_t)sb.st_size + 1, 1) : NULL;
  if (text != NULL &&
      fread(text, 1, (size_t)sb.st_size, f) == (size_t)sb.st_size)
    root = json_tokener_parse(text);
  if (f != NULL)
    fclose(f);
  free(text);
  device_id_strings ids;
  int have_ids = read_ids(dev, &ids);
  if (root == NULL || !json_object_is_type(root, json_type_object) ||
      !json_object_object_get_ex(root, "format", &v) ||
      !json_object_is_type(v, json_type_string) ||
      strcmp(json_object_get_string(v), CACHE_FORMAT) != 0 ||
      !json_object_object_get_ex(root, "version", &v) ||
      json_object_get_int(v) != 1 ||
      !json_object_object_get_ex(root, "rule", &v) ||
      !json_object_is_type(v, json_type_string) ||
      !json_object_object_get_ex(root, "device", &d) ||
      !json_object_is_type(d, json_type_object)) {
    snprintf(note, len, "%.400s is not a gsync-check cache file, ignored",
             file);
  } else {
    int same = have_ids;
    for (int i = 0; same && i < 4; i++) {
      json_object *s;
      same = json_object_object_get_ex(d, id_keys[i], &s) &&
             json_object_is_type(s, json_type_string) &&
             strcmp(json_object_get_string(s), ids.s[i]) == 0;
    }
    if (!same)
      snprintf(note, len,
               "%.400s was written for another device or driver, ignored (run "
               "gsync-check again)",
               file);
    else
      *rule = gsli_dup_string(json_object_get_string(v));
  }
  if (have_ids)
    free_ids(&ids);
  json_object_put(root);
}

/* ---- The choice ---- */

/* Chooses the rule of p (an output of --barrier=auto) for dev into
 * *chosen and says why into p->chosen_why. Returns GSYNC_OK, or
 * GSYNC_ERR_DEVICE (a forced rule the output lacks or the device cannot
 * build, or no rule inside that it can) with err saying why. */
static gsync_status choose(gsync_program *p, cl_device_id dev, int *chosen,
                           char *err, size_t errlen) {
  char why[4096], note[1024] = "", file[4096], fit[512];
  int i = -1;
  const char *forced = p->forced, *by = "gsync_program_set_barrier";
  if (forced == NULL && (forced = getenv("GSYNC_BARRIER")) != NULL && *forced)
    by = "GSYNC_BARRIER";
  else if (p->forced == NULL)
    forced = NULL;
  if (forced != NULL) {
    if ((i = rule_inside(p, forced)) < 0) {
      char list[256] = "";
      for (size_t k = 0; k < p->n_auto; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 k ? ", " : "", p->auto_rules[k].name);
      return gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                       "%s names barrier %s, which %s does not hold (it "
                       "holds %s)",
                       by, forced, p->path, list);
    }
    if (!rule_fits(p, dev, (size_t)i, fit, sizeof fit))
      return gsli_fail(err, errlen, GSYNC_ERR_DEVICE, "%s names barrier %s: %s",
                       by, forced, fit);
    snprintf(why, sizeof why, "%s: forced by %s", forced, by);
  }
  if (i < 0) {
    char *cached = NULL;
    read_cache(dev, &cached, file, sizeof file, note, sizeof note);
    if (cached != NULL) {
      int c = rule_inside(p, cached);
      if (c < 0)
        snprintf(note, sizeof note,
                 "gsync-check's %.64s for this device (%.400s) is not in this "
                 "output",
                 cached, file);
      else if (!rule_fits(p, dev, (size_t)c, fit, sizeof fit))
        snprintf(note, sizeof note, "gsync-check's %.64s (%.400s): %.500s",
                 cached, file, fit);
      else {
        i = c;
        snprintf(why, sizeof why,
                 "%s: gsync-check's recommendation for this device (%.400s)",
                 cached, file);
      }
      free(cached);
    }
  }
  for (size_t r = 0; i < 0 && r < N_DEVICE_ROWS; r++) {
    if (!device_is(dev, device_table[r].kind))
      continue;
    int c = rule_inside(p, device_table[r].rule);
    if (c >= 0 && rule_fits(p, dev, (size_t)c, fit, sizeof fit)) {
      i = c;
      snprintf(why, sizeof why, "%s: the table's rule for this device, %s%s%s",
               device_table[r].rule, device_table[r].text, note[0] ? "; " : "",
               note);
    } else {
      snprintf(note + strlen(note), sizeof note - strlen(note),
               "%sthe table's %s %s", note[0] ? "; " : "", device_table[r].rule,
               c < 0 ? "is not in this output" : "cannot build here");
    }
    break; /* the first row that matches decides */
  }
  for (size_t c = 0; i < 0 && c < p->n_auto; c++)
    if (rule_fits(p, dev, c, fit, sizeof fit)) {
      i = (int)c;
      snprintf(why, sizeof why,
               "%s: the first rule inside the device builds%s%s",
               p->auto_rules[c].name, note[0] ? "; " : "", note);
    }
  if (i < 0) {
    char all[1024] = "";
    for (size_t c = 0; c < p->n_auto; c++) {
      rule_fits(p, dev, c, fit, sizeof fit);
      snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s: %s",
               c ? "; " : "", p->auto_rules[c].name, fit);
    }
    return gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                     "no barrier inside %s (--barrier=auto) builds on this "
                     "device: %s",
                     p->path, all);
  }
  char *w = gsli_dup_string(why);
  if (w == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  free(p->chosen_why);
  p->chosen_why = w;
  p->chosen = i;
  *chosen = i;
  return GSYNC_OK;
}

gsync_status gsync_program_check_device(const gsync_program *program,
                                        cl_device_id dev, char *err,
                                        size_t errlen) {
  if (program == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_check_device",
                              "program");
  if (dev == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_check_device", "dev");
  if (program->n_auto == 0)
    return gsli_check_needs(program, dev, &program->needs, program->barrier,
                            err, errlen);
  /* The choice is a cache in the program, as the build options are. */
  int i;
  return choose((gsync_program *)program, dev, &i, err, errlen);
}

const char *gsync_program_build_options(const gsync_program *program,
                                        cl_device_id dev) {
  if (program == NULL)
    return "";
  if (program->n_auto == 0)
    return gsli_build_options(program, dev, &program->needs, NULL);
  /* No rule the device builds: no macro, and the output's #error names
   * them all (gsync_program_check_device says why). */
  int i;
  if (choose((gsync_program *)program, dev, &i, NULL, 0) != GSYNC_OK)
    return gsli_build_options(program, dev, &program->needs, NULL);
  gsli_needs n = rule_needs(program, (size_t)i);
  return gsli_build_options(program, dev, &n, program->auto_rules[i].define);
}

gsync_status gsync_program_choose_barrier(const gsync_program *program,
                                          cl_device_id dev,
                                          gsync_barrier_choice *choice,
                                          char *err, size_t errlen) {
  if (program == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_choose_barrier",
                              "program");
  if (dev == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_choose_barrier",
                              "dev");
  if (choice == NULL || choice->size < sizeof choice->size + sizeof(char *))
    return gsli_null_argument(err, errlen, "gsync_program_choose_barrier",
                              "choice (with its size set)");
  gsync_barrier_choice c = {sizeof c, program->barrier, NULL, "named",
                            "the output holds this rule alone"};
  if (program->n_auto) {
    int i;
    gsync_status st = choose((gsync_program *)program, dev, &i, err, errlen);
    if (st != GSYNC_OK)
      return st;
    c.rule = program->auto_rules[i].name;
    c.define = program->auto_rules[i].define;
    c.why = program->chosen_why;
    const char *w = c.why + strlen(c.rule) + 2;
    c.source = strncmp(w, "forced", 6) == 0         ? "forced"
               : strncmp(w, "gsync-check", 11) == 0 ? "cache"
               : strncmp(w, "the table", 9) == 0    ? "table"
                                                    : "first";
  }
  size_t n = choice->size < sizeof c ? choice->size : sizeof c;
  memcpy((char *)choice + sizeof c.size, (char *)&c + sizeof c.size,
         n - sizeof c.size);
  return GSYNC_OK;
}

gsync_status gsync_program_set_barrier(gsync_program *program, const char *rule,
                                       char *err, size_t errlen) {
  if (program == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_set_barrier",
                              "program");
  if (rule != NULL && (program->n_auto ? rule_inside(program, rule) < 0
                                       : strcmp(rule, program->barrier) != 0))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "gsync_program_set_barrier: %s does not hold barrier %s",
                     program->path, rule);
  char *copy = NULL;
  if (rule != NULL && program->n_auto && (copy = gsli_dup_string(rule)) == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  free(program->forced);
  program->forced = copy;
  return GSYNC_OK;
}

/* For an output of --barrier=auto, checks that the program of k's kernel
 * was built for dev with exactly one of the rules' macros (the output's
 * #error makes sure of it for a build from source; a program built from
 * binaries with other options is caught here). */
gsync_status gsli_auto_check_built(const gsync_program *p,
                                   const gsync_kernel *k, cl_device_id dev,
                                   char *err, size_t errlen) {
  size_t found = 0;
  for (size_t i = 0; i < p->n_auto; i++) {
    int with = 0;
    gsync_status st =
        gsli_built_with(k, dev, p->auto_rules[i].define, &with, err, errlen);
    if (st != GSYNC_OK)
      return st;
    found += with != 0;
  }
  if (found == 1)
    return GSYNC_OK;
  return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                   "kernel %s: its program was built with %s of the rules' "
                   "macros of %s (--barrier=auto); build it with "
                   "gsync_program_build_options(), which defines the one "
                   "for the device",
                   k->info.name, found ? "more than one" : "none", p->path);
}
