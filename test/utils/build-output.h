/* What the test hosts without PyOpenCL share (build-output.c). */
#ifndef BUILD_OUTPUT_H
#define BUILD_OUTPUT_H
#define CL_TARGET_OPENCL_VERSION 300
#include "libgsync.h"

#include <CL/cl.h>

/* Opens the first device of the platform whose name holds platform, with
 * a context and a queue; 0 after printing 'error: ...' if it cannot. */
int open_device(const char *platform, cl_device_id *dev, cl_context *ctx,
                cl_command_queue *queue);

/* Builds src for dev with gp's build options (none if gp is NULL), then
 * extra; NULL after printing 'build-failed: LOG (CODE)' (the log's first
 * line) or 'error: ...' if it does not build. */
cl_program build_output(cl_context ctx, cl_device_id dev,
                        const gsync_program *gp, const char *src,
                        const char *extra);

#endif
