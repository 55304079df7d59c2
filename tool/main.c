/* gsync-rewrite, the command-line tool: options, input and output, exit
 * codes, and printing of the engine's diagnostics. Uses only the engine's
 * public header. Output files (the rewritten source, the constraints, the
 * dependency file) are written to a temporary file beside the target and
 * renamed into place, all or none, so an error never leaves a partial or
 * truncated file, and the input is never overwritten.
 */
#define _XOPEN_SOURCE 700
#include "depfile.h"
#include "gsync_rewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum exit_code {
  EXIT_OK = 0,       /* written (warnings may have been printed) */
  EXIT_INPUT = 1,    /* the input has errors */
  EXIT_USAGE = 2,    /* bad command line, unknown barrier, bad rules */
  EXIT_IO = 3,       /* input unreadable or output unwritable */
  EXIT_INTERNAL = 4  /* libclang failed to run, out of memory */
};

static const char usage_text[] =
    "usage: gsync-rewrite [options] INPUT.cl\n"
    "\n"
    "Rewrites OpenCL C that calls global_barrier() into OpenCL C that any\n"
    "driver builds. INPUT '-' reads standard input.\n"
    "\n"
    "options:\n"
    "  -o FILE, --output=FILE\n"
    "                        write the output to FILE ('-': standard output,\n"
    "                        the default)\n"
    "  --constraints FILE    write the launch constraints as JSON to FILE\n"
    "  --barrier=NAME        barrier implementation (default: flip)\n"
    "  --discovery=NAME      occupancy discovery protocol (default: lockfree)\n"
    "  --list-barriers       list barriers and discovery protocols, and exit\n"
    "  --no-discovery        every launched work-group takes part; the host\n"
    "                        must not launch more than are co-resident\n"
    "  --rules-dir=DIR       rule files in DIR add to or replace built-in ones\n"
    "  --no-uniformity-check do not check that every work-item reaches the\n"
    "                        same global_barrier() calls\n"
    "  --inline-includes     write the text of the files the input includes\n"
    "                        into the output, with #line directives, so the\n"
    "                        driver needs no include path; functions in them\n"
    "                        are rewritten too\n"
    "  -MD, -MMD             write the files the output depends on, in Make\n"
    "                        syntax, to the -o file's name with suffix .d\n"
    "  -MF FILE              write the dependencies to FILE ('-': standard\n"
    "                        output); implies -MD\n"
    "  -MT TARGET            the target of the dependencies, as written\n"
    "                        (repeatable; default: the -o file)\n"
    "  -MQ TARGET            the same, quoted for Make\n"
    "  -MP                   add an empty rule for each included file\n"
    "  --spin-limit=N        a work-group that waits N polls at a barrier or in\n"
    "                        discovery aborts the launch, which then ends with\n"
    "                        an error naming the barrier (default: %lu;\n"
    "                        0: wait forever)\n"
    "  -D NAME[=VALUE], -U NAME, -I DIR, -include FILE, -cl-std=CLx.y\n"
    "                        preprocessor options, as for clBuildProgram\n"
    "  -h, --help            show this help and exit\n"
    "  --version             show the version and exit\n"
    "\n"
    "exit status:\n"
    "  0  output written (warnings may have been printed)\n"
    "  1  the input has errors; nothing was written\n"
    "  2  usage error: bad option, unknown barrier, bad rules directory\n"
    "  3  input unreadable or output unwritable; nothing was written\n"
    "  4  internal error: libclang could not run, out of memory\n";

typedef struct cli {
  const char *input, *output, *constraints, *barrier, *discovery, *rules_dir;
  int no_discovery, no_uniformity, list, inline_includes;
  unsigned long spin_limit; /* as gsr_options.spin_limit */
  const char **pargs;
  int n_pargs;
  /* Dependency file: -MD/-MMD (md_opt as spelled), -MF, -MT/-MQ, -MP. */
  const char *md_opt, *depfile, *dep_only_opt;
  char *depfile_owned; /* the name derived from -o */
  dep_target *targets;
  size_t n_targets;
  int phony;
} cli;

/* Prints a usage error with a pointer to --help; returns EXIT_USAGE. */
static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "gsync-rewrite: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'gsync-rewrite --help' for more information.\n");
  return EXIT_USAGE;
}

/* Prints one engine diagnostic the way a compiler does. */
static void print_diag(void *user, const gsr_diagnostic *d) {
  (void)user;
  static const char *const sev[] = {"note", "warning", "error"};
  if (d->file && d->line)
    fprintf(stderr, "%s:%u:%u: %s: %s\n", d->file, d->line, d->col,
            sev[d->severity], d->message);
  else
    fprintf(stderr, "gsync-rewrite: %s: %s\n", sev[d->severity], d->message);
}

/* Matches option name with its value: attached ("--barrier=flip" for a
 * long option, "-MFdeps.d" for a short one) or the next argument; sets *val
 * and advances *i. Returns 1 on a match, 0 if argv[*i] is another option,
 * -1 if the value is missing. */
static int opt_value(int argc, char **argv, int *i, const char *name,
                     const char **val) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  int is_long = name[1] == '-';
  if (strncmp(a, name, n) != 0)
    return 0;
  if (a[n] && (!is_long || a[n] == '=')) {
    *val = a + n + is_long;
    return 1;
  }
  if (a[n] != '\0')
    return 0;
  if (*i + 1 >= argc)
    return -1;
  *val = argv[++*i];
  return 1;
}

/* The dependency file's name derived from the output's, as a compiler
 * does: out.cl -> out.d (malloc'd). */
static char *depfile_for(const char *output) {
  const char *base = strrchr(output, '/');
  base = base ? base + 1 : output;
  const char *dot = strrchr(base, '.');
  size_t stem = dot && dot != base ? (size_t)(dot - output) : strlen(output);
  char *name = malloc(stem + 3);
  if (name) {
    memcpy(name, output, stem);
    memcpy(name + stem, ".d", 3);
  }
  return name;
}

/* Checks the dependency options once the whole command line is read, and
 * fills in the defaults: the file named after -o, the -o file as target.
 * Returns -1 when they are fine, else an exit code. */
static int finish_dep_options(cli *c) {
  int out_file = c->output && strcmp(c->output, "-") != 0;
  if (!c->md_opt && !c->depfile) {
    if (c->dep_only_opt)
      return usage_error("option '%s' needs '-MD' or '-MF FILE'",
                         c->dep_only_opt);
    return -1;
  }
  if (!c->depfile) {
    if (!out_file)
      return usage_error("option '%s' needs '-MF FILE' or '-o FILE' to name "
                         "the dependency file",
                         c->md_opt);
    c->depfile = c->depfile_owned = depfile_for(c->output);
    if (!c->depfile)
      return EXIT_INTERNAL;
  }
  if (!c->n_targets) {
    if (!out_file)
      return usage_error("%s", "the dependency file needs a target: name one "
                               "with '-MT TARGET' or an output file with "
                               "'-o FILE'");
    c->targets[c->n_targets++] = (dep_target){c->output, 1};
  }
  if (strcmp(c->depfile, "-") == 0 && !out_file)
    return usage_error("%s", "the output and the dependencies cannot both go "
                             "to standard output");
  return -1;
}

/* Parses the value of --spin-limit: decimal digits, at most
 * GSR_SPIN_LIMIT_MAX; 0 asks for no limit. Returns 0 if v is not one. */
static int parse_spin_limit(const char *v, unsigned long *out) {
  unsigned long n = 0;
  if (!*v)
    return 0;
  for (const char *p = v; *p; p++) {
    if (*p < '0' || *p > '9' || n > GSR_SPIN_LIMIT_MAX)
      return 0;
    n = n * 10 + (unsigned long)(*p - '0');
  }
  if (n > GSR_SPIN_LIMIT_MAX)
    return 0;
  *out = n == 0 ? GSR_SPIN_UNBOUNDED : n;
  return 1;
}

/* Parses the command line into c. Returns -1 on success or an exit code. */
static int parse_args(int argc, char **argv, cli *c) {
  c->pargs = calloc((size_t)argc * 2 + 1, sizeof *c->pargs);
  c->targets = calloc((size_t)argc + 1, sizeof *c->targets);
  if (!c->pargs || !c->targets)
    return EXIT_INTERNAL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    int r;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      printf(usage_text, gsr_default_spin_limit());
      return EXIT_OK;
    }
    if (strcmp(a, "--version") == 0) {
      printf("gsync-rewrite " GSR_VERSION "\n");
      return EXIT_OK;
    }
    if (strcmp(a, "--list-barriers") == 0) {
      c->list = 1;
    } else if (strcmp(a, "--no-discovery") == 0) {
      c->no_discovery = 1;
    } else if (strcmp(a, "--no-uniformity-check") == 0) {
      c->no_uniformity = 1;
    } else if (strcmp(a, "--inline-includes") == 0) {
      c->inline_includes = 1;
    } else if ((r = opt_value(argc, argv, &i, "--barrier", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->barrier = v;
    } else if ((r = opt_value(argc, argv, &i, "--discovery", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->discovery = v;
    } else if ((r = opt_value(argc, argv, &i, "--constraints", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->constraints = v;
    } else if ((r = opt_value(argc, argv, &i, "--spin-limit", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      if (!parse_spin_limit(v, &c->spin_limit))
        return usage_error("--spin-limit takes a number of polls from 0 (no "
                           "limit) to 4000000000, not '%s'",
                           v);
    } else if ((r = opt_value(argc, argv, &i, "--rules-dir", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->rules_dir = v;
    } else if ((r = opt_value(argc, argv, &i, "--output", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->output = v;
    } else if ((r = opt_value(argc, argv, &i, "-o", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->output = v;
    } else if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0) {
      c->md_opt = a; /* no system header is ever listed: -MMD is -MD */
    } else if (strcmp(a, "-MP") == 0) {
      c->phony = 1;
      if (!c->dep_only_opt)
        c->dep_only_opt = "-MP";
    } else if ((r = opt_value(argc, argv, &i, "-MF", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->depfile = v;
    } else if ((r = opt_value(argc, argv, &i, "-MT", &v)) != 0 ||
               (r = opt_value(argc, argv, &i, "-MQ", &v)) != 0) {
      if (r < 0)
        return usage_error("option '%s' needs a value", a);
      c->targets[c->n_targets++] = (dep_target){v, a[2] == 'Q'};
      if (!c->dep_only_opt)
        c->dep_only_opt = a[2] == 'Q' ? "-MQ" : "-MT";
    } else if (strncmp(a, "-cl-std=", 8) == 0) {
      c->pargs[c->n_pargs++] = a;
    } else if (strcmp(a, "-include") == 0) {
      if (i + 1 >= argc)
        return usage_error("option '%s' needs a value", a);
      c->pargs[c->n_pargs++] = a;
      c->pargs[c->n_pargs++] = argv[++i];
    } else if (a[0] == '-' && (a[1] == 'D' || a[1] == 'U' || a[1] == 'I')) {
      c->pargs[c->n_pargs++] = a;
      if (!a[2]) {
        if (i + 1 >= argc)
          return usage_error("option '%s' needs a value", a);
        c->pargs[c->n_pargs++] = argv[++i];
      }
    } else if (a[0] == '-' && a[1] != '\0') {
      return usage_error("unknown option '%s'", a);
    } else if (c->input) {
      return usage_error("more than one input file ('%s')", a);
    } else {
      c->input = a;
    }
  }
  if (!c->list && !c->input)
    return usage_error("%s", "no input file");
  return c->list ? -1 : finish_dep_options(c);
}

/* Reads a whole stream into a malloc'd buffer. Returns NULL on error. */
static char *read_stream(FILE *f, size_t *len) {
  size_t cap = 1 << 16, n = 0, got;
  char *buf = malloc(cap);
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *p = realloc(buf, cap * 2);
      if (!p) {
        free(buf);
        return NULL;
      }
      buf = p;
      cap *= 2;
    }
  }
  if (buf && ferror(f)) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* A file being written: the temporary path, renamed over the target by
 * commit_file(). */
typedef struct outfile {
  const char *target;
  char *tmp;
} outfile;

/* Writes data to a new temporary file next to target. Returns 0 on
 * success, else prints why and returns EXIT_IO. */
static int stage_file(outfile *o, const char *target, const char *data,
                      size_t len) {
  o->target = target;
  static const char suffix[] = ".gsync-tmp.XXXXXX";
  const char *slash = strrchr(target, '/');
  size_t dl = slash ? (size_t)(slash - target) + 1 : 0;
  /* The directory part, then the suffix with its NUL: a short target
   * name needs more room than its own length. */
  o->tmp = malloc(dl + sizeof suffix);
  if (!o->tmp)
    return EXIT_INTERNAL;
  memcpy(o->tmp, target, dl);
  memcpy(o->tmp + dl, suffix, sizeof suffix);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    fprintf(stderr, "gsync-rewrite: error: cannot write '%s': %s\n", target,
            strerror(errno));
    free(o->tmp);
    o->tmp = NULL;
    return EXIT_IO;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      break;
    off += (size_t)w;
  }
  if (close(fd) != 0 || off < len) {
    fprintf(stderr, "gsync-rewrite: error: cannot write '%s': %s\n", target,
            strerror(errno ? errno : EIO));
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return EXIT_IO;
  }
  return 0;
}

/* Renames a staged file into place, or removes it when keep is 0. */
static int commit_file(outfile *o, int keep) {
  int rc = 0;
  if (!o->tmp)
    return 0;
  if (keep && rename(o->tmp, o->target) != 0) {
    fprintf(stderr, "gsync-rewrite: error: cannot write '%s': %s\n",
            o->target, strerror(errno));
    rc = EXIT_IO;
  }
  if (!keep || rc)
    unlink(o->tmp);
  free(o->tmp);
  o->tmp = NULL;
  return rc;
}

/* Nonzero if paths a and b name the same existing file. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Prints one barrier rule for --list-barriers. */
static void print_rule(void *user, const char *name, const char *summary,
                       int is_default) {
  (void)user;
  printf("  %-12s %s%s\n", name, summary, is_default ? " (default)" : "");
}

/* Writes bytes to standard output. Returns 0, or EXIT_IO after saying
 * why. */
static int put_stdout(const char *data, size_t len) {
  if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
    fprintf(stderr, "gsync-rewrite: error: cannot write standard output\n");
    return EXIT_IO;
  }
  return 0;
}

/* The dependency file's text for this rewrite (malloc'd), or NULL with
 * *rc set after saying why. */
static char *deps_text(const cli *c, const gsr_result *res, size_t *len,
                       int *rc) {
  size_t n = gsr_result_num_dependencies(res);
  const char **deps = malloc((n + 1) * sizeof *deps);
  const char *bad = NULL;
  char *text = NULL;
  if (deps) {
    for (size_t i = 0; i < n; i++)
      deps[i] = gsr_result_dependency(res, i);
    const char *input = strcmp(c->input, "-") != 0 ? c->input : NULL;
    text = depfile_text(c->targets, c->n_targets, input, deps, n, c->phony,
                        len, &bad);
    free(deps);
  }
  if (!text && bad)
    fprintf(stderr,
            "gsync-rewrite: error: cannot write '%s': Make cannot spell the "
            "file name '%s'\n",
            c->depfile, bad);
  if (!text)
    *rc = bad ? EXIT_IO : EXIT_INTERNAL;
  return text;
}

/* Nonzero if path (an output; NULL or "-" for none) names the input. */
static int is_input(const cli *c, const char *path) {
  return strcmp(c->input, "-") != 0 && path && strcmp(path, "-") != 0 &&
         same_file(c->input, path);
}

/* Rewrites, then writes the output, the constraints and the dependency
 * file. Returns an exit code. */
static int run(cli *c) {
  int is_stdin = strcmp(c->input, "-") == 0;
  const char *in_name = is_stdin ? "<stdin>" : c->input;
  int to_stdout = !c->output || strcmp(c->output, "-") == 0;
  if (is_input(c, c->output))
    return usage_error("refusing to overwrite the input '%s'; name another "
                       "output file with -o",
                       c->input);
  if (is_input(c, c->constraints))
    return usage_error("refusing to overwrite the input '%s' with the "
                       "constraints",
                       c->input);
  if (is_input(c, c->depfile))
    return usage_error("refusing to overwrite the input '%s' with the "
                       "dependencies",
                       c->input);

  FILE *f = is_stdin ? stdin : fopen(c->input, "rb");
  if (!f) {
    fprintf(stderr, "gsync-rewrite: error: cannot read '%s': %s\n", c->input,
            strerror(errno));
    return EXIT_IO;
  }
  size_t len = 0;
  char *src = read_stream(f, &len);
  int read_errno = errno;
  if (!is_stdin)
    fclose(f);
  if (!src) {
    fprintf(stderr, "gsync-rewrite: error: cannot read '%s': %s\n", c->input,
            strerror(read_errno));
    return EXIT_IO;
  }

  char *abs_path = is_stdin ? NULL : realpath(c->input, NULL);
  gsr_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.input_name = in_name;
  o.input_path = abs_path;
  o.source = src;
  o.source_len = len;
  o.barrier = c->barrier;
  o.discovery = c->discovery;
  o.no_discovery = c->no_discovery;
  o.no_uniformity_check = c->no_uniformity;
  o.inline_includes = c->inline_includes;
  o.rules_dir = c->rules_dir;
  o.spin_limit = c->spin_limit;
  o.parser_args = c->pargs;
  o.num_parser_args = c->n_pargs;
  o.diag = print_diag;

  gsr_result *res = NULL;
  gsr_status st = gsr_rewrite(&o, &res);
  free(abs_path);
  free(src);
  if (st != GSR_OK) {
    if (st == GSR_ERR_OPTIONS) {
      fprintf(stderr, "Try 'gsync-rewrite --help' for more information.\n");
      return EXIT_USAGE;
    }
    return st == GSR_ERR_INPUT ? EXIT_INPUT : EXIT_INTERNAL;
  }

  size_t out_len;
  const char *out = gsr_result_output(res, &out_len);
  const char *json = gsr_result_constraints(res);
  outfile fo = {0}, fc = {0}, fd = {0};
  int rc = 0;
  size_t dep_len = 0;
  char *dep = c->depfile ? deps_text(c, res, &dep_len, &rc) : NULL;
  int deps_to_stdout = dep && strcmp(c->depfile, "-") == 0;
  if (!rc && !to_stdout)
    rc = stage_file(&fo, c->output, out, out_len);
  if (!rc && c->constraints)
    rc = stage_file(&fc, c->constraints, json, strlen(json));
  if (!rc && dep && !deps_to_stdout)
    rc = stage_file(&fd, c->depfile, dep, dep_len);
  if (!rc && to_stdout)
    rc = put_stdout(out, out_len);
  int keep = rc == 0;
  int rc1 = commit_file(&fo, keep);
  int rc2 = commit_file(&fc, keep && !rc1);
  int rc3 = commit_file(&fd, keep && !rc1 && !rc2);
  if (keep && !rc1 && !rc2 && !rc3 && deps_to_stdout)
    rc3 = put_stdout(dep, dep_len);
  free(dep);
  gsr_result_dispose(res);
  return rc ? rc : rc1 ? rc1 : rc2 ? rc2 : rc3;
}



int main(int argc, char **argv) {
  cli c;
  memset(&c, 0, sizeof c);
  int rc = parse_args(argc, argv, &c);
  if (rc < 0 && c.list) {
    printf("barriers (--barrier=NAME):\n");
    gsr_status st = gsr_list_rules(c.rules_dir, "barrier", print_rule, NULL,
                                   print_diag, NULL);
    if (st == GSR_OK) {
      printf("discovery protocols (--discovery=NAME):\n");
      st = gsr_list_rules(c.rules_dir, "discovery", print_rule, NULL,
                          print_diag, NULL);
    }
    rc = st == GSR_OK ? EXIT_OK : EXIT_USAGE;
  } else if (rc < 0) {
    rc = run(&c);
  }
  free(c.pargs);
  free(c.targets);
  free(c.depfile_owned);
  return rc;
}
