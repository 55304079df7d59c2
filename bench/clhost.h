/* Shared by the bench programs (gsync-bench, gsync-app): one OpenCL device,
 * timing, and loading a rewritten kernel through libgsync. Every failure
 * prints "PROG: error: ..." and exits 1: these are measuring tools. */
#ifndef GSYNC_BENCH_CLHOST_H
#define GSYNC_BENCH_CLHOST_H
#include "libgsync.h"

#include <stddef.h>

#define ERRLEN 512

extern cl_device_id dev;
extern cl_context ctx;
extern cl_command_queue queue;
extern const char *prog; /* the program's name, for messages */

void die(const char *what, cl_int rc);
double now(void);
double median(double *v, int n);
char *slurp(const char *path);
/* Opens the first device of the first platform whose name contains
 * $GSYNC_PLATFORM (default: the first platform). */
void open_device(void);
cl_program build(const char *src, const char *opts);
cl_kernel kernel_of(cl_program pr, const char *name);
cl_mem buffer(size_t bytes, void *init);

/* A rewritten kernel with its libgsync handles. */
typedef struct gk {
  cl_program pr;
  cl_kernel k;
  gsync_program *gp;
  gsync_kernel *gk;
} gk;

void load(gk *x, const char *cl, const char *json, const char *name,
          size_t max_groups);
/* load(), for a kernel written in OpenCL C min_std ("1.2"; NULL: what
 * the constraints require is enough): the -cl-std= libgsync gives is
 * raised to min_std where it is lower, and extra (may be NULL or "") is
 * appended, e.g. "-cl-opt-disable". */
void load_opts(gk *x, const char *cl, const char *json, const char *name,
               size_t max_groups, const char *min_std, const char *extra);
void unload(gk *x);
/* Launches g groups of l items through libgsync; *parts (may be NULL)
 * receives the number of groups that took part. */
void enqueue(gk *x, size_t g, size_t l, cl_uint *parts);
/* Launches dims dimensions of g[d] groups of l[d] items; with info not
 * NULL, waits and fills it (gsync_finish_nd). */
void enqueue_nd(gk *x, cl_uint dims, const size_t *g, const size_t *l,
                gsync_launch_info *info);
/* Exits if a launch of x since the last check was aborted by the spin
 * limit: the abort record stays in the state until gsync_finish sees it,
 * so one call after launches timed without waiting covers them all. */
void finish(gk *x);
#endif
