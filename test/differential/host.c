/* gsync-diffhost: runs one variant of a differential-test kernel (gen.py's
 * signature: k(global int *a, global int *b, global int *f, int n, int k))
 * on an OpenCL device, for machines without PyOpenCL (the GPU machine:
 * test/differential/replay.py drives it there; run.py does the same with
 * PyOpenCL). Prints one line:
 *
 *   result HASH            FNV-1a of a, b and f[0..2] after the launch
 *   result HASH aborted    ... and the launch aborted (spin limit)
 *   build-failed: LOG      the program did not build (first log line)
 *   error: MESSAGE         anything else went wrong
 *
 *   gsync-diffhost --platform SUBSTRING --cl FILE --input FILE
 *                  --local LxMxN --groups G [--constraints JSON]
 *                  [--options OPTS]
 *
 * The input file holds n, k and then n values of a, as 32-bit ints. With
 * --constraints the output is built and launched through libgsync (its
 * build options, then OPTS), G groups along dimension 0; without, the
 * source is built with OPTS alone and launched as G groups, the way the
 * reference (global_barrier() as barrier()) runs in one. Exit status 0
 * when a result was printed. */
#include "../utils/build-output.h"
#include "fnv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, cl_int rc) {
  printf("error: %s (%d)\n", what, (int)rc);
  return 1;
}

int main(int argc, char **argv) {
  const char *platform = NULL, *cl_path = NULL, *input = NULL, *json = NULL,
             *extra = "";
  size_t local[3] = {1, 1, 1}, groups = 1;
  cl_uint dims = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *o = argv[i], *v = argv[i + 1];
    if (!strcmp(o, "--platform"))
      platform = v;
    else if (!strcmp(o, "--cl"))
      cl_path = v;
    else if (!strcmp(o, "--input"))
      input = v;
    else if (!strcmp(o, "--constraints"))
      json = v;
    else if (!strcmp(o, "--options"))
      extra = v;
    else if (!strcmp(o, "--groups"))
      groups = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--local")) {
      char *end = (char *)v;
      for (dims = 0; dims < 3 && *end; dims++) {
        local[dims] = strtoul(end, &end, 10);
        if (*end == 'x')
          end++;
      }
    } else {
      printf("error: unknown option %s\n", o);
      return 2;
    }
  }
  if (!platform || !cl_path || !input || dims == 0 || groups == 0) {
    printf("error: usage: gsync-diffhost --platform P --cl F --input F "
           "--local LxMxN --groups G [--constraints J] [--options O]\n");
    return 2;
  }
  FILE *in = fopen(input, "rb");
  int32_t nk[2];
  if (!in || fread(nk, 4, 2, in) != 2 || nk[0] <= 0)
    return fail("cannot read the input", 0);
  size_t n = (size_t)nk[0];
  int32_t *a = malloc(n * 4), *b = calloc(n, 4), f[16] = {0};
  if (!a || !b || fread(a, 4, n, in) != n)
    return fail("cannot read the input's values", 0);
  fclose(in);

  cl_int rc;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  if (!open_device(platform, &dev, &ctx, &q))
    return 1;
  char err[1024], *src = NULL;
  gsync_program *gp = NULL;
  if (json && gsync_program_load(json, &gp, err, sizeof err) != GSYNC_OK) {
    printf("error: %s\n", err);
    return 1;
  }
  if (gsync_read_file(cl_path, &src, NULL, err, sizeof err) != GSYNC_OK) {
    printf("error: %s\n", err);
    return 1;
  }
  cl_program prog = build_output(ctx, dev, gp, src, extra);
  if (!prog)
    return 1;
  cl_kernel k = clCreateKernel(prog, "k", &rc);
  if (rc != CL_SUCCESS)
    return fail("clCreateKernel", rc);
  cl_mem bufs[3] = {
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, a,
                     &rc),
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, b,
                     &rc),
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof f, f,
                     &rc)};
  for (cl_uint i = 0; i < 3; i++)
    clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]);
  clSetKernelArg(k, 3, 4, &nk[0]);
  clSetKernelArg(k, 4, 4, &nk[1]);
  size_t shape[3] = {groups, 1, 1}, global[3];
  int aborted = 0;
  if (gp) {
    gsync_kernel *gk = NULL;
    gsync_launch_info info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    gsync_status st =
        gsync_kernel_create(gp, ctx, q, k, groups, &gk, err, sizeof err);
    if (st == GSYNC_OK)
      st = gsync_enqueue_nd(gk, q, dims, NULL, shape, local, err, sizeof err);
    if (st == GSYNC_OK)
      st = gsync_finish_nd(gk, q, &info, err, sizeof err);
    if (st == GSYNC_ERR_TIMEOUT)
      aborted = 1;
    else if (st != GSYNC_OK) {
      printf("error: %s\n", err);
      return 1;
    }
    gsync_kernel_release(gk);
  } else {
    for (cl_uint d = 0; d < dims; d++)
      global[d] = shape[d] * local[d];
    rc = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL);
    if (rc != CL_SUCCESS)
      return fail("clEnqueueNDRangeKernel", rc);
  }
  rc = clEnqueueReadBuffer(q, bufs[0], CL_TRUE, 0, n * 4, a, 0, NULL, NULL);
  if (rc == CL_SUCCESS)
    rc = clEnqueueReadBuffer(q, bufs[1], CL_TRUE, 0, n * 4, b, 0, NULL, NULL);
  if (rc == CL_SUCCESS)
    rc =
        clEnqueueReadBuffer(q, bufs[2], CL_TRUE, 0, sizeof f, f, 0, NULL, NULL);
  if (rc != CL_SUCCESS)
    return fail("clEnqueueReadBuffer", rc);
  uint64_t h = fnv(fnv(fnv(FNV_START, a, n * 4), b, n * 4), f, 3 * 4);
  printf("result %016llx%s\n", (unsigned long long)h,
         aborted ? " aborted" : "");
  return 0;
}
