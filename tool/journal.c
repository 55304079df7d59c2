/* Recovering the outputs of a run that was killed while it wrote them.
 *
 * A run writes each output to a temporary file beside it, which it holds
 * locked (flock) for as long as it lives, and renames them over their
 * targets together under locks on their directories (output.c). Killed
 * before its renames, it leaves its temporary files; killed among them,
 * a pair half replaced. So a run that renames two files or more first
 * writes a journal, what it renames to what, into each directory of the
 * commit under one name (TMP_PREFIX, six characters, JOURNAL_SUFFIX), and
 * renames only once every copy is in place; it removes them after. A
 * later run, holding its directories' locks, looks for what killed runs
 * left there: files with the prefix that no live run holds locked. A
 * journal whose copies are all in place is a commit decided: the renames
 * it lists that are not done yet are done. Every other such file, a
 * journal left incomplete (renaming had not begun), a temporary file or
 * the backup of a replaced file, is removed. So once the next run in the
 * directory has run, a kill at any instant has left the old files or the
 * new ones, and no stray file.
 */
#define _DEFAULT_SOURCE /* flock, fdopendir */
#define _XOPEN_SOURCE 700
#include "journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_MAGIC "gsync-rewrite journal 1\n"
#define JOURNAL_MAX (64 * 1024)

/* Closes fd, keeping errno. */
static void close_quietly(int fd) {
  int e = errno;
  close(fd);
  errno = e;
}

/* Locks fd (flock), waiting; returns 0, or -1 where the file system has
 * no locks. A run with its files unlocked is safe only from the sweep of
 * a file system that has none, which then removes nothing. */
static int lock_fd(int fd) {
  while (flock(fd, LOCK_EX) != 0)
    if (errno != EINTR)
      return -1;
  return 0;
}

int tmp_create(const char *dir, char **path, int *lock_fd_out) {
  size_t dl = strlen(dir);
  for (;;) {
    char *p = malloc(dl + sizeof "/" TMP_PREFIX "XXXXXX");
    if (p == NULL) {
      errno = ENOMEM;
      return -1;
    }
    memcpy(p, dir, dl);
    memcpy(p + dl, "/" TMP_PREFIX "XXXXXX", sizeof "/" TMP_PREFIX "XXXXXX");
    int fd = mkstemp(p);
    if (fd < 0) {
      free(p);
      return -1;
    }
    /* A second open file description holds the lock, so that the first
     * can be closed (and its errors seen) once written. Until it holds
     * the lock, the file looks like one a killed run left, and another
     * run's sweep may remove it: before this open (which then finds no
     * file) or while it waits for the lock. Only a lock on the file that
     * fd writes, still under its name, makes it this run's. */
    int lfd = open(p, O_RDONLY | O_CLOEXEC);
    if (lfd < 0) {
      int err = errno;
      close(fd);
      if (err == ENOENT) { /* swept: another name */
        free(p);
        continue;
      }
      unlink(p);
      free(p);
      errno = err;
      return -1;
    }
    struct stat mine, locked;
    lock_fd(lfd); /* without locks (some file systems), no sweep removes it */
    if (fstat(fd, &mine) != 0 || fstat(lfd, &locked) != 0 ||
        mine.st_dev != locked.st_dev || mine.st_ino != locked.st_ino ||
        locked.st_nlink == 0) {
      close(lfd);
      close(fd);
      free(p);
      continue;
    }
    *path = p;
    *lock_fd_out = lfd;
    return fd;
  }
}

/* ---- The journal ---- */

/* Appends s and its NUL to buf (of *len bytes, JOURNAL_MAX at most).
 * Returns 0 when it does not fit. */
static int put(char *buf, size_t *len, const char *s) {
  size_t n = strlen(s) + 1;
  if (*len + n > JOURNAL_MAX)
    return 0;
  memcpy(buf + *len, s, n);
  *len += n;
  return 1;
}

/* Writes all of len bytes to fd; returns 0 or an errno value. */
static int write_whole(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t w = write(fd, data, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return w < 0 ? errno : EIO;
    data += w;
    len -= (size_t)w;
  }
  return 0;
}

int journal_write(journal *j, size_t n, char *const *dirs, char *const *tmps,
                  char *const *targets) {
  static char text[JOURNAL_MAX];
  size_t len = 0;
  char *staged[OUT_MAX_FILES] = {NULL};
  const char *where[OUT_MAX_FILES];
  size_t nd = 0;
  int err = 0;
  memset(j, 0, sizeof *j);
  memcpy(text, JOURNAL_MAGIC, sizeof JOURNAL_MAGIC - 1);
  len = sizeof JOURNAL_MAGIC - 1;
  for (size_t i = 0; i < n; i++) {
    if (!put(text, &len, dirs[i]) || !put(text, &len, tmps[i]) ||
        !put(text, &len, targets[i]))
      return ENAMETOOLONG;
    size_t d = 0;
    while (d < nd && strcmp(where[d], dirs[i]) != 0)
      d++;
    if (d == nd)
      where[nd++] = dirs[i];
  }
  /* Staged in every directory, then renamed to one name: the commit is
   * decided once the last copy has its name. */
  for (size_t d = 0; d < nd && !err; d++) {
    int fd = tmp_create(where[d], &staged[d], &j->fd[d]);
    if (fd < 0) {
      err = errno;
      break;
    }
    j->n = d + 1;
    err = write_whole(fd, text, len);
    if (close(fd) != 0 && !err)
      err = errno;
  }
  const char *id = j->n > 0 ? strrchr(staged[0], '/') + 1 : "";
  for (size_t d = 0; d < j->n && !err; d++) {
    size_t dl = strlen(where[d]), il = strlen(id);
    j->copy[d] = malloc(dl + il + sizeof "/" JOURNAL_SUFFIX);
    if (j->copy[d] == NULL) {
      err = ENOMEM;
      break;
    }
    snprintf(j->copy[d], dl + il + sizeof "/" JOURNAL_SUFFIX,
             "%s/%s" JOURNAL_SUFFIX, where[d], id);
    if (rename(staged[d], j->copy[d]) != 0) {
      err = errno;
      free(j->copy[d]);
      j->copy[d] = NULL;
    }
  }
  for (size_t d = 0; d < j->n; d++) {
    if (err && j->copy[d] == NULL && staged[d] != NULL)
      unlink(staged[d]);
    free(staged[d]);
  }
  if (err)
    journal_drop(j);
  return err;
}

void journal_drop(journal *j) {
  for (size_t d = 0; d < j->n; d++) {
    if (j->copy[d] != NULL)
      unlink(j->copy[d]);
    free(j->copy[d]);
    if (j->fd[d] >= 0)
      close(j->fd[d]);
  }
  j->n = 0;
}

/* ---- The sweep ---- */

/* Opens the regular file name in dir (a descriptor) and locks it without
 * waiting. Returns the descriptor where that succeeds and the name still
 * holds that file: a file no live run holds, left by one that was killed.
 * Returns -1 otherwise (a live run's file, or none). */
static int open_dead(int dir, const char *name) {
  int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st, now;
  if (fd < 0)
    return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      flock(fd, LOCK_EX | LOCK_NB) != 0 ||
      fstatat(dir, name, &now, AT_SYMLINK_NOFOLLOW) != 0 ||
      now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
    close_quietly(fd);
    return -1;
  }
  return fd;
}

/* Nonzero if name has the prefix and ends in suffix. */
static int named(const char *name, const char *suffix) {
  size_t n = strlen(name), s = strlen(suffix);
  return strncmp(name, TMP_PREFIX, sizeof TMP_PREFIX - 1) == 0 &&
         n >= sizeof TMP_PREFIX - 1 + s && strcmp(name + n - s, suffix) == 0;
}

/* A journal as read: its entries' strings (dir, tmp, target, ...). */
typedef struct entries {
  char text[JOURNAL_MAX + 1];
  const char *s[3 * 64];
  size_t n; /* strings */
} entries;

/* Reads the journal at fd into e. Returns 0 when it is not one. */
static int read_journal(int fd, entries *e) {
  size_t len = 0;
  ssize_t r;
  while (len < JOURNAL_MAX &&
         (r = read(fd, e->text + len, JOURNAL_MAX - len)) != 0) {
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      return 0;
    len += (size_t)r;
  }
  size_t m = sizeof JOURNAL_MAGIC - 1;
  if (len < m || memcmp(e->text, JOURNAL_MAGIC, m) != 0 ||
      e->text[len - 1] != '\0')
    return 0;
  e->n = 0;
  for (size_t at = m; at < len; at += strlen(e->text + at) + 1) {
    if (e->n == sizeof e->s / sizeof e->s[0])
      return 0;
    e->s[e->n++] = e->text + at;
  }
  return e->n % 3 == 0 && e->n > 0;
}

/* A path dir/name/suffix, in a static buffer (one at a time). */
static const char *in(const char *dir, const char *name, const char *suffix) {
  static char path[8192];
  snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix);
  return path;
}

/* Nonzero if the directory at path is one of the held ones. */
static int held(const char *path, const int *fds, size_t n) {
  struct stat a, b;
  if (stat(path, &a) != 0)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (fstat(fds[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
      return 1;
  return 0;
}

/* Finishes the commit of the journal e, found as name in its directories,
 * taking the locks of those this run does not hold; returns 0 when one of
 * them is held by another run (then it is left for later). */
static int finish_commit(const entries *e, const char *name, const int *fds,
                         size_t nfds) {
  int extra[3 * 64 / 3];
  size_t n_extra = 0, ok = 1;
  for (size_t i = 0; i < e->n && ok; i += 3) {
    const char *dir = e->s[i];
    int seen = 0;
    for (size_t k = 0; k < i; k += 3)
      seen |= strcmp(e->s[k], dir) == 0;
    if (seen || held(dir, fds, nfds))
      continue;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      continue; /* gone: nothing of it to finish */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
      ok = 0;
    extra[n_extra++] = fd;
  }
  for (size_t i = 0; i < e->n && ok; i += 3) {
    struct stat st;
    char tmp[8192];
    snprintf(tmp, sizeof tmp, "%s", in(e->s[i], e->s[i + 1], ""));
    if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode)) {
      const char *target = in(e->s[i], e->s[i + 2], "");
      if (lstat(target, &st) != 0 || S_ISREG(st.st_mode))
        rename(tmp, target);
      unlink(tmp);
    }
    unlink(in(e->s[i], e->s[i + 1], BACKUP_SUFFIX));
  }
  for (size_t i = 0; i < e->n && ok; i += 3)
    unlink(in(e->s[i], name, ""));
  while (n_extra > 0)
    close(extra[--n_extra]);
  return (int)ok;
}

/* Finishes or drops the journal name in dir (a descriptor), if a killed
 * run left it: finished where its copies are all in place, else removed
 * (the others go with the sweeps of their directories). Adds to keep the
 * files of a commit it must leave for later. */
static void recover(int dir, const char *name, const int *fds, size_t nfds,
                    entries *e, char **keep, size_t *n_keep) {
  int fd = open_dead(dir, name);
  if (fd < 0)
    return;
  int complete = read_journal(fd, e);
  for (size_t i = 0; complete && i < e->n; i += 3) {
    struct stat st;
    complete = lstat(in(e->s[i], name, ""), &st) == 0 && S_ISREG(st.st_mode);
  }
  if (!complete) {
    unlinkat(dir, name, 0);
  } else if (!finish_commit(e, name, fds, nfds)) {
    for (size_t i = 0; i < e->n && *n_keep + 2 <= 3 * 64; i += 3) {
      keep[(*n_keep)++] = strdup(e->s[i + 1]);
      keep[(*n_keep)++] = strdup(name);
    }
  }
  close(fd);
}

/* Sweeps the directory dir (a descriptor whose lock this run holds). */
static void sweep(int dir, const int *fds, size_t nfds, entries *e) {
  int d2 = dup(dir);
  DIR *d = d2 >= 0 ? fdopendir(d2) : NULL;
  if (d == NULL) {
    if (d2 >= 0)
      close(d2);
    return;
  }
  char *keep[3 * 64];
  size_t n_keep = 0;
  for (int pass = 0; pass < 2; pass++) {
    struct dirent *de;
    rewinddir(d);
    while ((de = readdir(d)) != NULL) {
      const char *name = de->d_name;
      if (!named(name, ""))
        continue;
      if (pass == 0) {
        if (named(name, JOURNAL_SUFFIX))
          recover(dir, name, fds, nfds, e, keep, &n_keep);
        continue;
      }
      int kept = 0;
      for (size_t k = 0; k < n_keep && !kept; k++)
        kept = keep[k] != NULL && strncmp(name, keep[k], strlen(keep[k])) == 0;
      int fd = kept ? -1 : open_dead(dir, name);
      if (fd >= 0) {
        unlinkat(dir, name, 0);
        close(fd);
      }
    }
  }
  for (size_t k = 0; k < n_keep; k++)
    free(keep[k]);
  closedir(d);
}

void sweep_dirs(const int *dir_fds, size_t n) {
  static entries e;
  for (size_t i = 0; i < n; i++)
    sweep(dir_fds[i], dir_fds, n, &e);
}
