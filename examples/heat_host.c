/* The bundled example: runs heat.cl, rewritten by gsync-rewrite, through
 * libgsync on the first OpenCL device, and checks it against the same
 * computation on the CPU.
 *
 * usage: heat_host REWRITTEN.cl CONSTRAINTS.json [GROUPS [LOCAL]]
 *                  [--steps N] [--deadline SECONDS]
 *
 * While the launch runs it shows how far it is (docs/watch.md): a
 * progress bar on a terminal, a plain line a second otherwise (on
 * stderr), where the device lets the host watch. Ctrl-C cancels the
 * launch: every work-group leaves at its next barrier and the program
 * says after how many barriers it stopped. --deadline stops it after
 * SECONDS by the device's clock.
 */
#define _POSIX_C_SOURCE 200809L           /* sigaction, nanosleep */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue: NVIDIA too  \
                                           */
#include "libgsync.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N 4096
#define STEPS 500
#define ALPHA 0.25f

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

/* The launch Ctrl-C cancels. gsync_cancel is one atomic store, safe in a
 * signal handler. */
static gsync_kernel *volatile watched;
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
  (void)sig;
  interrupted = 1;
  if (watched)
    gsync_cancel(watched, NULL, 0);
}

/* Waits for the launch that done marks the end of, showing its progress
 * out of total barriers when the device lets the host read it: a bar on a
 * terminal, else a line each time the count has moved, at most one a
 * second. Until the first barrier the device may still be compiling the
 * kernel (PoCL compiles it at its first launch), and the bar says so. */
static void show_progress(gsync_kernel *gk, cl_event done, cl_uint total) {
  int tty = isatty(STDERR_FILENO), shown = 0;
  struct timespec tick = {0, 50000000};
  cl_int status = CL_QUEUED;
  cl_uint last = 0;
  for (unsigned polls = 0;; polls++) {
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                   &status, NULL);
    if (status == CL_COMPLETE || status < 0)
      break;
    gsync_progress_info p = {sizeof p, 0, 0, 0};
    if (gsync_progress(gk, &p, NULL, 0) != GSYNC_OK) {
      nanosleep(&tick, NULL);
      continue;
    }
    if (tty) {
      int width = 40, filled = (int)((double)p.barriers / total * width);
      if (p.barriers == 0)
        fprintf(stderr,
                "\r[%-*s] waiting for the first barrier (the kernel "
                "may still be compiling)",
                width, "");
      else
        fprintf(stderr, "\r[%-*.*s] %u of %u barriers%s\033[K", width, filled,
                "########################################", p.barriers, total,
                interrupted ? ", cancelling" : "");
      shown = 1;
    } else if (p.barriers != last && polls % 20 == 19) {
      fprintf(stderr, "progress: %u of %u barriers\n", p.barriers, total);
      last = p.barriers;
    }
    nanosleep(&tick, NULL);
  }
  if (tty && shown)
    fprintf(stderr, "\n");
}

int main(int argc, char **argv) {
  const char *pos[4] = {0};
  int n_pos = 0;
  cl_uint steps = STEPS;
  double deadline = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = (cl_uint)count_arg(argv[++i]);
    else if (!strcmp(argv[i], "--deadline") && i + 1 < argc) {
      char *end;
      deadline = strtod(argv[++i], &end);
      if (*end || !(deadline > 0))
        die("--deadline takes a number of seconds", argv[i]);
    } else if (n_pos < 4 && argv[i][0] != '-')
      pos[n_pos++] = argv[i];
    else
      die("unknown argument", argv[i]);
  }
  if (n_pos < 2)
    die("usage: heat_host REWRITTEN.cl CONSTRAINTS.json [GROUPS [LOCAL]] "
        "[--steps N] [--deadline SECONDS]",
        0);
  size_t groups = n_pos > 2 ? count_arg(pos[2]) : 256;
  size_t local = n_pos > 3 ? count_arg(pos[3]) : 64;
  char err[512];

  gsync_program *gp;
  if (gsync_program_load(pos[1], &gp, err, sizeof err))
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
  char *src;
  if (gsync_read_file(pos[0], &src, NULL, err, sizeof err))
    die("source", err);
  const char *csrc = src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &csrc, NULL, &e);
  /* GSYNC_WATCH_BUILD_OPTION compiles the watch into the barriers (a
   * program built without it costs nothing for it, and cannot be watched). */
  char options[4096];
  snprintf(options, sizeof options, "%s %s",
           gsync_program_build_options(gp, dev), GSYNC_WATCH_BUILD_OPTION);
  fprintf(stderr, "building the kernel for %s\n", name);
  if (clBuildProgram(prog, 1, &dev, options, NULL, NULL)) {
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

  cl_mem u = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            sizeof u0, u0, &e);
  cl_mem t = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof u0, NULL, &e);
  cl_uint n = N;
  float alpha = ALPHA;
  clSetKernelArg(k, 0, sizeof u, &u);
  clSetKernelArg(k, 1, sizeof t, &t);
  clSetKernelArg(k, 2, sizeof n, &n);
  clSetKernelArg(k, 3, sizeof steps, &steps);
  clSetKernelArg(k, 4, sizeof alpha, &alpha);

  gsync_kernel *gk;
  if (gsync_kernel_create(gp, ctx, q, k, groups, &gk, err, sizeof err))
    die("state", err);
  /* Watch the launch where the device allows: progress and Ctrl-C need
   * memory the host and the running kernel share, the deadline the
   * device's clock. */
  gsync_watch_support can = {sizeof can, 0, 0, 0, NULL, NULL};
  if (gsync_watch_enable(gk, ctx, dev, q, &can, err, sizeof err) != GSYNC_OK)
    can.channel = NULL;
  printf("watching:     %s\n",
         can.progress   ? "progress and Ctrl-C through shared memory"
         : can.deadline ? "deadline only (no memory the host shares with a "
                          "running kernel)"
                        : "not possible on this device");
  if (deadline > 0 && gsync_set_deadline(gk, deadline, err, sizeof err))
    die("--deadline", err);
  if (can.cancel) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    watched = gk;
    sigaction(SIGINT, &sa, NULL);
  }

  /* Launch, then wait and check how it ended: a barrier that waited past
   * the spin limit aborts the launch, and gsync_finish says where; a
   * cancel or the deadline stops it, and gsync_finish says after how many
   * barriers. */
  gsync_launch_info info = {.size = sizeof info};
  cl_event done = NULL;
  if (gsync_enqueue(gk, q, groups, local, NULL, err, sizeof err))
    die("launch", err);
  if (clEnqueueMarkerWithWaitList(q, 0, NULL, &done) == CL_SUCCESS) {
    clFlush(q);
    show_progress(gk, done, 2 * steps);
    clReleaseEvent(done);
  }
  gsync_status st = gsync_finish_nd(gk, q, &info, err, sizeof err);
  watched = NULL;
  if (st == GSYNC_ERR_CANCELLED) {
    printf("stopped:      %s\n", err);
    return 2;
  }
  if (st != GSYNC_OK)
    die("launch", err);
  clEnqueueReadBuffer(q, u, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);

  for (cl_uint s = 0; s < steps; s++) {
    for (int i = 0; i < N; i++)
      tmp[i] = ref[i] + ALPHA * (ref[(i + N - 1) % N] - 2.0f * ref[i] +
                                 ref[(i + 1) % N]);
    memcpy(ref, tmp, sizeof tmp);
  }
  double worst = 0;
  for (int i = 0; i < N; i++)
    worst = fmax(worst, fabs((double)got[i] - ref[i]));
  printf("device:       %s\n", name);
  printf("launched:     %zu work-groups x %zu work-items, one launch\n", groups,
         local);
  printf("took part:    %u work-group%s of the %zu launched\n",
         info.participants, info.participants == 1 ? "" : "s", groups);
  /* Fewer than launched: why, and what it means for a kernel's ids. */
  char note[512];
  if (gsync_launch_note(&info, note, sizeof note) > 0)
    printf("note:         %s\n", note);
  printf("barriers:     %u global barriers per launch\n", 2 * steps);
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
