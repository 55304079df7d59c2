/* How libgsync reports a failure. Nothing in libgsync prints or exits:
 * every failure becomes a status and a one-line message in the caller's
 * buffer (gsli_fail; gsli_cl_fail for a failed OpenCL call), and
 * gsync_status_name names the status. Also the one string helper every
 * file uses, gsli_dup_string. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes a formatted message into err (when there is room for one) and
 * returns status, so that a failure is reported in one statement. */
gsync_status gsli_fail(char *err, size_t errlen, gsync_status status,
                       const char *fmt, ...) {
  if (err != NULL && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return status;
}

/* Returns the symbolic name of an OpenCL error code, or "unknown error". */
const char *gsli_cl_error_name(cl_int code) {
  switch (code) {
#define E(x)                                                                   \
  case x:                                                                      \
    return #x;
    E(CL_DEVICE_NOT_FOUND)
    E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES)
    E(CL_OUT_OF_HOST_MEMORY)
    E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT)
    E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE)
    E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX)
    E(CL_INVALID_ARG_VALUE)
    E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS)
    E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET)
    E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION)
    E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE)
#undef E
  default:
    return "unknown error";
  }
}

/* Reports a failed OpenCL call as GSYNC_ERR_OPENCL; returns that status. */
gsync_status gsli_cl_fail(char *err, size_t errlen, const char *call,
                          cl_int code) {
  return gsli_fail(err, errlen, GSYNC_ERR_OPENCL, "%s failed: %s (%d)", call,
                   gsli_cl_error_name(code), (int)code);
}

/* Reports a NULL argument where one is needed as GSYNC_ERR_ARGUMENT;
 * returns that status. */
gsync_status gsli_null_argument(char *err, size_t errlen, const char *fn,
                                const char *arg) {
  return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT, "%s: %s is NULL", fn, arg);
}

/* Returns a malloc'd copy of s, or NULL when out of memory. */
char *gsli_dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy != NULL)
    memcpy(copy, s, n);
  return copy;
}

/* Returns the enumerator's name as a static string. */
const char *gsync_status_name(gsync_status s) {
  switch (s) {
  case GSYNC_OK:
    return "GSYNC_OK";
  case GSYNC_ERR_IO:
    return "GSYNC_ERR_IO";
  case GSYNC_ERR_FORMAT:
    return "GSYNC_ERR_FORMAT";
  case GSYNC_ERR_DEVICE:
    return "GSYNC_ERR_DEVICE";
  case GSYNC_ERR_KERNEL:
    return "GSYNC_ERR_KERNEL";
  case GSYNC_ERR_LAUNCH:
    return "GSYNC_ERR_LAUNCH";
  case GSYNC_ERR_OPENCL:
    return "GSYNC_ERR_OPENCL";
  case GSYNC_ERR_NOMEM:
    return "GSYNC_ERR_NOMEM";
  case GSYNC_ERR_TIMEOUT:
    return "GSYNC_ERR_TIMEOUT";
  case GSYNC_ERR_MISMATCH:
    return "GSYNC_ERR_MISMATCH";
  case GSYNC_ERR_ARGUMENT:
    return "GSYNC_ERR_ARGUMENT";
  case GSYNC_ERR_CANCELLED:
    return "GSYNC_ERR_CANCELLED";
  }
  return "GSYNC_ERR_UNKNOWN";
}
