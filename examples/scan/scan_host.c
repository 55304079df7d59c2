/* scan_host: launches scan.cl, rewritten by gsync-rewrite, through libgsync
 * on the first OpenCL device, and checks the prefix sums it computes in one
 * launch against the CPU's.
 *
 * usage: scan_host REWRITTEN.cl CONSTRAINTS.json [GROUPS [LOCAL]]
 *
 * Build it with the N the kernel was rewritten with (-DN=1024).
 */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue */
#include <libgsync.h>

#include <stdio.h>
#include <stdlib.h>

#ifndef N
#error "define N as for the kernel: -DN=1024"
#endif

/* Reports a failure and ends the program: fine for an example. */
static void fail(const char *what, const char *why) {
  fprintf(stderr, "scan_host: %s: %s\n", what, why);
  exit(1);
}

/* Returns the text of the file at path, NUL-terminated (exits on error). */
static char *load_text(const char *path) {
  char *text, err[512];
  if (gsync_read_file(path, &text, NULL, err, sizeof err))
    fail("gsync_read_file", err);
  return text;
}

/* Builds the rewritten kernel with the options its constraints ask for and
 * the -D it was rewritten with (the text still says N; its includes are
 * inlined, so it needs no -I); on failure prints the build log and exits. */
static cl_kernel build_kernel(cl_context ctx, cl_device_id dev,
                              const gsync_program *gp, const char *path) {
  char *text = load_text(path);
  const char *source = text;
  cl_int e;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &e);
  free(text);
  if (e != CL_SUCCESS)
    fail(path, "clCreateProgramWithSource failed");
  char options[256];
  snprintf(options, sizeof options, "%s -DN=%d",
           gsync_program_build_options(gp, dev), N);
  if (clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log,
                          NULL);
    fail("the OpenCL build failed", log);
  }
  cl_kernel k = clCreateKernel(prog, "scan", &e);
  clReleaseProgram(prog); /* the kernel keeps it */
  if (e != CL_SUCCESS)
    fail(path, "has no kernel 'scan'");
  return k;
}

int main(int argc, char **argv) {
  if (argc < 3)
    fail("usage", "scan_host REWRITTEN.cl CONSTRAINTS.json [GROUPS [LOCAL]]");
  size_t groups = argc > 3 ? strtoul(argv[3], NULL, 10) : 64;
  size_t local = argc > 4 ? strtoul(argv[4], NULL, 10) : 64;
  char err[512];

  gsync_program *gp;
  if (gsync_program_load(argv[2], &gp, err, sizeof err) != GSYNC_OK)
    fail(argv[2], err);
  cl_platform_id platform;
  cl_device_id dev;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
    fail("OpenCL", "no device");
  if (gsync_program_check_device(gp, dev, err, sizeof err) != GSYNC_OK)
    fail("device", err);
  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  cl_command_queue queue = clCreateCommandQueue(ctx, dev, 0, &e);
  cl_kernel k = build_kernel(ctx, dev, gp, argv[1]);

  /* The input, and its prefix sums computed here. */
  static cl_uint in[N], want[N], got[N];
  for (cl_uint i = 0; i < N; i++) {
    in[i] = (i * 7u + 3u) % 11u;
    want[i] = in[i] + (i ? want[i - 1] : 0u);
  }
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            sizeof in, in, &e);
  cl_mem tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof in, NULL, &e);
  clSetKernelArg(k, 0, sizeof a, &a);
  clSetKernelArg(k, 1, sizeof tmp, &tmp);

  /* libgsync adds the hidden state argument and launches. */
  gsync_kernel *gk;
  cl_uint took_part = 0;
  if (gsync_kernel_create(gp, ctx, queue, k, groups, &gk, err, sizeof err) !=
          GSYNC_OK ||
      gsync_enqueue(gk, queue, groups, local, &took_part, err, sizeof err) !=
          GSYNC_OK)
    fail("launch", err);
  clEnqueueReadBuffer(queue, a, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);

  size_t wrong = 0;
  for (size_t i = 0; i < N; i++)
    wrong += got[i] != want[i];
  printf("prefix sum of %d numbers, one launch of %zu work-groups x %zu, "
         "%u took part\n",
         N, groups, local, took_part);
  printf("result: %s\n", wrong ? "WRONG" : "matches the CPU");

  gsync_kernel_release(gk);
  gsync_program_release(gp);
  clReleaseMemObject(a);
  clReleaseMemObject(tmp);
  clReleaseKernel(k);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  return wrong != 0;
}
