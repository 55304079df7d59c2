/* The OpenCL device the libgsync test programs run on: the first device of
 * the first platform, or of the first whose name holds $GSYNC_PLATFORM
 * (as gsync-run and the Python tests pick it). Included by one file each. */
#ifndef GSYNC_TEST_PICK_DEVICE_H
#define GSYNC_TEST_PICK_DEVICE_H

#include "libgsync.h"

#include <stdlib.h>
#include <string.h>

/* Sets *dev (and *platform, unless NULL) to that device. Returns 0 if
 * there is none. */
static int pick_device(cl_device_id *dev, cl_platform_id *platform) {
  cl_platform_id all[16];
  cl_uint n = 0;
  const char *want = getenv("GSYNC_PLATFORM");
  if (clGetPlatformIDs(16, all, &n) != CL_SUCCESS)
    return 0;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(all[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (want && !strstr(name, want))
      continue;
    if (platform != NULL)
      *platform = all[i];
    return clGetDeviceIDs(all[i], CL_DEVICE_TYPE_ALL, 1, dev, NULL) ==
           CL_SUCCESS;
  }
  return 0;
}

#endif
