/* gsync-rewrite's command line: the options (cli_parse) and the files a
 * run writes (cli_plan_outputs). See cli.h.
 */
#define _XOPEN_SOURCE 700
#include "cli.h"
#include "gsync_rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage_text[] =
    "usage: gsync-rewrite [options] [--] INPUT.cl\n"
    "\n"
    "Rewrites OpenCL C that calls global_barrier() into OpenCL C that any\n"
    "driver builds. INPUT '-' reads standard input; after '--' every\n"
    "argument is the input, one that starts with '-' too.\n"
    "\n"
    "options:\n"
    "  -o FILE, --output=FILE\n"
    "                        write the output to FILE ('-': standard output,\n"
    "                        the default)\n"
    "  --constraints FILE    write the launch constraints as JSON to FILE\n"
    "  --barrier=NAME        barrier implementation (default: %s)\n"
    "                        'auto': several in one output, of which libgsync\n"
    "                        builds the one it chooses per device\n"
    "  --discovery=NAME      occupancy discovery protocol (default: %s)\n"
    "  --list-barriers       list barriers and discovery protocols, and exit\n"
    "  --no-discovery        every launched work-group takes part; the host\n"
    "                        must not launch more than are co-resident\n"
    "  --rules-dir=DIR       rule files in DIR add to or replace built-in "
    "ones\n"
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
    "  --spin-limit=TIME     a work-group that waits TIME at a barrier or in\n"
    "                        discovery (e.g. 500ms, 10s) aborts the launch,\n"
    "                        which then ends with an error naming the barrier\n"
    "                        (default: %lums; 0: wait forever)\n"
    "  --max-memory=SIZE     stop a rewrite that holds more than SIZE of "
    "memory\n"
    "                        (e.g. 512M, 4G; default: %lluM; 0: no limit)\n"
    "  --max-time=TIME       stop a rewrite that runs longer than TIME (e.g.\n"
    "                        500ms, 30s; default: %lus; 0: no limit)\n"
    "  -D NAME[=VALUE], -U NAME, -I DIR, -include FILE, -cl-std=CLx.y\n"
    "                        preprocessor options, as for clBuildProgram\n"
    "  -cl-ext=LIST          OpenCL C features and extensions the device has\n"
    "                        (+NAME) or lacks (-NAME), comma-separated, as "
    "for\n"
    "                        clang; CL3.0 starts from those PoCL declares\n"
    "  -h, --help            show this help and exit\n"
    "  --version             show the version and exit\n"
    "\n"
    "exit status:\n"
    "  0  output written (warnings may have been printed)\n"
    "  1  the input has errors, or its rewrite went past a limit; nothing\n"
    "     was written\n"
    "  2  usage error: bad option, unknown barrier, bad rules directory\n"
    "  3  input unreadable or output unwritable; nothing was written\n"
    "  4  internal error: libclang could not run, out of memory\n";

/* Prints a usage error with a pointer to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "gsync-rewrite: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nTry 'gsync-rewrite --help' for more information.\n");
  return EXIT_USAGE;
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
      return cli_usage_error("option '%s' needs '-MD' or '-MF FILE'",
                             c->dep_only_opt);
    return -1;
  }
  if (!c->depfile) {
    if (!out_file)
      return cli_usage_error(
          "option '%s' needs '-MF FILE' or '-o FILE' to name "
          "the dependency file",
          c->md_opt);
    c->depfile = c->depfile_owned = depfile_for(c->output);
    if (!c->depfile)
      return exit_nomem();
  }
  if (!c->n_targets) {
    if (!out_file)
      return cli_usage_error("%s",
                             "the dependency file needs a target: name one "
                             "with '-MT TARGET' or an output file with "
                             "'-o FILE'");
    c->targets[c->n_targets++] = (dep_target){c->output, 1};
  }
  if (strcmp(c->depfile, "-") == 0 && !out_file)
    return cli_usage_error("%s",
                           "the output and the dependencies cannot both go "
                           "to standard output");
  return -1;
}

/* Parses a time (--spin-limit, --max-time) into milliseconds: "0" (no
 * limit), or decimal digits followed by "ms" or "s", from 1 ms to an
 * hour (GSR_SPIN_LIMIT_MAX). A bare number is refused, so that no one's
 * count of polls (what --spin-limit once took) is silently read as a
 * time. Returns 0 if v is not one. */
static int parse_time(const char *v, unsigned long *out) {
  unsigned long n = 0;
  const char *p = v;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (n > GSR_SPIN_LIMIT_MAX)
      return 0;
    n = n * 10 + (unsigned long)(*p - '0');
  }
  if (p == v)
    return 0;
  if (strcmp(v, "0") == 0) {
    *out = 0;
    return 1;
  }
  if (strcmp(p, "s") == 0 && n <= GSR_SPIN_LIMIT_MAX / 1000)
    n *= 1000;
  else if (strcmp(p, "ms") != 0)
    return 0;
  if (n == 0 || n > GSR_SPIN_LIMIT_MAX)
    return 0;
  *out = n;
  return 1;
}

/* The largest --max-memory: 1 TiB. */
#define MAX_MEMORY_LIMIT (1ull << 40)

/* Parses the value of --max-memory into bytes: "0" (no limit), or decimal
 * digits followed by "M" (MiB) or "G" (GiB), at most MAX_MEMORY_LIMIT.
 * Returns 0 if v is not one. */
static int parse_size(const char *v, unsigned long long *out) {
  unsigned long long n = 0;
  const char *p = v;
  for (; *p >= '0' && *p <= '9'; p++) {
    if (n > MAX_MEMORY_LIMIT)
      return 0;
    n = n * 10 + (unsigned long long)(*p - '0');
  }
  if (p == v)
    return 0;
  if (strcmp(v, "0") == 0) {
    *out = 0;
    return 1;
  }
  int shift = strcmp(p, "M") == 0 ? 20 : strcmp(p, "G") == 0 ? 30 : 0;
  if (!shift || n == 0 || n > MAX_MEMORY_LIMIT >> shift)
    return 0;
  *out = n << shift;
  return 1;
}

/* Parses the command line into c. Returns -1 on success or an exit code. */
int cli_parse(int argc, char **argv, cli *c) {
  c->limits.memory = BOUNDED_MEMORY_DEFAULT;
  c->limits.time_ms = BOUNDED_TIME_DEFAULT;
  c->pargs = calloc((size_t)argc * 2 + 1, sizeof *c->pargs);
  c->targets = calloc((size_t)argc + 1, sizeof *c->targets);
  if (!c->pargs || !c->targets)
    return exit_nomem();
  int operands = 0; /* after "--": the input, whatever it spells */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = NULL;
    int r;
    if (!operands && strcmp(a, "--") == 0) {
      operands = 1;
      continue;
    }
    if (operands || a[0] != '-' || a[1] == '\0') {
      if (c->input)
        return cli_usage_error("more than one input file ('%s')", a);
      c->input = a;
      continue;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      printf(usage_text, gsr_default_barrier(), gsr_default_discovery(),
             gsr_default_spin_limit(), BOUNDED_MEMORY_DEFAULT >> 20,
             BOUNDED_TIME_DEFAULT / 1000);
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
        return cli_usage_error("option '%s' needs a value", a);
      c->barrier = v;
    } else if ((r = opt_value(argc, argv, &i, "--discovery", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->discovery = v;
    } else if ((r = opt_value(argc, argv, &i, "--constraints", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->constraints = v;
    } else if ((r = opt_value(argc, argv, &i, "--spin-limit", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      if (!parse_time(v, &c->spin_limit))
        return cli_usage_error("--spin-limit takes a time from 1ms to 3600s, "
                               "such as 500ms or 10s, or 0 for no limit, not "
                               "'%s'",
                               v);
      if (c->spin_limit == 0)
        c->spin_limit = GSR_SPIN_UNBOUNDED;
    } else if ((r = opt_value(argc, argv, &i, "--max-memory", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      if (!parse_size(v, &c->limits.memory))
        return cli_usage_error("--max-memory takes a size such as 512M or 4G, "
                               "or 0 for no limit, not '%s'",
                               v);
    } else if ((r = opt_value(argc, argv, &i, "--max-time", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      if (!parse_time(v, &c->limits.time_ms))
        return cli_usage_error("--max-time takes a time from 1ms to 3600s, "
                               "such as 500ms or 30s, or 0 for no limit, not "
                               "'%s'",
                               v);
    } else if ((r = opt_value(argc, argv, &i, "--rules-dir", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->rules_dir = v;
    } else if ((r = opt_value(argc, argv, &i, "--output", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->output = v;
    } else if ((r = opt_value(argc, argv, &i, "-o", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->output = v;
    } else if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0) {
      c->md_opt = a; /* no system header is ever listed: -MMD is -MD */
    } else if (strcmp(a, "-MP") == 0) {
      c->phony = 1;
      if (!c->dep_only_opt)
        c->dep_only_opt = "-MP";
    } else if ((r = opt_value(argc, argv, &i, "-MF", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->depfile = v;
    } else if ((r = opt_value(argc, argv, &i, "-MT", &v)) != 0 ||
               (r = opt_value(argc, argv, &i, "-MQ", &v)) != 0) {
      if (r < 0)
        return cli_usage_error("option '%s' needs a value", a);
      c->targets[c->n_targets++] = (dep_target){v, a[2] == 'Q'};
      if (!c->dep_only_opt)
        c->dep_only_opt = a[2] == 'Q' ? "-MQ" : "-MT";
    } else if (strncmp(a, "-cl-std=", 8) == 0 ||
               strncmp(a, "-cl-ext=", 8) == 0) {
      c->pargs[c->n_pargs++] = a;
    } else if (strcmp(a, "-include") == 0) {
      if (i + 1 >= argc)
        return cli_usage_error("option '%s' needs a value", a);
      c->pargs[c->n_pargs++] = a;
      c->pargs[c->n_pargs++] = argv[++i];
    } else if (a[0] == '-' && (a[1] == 'D' || a[1] == 'U' || a[1] == 'I')) {
      c->pargs[c->n_pargs++] = a;
      if (!a[2]) {
        if (i + 1 >= argc)
          return cli_usage_error("option '%s' needs a value", a);
        c->pargs[c->n_pargs++] = argv[++i];
      }
    } else {
      return cli_usage_error("unknown option '%s'", a);
    }
  }
  if (!c->list && !c->input)
    return cli_usage_error("%s", "no input file");
  return c->list ? -1 : finish_dep_options(c);
}

/* Nonzero if paths a and b name the same existing file. */
static int same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Nonzero if path (an output; NULL or "-" for none) names the input. */
static int is_input(const cli *c, const char *path) {
  return strcmp(c->input, "-") != 0 && path && strcmp(path, "-") != 0 &&
         same_file(c->input, path);
}

/* Plans the run's files; see cli.h. */
int cli_plan_outputs(const cli *c, cli_outputs *o) {
  int to_stdout = !c->output || strcmp(c->output, "-") == 0;
  memset(o, 0, sizeof *o);
  o->output = o->constraints = o->depfile = -1;
  if (is_input(c, c->output))
    return cli_usage_error("refusing to overwrite the input '%s'; name "
                           "another output file with -o",
                           c->input);
  if (is_input(c, c->constraints))
    return cli_usage_error("refusing to overwrite the input '%s' with the "
                           "constraints",
                           c->input);
  if (is_input(c, c->depfile))
    return cli_usage_error("refusing to overwrite the input '%s' with the "
                           "dependencies",
                           c->input);
  if (to_stdout && c->constraints && strcmp(c->constraints, "-") == 0)
    return cli_usage_error("%s", "the output and the constraints cannot both "
                                 "go to standard output");
  o->output = (int)o->set.n;
  int rc = out_add(&o->set, to_stdout ? "-" : c->output, "-o");
  if (!rc && c->constraints) {
    o->constraints = (int)o->set.n;
    rc = out_add(&o->set, c->constraints, "--constraints");
  }
  if (!rc && c->depfile) {
    o->depfile = (int)o->set.n;
    rc = out_add(&o->set, c->depfile, c->depfile_owned ? c->md_opt : "-MF");
  }
  return rc ? rc : out_plan(&o->set);
}

/* Frees what cli_parse allocated. */
void cli_free(cli *c) {
  free(c->pargs);
  free(c->targets);
  free(c->depfile_owned);
}
