/* gsync.h: lets IDEs and plain clang parse OpenCL C that calls
 * global_barrier(), the grid-wide barrier that gsync-rewrite replaces.
 *
 *   #include "gsync.h"
 *   ...
 *   global_barrier();  // every work-item of the launch waits for all others
 *
 * gsync-rewrite declares global_barrier() itself, so the include is
 * optional; in the rewritten output it is replaced by a comment, so the
 * OpenCL driver never needs this file.
 */
#ifndef GSYNC_KERNEL_H
#define GSYNC_KERNEL_H
void global_barrier(void);
#endif
