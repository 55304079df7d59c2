/* The bundled example: runs heat.cl, rewritten by gsync-rewrite, through
 * libgsync on the first OpenCL device, and checks it against the same
 * computation on the CPU.
 *
 * usage: heat_host REWRITTEN.cl CONSTRAINTS.json [GROUPS [LOCAL]]
 */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: NVIDIA too */
#include "libgsync.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096
#define STEPS 500
#define ALPHA 0.25f

/* Reads a whole file into a malloc'd NUL-terminated string, or NULL. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s)
    s[n] = '\0';
  fclose(f);
  return s;
}

/* Prints an error and exits: this is an example, not a library. */
static void die(const char *what, const char *detail) {
  fprintf(stderr, "heat_host: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  exit(1);
}

/* Parses a positive count from the command line. */
static size_t count_arg(const char *s) {
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (*end || v == 0)
    die("not a positive number", s);
  return v;
}

int main(int argc, char **argv) {
  if (argc < 3)
    die("usage: heat_host REWRITTEN.cl CONSTRAINTS.json [GROUPS [LOCAL]]", 0);
  size_t groups = argc > 3 ? count_arg(argv[3]) : 256;
  size_t local = argc > 4 ? count_arg(argv[4]) : 64;
  char err[512];

  gsync_program *gp;
  if (gsync_program_load(argv[2], &gp, err, sizeof err))
    die("constraints", err);
  cl_platform_id plat;
  cl_device_id dev;
  if (clGetPlatformIDs(1, &plat, NULL) ||
      clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL))
    die("no OpenCL device", 0);
  char name[256] = "";
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  if (gsync_program_check_device(gp, dev, err, sizeof err))
    die("device", err);

  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  char *src = slurp(argv[1]);
  if (!src)
    die("cannot read", argv[1]);
  const char *csrc = src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &csrc, NULL, &e);
  if (clBuildProgram(prog, 1, &dev, gsync_program_build_options(gp, dev),
                     NULL, NULL)) {
    static char log[1 << 16];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log,
                          NULL);
    die("build failed", log);
  }
  cl_kernel k = clCreateKernel(prog, "heat", &e);
  if (e)
    die("no kernel 'heat'", 0);

  static float u0[N], ref[N], tmp[N], got[N];
  for (int i = 0; i < N; i++)
    u0[i] = (i > N / 2 - 64 && i < N / 2 + 64) ? 100.0f : 0.0f;
  memcpy(ref, u0, sizeof u0);
  for (int t = 0; t < STEPS; t++) {
    for (int i = 0; i < N; i++)
      tmp[i] = ref[i] + ALPHA * (ref[(i + N - 1) % N] - 2.0f * ref[i] +
                                 ref[(i + 1) % N]);
    memcpy(ref, tmp, sizeof tmp);
  }

  cl_mem u = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            sizeof u0, u0, &e);
  cl_mem t = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof u0, NULL, &e);
  cl_uint n = N, steps = STEPS;
  float alpha = ALPHA;
  clSetKernelArg(k, 0, sizeof u, &u);
  clSetKernelArg(k, 1, sizeof t, &t);
  clSetKernelArg(k, 2, sizeof n, &n);
  clSetKernelArg(k, 3, sizeof steps, &steps);
  clSetKernelArg(k, 4, sizeof alpha, &alpha);

  gsync_kernel *gk;
  if (gsync_kernel_create(gp, ctx, q, k, groups, &gk, err, sizeof err))
    die("state", err);
  /* Launch, then wait and check how it ended: a barrier that waited past
   * the spin limit aborts the launch, and gsync_finish says where. */
  cl_uint participants = 0;
  if (gsync_enqueue(gk, q, groups, local, NULL, err, sizeof err) ||
      gsync_finish(gk, q, &participants, err, sizeof err))
    die("launch", err);
  clEnqueueReadBuffer(q, u, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);

  double worst = 0;
  for (int i = 0; i < N; i++)
    worst = fmax(worst, fabs((double)got[i] - ref[i]));
  printf("device:       %s\n", name);
  printf("launched:     %zu work-groups x %zu work-items, one launch\n",
         groups, local);
  printf("took part:    %u work-groups of the %zu launched\n", participants,
         groups);
  printf("barriers:     %d global barriers per launch\n", 2 * STEPS);
  printf("result:       %s (largest difference from the CPU: %g)\n",
         worst < 1e-3 ? "matches the CPU reference" : "WRONG", worst);

  gsync_kernel_release(gk);
  gsync_program_release(gp);
  clReleaseMemObject(u);
  clReleaseMemObject(t);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(src);
  return worst < 1e-3 ? 0 : 1;
}
