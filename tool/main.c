/* gsync-rewrite, the command-line tool: reads the input, runs the engine,
 * prints its diagnostics and writes the files (cli.c parses the options,
 * bounded.c runs the engine in a child process under limits, output.c
 * writes the files all or none). Uses only the engine's public header.
 * The input is never overwritten.
 */
#define _XOPEN_SOURCE 700
#include "bounded.h"
#include "cli.h"
#include "gsync_rewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The largest input read: OpenCL C sources are far smaller, and a stream
 * that does not end (cat /dev/zero |) must not take all memory. */
#define MAX_INPUT_BYTES (64u << 20)

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

/* Prints one barrier rule for --list-barriers. */
static void print_rule(void *user, const char *name, const char *summary,
                       const char *runs_on, int is_default) {
  (void)user;
  printf("  %-12s %s%s%s%s\n", name, summary, *runs_on ? "; runs on " : "",
         runs_on, is_default ? " (default)" : "");
}

/* Prints "cannot read 'name': why" and returns EXIT_IO. */
static int cannot_read(const char *name, const char *why) {
  fprintf(stderr, "gsync-rewrite: error: cannot read '%s': %s\n", name, why);
  return EXIT_IO;
}

/* Reads all of fd, at most MAX_INPUT_BYTES, into a malloc'd buffer.
 * Returns 0 and sets *out and *len, or an exit code after saying why. */
static int read_all(int fd, const char *name, char **out, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (buf && n == cap) {
      char *p = realloc(buf, cap * 2);
      if (!p)
        free(buf);
      buf = p;
      cap *= 2;
    }
    if (!buf)
      return exit_nomem();
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      int err = errno;
      free(buf);
      return cannot_read(name, strerror(err));
    }
    if (got == 0)
      break;
    n += (size_t)got;
    if (n > MAX_INPUT_BYTES) {
      free(buf);
      return cannot_read(name, "larger than 64 MiB, far too large for an "
                               "OpenCL C source");
    }
  }
  *out = buf;
  *len = n;
  return 0;
}

/* Reads the input: standard input for "-", else a regular file, a FIFO
 * or a terminal. A device such as /dev/zero or /dev/urandom would be read
 * without end, and is refused. Returns 0 and sets *out and *len, or an
 * exit code after saying why. */
static int read_input(const char *path, char **out, size_t *len) {
  if (strcmp(path, "-") == 0)
    return read_all(STDIN_FILENO, "-", out, len);
  int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int err = errno;
    if (fd >= 0)
      close(fd);
    return cannot_read(path, strerror(err));
  }
  int rc;
  if (S_ISDIR(st.st_mode))
    rc = cannot_read(path, strerror(EISDIR));
  else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
           !S_ISSOCK(st.st_mode) && !isatty(fd))
    rc = cannot_read(path, S_ISCHR(st.st_mode)
                               ? "a character device, which may never end; "
                                 "only files, pipes and terminals are read"
                               : "not a file, a pipe or a terminal");
  else
    rc = read_all(fd, path, out, len);
  close(fd);
  return rc;
}

/* The dependency file's text for this rewrite (malloc'd), or NULL with
 * *rc set after saying why. */
static char *deps_text(const cli *c, const bounded_result *res, size_t *len,
                       int *rc) {
  const char *bad = NULL;
  const char *input = strcmp(c->input, "-") != 0 ? c->input : NULL;
  char *text = depfile_text(c->targets, c->n_targets, input,
                            (const char *const *)res->deps, res->n_deps,
                            c->phony, len, &bad);
  if (!text && bad)
    fprintf(stderr,
            "gsync-rewrite: error: cannot write '%s': Make cannot spell the "
            "file name '%s'\n",
            c->depfile, bad);
  if (!text)
    *rc = bad ? EXIT_IO : exit_nomem();
  return text;
}

/* Runs the engine over src (len bytes), under the limits. Returns 0 and
 * fills *res, or an exit code. */
static int rewrite(const cli *c, const char *src, size_t len,
                   bounded_result *res) {
  int is_stdin = strcmp(c->input, "-") == 0;
  char *abs_path = is_stdin ? NULL : realpath(c->input, NULL);
  gsr_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.input_name = is_stdin ? "<stdin>" : c->input;
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
  int rc = bounded_rewrite(&o, &c->limits, res);
  free(abs_path);
  return rc;
}

/* Checks the outputs, rewrites, then writes the output, the constraints
 * and the dependency file together. Returns an exit code. */
static int run(cli *c) {
  cli_outputs outs;
  bounded_result res;
  char *src = NULL, *dep = NULL;
  memset(&res, 0, sizeof res);
  size_t len = 0;
  int rc = cli_plan_outputs(c, &outs);
  if (!rc)
    rc = read_input(c->input, &src, &len);
  if (!rc)
    rc = rewrite(c, src, len, &res);
  free(src);
  if (!rc) {
    out_file *f = outs.set.files;
    f[outs.output].data = res.output;
    f[outs.output].len = res.output_len;
    if (outs.constraints >= 0) {
      f[outs.constraints].data = res.constraints;
      f[outs.constraints].len = strlen(res.constraints);
    }
    if (outs.depfile >= 0 && (f[outs.depfile].data = dep = deps_text(
                                  c, &res, &f[outs.depfile].len, &rc)) == NULL)
      f[outs.depfile].len = 0;
  }
  if (!rc) {
    out_install_signal_cleanup();
    rc = out_commit(&outs.set);
  }
  out_free(&outs.set);
  free(dep);
  bounded_result_free(&res);
  return rc;
}

int main(int argc, char **argv) {
  cli c;
  memset(&c, 0, sizeof c);
  int rc = cli_parse(argc, argv, &c);
  if (rc < 0 && c.list) {
    printf("barriers (--barrier=NAME):\n");
    gsr_status st = gsr_list_rules(c.rules_dir, "barrier", print_rule, NULL,
                                   print_diag, NULL);
    if (st == GSR_OK) {
      printf("discovery protocols (--discovery=NAME):\n");
      st = gsr_list_rules(c.rules_dir, "discovery", print_rule, NULL,
                          print_diag, NULL);
    }
    if (st == GSR_OK) {
      const char *const *names;
      size_t n = gsr_auto_rules(&names);
      printf("auto (--barrier=auto): ");
      for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? ", " : "", names[i]);
      printf(" in one output; libgsync builds one per device\n");
    }
    rc = st == GSR_OK            ? EXIT_OK
         : st == GSR_ERR_OPTIONS ? EXIT_USAGE
                                 : EXIT_INTERNAL;
  } else if (rc < 0) {
    rc = run(&c);
  }
  cli_free(&c);
  return rc;
}
