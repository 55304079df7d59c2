/* cli-fuzzer: a libFuzzer harness for gsync-rewrite's option parsing and
 * the writing of its output files (tool/cli.c, tool/output.c).
 *
 * An input is a sequence of bytes, each choosing a command-line word: an
 * option (byte < 128) or a file name (byte >= 128), from fixed lists; the
 * byte 0xff joins the next two words into one ("-MF" "a" -> "-MFa").
 * File names are only those of the lists, all inside a sandbox directory
 * the harness makes afresh for every input: regular files, a read-only
 * one, a directory, symbolic links (to a file, dangling, to a directory,
 * to themselves) and, as root, copies of /dev/null and /dev/full; never a
 * FIFO, whose writer waits for a reader. The harness parses the words as
 * main() does, plans the outputs and commits them with made-up contents,
 * and checks the contract of output.h on every input:
 *   - a commit that succeeds leaves each file it replaced holding exactly
 *     its contents, and every other file, link and device as it was;
 *   - one that fails (or a plan that does) leaves every file as it was;
 *   - no temporary file is left behind, and no file descriptor stays open.
 * A broken contract aborts, which libFuzzer records as a crash.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *const options[] = {
    "-o",
    "--output",
    "--output=",
    "--constraints",
    "--constraints=",
    "-MF",
    "-MD",
    "-MMD",
    "-MT",
    "-MQ",
    "-MP",
    "-",
    "--barrier=flip",
    "--discovery",
    "--no-discovery",
    "--list-barriers",
    "--version",
    "-D",
    "-DX=1",
    "-U",
    "-I",
    "-include",
    "-cl-std=CL2.0",
    "--spin-limit=",
    "--spin-limit",
    "--rules-dir",
    "--inline-includes",
    "-x",
    "--frobnicate",
    "--help",
    "--no-uniformity-check",
    "=",
};

static const char *const names[] = {
    "a",    "b",      "ro",       "d",     "d/",         "d/x",     "d/y",
    "lnk",  "dang",   "dirlnk",   "null",  "full",       "loop",    "new",
    "./a",  "d/../a", "",         "in.cl", "-",          "nodir/x", "d/x/y",
    "lnk/", "./new",  "d/../new", "0",     "4000000001",
};

#define N_OPTIONS (sizeof options / sizeof *options)
#define N_NAMES (sizeof names / sizeof *names)
#define MAX_WORDS 24

static char sandbox[64];
static int root;

/* Says which part of the contract broke, then aborts. */
static void broken(const char *what, const char *name) {
  fprintf(stderr, "cli-fuzzer: contract broken: %s%s%s\n", what,
          name ? ": " : "", name ? name : "");
  abort();
}

/* Writes text to a new file path with mode. */
static void put_file(const char *path, const char *text, mode_t mode) {
  FILE *f = fopen(path, "w");
  if (!f)
    broken("cannot make the sandbox", path);
  fputs(text, f);
  fclose(f);
  chmod(path, mode);
}

/* Removes everything under the current directory's entry path. */
static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      char sub[512];
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      remove_tree(sub);
    }
    if (d)
      closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

/* Makes the sandbox's entries afresh in the current directory. */
static void make_sandbox(void) {
  DIR *d = opendir(".");
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      remove_tree(e->d_name);
  if (d)
    closedir(d);
  put_file("a", "A\n", 0644);
  put_file("b", "B\n", 0600);
  put_file("ro", "RO\n", 0444);
  put_file("in.cl", "kernel void k(void) {}\n", 0644);
  mkdir("d", 0755);
  put_file("d/x", "DX\n", 0644);
  if (symlink("a", "lnk") || symlink("d/new", "dang") ||
      symlink("d", "dirlnk") || symlink("loop", "loop"))
    broken("cannot make the sandbox's links", NULL);
  if (root) {
    mknod("null", S_IFCHR | 0666, makedev(1, 3));
    mknod("full", S_IFCHR | 0666, makedev(1, 7));
  }
}

/* One entry of a snapshot of the sandbox. */
typedef struct entry {
  char name[64];
  mode_t type;
  char text[64]; /* a file's contents, a link's target */
} entry;

typedef struct snapshot {
  entry e[32];
  size_t n;
} snapshot;

/* Records the entries of dir (and of d/) into s. */
static void take(snapshot *s, const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *de;
  while (d && (de = readdir(d)) != NULL) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
      continue;
    if (s->n == sizeof s->e / sizeof s->e[0])
      broken("too many files in the sandbox", de->d_name);
    entry *x = &s->e[s->n++];
    struct stat st;
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s/%s", dir, de->d_name);
    if (lstat(x->name, &st) != 0)
      broken("an entry vanished", x->name);
    x->type = st.st_mode & S_IFMT;
    if (S_ISLNK(st.st_mode)) {
      ssize_t n = readlink(x->name, x->text, sizeof x->text - 1);
      x->text[n > 0 ? n : 0] = '\0';
    } else if (S_ISREG(st.st_mode)) {
      FILE *f = fopen(x->name, "r");
      size_t n = f ? fread(x->text, 1, sizeof x->text - 1, f) : 0;
      x->text[n] = '\0';
      if (f)
        fclose(f);
    } else if (S_ISDIR(st.st_mode) && strcmp(de->d_name, "d") == 0) {
      take(s, x->name);
    }
  }
  if (d)
    closedir(d);
}

/* The entry of s called name, or NULL. */
static const entry *find(const snapshot *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->e[i].name, name) == 0)
      return &s->e[i];
  return NULL;
}

/* The output file written to the entry called name, or NULL. */
static const out_file *written_to(const cli_outputs *o, const char *name) {
  char *real = realpath(name, NULL);
  const out_file *hit = NULL;
  for (size_t i = 0; real && i < o->set.n; i++) {
    const out_file *f = &o->set.files[i];
    char *path =
        f->kind == OUT_REPLACE && f->path ? realpath(f->path, NULL) : NULL;
    if (path && strcmp(path, real) == 0)
      hit = f;
    free(path);
  }
  free(real);
  return hit;
}

/* Checks the sandbox after a commit: the files written hold their data,
 * everything else is as it was (before), and nothing is left behind. */
static void check_after(const snapshot *before, const cli_outputs *o,
                        int committed) {
  snapshot after = {.n = 0};
  take(&after, ".");
  for (size_t i = 0; i < after.n; i++) {
    const entry *x = &after.e[i];
    const entry *was = find(before, x->name);
    if (strstr(x->name, ".gsync-tmp"))
      broken("a temporary file left", x->name);
    const out_file *f = x->type == S_IFREG ? written_to(o, x->name) : NULL;
    if (committed && f) {
      if (strlen(f->data) != f->len || strcmp(x->text, f->data) != 0)
        broken("a file written holds other contents", x->name);
      continue;
    }
    if (!was)
      broken("a file appeared that no output names", x->name);
    if (was->type != x->type || strcmp(was->text, x->text) != 0)
      broken(committed ? "a file no output names changed"
                       : "a failed run changed a file",
             x->name);
  }
  for (size_t i = 0; i < before->n; i++)
    if (!find(&after, before->e[i].name))
      broken("a file vanished", before->e[i].name);
}

/* How many file descriptors are open. */
static int open_fds(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/fd");
  while (d && readdir(d))
    n++;
  if (d)
    closedir(d);
  return n;
}

/* Removes the sandbox when the fuzzer ends. */
static void remove_sandbox(void) {
  if (chdir("/") == 0)
    remove_tree(sandbox);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(sandbox, sizeof sandbox, "/tmp/cli-fuzzer.XXXXXX");
  if (!mkdtemp(sandbox) || chdir(sandbox) != 0) {
    perror("cli-fuzzer: sandbox");
    exit(1);
  }
  atexit(remove_sandbox);
  root = geteuid() == 0;
  /* --help and --version print; standard output is an output too. */
  if (!freopen("/dev/null", "w", stdout))
    exit(1);
  out_install_signal_cleanup();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char words[MAX_WORDS + 1][96];
  char *argv[MAX_WORDS + 2];
  int argc = 0;
  argv[argc++] = "gsync-rewrite";
  for (size_t i = 0; i < size && argc <= MAX_WORDS; i++) {
    char *w = words[argc - 1];
    int join = data[i] == 0xff && i + 2 < size;
    size_t used = 0;
    w[0] = '\0';
    for (int k = 0; k < (join ? 2 : 1); k++) {
      uint8_t b = data[i + (size_t)join + (size_t)k];
      const char *t = b < 128 ? options[b % N_OPTIONS] : names[b % N_NAMES];
      used += (size_t)snprintf(w + used, 96 - used, "%s", t);
    }
    i += join ? 2 : 0;
    argv[argc++] = w;
  }
  argv[argc] = NULL;

  make_sandbox();
  int fds = open_fds();
  snapshot before = {.n = 0};
  take(&before, ".");
  cli c;
  memset(&c, 0, sizeof c);
  cli_outputs o;
  memset(&o, 0, sizeof o);
  int rc = cli_parse(argc, argv, &c), committed = 0;
  if (rc < 0 && !c.list) {
    rc = cli_plan_outputs(&c, &o);
    static const char *const made_up[] = {"OUTPUT\n", "CONSTRAINTS\n",
                                          "DEPENDENCIES\n"};
    for (size_t i = 0; i < o.set.n; i++) {
      o.set.files[i].data = made_up[i];
      o.set.files[i].len = strlen(made_up[i]);
    }
    if (!rc && (rc = out_commit(&o.set)) == 0)
      committed = 1;
    if (rc < 0)
      broken("a negative exit code", NULL);
  }
  /* A failed commit's temporary files go when the run ends. */
  if (!committed)
    out_free(&o.set);
  check_after(&before, &o, committed);
  out_free(&o.set);
  cli_free(&c);
  if (open_fds() != fds)
    broken("a file descriptor left open", NULL);
  return 0;
}
