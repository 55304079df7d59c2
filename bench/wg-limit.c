/* bench/wg-limit.c: what NVIDIA's OpenCL says a kernel's work-group may
 * hold (CL_KERNEL_WORK_GROUP_SIZE) against what it launches. For each .cl
 * file (a kernel "loop" with loop.cl's arguments; the fourth, where there
 * is one, gets a zeroed 64 KiB buffer: the state), it builds with OPTIONS
 * (-cl-nv-verbose puts ptxas's register count into the build log), prints
 * the kernel's work-group info and launches one group of 256, 512 and
 * 1024 items with n = 0, printing each enqueue's and finish's status.
 * On the GPU machine (. .gpu/on-gpu.sh):
 *   gcc -o /tmp/wg-limit bench/wg-limit.c -lOpenCL
 *   /tmp/wg-limit "-cl-nv-verbose" bench/kernels/wg-limit-trivial.cl \
 *     build/gpu-kernels/loop.tree.nd.cl
 * H100, 2026-12-06: 256 for every kernel, the trivial one (10 registers)
 * too, and every launch of 1024 succeeded. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc(n + 1);
  fread(s, 1, n, f);
  s[n] = 0;
  fclose(f);
  return s;
}
int main(int argc, char **argv) {
  cl_platform_id ps[8];
  cl_uint np;
  clGetPlatformIDs(8, ps, &np);
  cl_device_id d = 0;
  for (cl_uint i = 0; i < np; i++) {
    char name[256];
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, "NVIDIA"))
      clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  }
  cl_int rc;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &rc);
  cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &rc);
  for (int a = 2; a < argc; a++) {
    char *src = slurp(argv[a]);
    if (!src) {
      printf("%s: unreadable\n", argv[a]);
      continue;
    }
    cl_program p =
        clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &rc);
    rc = clBuildProgram(p, 1, &d, argv[1], NULL, NULL);
    char log[65536] = "";
    clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("== %s [%s] build rc=%d\n%s\n", argv[a], argv[1], rc, log);
    if (rc)
      continue;
    cl_kernel k = clCreateKernel(p, "loop", &rc);
    size_t wg = 0, pref = 0;
    cl_ulong priv = 0, loc = 0;
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                             NULL);
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                             sizeof pref, &pref, NULL);
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv,
                             &priv, NULL);
    clGetKernelWorkGroupInfo(k, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof loc, &loc,
                             NULL);
    printf("WG %s work_group_size=%zu pref=%zu private=%llu local=%llu\n",
           argv[a], wg, pref, (unsigned long long)priv,
           (unsigned long long)loc);
    cl_uint nargs = 0;
    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    cl_mem b0 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &rc);
    cl_mem st = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 16, NULL, &rc);
    cl_uint z = 0;
    char zero[1 << 16];
    memset(zero, 0, sizeof zero);
    clEnqueueWriteBuffer(q, st, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL);
    clSetKernelArg(k, 0, sizeof b0, &b0);
    clSetKernelArg(k, 1, sizeof z, &z);
    clSetKernelArg(k, 2, sizeof z, &z);
    if (nargs > 3)
      clSetKernelArg(k, 3, sizeof st, &st);
    for (size_t l = 256; l <= 1024; l *= 2) {
      size_t g = l;
      rc = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
      cl_int f = clFinish(q);
      printf("LAUNCH %s local=%zu enqueue=%d finish=%d\n", argv[a], l, rc, f);
    }
  }
  return 0;
}
