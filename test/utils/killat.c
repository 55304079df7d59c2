/* test/utils/killat.c: an LD_PRELOAD library that kills its process with
 * SIGKILL just before one of the calls it counts, for
 * test/cli/output-kill.test: each call of the tool that writes or names a
 * file is an instant at which a run can be killed, and killing before
 * the N-th, for every N, kills the run at each of them.
 *
 *   KILLAT_NTH=N    SIGKILL before the N-th counted call (from 1)
 *   KILLAT_COUNT=F  at exit, writes how many calls were counted to F
 *
 * Only the calls the program itself makes (from code of the main
 * executable: the tool, not libclang or the C library) are counted: open,
 * openat, mkstemp, write, close, fchmod, flock, link, rename, renameat,
 * unlink and unlinkat. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "preload-count.h"

__attribute__((constructor)) static void init(void) {
  count_init("KILLAT_NTH", "KILLAT_COUNT");
}

/* Counts a call made from caller, and kills the process before the N-th. */
static void tick(void *caller) {
  if (count_call(caller))
    raise(SIGKILL);
}

/* The C library's function name. */
static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
  va_end(ap);
  tick(__builtin_return_address(0));
  return ((int (*)(const char *, int, ...))next("open"))(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
  va_end(ap);
  tick(__builtin_return_address(0));
  return ((int (*)(int, const char *, int, ...))next("openat"))(dir, path,
                                                                flags, mode);
}

int mkstemp(char *template) {
  tick(__builtin_return_address(0));
  return ((int (*)(char *))next("mkstemp"))(template);
}

ssize_t write(int fd, const void *buf, size_t n) {
  tick(__builtin_return_address(0));
  return ((ssize_t(*)(int, const void *, size_t))next("write"))(fd, buf, n);
}

int close(int fd) {
  tick(__builtin_return_address(0));
  return ((int (*)(int))next("close"))(fd);
}

int fchmod(int fd, mode_t mode) {
  tick(__builtin_return_address(0));
  return ((int (*)(int, mode_t))next("fchmod"))(fd, mode);
}

int flock(int fd, int op) {
  tick(__builtin_return_address(0));
  return ((int (*)(int, int))next("flock"))(fd, op);
}

int link(const char *from, const char *to) {
  tick(__builtin_return_address(0));
  return ((int (*)(const char *, const char *))next("link"))(from, to);
}

int rename(const char *from, const char *to) {
  tick(__builtin_return_address(0));
  return ((int (*)(const char *, const char *))next("rename"))(from, to);
}

int renameat(int fd, const char *from, int tofd, const char *to) {
  tick(__builtin_return_address(0));
  return ((int (*)(int, const char *, int, const char *))next("renameat"))(
      fd, from, tofd, to);
}

int unlink(const char *path) {
  tick(__builtin_return_address(0));
  return ((int (*)(const char *))next("unlink"))(path);
}

int unlinkat(int fd, const char *path, int flags) {
  tick(__builtin_return_address(0));
  return ((int (*)(int, const char *, int))next("unlinkat"))(fd, path, flags);
}
