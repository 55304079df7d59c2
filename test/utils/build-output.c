/* What the test hosts without PyOpenCL share (gsync-diffhost,
 * gsync-arrays): the device, and the build of a rewritten output with
 * libgsync's options for it (none without a program), then extra. */
#include "build-output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int open_device(const char *platform, cl_device_id *dev, cl_context *ctx,
                cl_command_queue *queue) {
  char err[512];
  cl_int rc;
  if (gsync_pick_device(platform, 0, NULL, dev, err, sizeof err)) {
    printf("error: %s\n", err);
    return 0;
  }
  *ctx = clCreateContext(NULL, 1, dev, NULL, NULL, &rc);
  if (rc == CL_SUCCESS)
    *queue = clCreateCommandQueueWithProperties(*ctx, *dev, NULL, &rc);
  if (rc != CL_SUCCESS) {
    printf("error: cannot open the device (%d)\n", (int)rc);
    return 0;
  }
  return 1;
}

cl_program build_output(cl_context ctx, cl_device_id dev,
                        const gsync_program *gp, const char *src,
                        const char *extra) {
  const char *base = gp ? gsync_program_build_options(gp, dev) : "";
  size_t olen = strlen(base ? base : "") + strlen(extra) + 2;
  char *options = malloc(olen);
  if (!options) {
    printf("error: out of memory\n");
    return NULL;
  }
  snprintf(options, olen, "%s %s", base ? base : "", extra);
  cl_int rc;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
  if (rc == CL_SUCCESS)
    rc = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
  free(options);
  if (rc != CL_SUCCESS) {
    char log[4096] = "";
    if (prog)
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1,
                            log, NULL);
    char *nl = strchr(log, '\n');
    if (nl)
      *nl = '\0';
    printf("build-failed: %s (%d)\n", log, (int)rc);
    return NULL;
  }
  return prog;
}
