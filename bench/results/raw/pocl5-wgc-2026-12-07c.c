/* wgc: builds FILE's kernel k on the Portable platform with OPTIONS and
 * launches it once (GROUPS x LOCAL, zeroed buffers, the state argument
 * last), so that PoCL compiles its work-group function; prints "ran". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: wgc FILE LxMxN GROUPS K,N OPTIONS\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f)
    return 2;
  static char src[1 << 20];
  size_t n = fread(src, 1, sizeof src - 1, f);
  src[n] = 0;
  fclose(f);
  size_t local[3] = {1, 1, 1}, global[3];
  cl_uint dims =
      (cl_uint)sscanf(argv[2], "%zux%zux%zu", &local[0], &local[1], &local[2]);
  for (int i = 0; i < 3; i++)
    global[i] = local[i];
  global[0] *= (size_t)atoi(argv[3]);
  cl_platform_id ps[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, ps, &np);
  cl_platform_id p = NULL;
  for (cl_uint i = 0; i < np; i++) {
    char name[256];
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, "Portable"))
      p = ps[i];
  }
  if (!p) {
    printf("no Portable platform\n");
    return 1;
  }
  cl_device_id d;
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_int rc;
  cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &rc);
  cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &rc);
  const char *s = src;
  cl_program pr = clCreateProgramWithSource(ctx, 1, &s, NULL, &rc);
  rc = clBuildProgram(pr, 1, &d, argv[5], NULL, NULL);
  if (rc) {
    printf("build failed %d\n", rc);
    return 1;
  }
  cl_kernel k = clCreateKernel(pr, "k", &rc);
  if (rc) {
    printf("no kernel %d\n", rc);
    return 1;
  }
  cl_uint na = 0;
  clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof na, &na, NULL);
  int zero[65536] = {0};
  cl_mem bufs[4];
  for (int i = 0; i < 4; i++)
    bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             sizeof zero, zero, &rc);
  int nn = 64, kk = 0;
  sscanf(argv[4], "%d,%d", &kk, &nn);
  clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]);
  clSetKernelArg(k, 1, sizeof(cl_mem), &bufs[1]);
  clSetKernelArg(k, 2, sizeof(cl_mem), &bufs[2]);
  clSetKernelArg(k, 3, sizeof nn, &nn);
  clSetKernelArg(k, 4, sizeof kk, &kk);
  if (na > 5)
    clSetKernelArg(k, 5, sizeof(cl_mem), &bufs[3]);
  rc = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL);
  if (rc) {
    printf("enqueue failed %d\n", rc);
    return 1;
  }
  clFinish(q);
  printf("ran\n");
  return 0;
}
