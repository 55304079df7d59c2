/* The tool's exit statuses (README.md, docs/gsync-rewrite.1). */
#ifndef GSYNC_EXIT_CODES_H
#define GSYNC_EXIT_CODES_H

enum exit_code {
  EXIT_OK = 0,       /* written (warnings may have been printed) */
  EXIT_INPUT = 1,    /* the input has errors */
  EXIT_USAGE = 2,    /* bad command line, unknown barrier, bad rules */
  EXIT_IO = 3,       /* input unreadable or output unwritable */
  EXIT_INTERNAL = 4  /* libclang failed to run, out of memory */
};

#endif
