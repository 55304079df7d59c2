/* gsync-check: does this device keep the barriers' promises? For every
 * barrier rule gsync-rewrite offers, it rewrites gsync-check's built-in
 * kernels (bench/kernels/mp.cl and loop.cl, compiled into the binary)
 * with that rule, and libgsync's gsync_check_rule runs them on the device
 * the user names: the message-passing stress test, µs per barrier at a few
 * work-group counts, the co-resident count, discovery's admitted count and
 * cost, and how late the spin limit ends a launch that cannot complete.
 * A control, the stress test with a barrier that does nothing (the
 * test-only noop rule, compiled in), must see stale reads, or the test is
 * blind on this device and says so. Prints a table, writes JSON, draws a
 * plot, and ends with the rule it recommends and why (docs/check.md).
 *
 * The rewrites run the gsync-rewrite beside this program (or
 * $GSYNC_REWRITE), so that gsync-check itself links libgsync and OpenCL
 * and not libclang: with --save-kernels on a machine with the tool and
 * --kernels on one without, it runs where libclang is not installed.
 */
#define _XOPEN_SOURCE 700
#include "check_data.h"
#include "exit_codes.h"
#include "libgsync.h"

#include <errno.h>
#include <ftw.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROG "gsync-check"
#define MAX_RULES 64

/* One command line. */
typedef struct options {
  const char *platform, *json, *plot, *rules_dir, *kernels, *save, *stress;
  const char *barriers; /* comma-separated; NULL: every rule */
  unsigned long device;
  int quick;
  int no_cache; /* --no-cache: the recommendation is not cached */
  gsync_check_options check;
  unsigned long spin_limit_ms; /* of the abort part's rewrite */
} options;

/* One barrier rule and what the check found. */
typedef struct rule {
  char *name, *summary;
  int is_default;
  enum { V_PASS, V_FAIL, V_UNTESTED, V_UNSUPPORTED, V_ERROR } verdict;
  char message[1024]; /* why unsupported, or the error */
  gsync_check_result r;
} rule;

static const char *const verdict_names[] = {"pass", "fail", "untested",
                                            "unsupported", "error"};

/* Prints "gsync-check: error: ..." and returns status. */
static int fail(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(PROG ": error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return status;
}

/* A malloc'd printf, or NULL when out of memory. */
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : malloc((size_t)n + 1);
  if (s != NULL) {
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
  }
  return s;
}

static void usage(FILE *f) {
  fputs(
      "usage: gsync-check [options]\n"
      "Checks on one OpenCL device that every barrier rule of gsync-rewrite\n"
      "keeps its promises, measures it, and recommends one (docs/check.md).\n"
      "  --platform TEXT      the first platform whose name contains TEXT\n"
      "                       (default: $GSYNC_PLATFORM, else the first)\n"
      "  --device N           its device N (default 0)\n"
      "  --quick              a short run (seconds on a CPU): fewer episodes,\n"
      "                       phases and repetitions\n"
      "  --json FILE          write the results as JSON (docs/check.md)\n"
      "  --plot FILE.png      draw µs per barrier against work-groups for\n"
      "                       each rule (needs python3's matplotlib)\n"
      "  --barriers A,B,...   check these rules only (default: all)\n"
      "  --rules-dir DIR      rules of DIR too, as gsync-rewrite --rules-dir\n"
      "  --save-kernels DIR   only rewrite the kernels into DIR, for a\n"
      "                       machine without libclang\n"
      "  --kernels DIR        run the kernels --save-kernels wrote; no "
      "rewrite\n"
      "  --stress-kernel FILE the stress test's kernel instead of the "
      "built-in\n"
      "                       mp.cl (same parameters)\n"
      "  --local N            work-items per group (default: 256 on a GPU,\n"
      "                       else 64)\n"
      "  --episodes N         stress test episodes (default 100000; quick "
      "2000)\n"
      "  --no-cache           do not cache the recommendation for libgsync's\n"
      "                       outputs of --barrier=auto (docs/auto.md)\n"
      "  --help\n"
      "Exit status: 0 a rule is recommended; 1 none is (the stress test is\n"
      "blind here, or no rule passed); 2 usage; 3 a file could not be read\n"
      "or written; 4 no device, a rewrite or OpenCL failed.\n",
      f);
}

/* Parses a count option's value into *v (1..max). Returns 0 or
 * EXIT_USAGE after saying why. */
static int count(const char *opt, const char *s, unsigned long max,
                 unsigned long *v) {
  char *end;
  errno = 0;
  unsigned long x = strtoul(s, &end, 10);
  if (errno || end == s || *end || *s == '-' || x == 0 || x > max) {
    fprintf(stderr,
            PROG ": error: %s wants a count from 1 to %lu, not '%s'\n"
                 "see 'gsync-check --help'\n",
            opt, max, s);
    return EXIT_USAGE;
  }
  *v = x;
  return 0;
}

/* Parses argv into *o. Returns -1 to go on, or an exit status. */
static int parse(int argc, char **argv, options *o) {
  unsigned long v;
  memset(o, 0, sizeof *o);
  o->check.size = sizeof o->check;
  o->platform = getenv("GSYNC_PLATFORM");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help")) {
      usage(stdout);
      return EXIT_OK;
    }
    if (!strcmp(a, "--quick")) {
      o->quick = 1;
      continue;
    }
    if (!strcmp(a, "--no-cache")) {
      o->no_cache = 1;
      continue;
    }
    static const char *const valued[] = {
        "--platform",      "--device",    "--json",     "--plot",
        "--barriers",      "--rules-dir", "--kernels",  "--save-kernels",
        "--stress-kernel", "--local",     "--episodes", NULL};
    int k = 0;
    while (valued[k] && strcmp(a, valued[k]))
      k++;
    if (!valued[k]) {
      fprintf(stderr,
              PROG ": error: unknown option '%s'\nsee 'gsync-check --help'\n",
              a);
      return EXIT_USAGE;
    }
    if (i + 1 == argc) {
      fprintf(stderr,
              PROG ": error: %s wants a value\nsee 'gsync-check --help'\n", a);
      return EXIT_USAGE;
    }
    const char *val = argv[++i];
    int rc = 0;
    switch (k) {
    case 0:
      o->platform = val;
      break;
    case 1: /* an index: 0 too */
      rc = !strcmp(val, "0") ? 0 : count(a, val, 1024, &v);
      o->device = !strcmp(val, "0") ? 0 : v;
      break;
    case 2:
      o->json = val;
      break;
    case 3:
      o->plot = val;
      break;
    case 4:
      o->barriers = val;
      break;
    case 5:
      o->rules_dir = val;
      break;
    case 6:
      o->kernels = val;
      break;
    case 7:
      o->save = val;
      break;
    case 8:
      o->stress = val;
      break;
    case 9:
      rc = count(a, val, 1024, &v);
      o->check.local_size = v;
      break;
    case 10:
      rc = count(a, val, 100000000, &v);
      o->check.episodes = (cl_uint)v;
      break;
    }
    if (rc)
      return rc;
  }
  if (o->kernels && (o->save || o->stress || o->rules_dir)) {
    fprintf(stderr, PROG ": error: --kernels runs kernels already rewritten: "
                         "--save-kernels, --stress-kernel and --rules-dir "
                         "belong to the run that wrote them\n"
                         "see 'gsync-check --help'\n");
    return EXIT_USAGE;
  }
  if (o->quick) {
    if (!o->check.episodes)
      o->check.episodes = 2000;
    o->check.short_iters = 10;
    o->check.long_iters = 210;
    o->check.reps = 3;
  }
  o->spin_limit_ms = o->quick ? 100 : 250;
  return -1;
}

/* ---- running gsync-rewrite ---- */

/* The gsync-rewrite to run: $GSYNC_REWRITE, else the one beside this
 * program, else the one on PATH. A static or malloc'd string. */
static char *rewrite_tool(void) {
  const char *env = getenv("GSYNC_REWRITE");
  if (env && *env)
    return (char *)env;
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash) {
      char *p = fmt("%.*s/gsync-rewrite", (int)(slash - self), self);
      if (p && access(p, X_OK) == 0)
        return p;
      free(p);
    }
  }
  return "gsync-rewrite";
}

/* Runs argv (argv[0] looked up on PATH where it has no '/'), in directory
 * cwd unless that is NULL; its standard output into *out (malloc'd,
 * NUL-terminated) unless out is NULL, when it goes to ours; its standard
 * error to ours, or nowhere where quiet. Returns its exit status, or -1
 * after saying why it did not run. */
static int run_program(char *const argv[], char **out, int quiet,
                       const char *cwd) {
  int fd[2] = {-1, -1};
  if (out && pipe(fd) != 0)
    return fail(-1, "pipe: %s", strerror(errno));
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return fail(-1, "fork: %s", strerror(errno));
  if (pid == 0) {
    if (out) {
      dup2(fd[1], STDOUT_FILENO);
      close(fd[0]);
      close(fd[1]);
    }
    if (quiet && freopen("/dev/null", "w", stderr) == NULL)
      _exit(127);
    if (cwd && chdir(cwd) != 0) {
      if (!quiet)
        fprintf(stderr, PROG ": error: cannot enter '%s': %s\n", cwd,
                strerror(errno));
      _exit(127);
    }
    execvp(argv[0], argv);
    if (!quiet)
      fprintf(stderr, PROG ": error: cannot run '%s': %s\n", argv[0],
              strerror(errno));
    _exit(127);
  }
  if (out) {
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    close(fd[1]);
    for (;;) {
      if (buf && n + 1 >= cap) {
        char *p = realloc(buf, cap *= 2);
        if (!p)
          free(buf);
        buf = p;
      }
      if (!buf)
        break;
      ssize_t got = read(fd[0], buf + n, cap - n - 1);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      n += (size_t)got;
    }
    close(fd[0]);
    if (buf)
      buf[n] = 0;
    *out = buf;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return fail(-1, "waitpid: %s", strerror(errno));
  if (WIFEXITED(status))
    return WEXITSTATUS(status) == 127 ? -1 : WEXITSTATUS(status);
  return fail(-1, "'%s' ended with signal %d", argv[0], WTERMSIG(status));
}

/* Writes len bytes of text to path. Returns 0 or EXIT_IO after saying
 * why. */
static int write_file(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
    int e = errno;
    if (f)
      fclose(f);
    return fail(EXIT_IO, "cannot write '%s': %s", path, strerror(e));
  }
  return 0;
}

/* Reads the whole of path into a malloc'd string, or NULL after saying
 * why. */
static char *read_text(const char *path) {
  char *text, err[512];
  if (gsync_read_file(path, &text, NULL, err, sizeof err) != GSYNC_OK) {
    fail(EXIT_IO, "%s", err);
    return NULL;
  }
  return text;
}

/* Fills rules[] from `gsync-rewrite [--rules-dir=D] --list-barriers`,
 * whose lines are "  NAME  SUMMARY[; runs on ...][ (default)]" between
 * its "barriers" and "discovery" headings. Returns the count, or -1. */
static int list_rules(char *tool, const char *rules_dir, rule *rules) {
  char *dir = rules_dir ? fmt("--rules-dir=%s", rules_dir) : NULL;
  char *argv[] = {tool, dir ? dir : "--list-barriers",
                  dir ? "--list-barriers" : NULL, NULL};
  char *out = NULL;
  int rc = run_program(argv, &out, 0, NULL), n = 0;
  free(dir);
  if (rc != 0 || !out) {
    free(out);
    return rc == 0 ? fail(-1, "out of memory")
                   : fail(-1, "'%s --list-barriers' failed", tool);
  }
  char *save, *line = strtok_r(out, "\n", &save);
  if (line)
    line = strtok_r(NULL, "\n", &save); /* "barriers (--barrier=NAME):" */
  for (; line && line[0] == ' ' && n < MAX_RULES;
       line = strtok_r(NULL, "\n", &save)) {
    char *p = line + strspn(line, " ");
    size_t w = strcspn(p, " ");
    char *s = p + w + strspn(p + w, " ");
    size_t sl = strlen(s);
    static const char def[] = " (default)";
    rules[n].is_default =
        sl >= sizeof def - 1 && !strcmp(s + sl - (sizeof def - 1), def);
    if (rules[n].is_default)
      s[sl - (sizeof def - 1)] = 0;
    rules[n].name = fmt("%.*s", (int)w, p);
    rules[n].summary = fmt("%s", s);
    n++;
  }
  free(out);
  return n;
}

/* Keeps the rules --barriers names, in its order; an unknown name is a
 * usage error. Returns the count, or -1. */
static int select_rules(const char *list, rule *rules, int n) {
  rule kept[MAX_RULES];
  int m = 0;
  char *copy = fmt("%s", list), *save;
  for (char *w = strtok_r(copy, ",", &save); w && m < MAX_RULES;
       w = strtok_r(NULL, ",", &save)) {
    int i = 0;
    while (i < n && (!rules[i].name || strcmp(rules[i].name, w)))
      i++; /* a NULL name was moved to kept already */
    if (i == n) {
      fprintf(stderr,
              PROG ": error: --barriers: no barrier rule named '%s'\n"
                   "see 'gsync-rewrite --list-barriers'\n",
              w);
      free(copy);
      return -1;
    }
    kept[m++] = rules[i];
    rules[i].name = NULL; /* moved */
  }
  free(copy);
  for (int i = 0; i < n; i++)
    if (rules[i].name) {
      free(rules[i].name);
      free(rules[i].summary);
    }
  memcpy(rules, kept, sizeof kept[0] * (size_t)m);
  return m;
}

/* What each part of gsync_check_rule is rewritten from, and how. */
static const struct {
  const char *input; /* "mp" (or --stress-kernel) or "loop" */
  int discovery, spin_limit;
} parts[GSYNC_CHECK_PARTS] = {
    [GSYNC_CHECK_STRESS] = {"mp", 0, 0},
    [GSYNC_CHECK_LOOP] = {"loop", 0, 0},
    [GSYNC_CHECK_DISCOVERY] = {"loop", 1, 0},
    [GSYNC_CHECK_ABORT] = {"loop", 0, 1},
};
static const char *const part_names[GSYNC_CHECK_PARTS] = {"stress", "loop",
                                                          "discovery", "abort"};

/* path as it reads from another directory: made absolute against the
 * working directory where it is relative, but for a command's name
 * without '/' (command set), which is looked up on PATH and stays.
 * malloc'd. */
static char *from_anywhere(const char *path, int command) {
  if (path[0] == '/' || (command && !strchr(path, '/')))
    return fmt("%s", path);
  char *cwd = getcwd(NULL, 0);
  char *p = cwd ? fmt("%s/%s", cwd, path) : NULL;
  free(cwd);
  return p;
}

/* Rewrites part p of the check for barrier name into dir/sub with tool,
 * with the rules of rules_dir too (both paths as they read from dir). The
 * tool runs in dir on the relative names src/INPUT.cl and sub/PART.cl, with
 * --inline-includes (the inputs include nothing; it leaves the
 * constraints without -I), so that its outputs do not depend on where dir
 * lies: PoCL's kernel cache (and a driver's) then serves the builds of
 * every later check of the same rules, whatever temporary directory it
 * rewrites into. Writes dir/sub/PART.cl and .json; returns 0, or
 * EXIT_INTERNAL after saying why (or gsync-rewrite did). */
static int rewrite_part(char *tool, const options *o, const char *dir,
                        const char *sub, const char *rules_dir,
                        const char *name, int p) {
  char *in = fmt("src/%s.cl", parts[p].input);
  char *outp = fmt("%s/%s.cl", sub, part_names[p]);
  char *json = fmt("%s/%s.json", sub, part_names[p]);
  char *barrier = fmt("--barrier=%s", name);
  char *rd = rules_dir ? fmt("--rules-dir=%s", rules_dir) : NULL;
  char *limit = fmt("--spin-limit=%lums", o->spin_limit_ms);
  char *argv[16];
  int a = 0;
  argv[a++] = tool;
  argv[a++] = barrier;
  if (rd)
    argv[a++] = rd;
  if (!parts[p].discovery)
    argv[a++] = "--no-discovery";
  if (parts[p].spin_limit)
    argv[a++] = limit;
  argv[a++] = "--inline-includes";
  argv[a++] = in;
  argv[a++] = "-o";
  argv[a++] = outp;
  argv[a++] = "--constraints";
  argv[a++] = json;
  argv[a] = NULL;
  int rc;
  if (!in || !outp || !json || !barrier || !limit || (rules_dir && !rd))
    rc = fail(-1, "out of memory");
  else if ((rc = run_program(argv, NULL, 0, dir)) != 0)
    fail(0, "rewriting %s/%s for barrier %s failed (%s)", dir, in, name, tool);
  free(in);
  free(outp);
  free(json);
  free(barrier);
  free(rd);
  free(limit);
  return rc == 0 ? 0 : EXIT_INTERNAL;
}

/* Makes dir/name. Returns 0 or EXIT_IO after saying why. */
static int make_dir(const char *dir, const char *name) {
  char *p = name ? fmt("%s/%s", dir, name) : fmt("%s", dir);
  int rc = 0;
  if (mkdir(p, 0777) != 0 && errno != EEXIST)
    rc = fail(EXIT_IO, "cannot make directory '%s': %s", p, strerror(errno));
  free(p);
  return rc;
}

/* Writes the inputs (the built-in kernels, or --stress-kernel's), the
 * control's rule, and every rule's rewrites into dir, and the list of
 * rules into dir/RULES ("NAME\tDEFAULT\tSUMMARY" lines). Returns 0 or an
 * exit status. */
static int prepare(const options *o, const char *dir, rule *rules, int n) {
  char *tool = rewrite_tool();
  /* The tool runs in dir: its path as it reads from there. */
  char *run = from_anywhere(tool, 1);
  int rc = run ? make_dir(dir, NULL) : fail(EXIT_INTERNAL, "out of memory");
  if (!rc)
    rc = make_dir(dir, "src");
  if (!rc)
    rc = make_dir(dir, "control");
  if (!rc)
    rc = make_dir(dir, "control-rules");
  char *p = NULL;
  if (!rc && o->stress) {
    char *text = read_text(o->stress);
    rc = text ? 0 : EXIT_IO;
    if (!rc)
      rc = write_file(p = fmt("%s/src/mp.cl", dir), text, strlen(text));
    free(text);
    free(p);
  } else if (!rc) {
    rc = write_file(p = fmt("%s/src/mp.cl", dir), gsync_check_mp_cl,
                    sizeof gsync_check_mp_cl - 1);
    free(p);
  }
  if (!rc)
    rc = write_file(p = fmt("%s/src/loop.cl", dir), gsync_check_loop_cl,
                    sizeof gsync_check_loop_cl - 1);
  free(!rc ? p : NULL);
  p = NULL;
  if (!rc)
    rc = write_file(p = fmt("%s/control-rules/barrier-noop.cl", dir),
                    gsync_check_noop_cl, sizeof gsync_check_noop_cl - 1);
  free(p);
  p = NULL;
  if (!rc) {
    /* Named relative to dir, where the tool runs. */
    rc = rewrite_part(run, o, dir, "control", "control-rules", "noop",
                      GSYNC_CHECK_STRESS);
  }
  FILE *list = NULL;
  char *user_rules = o->rules_dir ? from_anywhere(o->rules_dir, 0) : NULL;
  if (!rc && o->rules_dir && !user_rules)
    rc = fail(EXIT_INTERNAL, "out of memory");
  if (!rc && !(list = fopen(p = fmt("%s/RULES", dir), "w")))
    rc = fail(EXIT_IO, "cannot write '%s': %s", p, strerror(errno));
  free(p);
  for (int i = 0; !rc && i < n; i++) {
    char *sub = fmt("rule-%s", rules[i].name);
    rc = make_dir(dir, sub);
    for (int k = 0; !rc && k < GSYNC_CHECK_PARTS; k++)
      rc = rewrite_part(run, o, dir, sub, user_rules, rules[i].name, k);
    free(sub);
    if (!rc)
      fprintf(list, "%s\t%d\t%s\n", rules[i].name, rules[i].is_default,
              rules[i].summary);
  }
  if (list && fclose(list) != 0 && !rc)
    rc = fail(EXIT_IO, "cannot write the list of rules in '%s'", dir);
  free(user_rules);
  free(run);
  if (tool != getenv("GSYNC_REWRITE") && strcmp(tool, "gsync-rewrite"))
    free(tool);
  return rc;
}

/* Reads DIR/RULES, as prepare wrote it, into rules. Returns the count, or
 * -1 after saying why. */
static int read_rules(const char *dir, rule *rules) {
  char *path = fmt("%s/RULES", dir);
  char *text = read_text(path);
  int n = 0;
  free(path);
  if (!text)
    return -1;
  char *save;
  for (char *l = strtok_r(text, "\n", &save); l && n < MAX_RULES;
       l = strtok_r(NULL, "\n", &save)) {
    char *t1 = strchr(l, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t2) {
      free(text);
      return fail(-1, "%s/RULES: not a list --save-kernels wrote", dir);
    }
    rules[n].name = fmt("%.*s", (int)(t1 - l), l);
    rules[n].is_default = t1[1] == '1';
    rules[n].summary = fmt("%s", t2 + 1);
    n++;
  }
  free(text);
  return n;
}

/* Removes a file or directory for nftw. */
static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path);
  return 0;
}

/* ---- the device ---- */

typedef struct device {
  cl_platform_id platform;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue queue;
  char name[256], platform_name[256], version[256], c_version[256];
  int gpu;
} device;

/* Opens device o->device of the first platform whose name contains
 * o->platform (gsync_pick_device). Returns 0 or EXIT_INTERNAL after saying
 * why. */
static int open_device(const options *o, device *d) {
  char err[512];
  cl_int rc;
  memset(d, 0, sizeof *d);
  if (o->device > 0xffffffffUL)
    return fail(EXIT_INTERNAL, "no device %lu: OpenCL counts them in 32 bits",
                o->device);
  if (gsync_pick_device(o->platform ? o->platform : "", (cl_uint)o->device,
                        &d->platform, &d->dev, err, sizeof err) != GSYNC_OK)
    return fail(EXIT_INTERNAL, "%s", err);
  clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof d->platform_name - 1,
                    d->platform_name, NULL);
  clGetDeviceInfo(d->dev, CL_DEVICE_NAME, sizeof d->name - 1, d->name, NULL);
  clGetDeviceInfo(d->dev, CL_DEVICE_VERSION, sizeof d->version - 1, d->version,
                  NULL);
  clGetDeviceInfo(d->dev, CL_DEVICE_OPENCL_C_VERSION, sizeof d->c_version - 1,
                  d->c_version, NULL);
  cl_device_type type = 0;
  clGetDeviceInfo(d->dev, CL_DEVICE_TYPE, sizeof type, &type, NULL);
  d->gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  d->ctx = clCreateContext(NULL, 1, &d->dev, NULL, NULL, &rc);
  if (rc != CL_SUCCESS)
    return fail(EXIT_INTERNAL, "clCreateContext: %d", (int)rc);
  d->queue = clCreateCommandQueueWithProperties(d->ctx, d->dev, NULL, &rc);
  if (rc != CL_SUCCESS)
    return fail(EXIT_INTERNAL, "clCreateCommandQueue: %d", (int)rc);
  return 0;
}

/* Runs parts of dir/sub on the device into *r; sets *verdict and message
 * for a device that cannot run them, or another failure. Returns 0, or
 * EXIT_INTERNAL for a failure that ends the check. */
static int check_one(const options *o, device *d, const char *dir,
                     const char *sub, int stress_only, rule *ru) {
  char *files[GSYNC_CHECK_PARTS] = {0};
  for (int k = 0; k < GSYNC_CHECK_PARTS; k++)
    if (!stress_only || k == GSYNC_CHECK_STRESS)
      files[k] = fmt("%s/%s/%s", dir, sub, part_names[k]);
  ru->r.size = sizeof ru->r;
  gsync_status st =
      gsync_check_rule(d->ctx, d->dev, d->queue, (const char *const *)files,
                       &o->check, &ru->r, ru->message, sizeof ru->message);
  for (int k = 0; k < GSYNC_CHECK_PARTS; k++)
    free(files[k]);
  if (st == GSYNC_ERR_DEVICE)
    ru->verdict = V_UNSUPPORTED;
  else if (st != GSYNC_OK)
    ru->verdict = V_ERROR;
  else if (ru->r.stress.stale != 0)
    ru->verdict = V_FAIL;
  else /* one work-group alone passes no message: nothing was tested */
    ru->verdict = ru->r.stress.participants >= 2 ? V_PASS : V_UNTESTED;
  if (st == GSYNC_ERR_IO || st == GSYNC_ERR_FORMAT)
    return fail(EXIT_IO, "%s", ru->message);
  return 0;
}

/* ---- the verdict ---- */

/* The shape of r timed with the most work-groups, at most g (the first
 * where none is that small). */
static size_t shape_at(const rule *r, size_t g) {
  size_t s = 0;
  for (size_t i = 0; i < r->r.n_shapes; i++)
    if (r->r.groups[i] <= g)
      s = i;
  return s;
}

/* A rule's cost for the recommendation: µs per barrier at the most
 * work-groups up to g, the fewest that every rule that passed was timed
 * with at its largest (all that fit: a persistent kernel's launch), so
 * that rules are compared at one shape even where their co-resident
 * counts differ. */
static double cost(const rule *r, size_t g) {
  return r->r.n_shapes ? r->r.timing[shape_at(r, g)].us_per_barrier : 1e300;
}

/* Whether r's cost at g is a measurement: µs per barrier is a difference
 * of two medians (long loop minus short), and on a busy CPU it can come
 * out zero or negative, which is noise, not a fast barrier. */
static int measured(const rule *r, size_t g) {
  return r->r.n_shapes && cost(r, g) > 0;
}

/* Whether the control shows that the stress test sees a missing barrier. */
static int blind(const rule *control) {
  return control->verdict == V_ERROR || control->verdict == V_UNSUPPORTED ||
         control->r.stress.stale == 0 || control->r.stress.participants < 2;
}

/* Chooses the rule to recommend into *best (-1: none) and says why in a
 * malloc'd sentence. */
static char *recommend(const rule *rules, int n, const rule *control,
                       cl_uint episodes, int *best) {
  int passed = 0;
  size_t g = (size_t)-1;
  *best = -1;
  for (int i = 0; i < n; i++)
    if (rules[i].verdict == V_PASS && rules[i].r.n_shapes &&
        rules[i].r.groups[rules[i].r.n_shapes - 1] < g)
      g = rules[i].r.groups[rules[i].r.n_shapes - 1];
  int unmeasured = 0;
  for (int i = 0; i < n; i++)
    if (rules[i].verdict == V_PASS) {
      passed++;
      if (!measured(&rules[i], g))
        unmeasured++;
      else if (*best < 0 || cost(&rules[i], g) < cost(&rules[*best], g))
        *best = i;
    }
  if (blind(control)) {
    *best = -1;
    if (control->verdict == V_ERROR || control->verdict == V_UNSUPPORTED)
      return fmt("none: the no-op control did not run (%s), so nothing shows "
                 "that the stress test can see a broken barrier here",
                 control->message);
    return fmt("none: the stress test is blind on this device: with a "
               "barrier that does nothing it saw %llu stale reads in %u "
               "episodes over %u work-groups, so zero stale reads prove "
               "nothing here",
               control->r.stress.stale, episodes,
               control->r.stress.participants);
  }
  if (*best < 0 && passed > 0) {
    /* No time to rank by: the tool's default if it passed, else the
     * first that passed, in --list-barriers' order. */
    for (int i = 0; i < n && *best < 0; i++)
      if (rules[i].verdict == V_PASS && rules[i].is_default)
        *best = i;
    for (int i = 0; i < n && *best < 0; i++)
      if (rules[i].verdict == V_PASS)
        *best = i;
    const rule *b = &rules[*best];
    return fmt("%s: zero stale reads in %u episodes over %u work-groups, "
               "where the no-op control saw %llu; %s of the %d rule%s that "
               "passed, since no time per barrier came out positive here "
               "to rank them by (the difference of two medians: timing "
               "noise on a busy device; run it again on an idle one)",
               b->name, episodes, b->r.stress.participants,
               control->r.stress.stale,
               b->is_default ? "the tool's default" : "the first listed",
               passed, passed == 1 ? "" : "s");
  }
  if (*best < 0)
    return fmt("none: no rule passed the stress test on this device");
  const rule *b = &rules[*best];
  size_t at = b->r.groups[shape_at(b, g)];
  char *why =
      fmt("%s: zero stale reads in %u episodes over %u work-groups, where the "
          "no-op control saw %llu, and the fastest of the %d rule%s that "
          "passed%s, at %.3f µs per barrier with %zu work-groups (the most "
          "that every rule that passed ran at once)",
          b->name, episodes, b->r.stress.participants, control->r.stress.stale,
          passed - unmeasured, passed - unmeasured == 1 ? "" : "s",
          unmeasured ? " with a positive time" : "", cost(b, g), at);
  int next = -1;
  for (int i = 0; i < n; i++)
    if (i != *best && rules[i].verdict == V_PASS && measured(&rules[i], g) &&
        (next < 0 || cost(&rules[i], g) < cost(&rules[next], g)))
      next = i;
  if (next >= 0 && why) {
    char *more = fmt("%s; next %s at %.3f µs", why, rules[next].name,
                     cost(&rules[next], g));
    free(why);
    why = more;
  }
  if (unmeasured > 0 && why) {
    char *more = fmt("%s; %d rule%s that passed left out, %s time per "
                     "barrier not positive (timing noise)",
                     why, unmeasured, unmeasured == 1 ? "" : "s",
                     unmeasured == 1 ? "its" : "their");
    free(why);
    why = more;
  }
  return why;
}

/* ---- output ---- */

/* A JSON number with dec decimals. */
static json_object *num(double v, int dec) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*f", dec, v);
  return json_object_new_double_s(v, buf);
}

#define ADD(o, k, v) json_object_object_add(o, k, v)

/* The stress result of r as JSON. */
static json_object *stress_json(const rule *r, cl_uint episodes) {
  json_object *s = json_object_new_object();
  ADD(s, "groups", json_object_new_int64((int64_t)r->r.stress_groups));
  ADD(s, "participants", json_object_new_int64(r->r.stress.participants));
  ADD(s, "episodes", json_object_new_int64(episodes));
  ADD(s, "stale", json_object_new_int64((int64_t)r->r.stress.stale));
  ADD(s, "seconds", num(r->r.stress.seconds, 3));
  return s;
}

/* The whole report as JSON (docs/check.md, "JSON"). */
static json_object *report_json(const options *o, const device *d,
                                const rule *rules, int n, const rule *control,
                                int best, const char *why) {
  cl_uint episodes = o->check.episodes ? o->check.episodes : 100000;
  json_object *root = json_object_new_object(), *x;
  ADD(root, "format", json_object_new_string("gsync-check"));
  ADD(root, "version", json_object_new_int(1));
  ADD(root, "tool", json_object_new_string("gsync-check " GSYNC_CHECK_VERSION));
  x = json_object_new_object();
  ADD(x, "name", json_object_new_string(d->name));
  ADD(x, "platform", json_object_new_string(d->platform_name));
  ADD(x, "version", json_object_new_string(d->version));
  ADD(x, "opencl_c", json_object_new_string(d->c_version));
  ADD(x, "type", json_object_new_string(d->gpu ? "gpu" : "other"));
  ADD(root, "device", x);
  x = json_object_new_object();
  ADD(x, "quick", json_object_new_boolean(o->quick));
  ADD(x, "local_size", json_object_new_int64((int64_t)control->r.local_size));
  ADD(x, "episodes", json_object_new_int64(episodes));
  ADD(x, "short_iters",
      json_object_new_int64(o->check.short_iters ? o->check.short_iters : 100));
  ADD(x, "long_iters",
      json_object_new_int64(o->check.long_iters ? o->check.long_iters : 2100));
  ADD(x, "reps", json_object_new_int64(o->check.reps ? o->check.reps : 7));
  ADD(x, "spin_limit_ms", json_object_new_int64((int64_t)o->spin_limit_ms));
  ADD(root, "options", x);
  x = json_object_new_object();
  ADD(x, "rule", json_object_new_string("noop"));
  ADD(x, "verdict",
      json_object_new_string(control->verdict == V_ERROR ||
                                     control->verdict == V_UNSUPPORTED
                                 ? verdict_names[control->verdict]
                             : blind(control) ? "blind"
                                              : "sees"));
  if (control->r.stressed)
    ADD(x, "stress", stress_json(control, episodes));
  if (control->verdict == V_ERROR || control->verdict == V_UNSUPPORTED)
    ADD(x, "message", json_object_new_string(control->message));
  ADD(root, "control", x);
  json_object *arr = json_object_new_array();
  for (int i = 0; i < n; i++) {
    const rule *r = &rules[i];
    json_object *j = json_object_new_object();
    ADD(j, "name", json_object_new_string(r->name));
    ADD(j, "default", json_object_new_boolean(r->is_default));
    ADD(j, "summary", json_object_new_string(r->summary));
    ADD(j, "verdict", json_object_new_string(verdict_names[r->verdict]));
    if (r->verdict >= V_UNSUPPORTED) {
      ADD(j, "message", json_object_new_string(r->message));
      json_object_array_add(arr, j);
      continue;
    }
    ADD(j, "coresident", json_object_new_int64((int64_t)r->r.coresident));
    ADD(j, "stress", stress_json(r, episodes));
    json_object *t = json_object_new_array();
    for (size_t s = 0; s < r->r.n_shapes; s++) {
      json_object *e = json_object_new_object();
      ADD(e, "groups", json_object_new_int64((int64_t)r->r.groups[s]));
      ADD(e, "participants",
          json_object_new_int64(r->r.timing[s].participants));
      ADD(e, "us_per_barrier", num(r->r.timing[s].us_per_barrier, 3));
      ADD(e, "launch_us", num(r->r.timing[s].launch_us, 1));
      json_object_array_add(t, e);
    }
    ADD(j, "timing", t);
    if (r->r.discovered) {
      json_object *e = json_object_new_object();
      ADD(e, "launched", json_object_new_int64((int64_t)r->r.disc_launched));
      ADD(e, "admitted_min", json_object_new_int64(r->r.disc_admitted_min));
      ADD(e, "admitted_max", json_object_new_int64(r->r.disc_admitted_max));
      ADD(e, "us", num(r->r.disc_us, 1));
      ADD(e, "plain_us", num(r->r.plain_us, 1));
      ADD(e, "ratio",
          num(r->r.plain_us > 0 ? r->r.disc_us / r->r.plain_us : 0, 2));
      ADD(j, "discovery", e);
    }
    if (r->r.abort_ran) {
      json_object *e = json_object_new_object();
      ADD(e, "groups", json_object_new_int64((int64_t)r->r.abort_groups));
      ADD(e, "ended",
          json_object_new_string(r->r.aborted ? "aborted" : "completed"));
      ADD(e, "spin_limit_ms", num(r->r.spin_limit_ms, 0));
      ADD(e, "ms", num(r->r.abort_ms, 1));
      ADD(e, "late_ms", num(r->r.abort_late_ms, 1));
      ADD(j, "abort", e);
    }
    json_object_array_add(arr, j);
  }
  ADD(root, "rules", arr);
  x = json_object_new_object();
  ADD(x, "rule", best >= 0 ? json_object_new_string(rules[best].name) : NULL);
  ADD(x, "why", json_object_new_string(why ? why : ""));
  ADD(root, "recommendation", x);
  return root;
}

/* Prints the table (docs/check.md, "Output"). */
static void print_table(const options *o, const device *d, const rule *rules,
                        int n, const rule *control, const char *why) {
  cl_uint episodes = o->check.episodes ? o->check.episodes : 100000;
  printf("device: %s (%s; %s)\n", d->name, d->platform_name, d->c_version);
  if (control->verdict == V_ERROR || control->verdict == V_UNSUPPORTED)
    printf("control: noop did not run: %s\n", control->message);
  else
    printf("control: noop saw %llu stale reads in %u episodes over %u "
           "work-groups of %zu: %s\n",
           control->r.stress.stale, episodes, control->r.stress.participants,
           control->r.local_size,
           blind(control) ? "BLIND, the stress test cannot see a missing "
                            "barrier here"
                          : "the stress test sees a missing barrier");
  printf("%-10s %-11s %8s %7s  %-34s %-16s %s\n", "rule", "verdict", "stale",
         "fit", "us/barrier at work-groups", "discovery", "abort late");
  for (int i = 0; i < n; i++) {
    const rule *r = &rules[i];
    if (r->verdict >= V_UNSUPPORTED) {
      printf("%-10s %-11s %s\n", r->name, verdict_names[r->verdict],
             r->message);
      continue;
    }
    char times[256] = "", disc[64] = "-", late[32] = "-";
    size_t used = 0;
    for (size_t s = 0; s < r->r.n_shapes && used < sizeof times; s++)
      used += (size_t)snprintf(times + used, sizeof times - used, "%s%zu:%.2f",
                               s ? " " : "", r->r.groups[s],
                               r->r.timing[s].us_per_barrier);
    if (r->r.discovered)
      snprintf(disc, sizeof disc, "%u/%zu %.2fx", r->r.disc_admitted_max,
               r->r.disc_launched,
               r->r.plain_us > 0 ? r->r.disc_us / r->r.plain_us : 0);
    if (r->r.abort_ran)
      snprintf(late, sizeof late, r->r.aborted ? "%+.1f ms" : "did not abort",
               r->r.abort_late_ms);
    printf("%-10s %-11s %8llu %7zu  %-34s %-16s %s\n", r->name,
           verdict_names[r->verdict], r->r.stress.stale, r->r.coresident, times,
           disc, late);
  }
  printf("recommended: %s\n", why ? why : "none: out of memory");
}

/* The python3 that draws the plot. */
static const char *python(void) {
  const char *p = getenv("GSYNC_PYTHON");
  return p && *p ? p : "/usr/bin/python3";
}

/* Whether python() imports matplotlib; says why not. */
static int have_matplotlib(void) {
  char *argv[] = {(char *)python(), "-c", "import matplotlib", NULL};
  char *out = NULL;
  int rc = run_program(argv, &out, 1, NULL);
  free(out);
  if (rc == 0)
    return 1;
  fprintf(stderr,
          PROG ": error: --plot needs matplotlib, which %s does not import "
               "(Debian: apt-get install python3-matplotlib; GSYNC_PYTHON "
               "names another python3); nothing was measured\n",
          python());
  return 0;
}

/* Draws the plot of the report in json_path into png. */
static int plot(const char *json_path, const char *png) {
  char *argv[] = {(char *)python(),  "-c",        (char *)gsync_check_plot_py,
                  (char *)json_path, (char *)png, NULL};
  int rc = run_program(argv, NULL, 0, NULL);
  return rc == 0
             ? 0
             : fail(EXIT_IO, "--plot: %s failed to draw '%s'", python(), png);
}

int main(int argc, char **argv) {
  options o;
  int rc = parse(argc, argv, &o);
  if (rc >= 0)
    return rc;
  rule rules[MAX_RULES], control;
  memset(rules, 0, sizeof rules);
  memset(&control, 0, sizeof control);
  control.name = "noop";
  int n;
  char tmp[PATH_MAX] = "";
  const char *dir = o.kernels;
  if (o.plot && !o.save && !have_matplotlib())
    return EXIT_IO;
  if (o.kernels) {
    n = read_rules(o.kernels, rules);
  } else {
    char *tool = rewrite_tool();
    n = list_rules(tool, o.rules_dir, rules);
    if (tool != getenv("GSYNC_REWRITE") && strcmp(tool, "gsync-rewrite"))
      free(tool);
  }
  if (n < 0)
    return o.kernels ? EXIT_IO : EXIT_INTERNAL;
  if (o.barriers && (n = select_rules(o.barriers, rules, n)) < 0)
    return EXIT_USAGE;
  if (!o.kernels) {
    if (o.save) {
      dir = o.save;
    } else {
      const char *t = getenv("TMPDIR");
      snprintf(tmp, sizeof tmp, "%s/gsync-check.XXXXXX", t && *t ? t : "/tmp");
      if (!mkdtemp(tmp))
        return fail(EXIT_IO, "cannot make a directory in '%s': %s",
                    t && *t ? t : "/tmp", strerror(errno));
      dir = tmp;
    }
    rc = prepare(&o, dir, rules, n);
    if (rc || o.save) {
      if (!rc)
        printf(PROG ": %d rules rewritten into %s; run there: gsync-check "
                    "--kernels %s\n",
               n, dir, dir);
      goto out;
    }
  }
  device d;
  rc = open_device(&o, &d);
  for (int i = 0; !rc && i < n; i++) {
    char *sub = fmt("rule-%s", rules[i].name);
    rc = check_one(&o, &d, dir, sub, 0, &rules[i]);
    free(sub);
  }
  if (!rc)
    rc = check_one(&o, &d, dir, "control", 1, &control);
  if (!rc) {
    int best;
    cl_uint episodes = o.check.episodes ? o.check.episodes : 100000;
    char *why = recommend(rules, n, &control, episodes, &best);
    print_table(&o, &d, rules, n, &control, why);
    json_object *j = report_json(&o, &d, rules, n, &control, best, why);
    const char *text = json_object_to_json_string_ext(
        j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
    /* --plot without --json: the report goes to a file of its own */
    char *jpath = o.json ? (char *)o.json : NULL;
    if (!jpath && o.plot) {
      const char *t = getenv("TMPDIR");
      jpath = fmt("%s/gsync-check-report.XXXXXX", t && *t ? t : "/tmp");
      int fd = jpath ? mkstemp(jpath) : -1;
      if (fd < 0) {
        rc = fail(EXIT_IO, "cannot make a file in '%s': %s",
                  t && *t ? t : "/tmp", strerror(errno));
        free(jpath);
        jpath = NULL;
      } else {
        close(fd);
      }
    }
    if (!rc && jpath)
      rc = write_file(jpath, text, strlen(text));
    if (!rc && o.plot)
      rc = plot(jpath, o.plot);
    if (jpath && jpath != o.json) {
      unlink(jpath);
      free(jpath);
    }
    json_object_put(j);
    /* Where libgsync looks first for the rule of an output of
     * --barrier=auto on this device (docs/auto.md). */
    if (!rc && best >= 0 && !o.no_cache) {
      char path[4096], err[512];
      if (gsync_check_cache_store(d.dev, rules[best].name, why, path,
                                  sizeof path, err, sizeof err) != GSYNC_OK)
        rc = fail(EXIT_IO, "%s", err);
      else if (path[0])
        printf("cached for --barrier=auto: %s, in %s\n", rules[best].name,
               path);
    }
    free(why);
    if (!rc)
      rc = best >= 0 ? EXIT_OK : 1;
  }
out:
  if (*tmp)
    nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  for (int i = 0; i < n; i++) {
    free(rules[i].name);
    free(rules[i].summary);
  }
  return rc;
}
