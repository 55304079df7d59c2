/* The temporary files of a run's outputs, the journal of a commit that
 * renames several, and the recovery of what a run that was killed left:
 * see journal.c. */
#ifndef GSYNC_JOURNAL_H
#define GSYNC_JOURNAL_H

#include <stddef.h>

#include "output.h"

/* The name of a temporary file in its directory: TMP_PREFIX and six
 * characters of mkstemp; a backup of the file it replaces adds
 * BACKUP_SUFFIX, a journal once committed JOURNAL_SUFFIX. Every file a
 * run makes has the prefix. */
#define TMP_PREFIX ".gsync-tmp."
#define BACKUP_SUFFIX "-old"
#define JOURNAL_SUFFIX "-commit"

/* Creates a temporary file in dir, sets *path to its name (malloc'd) and
 * *lock_fd to a descriptor that holds it locked (flock) for as long as it
 * is open, and returns a descriptor to write it through; -1 with errno
 * set when it cannot. */
int tmp_create(const char *dir, char **path, int *lock_fd);

/* The copies of a committed journal, one in each directory of a commit,
 * each open and locked. */
typedef struct journal {
  char *copy[OUT_MAX_FILES];
  int fd[OUT_MAX_FILES];
  size_t n;
} journal;

/* Writes the journal of a commit of n renames, tmps[i] over targets[i]
 * in dirs[i] (the file names, and the directories as absolute paths),
 * into each of those directories, under one name: the commit is decided
 * once this returns 0. Returns 0, or an errno value with nothing left. */
int journal_write(journal *j, size_t n, char *const *dirs, char *const *tmps,
                  char *const *targets);

/* Removes the copies of a commit that is done. */
void journal_drop(journal *j);

/* In each of the n directories (open descriptors, their locks held by
 * this run), finishes the commits of runs that were killed after their
 * journal was written, and removes every other file they left there. */
void sweep_dirs(const int *dir_fds, size_t n);

#endif
