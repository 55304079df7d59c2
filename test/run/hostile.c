/* libgsync-hostile: the host side under hostile use, where a mistake would
 * let the device write outside the memory it was given. Each case prints
 * one line per check:
 *   ok: WHAT            or            FAIL: WHAT (why)
 * and a write out of bounds is caught by a canary: memory next to the
 * state (or where the state was) filled with a pattern before the run and
 * checked after it.
 *
 * usage: libgsync-hostile CASE DIR [ARG]
 *   release DIR BYTES  DIR/out.cl, out.json: test/run/kernels/stencil.cl
 *                      rewritten with a spin limit; BYTES: the state's size
 *                      for 64 work-groups. A watched launch's handle is
 *                      released while the launch runs: the memory that
 *                      held its state must not be written once freed.
 *   (GSYNC_PLATFORM=TEXT: the first platform whose name holds TEXT)
 * Exit status 0 when every check passed, 2 when the case could not run.
 */
#define _POSIX_C_SOURCE 200809L
#include "libgsync.h"
#include "check.h"
#include "pick-device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ERRLEN 512
#define CANARY 0xa5u

static const char *dir;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;

static void die(const char *what, const char *err) {
  fprintf(stderr, "libgsync-hostile: %s: %s\n", what, err ? err : "");
  exit(2);
}

static void sleep_s(double s) {
  struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&t, NULL);
}

/* The path DIR/name, in a static buffer (one at a time). */
static const char *in_dir(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return path;
}

/* Loads DIR/name.json and reads DIR/name.cl, or exits. */
static gsync_program *load(const char *name, char **source) {
  char err[ERRLEN], file[256];
  gsync_program *p;
  snprintf(file, sizeof file, "%s.json", name);
  if (gsync_program_load(in_dir(file), &p, err, sizeof err))
    die("gsync_program_load", err);
  snprintf(file, sizeof file, "%s.cl", name);
  if (gsync_read_file(in_dir(file), source, NULL, err, sizeof err))
    die("gsync_read_file", err);
  return p;
}

/* Builds source with libgsync's options for p and then extra; returns the
 * kernel named name, or exits. */
static cl_kernel build(const gsync_program *p, const char *source,
                       const char *extra, const char *name) {
  char options[4096];
  cl_int rc;
  snprintf(options, sizeof options, "%s %s",
           gsync_program_build_options(p, dev), extra);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &rc);
  if (rc != CL_SUCCESS ||
      clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS)
    die("clBuildProgram", options);
  cl_kernel k = clCreateKernel(prog, name, &rc);
  clReleaseProgram(prog);
  if (rc != CL_SUCCESS)
    die("clCreateKernel", name);
  return k;
}

/* Sets the stencil's own arguments: a and b of n words, iters rounds. */
static void stencil_args(cl_kernel k, cl_mem a, cl_mem b, cl_uint n,
                         cl_uint iters) {
  if (clSetKernelArg(k, 0, sizeof a, &a) ||
      clSetKernelArg(k, 1, sizeof b, &b) ||
      clSetKernelArg(k, 2, sizeof n, &n) ||
      clSetKernelArg(k, 3, sizeof iters, &iters))
    die("clSetKernelArg", "stencil");
}

/* Whether the len bytes at p all hold CANARY. */
static int intact(const unsigned char *p, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (p[i] != CANARY)
      return 0;
  return 1;
}

/* One launch of kern through a new watched handle of p, released while
 * the launch runs; the canaries are heap blocks of the state's size
 * allocated right after the release, where the allocator hands out the
 * freed state again (PoCL's SVM is the host's heap). Sets *running to
 * whether the release came while the launch ran. Returns whether every
 * canary is intact once the queue has finished. */
static int release_round(gsync_program *p, cl_kernel kern, size_t state_bytes,
                         int *running) {
  enum { BLOCKS = 8 };
  char err[ERRLEN];
  gsync_kernel *gk;
  if (gsync_kernel_create(p, ctx, queue, kern, 64, &gk, err, sizeof err))
    die("gsync_kernel_create", err);
  gsync_watch_support sup = {sizeof sup, 0, 0, 0, NULL, NULL};
  if (gsync_watch_enable(gk, ctx, dev, queue, &sup, err, sizeof err))
    die("gsync_watch_enable", err);
  if (!sup.progress) {
    printf("skipped: the device shares no memory with a running kernel\n");
    exit(0);
  }
  if (gsync_enqueue(gk, queue, 64, 64, NULL, err, sizeof err))
    die("gsync_enqueue", err);
  clFlush(queue);
  gsync_progress_info info = {sizeof info, 0, 0, 0};
  for (int i = 0; i < 5000 && info.barriers == 0; i++) {
    sleep_s(0.001);
    gsync_progress(gk, &info, NULL, 0);
  }
  cl_event mark;
  clEnqueueMarkerWithWaitList(queue, 0, NULL, &mark);
  clFlush(queue);
  gsync_kernel_release(gk);
  unsigned char *block[BLOCKS];
  for (int i = 0; i < BLOCKS; i++) {
    if ((block[i] = malloc(state_bytes)) == NULL)
      die("malloc", "canary");
    memset(block[i], CANARY, state_bytes);
  }
  cl_int status = CL_COMPLETE;
  clGetEventInfo(mark, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                 &status, NULL);
  *running = info.barriers > 0 && status != CL_COMPLETE;
  clFinish(queue);
  clReleaseEvent(mark);
  int ok = 1;
  for (int i = 0; i < BLOCKS; i++) {
    ok &= intact(block[i], state_bytes);
    free(block[i]);
  }
  return ok;
}

/* A watched launch whose handle is released while it runs: the shared
 * memory that held the state must outlive the launch. Three rounds, as
 * the allocator may hand the freed state to another block in one. */
static void case_release(size_t state_bytes) {
  enum { N = 4096, ROUNDS = 3 };
  char *source;
  gsync_program *p = load("out", &source);
  cl_kernel kern = build(p, source, GSYNC_WATCH_BUILD_OPTION, "stencil");
  cl_int rc;
  cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &rc);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &rc);
  stencil_args(kern, a, b, N, 300);
  int ok = 1, running = 1;
  for (int r = 0; r < ROUNDS; r++) {
    int ran;
    ok &= release_round(p, kern, state_bytes, &ran);
    running &= ran;
  }
  check(running, "release: each handle released while its launch runs");
  check(ok,
        "release: nothing written to the freed state (%d rounds, canaries "
        "of %zu bytes)",
        ROUNDS, state_bytes);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseKernel(kern);
  gsync_program_release(p);
  free(source);
}

int main(int argc, char **argv) {
  cl_int rc;
  if (argc < 3) {
    fprintf(stderr, "usage: libgsync-hostile CASE DIR [ARG]\n");
    return 2;
  }
  dir = argv[2];
  if (!pick_device(&dev, NULL))
    die("no OpenCL device", NULL);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
  if (rc != CL_SUCCESS)
    die("clCreateCommandQueue", NULL);
  if (strcmp(argv[1], "release") == 0 && argc == 4)
    case_release(strtoul(argv[3], NULL, 10));
  else
    die("unknown case", argv[1]);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  printf("%d failed\n", failures);
  return failures != 0;
}
