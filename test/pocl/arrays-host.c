/* gsync-arrays: runs kernels of a rewritten output whose arguments are
 * uint arrays and one local array, through libgsync, on an OpenCL device,
 * and prints what the arrays hold after each launch; for machines without
 * PyOpenCL (the GPU machine: test/pocl/gen-late-jumps.py --host drives it
 * there, and checks what it prints).
 *
 *   gsync-arrays --platform SUBSTRING --cl FILE --constraints JSON
 *                --groups G --local L --arrays N0,N1,...
 *                [--input I:FILE]... [--local-words W] [--options OPTS]
 *                KERNEL...
 *
 * Each kernel gets the arrays as its first arguments (N0, N1, ... uints,
 * zeroed before each launch, or array I read from FILE as 32-bit
 * little-endian words), then a local uint[W] if W is given, and is
 * launched as G groups of L through libgsync. Prints, for each kernel and
 * array, one line 'KERNEL I V0 V1 ...'; 'KERNEL: error: MESSAGE' where a
 * launch failed, 'build-failed: LOG' or 'error: MESSAGE' for the whole
 * program. Exit status 0 when every kernel ran. */
#include "../utils/build-output.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARRAYS 16

static int fail(const char *what, cl_int rc) {
  printf("error: %s (%d)\n", what, (int)rc);
  return 1;
}

int main(int argc, char **argv) {
  const char *platform = NULL, *cl_path = NULL, *json = NULL, *extra = "";
  const char *inputs[MAX_ARRAYS] = {0};
  size_t sizes[MAX_ARRAYS], n_arrays = 0, groups = 0, local = 0, words = 0;
  int i = 1;
  for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
    const char *o = argv[i], *v = argv[i + 1];
    if (!strcmp(o, "--platform"))
      platform = v;
    else if (!strcmp(o, "--cl"))
      cl_path = v;
    else if (!strcmp(o, "--constraints"))
      json = v;
    else if (!strcmp(o, "--options"))
      extra = v;
    else if (!strcmp(o, "--groups"))
      groups = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--local"))
      local = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--local-words"))
      words = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--arrays")) {
      for (char *end = (char *)v; *end && n_arrays < MAX_ARRAYS;) {
        sizes[n_arrays++] = strtoul(end, &end, 10);
        if (*end == ',')
          end++;
      }
    } else if (!strcmp(o, "--input")) {
      char *end;
      unsigned long index = strtoul(v, &end, 10);
      if (*end != ':' || index >= MAX_ARRAYS) {
        printf("error: --input wants INDEX:FILE, not %s\n", v);
        return 2;
      }
      inputs[index] = end + 1;
    } else {
      printf("error: unknown option %s\n", o);
      return 2;
    }
  }
  if (!platform || !cl_path || !json || !groups || !local || !n_arrays ||
      i == argc) {
    printf("error: usage: gsync-arrays --platform P --cl F --constraints J "
           "--groups G --local L --arrays N0,N1,... [--input I:FILE]... "
           "[--local-words W] [--options O] KERNEL...\n");
    return 2;
  }
  uint32_t *host[MAX_ARRAYS];
  for (size_t a = 0; a < n_arrays; a++) {
    host[a] = calloc(sizes[a] ? sizes[a] : 1, 4);
    if (!host[a])
      return fail("out of memory", 0);
  }

  cl_int rc;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  char err[1024], *src = NULL;
  if (!open_device(platform, &dev, &ctx, &q))
    return 1;
  gsync_program *gp = NULL;
  if (gsync_program_load(json, &gp, err, sizeof err) != GSYNC_OK ||
      gsync_read_file(cl_path, &src, NULL, err, sizeof err) != GSYNC_OK) {
    printf("error: %s\n", err);
    return 1;
  }
  cl_program prog = build_output(ctx, dev, gp, src, extra);
  if (!prog)
    return 1;

  int failed = 0;
  for (; i < argc; i++) {
    const char *name = argv[i];
    cl_kernel k = clCreateKernel(prog, name, &rc);
    if (rc != CL_SUCCESS) {
      printf("%s: error: clCreateKernel (%d)\n", name, (int)rc);
      failed = 1;
      continue;
    }
    cl_mem bufs[MAX_ARRAYS];
    for (size_t a = 0; a < n_arrays; a++) {
      memset(host[a], 0, sizes[a] * 4);
      FILE *in = inputs[a] ? fopen(inputs[a], "rb") : NULL;
      if (inputs[a] && (!in || fread(host[a], 4, sizes[a], in) != sizes[a]))
        return fail("cannot read an input", 0);
      if (in)
        fclose(in);
      bufs[a] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               (sizes[a] ? sizes[a] : 1) * 4, host[a], &rc);
      if (rc != CL_SUCCESS)
        return fail("clCreateBuffer", rc);
      clSetKernelArg(k, (cl_uint)a, sizeof(cl_mem), &bufs[a]);
    }
    if (words)
      clSetKernelArg(k, (cl_uint)n_arrays, words * 4, NULL);
    gsync_kernel *gk = NULL;
    gsync_launch_info info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    size_t shape[1] = {groups}, size[1] = {local};
    gsync_status st =
        gsync_kernel_create(gp, ctx, q, k, groups, &gk, err, sizeof err);
    if (st == GSYNC_OK)
      st = gsync_enqueue_nd(gk, q, 1, NULL, shape, size, err, sizeof err);
    if (st == GSYNC_OK)
      st = gsync_finish_nd(gk, q, &info, err, sizeof err);
    if (st != GSYNC_OK) {
      printf("%s: error: %s\n", name, err);
      failed = 1;
    } else {
      for (size_t a = 0; a < n_arrays; a++) {
        rc = clEnqueueReadBuffer(q, bufs[a], CL_TRUE, 0, sizes[a] * 4, host[a],
                                 0, NULL, NULL);
        if (rc != CL_SUCCESS)
          return fail("clEnqueueReadBuffer", rc);
        printf("%s %zu", name, a);
        for (size_t e = 0; e < sizes[a]; e++)
          printf(" %u", host[a][e]);
        printf("\n");
      }
    }
    fflush(stdout);
    gsync_kernel_release(gk);
    for (size_t a = 0; a < n_arrays; a++)
      clReleaseMemObject(bufs[a]);
    clReleaseKernel(k);
  }
  return failed;
}
