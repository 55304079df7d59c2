/* The files one run writes, committed together or not at all (see
 * output.h). Messages name each file as the user named it, in the form
 * "gsync-rewrite: error: cannot write 'NAME': WHY".
 */
#define _DEFAULT_SOURCE /* flock */
#define _XOPEN_SOURCE 700
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exit_codes.h"
#include "journal.h"

/* How long a commit waits for another run's commit in the same directory
 * to end: commits take milliseconds, so only a lock held by something
 * else lasts this long. */
#define LOCK_WAIT_MS 60000

/* ---- Temporary files a signal must remove ----
 * The paths of the temporary files that exist and are not yet renamed.
 * Changed only with the signals below blocked, so the handler sees a
 * consistent list. */
static char *pending[OUT_MAX_FILES];
static const int cleanup_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};

/* Blocks the signals that cleanup handles, saving the old mask. */
static void block_signals(sigset_t *old) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals; i++)
    sigaddset(&set, cleanup_signals[i]);
  sigprocmask(SIG_BLOCK, &set, old);
}

/* Restores the signal mask block_signals saved. */
static void restore_signals(const sigset_t *old) {
  sigprocmask(SIG_SETMASK, old, NULL);
}

/* Records path as a temporary file to remove on a signal. */
static void pending_add(char *path) {
  for (size_t i = 0; i < OUT_MAX_FILES; i++)
    if (pending[i] == NULL) {
      pending[i] = path;
      return;
    }
}

/* Forgets path (renamed into place, or removed). */
static void pending_remove(const char *path) {
  for (size_t i = 0; i < OUT_MAX_FILES; i++)
    if (pending[i] == path)
      pending[i] = NULL;
}

/* Removes the pending temporary files, then ends the process as the
 * signal would have (it is delivered again once the handler returns). */
static void on_signal(int sig) {
  for (size_t i = 0; i < OUT_MAX_FILES; i++)
    if (pending[i] != NULL)
      unlink(pending[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Installs on_signal for the signals that end a process politely, unless
 * the process was started with one ignored (nohup). */
void out_install_signal_cleanup(void) {
  for (size_t i = 0; i < sizeof cleanup_signals / sizeof *cleanup_signals;
       i++) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
        old.sa_handler != SIG_IGN)
      sigaction(cleanup_signals[i], &sa, NULL);
  }
}

/* ---- Planning ---- */

/* Prints "cannot write 'target': why" and returns EXIT_IO. */
static int cannot_write(const out_file *o, const char *why) {
  fprintf(stderr, "gsync-rewrite: error: cannot write '%s': %s\n", o->target,
          why);
  return EXIT_IO;
}

/* Returns a malloc'd copy of the directory part of path ("." if none). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  size_t n = slash == NULL ? 0 : slash == path ? 1 : (size_t)(slash - path);
  char *d = malloc(n + 2);
  if (d == NULL)
    return NULL;
  if (n == 0)
    memcpy(d, ".", 2);
  else
    memcpy(d, path, n), d[n] = '\0';
  return d;
}

/* Names what a file of this mode is, for a refusal. */
static const char *type_word(mode_t mode) {
  return S_ISBLK(mode)    ? "a block device"
         : S_ISSOCK(mode) ? "a socket"
                          : "not a regular file, a character device or a FIFO";
}

/* Returns a malloc'd path: link (the text of a symbolic link found at
 * path p) taken relative to p's directory. */
static char *link_target(const char *p, const char *link) {
  if (link[0] == '/')
    return strdup(link);
  char *dir = dir_of(p), *next = NULL;
  if (dir != NULL) {
    size_t len = strlen(dir) + strlen(link) + 2;
    if ((next = malloc(len)) != NULL)
      snprintf(next, len, "%s/%s", dir, link);
  }
  free(dir);
  return next;
}

/* Follows the symbolic links from o->target to the name that does not
 * exist yet (a dangling link: writing creates what it points to). Sets
 * o->path. Returns 0 or an exit code after saying why. */
static int resolve_new(out_file *o) {
  char *p = strdup(o->target);
  struct stat st;
  for (int depth = 0; p != NULL && lstat(p, &st) == 0; depth++) {
    char link[4096];
    ssize_t n = S_ISLNK(st.st_mode) ? readlink(p, link, sizeof link - 1) : -1;
    if (depth == 40 || n < 0) {
      free(p);
      return cannot_write(o, depth == 40 ? strerror(ELOOP)
                                         : "it changed while it was looked at");
    }
    link[n] = '\0';
    char *next = link_target(p, link);
    free(p);
    p = next;
  }
  if (p == NULL)
    return exit_nomem();
  if (errno != ENOENT) {
    int err = errno;
    free(p);
    return cannot_write(o, strerror(err));
  }
  o->path = p;
  return 0;
}

/* Records st (of o's file, or for a new one its directory) as what o is. */
static void identify(out_file *o, const struct stat *st) {
  o->known = 1;
  o->dev = st->st_dev;
  o->ino = st->st_ino;
  o->rdev = S_ISCHR(st->st_mode) ? st->st_rdev : 0;
}

/* Finds out how o is written: its kind, the path and directory, whether
 * a file is there and its mode, and its identity for out_plan's
 * comparison. Returns 0 or an exit code after saying why. */
static int classify(out_file *o) {
  struct stat st;
  size_t tl = strlen(o->target);
  if (strcmp(o->target, "-") == 0) {
    o->kind = OUT_STDOUT;
    if (fstat(STDOUT_FILENO, &st) == 0)
      identify(o, &st);
    return 0;
  }
  if (tl == 0) {
    fprintf(stderr,
            "gsync-rewrite: error: option '%s' needs a file name, not ''\n"
            "Try 'gsync-rewrite --help' for more information.\n",
            o->option);
    return EXIT_USAGE;
  }
  if (o->target[tl - 1] == '/')
    return cannot_write(o, "the name of a directory, not of a file");
  if (stat(o->target, &st) == 0) {
    identify(o, &st);
    if (S_ISDIR(st.st_mode))
      return cannot_write(o, strerror(EISDIR));
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      o->kind = OUT_THROUGH;
      o->path = strdup(o->target);
      return o->path ? 0 : EXIT_INTERNAL;
    }
    if (!S_ISREG(st.st_mode))
      return cannot_write(o, type_word(st.st_mode));
    o->kind = OUT_REPLACE;
    o->existed = 1;
    o->mode = st.st_mode & 07777;
    if ((o->path = realpath(o->target, NULL)) == NULL)
      return cannot_write(o, strerror(errno));
    if (access(o->path, W_OK) != 0)
      return cannot_write(o, strerror(errno));
  } else if (errno == ENOENT) {
    int rc = resolve_new(o);
    if (rc)
      return rc;
    o->kind = OUT_REPLACE;
  } else {
    return cannot_write(o, strerror(errno));
  }
  if ((o->dir = dir_of(o->path)) == NULL)
    return exit_nomem();
  if (stat(o->dir, &st) != 0)
    return cannot_write(o, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return cannot_write(o, strerror(ENOTDIR));
  /* A new file is told apart by its directory and name. */
  if (!o->existed)
    identify(o, &st);
  if (access(o->dir, W_OK | X_OK) != 0)
    return cannot_write(o, strerror(errno));
  return 0;
}

/* Nonzero if o names a new file (its identity is its directory's). */
static int is_new(const out_file *o) {
  return o->kind == OUT_REPLACE && !o->existed;
}

/* Nonzero if a and b (classified) land in one file or stream, however
 * named: standard output ("-") and the file it is (/dev/stdout,
 * /proc/self/fd/1, or a file it was redirected to under its own name),
 * one file by two names (a link, a hard link), one character device by
 * two nodes, or one new name in one directory. */
static int same_target(const out_file *a, const out_file *b) {
  if (a->kind == OUT_STDOUT && b->kind == OUT_STDOUT)
    return 1;
  if (!a->known || !b->known || is_new(a) != is_new(b))
    return 0;
  if (a->rdev != 0 || b->rdev != 0)
    return a->rdev == b->rdev;
  if (a->dev != b->dev || a->ino != b->ino)
    return 0;
  if (!is_new(a))
    return 1;
  const char *na = strrchr(a->path, '/'), *nb = strrchr(b->path, '/');
  return strcmp(na ? na + 1 : a->path, nb ? nb + 1 : b->path) == 0;
}

/* Nonzero if o is the null device (under any node), which takes any
 * number of outputs and keeps none. */
static int is_null_device(const out_file *o) {
  struct stat null;
  return o->rdev != 0 && stat("/dev/null", &null) == 0 &&
         S_ISCHR(null.st_mode) && null.st_rdev == o->rdev;
}

int out_add(out_set *s, const char *target, const char *option) {
  if (s->n == OUT_MAX_FILES)
    return EXIT_INTERNAL;
  out_file *o = &s->files[s->n++];
  memset(o, 0, sizeof *o);
  o->target = target;
  o->option = option;
  o->lock_fd = -1;
  return 0;
}

int out_plan(out_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    int rc = classify(&s->files[i]);
    if (rc)
      return rc;
  }
  for (size_t i = 0; i < s->n; i++)
    for (size_t j = i + 1; j < s->n; j++) {
      const out_file *a = &s->files[i], *b = &s->files[j];
      /* The null device twice (-o /dev/null -MF /dev/null) is harmless;
       * any other file or stream would get the two outputs interleaved,
       * or keep only one. */
      if (!same_target(a, b) || is_null_device(a))
        continue;
      if (a->kind == OUT_STDOUT || b->kind == OUT_STDOUT)
        fprintf(stderr,
                "gsync-rewrite: error: options '%s' and '%s' both write to "
                "standard output ('%s' is it); each output needs its own\n",
                a->option, b->option,
                a->kind == OUT_STDOUT ? b->target : a->target);
      else
        fprintf(stderr,
                "gsync-rewrite: error: options '%s' and '%s' name the same "
                "file '%s'; each output needs its own\n",
                a->option, b->option, b->target);
      fprintf(stderr, "Try 'gsync-rewrite --help' for more information.\n");
      return EXIT_USAGE;
    }
  return 0;
}

/* ---- Committing ---- */

/* Writes len bytes of data to fd; see output.h. */
int out_write_all(int fd, const char *data, size_t len) {
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return w < 0 ? errno : EIO;
    off += (size_t)w;
  }
  return 0;
}

/* Writes o's data to a new temporary file in its directory, held locked
 * until the commit is over (journal.c says why), with the permissions of
 * the file it replaces (or the umask's) but never its set-user-ID and
 * set-group-ID bits: the new file is the writer's, and a run as root
 * replacing another user's set-user-ID file would make a root-owned one,
 * which a write by another user never keeps either. Returns 0 or EXIT_IO
 * after saying why. */
static int stage(out_file *o) {
  sigset_t old;
  int fd, err;
  /* Recorded before a signal can come between its creation and the
   * record. */
  block_signals(&old);
  fd = tmp_create(o->dir, &o->tmp, &o->lock_fd);
  err = errno;
  if (fd >= 0)
    pending_add(o->tmp);
  restore_signals(&old);
  if (fd < 0)
    return err == ENOMEM ? exit_nomem() : cannot_write(o, strerror(err));
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd,
         o->existed ? o->mode & ~(mode_t)(S_ISUID | S_ISGID) : 0666 & ~mask);
  err = out_write_all(fd, o->data, o->len);
  if (close(fd) != 0 && !err)
    err = errno;
  return err ? cannot_write(o, strerror(err)) : 0;
}

/* Writes o's data to standard output or through to its device or FIFO
 * (which waits for a reader, as any writer of a FIFO does). Returns 0 or
 * EXIT_IO after saying why. */
static int write_through(out_file *o) {
  if (o->kind == OUT_STDOUT) {
    if (fwrite(o->data, 1, o->len, stdout) != o->len || fflush(stdout) != 0) {
      fprintf(stderr, "gsync-rewrite: error: cannot write standard output\n");
      return EXIT_IO;
    }
    return 0;
  }
  int fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return cannot_write(o, strerror(errno));
  int err = out_write_all(fd, o->data, o->len);
  if (close(fd) != 0 && !err)
    err = errno;
  return err ? cannot_write(o, strerror(err)) : 0;
}

/* The directories whose locks a commit holds, and those it could lock
 * (a file system may have no locks). */
typedef struct dir_locks {
  int fd[OUT_MAX_FILES], locked[OUT_MAX_FILES];
  size_t n;
} dir_locks;

/* Locks dir (flock) for o's commit, waiting up to LOCK_WAIT_MS for
 * another run's commit; a directory already locked by this commit, or one
 * whose file system cannot lock, is passed. Returns 0 or EXIT_IO after
 * saying why. */
static int lock_dir(dir_locks *l, const out_file *o) {
  int fd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat st, other;
  if (fd < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0)
      close(fd);
    return 0;
  }
  for (size_t i = 0; i < l->n; i++)
    if (fstat(l->fd[i], &other) == 0 && other.st_dev == st.st_dev &&
        other.st_ino == st.st_ino) {
      close(fd);
      return 0;
    }
  int locked = 1;
  for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0;) {
    if (errno == EINTR)
      continue;
    if (errno != EWOULDBLOCK) {
      locked = 0; /* no locks here: commit unlocked */
      break;
    }
    if (waited >= LOCK_WAIT_MS) {
      close(fd);
      return cannot_write(o, "another process has held its directory locked "
                             "for a minute");
    }
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
    waited += 10;
  }
  l->locked[l->n] = locked;
  l->fd[l->n++] = fd;
  return 0;
}

/* Releases the locks. */
static void unlock_dirs(dir_locks *l) {
  for (size_t i = 0; i < l->n; i++)
    close(l->fd[i]);
  l->n = 0;
}

/* Locks the directories of the files to rename, in one order for every
 * run (by device and inode) so that two runs never wait for each other.
 * Returns 0 or EXIT_IO. */
static int lock_dirs(dir_locks *l, out_set *s) {
  out_file *order[OUT_MAX_FILES];
  size_t n = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->files[i].kind == OUT_REPLACE)
      order[n++] = &s->files[i];
  for (size_t i = 1; i < n; i++) /* insertion sort: at most three */
    for (size_t j = i; j > 0; j--) {
      struct stat a, b;
      if (stat(order[j - 1]->dir, &a) != 0 || stat(order[j]->dir, &b) != 0 ||
          a.st_dev < b.st_dev || (a.st_dev == b.st_dev && a.st_ino <= b.st_ino))
        break;
      out_file *t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (size_t i = 0; i < n; i++) {
    int rc = lock_dir(l, order[i]);
    if (rc) {
      unlock_dirs(l);
      return rc;
    }
  }
  return 0;
}

/* Renames o's temporary file over its target, first linking the file it
 * replaces to a backup name so that it can be put back. Returns 0 or
 * EXIT_IO after saying why. */
static int replace(out_file *o) {
  struct stat st;
  if (lstat(o->path, &st) == 0) {
    if (!S_ISREG(st.st_mode))
      return cannot_write(o, "it changed into something other than a file "
                             "while it was written");
    size_t tl = strlen(o->tmp);
    o->backup = malloc(tl + sizeof BACKUP_SUFFIX);
    if (o->backup == NULL)
      return exit_nomem();
    memcpy(o->backup, o->tmp, tl);
    memcpy(o->backup + tl, BACKUP_SUFFIX, sizeof BACKUP_SUFFIX);
    /* Without hard links (some file systems) there is no way back. */
    if (link(o->path, o->backup) != 0) {
      free(o->backup);
      o->backup = NULL;
    }
  }
  if (rename(o->tmp, o->path) != 0)
    return cannot_write(o, strerror(errno));
  pending_remove(o->tmp);
  free(o->tmp);
  o->tmp = NULL;
  o->renamed = 1;
  return 0;
}

/* Undoes the renames done so far: the old file back, or a new one gone. */
static void roll_back(out_set *s) {
  for (size_t i = s->n; i-- > 0;) {
    out_file *o = &s->files[i];
    if (!o->renamed)
      continue;
    if (o->backup ? rename(o->backup, o->path) : unlink(o->path))
      fprintf(stderr,
              "gsync-rewrite: error: cannot put back the old '%s': %s%s%s\n",
              o->target, strerror(errno), o->backup ? "; it is kept as " : "",
              o->backup ? o->backup : "");
    /* Put back, or kept where the message says: not to be removed. */
    free(o->backup);
    o->backup = NULL;
    o->renamed = 0;
  }
}

/* Removes the backups of a commit that stands. */
static void drop_backups(out_set *s) {
  for (size_t i = 0; i < s->n; i++)
    if (s->files[i].backup != NULL) {
      unlink(s->files[i].backup);
      free(s->files[i].backup);
      s->files[i].backup = NULL;
    }
}

/* Checks that every target is a file or is not there, before anything is
 * renamed. Returns 0 or EXIT_IO after saying why. */
static int check_targets(out_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    struct stat st;
    out_file *o = &s->files[i];
    if (o->kind == OUT_REPLACE && lstat(o->path, &st) == 0 &&
        !S_ISREG(st.st_mode))
      return cannot_write(o, "it changed into something other than a file "
                             "while it was written");
  }
  return 0;
}

/* Writes the journal of a commit that renames two files or more
 * (journal.c), before the first rename. Returns 0 or EXIT_IO after saying
 * why. */
static int write_journal(out_set *s, journal *j) {
  char *dirs[OUT_MAX_FILES] = {NULL}, *tmps[OUT_MAX_FILES],
       *targets[OUT_MAX_FILES];
  out_file *first = NULL;
  size_t n = 0;
  int err = 0;
  j->n = 0;
  for (size_t i = 0; i < s->n && !err; i++) {
    out_file *o = &s->files[i];
    if (o->kind != OUT_REPLACE)
      continue;
    first = first ? first : o;
    if ((dirs[n] = realpath(o->dir, NULL)) == NULL)
      err = errno;
    const char *t = strrchr(o->tmp, '/'), *p = strrchr(o->path, '/');
    tmps[n] = (char *)(t ? t + 1 : o->tmp);
    targets[n++] = (char *)(p ? p + 1 : o->path);
  }
  if (!err && n >= 2)
    err = journal_write(j, n, dirs, tmps, targets);
  for (size_t i = 0; i < n; i++)
    free(dirs[i]);
  if (err == ENOMEM)
    return exit_nomem();
  return err ? cannot_write(first, strerror(err)) : 0;
}

/* Renames every staged file into place, under the directories' locks and
 * with the ending signals held back, all or none: first what runs that
 * were killed left in those directories is finished or removed, then the
 * journal of this commit is written, and removed once it is done. Returns
 * 0 or EXIT_IO. */
static int rename_all(out_set *s) {
  dir_locks locks = {{0}, {0}, 0};
  journal j = {{NULL}, {0}, 0};
  sigset_t old;
  int rc = lock_dirs(&locks, s), held[OUT_MAX_FILES];
  size_t n_held = 0;
  if (rc)
    return rc;
  block_signals(&old);
  for (size_t i = 0; i < locks.n; i++)
    if (locks.locked[i])
      held[n_held++] = locks.fd[i];
  sweep_dirs(held, n_held);
  rc = check_targets(s);
  if (!rc)
    rc = write_journal(s, &j);
  for (size_t i = 0; i < s->n && !rc; i++)
    if (s->files[i].kind == OUT_REPLACE)
      rc = replace(&s->files[i]);
  if (rc)
    roll_back(s);
  drop_backups(s);
  journal_drop(&j);
  restore_signals(&old);
  unlock_dirs(&locks);
  return rc;
}

int out_commit(out_set *s) {
  int rc = 0;
  for (size_t i = 0; i < s->n && !rc; i++)
    if (s->files[i].kind == OUT_REPLACE)
      rc = stage(&s->files[i]);
  for (size_t i = 0; i < s->n && !rc; i++)
    if (s->files[i].kind != OUT_REPLACE)
      rc = write_through(&s->files[i]);
  if (!rc)
    rc = rename_all(s);
  return rc;
}

void out_free(out_set *s) {
  for (size_t i = 0; i < s->n; i++) {
    out_file *o = &s->files[i];
    if (o->tmp != NULL) {
      sigset_t old;
      block_signals(&old);
      unlink(o->tmp);
      pending_remove(o->tmp);
      restore_signals(&old);
    }
    /* Its lock, held while the file was staged and renamed. */
    if (o->lock_fd >= 0)
      close(o->lock_fd);
    free(o->tmp);
    free(o->backup);
    free(o->path);
    free(o->dir);
  }
  s->n = 0;
}
