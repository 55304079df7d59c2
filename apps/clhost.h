/* Shared by the bench programs (gsync-bench, gsync-app, gsync-graph): one
 * OpenCL device, timing, and loading a rewritten kernel through libgsync.
 * Names are prefixed clhost_; nothing here is a mutable global. Every
 * failure prints "PROG: error: ..." and exits 1: these are measuring
 * tools. */
#ifndef GSYNC_APPS_CLHOST_H
#define GSYNC_APPS_CLHOST_H
#include "libgsync.h"

#include <stddef.h>

#define CLHOST_ERRLEN 512

/* The one OpenCL device a program measures on, with its context and
 * queue: opened once in main and passed to what needs it. */
typedef struct clhost {
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue queue;
} clhost;

/* Messages name the program by CLHOST_PROG, which each program's build
 * defines (bench/CMakeLists.txt). */
void clhost_die(const char *what, cl_int rc);
double clhost_now(void);
double clhost_median(double *v, int n);
char *clhost_slurp(const char *path);
/* Opens the first device of the first platform whose name contains
 * $GSYNC_PLATFORM (default: the first platform). */
void clhost_open(clhost *h);
cl_program clhost_build(const clhost *h, const char *src, const char *opts);
cl_kernel clhost_kernel(cl_program pr, const char *name);
cl_mem clhost_buffer(const clhost *h, size_t bytes, void *init);

/* A rewritten kernel with its libgsync handles. */
typedef struct clhost_gk {
  const clhost *h; /* its device and queue */
  cl_program pr;
  cl_kernel k;
  gsync_program *gp;
  gsync_kernel *gk;
} clhost_gk;

void clhost_load(const clhost *h, clhost_gk *x, const char *cl,
                 const char *json, const char *name, size_t max_groups);
/* clhost_load(), for a kernel written in OpenCL C min_std ("1.2"; NULL: what
 * the constraints require is enough): the -cl-std= libgsync gives is
 * raised to min_std where it is lower, and extra (may be NULL or "") is
 * appended, e.g. "-cl-opt-disable". */
void clhost_load_opts(const clhost *h, clhost_gk *x, const char *cl,
                      const char *json, const char *name, size_t max_groups,
                      const char *min_std, const char *extra);
void clhost_unload(clhost_gk *x);
/* Launches g groups of l items through libgsync; *parts (may be NULL)
 * receives the number of groups that took part. */
void clhost_enqueue(clhost_gk *x, size_t g, size_t l, cl_uint *parts);
/* Launches dims dimensions of g[d] groups of l[d] items; with info not
 * NULL, waits and fills it (gsync_finish_nd). */
void clhost_enqueue_nd(clhost_gk *x, cl_uint dims, const size_t *g,
                       const size_t *l, gsync_launch_info *info);
/* Exits if a launch of x since the last check was aborted by the spin
 * limit: the abort record stays in the state until gsync_finish sees it,
 * so one call after launches timed without waiting covers them all. */
void clhost_finish(clhost_gk *x);
#endif
