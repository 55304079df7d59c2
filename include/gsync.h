/* gsync.h: lets IDEs and plain clang parse OpenCL C that calls
 * global_barrier(), the grid-wide barrier that gsync-rewrite replaces.
 *
 *   #include "gsync.h"
 *   ...
 *   global_barrier();  // every work-item of the launch waits for all others
 *
 * and its two halves (docs/split.md): global_barrier_arrive() publishes
 * this work-item's writes and returns at once; global_barrier_wait()
 * returns once every work-item has arrived, and then sees their writes.
 *
 * gsync-rewrite declares all three itself, so the include is
 * optional; in the rewritten output it is replaced by a comment, so the
 * OpenCL driver never needs this file.
 */
#ifndef GSYNC_KERNEL_H
#define GSYNC_KERNEL_H
void global_barrier(void);
void global_barrier_arrive(void);
void global_barrier_wait(void);
#endif
