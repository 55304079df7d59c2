/* Races tool/journal.c's sweep against its temporary files: one process
 * sweeps a directory over and over, under its lock, as a run does before
 * its renames; the other creates temporary files there (tmp_create) and
 * checks that each one it is handed is still there under its name, is the
 * file it writes, and survives the sweeps while it is held.
 *
 * usage: sweep-race DIR SECONDS
 * Prints "files: N, lost: M" (M files a sweep removed while the run held
 * them) and exits 1 when M is not 0.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: sweep-race DIR SECONDS\n");
    return 2;
  }
  const char *dir = argv[1];
  double end = now() + atof(argv[2]);
  pid_t sweeper = fork();
  if (sweeper == 0) {
    while (now() < end) {
      int d = open(dir, O_RDONLY | O_DIRECTORY);
      if (d < 0 || flock(d, LOCK_EX) != 0)
        _exit(3);
      sweep_dirs(&d, 1);
      close(d);
    }
    _exit(0);
  }
  long files = 0, lost = 0;
  while (now() < end) {
    char *path;
    int lock, fd = tmp_create(dir, &path, &lock);
    if (fd < 0) {
      perror("sweep-race: tmp_create");
      kill(sweeper, SIGKILL);
      return 1;
    }
    /* Held for a moment, as a run holds it while it writes. */
    struct stat a, b;
    for (int i = 0; i < 20; i++)
      sched_yield();
    if (fstat(fd, &a) != 0 || stat(path, &b) != 0 || a.st_ino != b.st_ino ||
        b.st_nlink == 0)
      lost++;
    files++;
    unlink(path);
    close(fd);
    if (lock >= 0)
      close(lock);
    free(path);
  }
  int status;
  waitpid(sweeper, &status, 0);
  printf("files: %ld, lost: %ld\n", files, lost);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "sweep-race: the sweeper failed\n");
    return 1;
  }
  return lost != 0;
}
