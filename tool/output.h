/* The files one run writes, committed together or not at all.
 *
 * A run writes up to three files (-o, --constraints, the dependency file),
 * and they belong together: the constraints describe the output they were
 * written with. So they are planned before any work (names checked, two
 * outputs naming one file refused, symbolic links followed, devices and
 * FIFOs recognised), then written to temporary files beside their targets,
 * and renamed into place together under a lock on their directories, the
 * old files restored if a rename fails. Character devices, FIFOs and
 * standard output are written through, never renamed over. docs/
 * gsync-rewrite.1, "OUTPUT FILES", states the guarantee.
 */
#ifndef GSYNC_OUTPUT_H
#define GSYNC_OUTPUT_H

#include <stddef.h>
#include <sys/types.h>

#define OUT_MAX_FILES 3

/* How a file is written. */
typedef enum out_kind {
  OUT_REPLACE, /* a regular file, or none yet: temporary file and rename */
  OUT_THROUGH, /* a character device or FIFO: opened and written */
  OUT_STDOUT   /* "-": standard output */
} out_kind;

/* One file of the run. */
typedef struct out_file {
  const char *target; /* as the user named it */
  const char *option; /* the option that named it, for messages */
  const char *data;   /* what to write, set before out_commit */
  size_t len;
  /* Filled in by out_plan. */
  out_kind kind;
  char *path;  /* where it is written: a link's target, resolved */
  char *dir;   /* the directory of path (OUT_REPLACE) */
  int existed; /* path held a regular file */
  mode_t mode; /* its permission bits, kept by the new file */
  /* What it is, to find two outputs that land in one file or stream: the
   * file (standard output's, a device's, a FIFO's, a regular file's), or
   * for a new one its directory; known is 0 where it is neither (standard
   * output closed). A character device is told by its number, rdev. */
  int known;
  dev_t dev, rdev;
  ino_t ino;
  /* Filled in by out_commit. */
  char *tmp;    /* the staged temporary file */
  int lock_fd;  /* holds it locked (journal.c), -1 for none */
  char *backup; /* a link to the previous file while renaming */
  int renamed;
} out_file;

typedef struct out_set {
  out_file files[OUT_MAX_FILES];
  size_t n;
} out_set;

/* Adds a file to write, named target by option (as "-o"). Returns 0, or
 * an exit code after saying why. */
int out_add(out_set *s, const char *target, const char *option);

/* Checks every file before anything is written: an empty name, one that
 * ends in '/', a directory, a block device, a socket, a missing or
 * unwritable directory, a read-only file, and two options that land in
 * one file or stream (standard output by any name included; the null
 * device may take several, as -o /dev/null -MF /dev/null). Follows
 * symbolic links, dangling ones too. Returns 0, or an exit code (2 for two
 * options naming one file, 3 for the rest) after saying why. */
int out_plan(out_set *s);

/* Writes every file with its data: each OUT_REPLACE file to a temporary
 * file beside it, then the others through, then every temporary file
 * renamed over its target, all under a lock on their directories and
 * after a journal of what is renamed (journal.c), so that a run killed
 * at any instant leaves the old files or the new ones once the next run
 * in those directories has finished its commit or removed its files; if
 * a rename fails, those done are undone. Returns 0, or an exit code after
 * saying why; on failure no target has changed (but what was written
 * through). */
int out_commit(out_set *s);

/* Writes len bytes of data to fd, however many writes that takes.
 * Returns 0, or an errno value. */
int out_write_all(int fd, const char *data, size_t len);

/* Frees what out_plan and out_commit allocated, removing any temporary
 * file left. */
void out_free(out_set *s);

/* Installs handlers that remove the temporary files of a commit in
 * progress when the process is told to end (SIGTERM, SIGINT, SIGHUP) or
 * writes to a pipe no one reads (SIGPIPE), then
 * end it as the signal would have. */
void out_install_signal_cleanup(void);

#endif
