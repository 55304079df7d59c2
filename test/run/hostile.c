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
 *   macros DIR BYTES   DIR/nd.cl, nd.json: the stencil with the tree barrier
 *                      and --no-discovery; nd-reserved.json with
 *                      -DGSYNC_TREE_LEAF=2u in build.options; BYTES: the
 *                      state's size for 8 groups. Build options that
 *                      shrink the tree's leaves must not move its writes
 *                      past the state; the constraints may not hold them.
 *   spaces DIR SUB     DIR/SUB/out.cl, out.json: a kernel in a directory
 *                      whose name holds a blank, rewritten with a -D whose
 *                      value holds blanks. libgsync's build options must
 *                      build it on the device.
 *   limits DIR         DIR/flip.cl, flip.json: the stencil with the flip
 *                      barrier, and flip-ticket.cl and .json, the same
 *                      with the ticket discovery, whose rules state no
 *                      bound (max_work_groups 0). Launches past the rules'
 *                      and the device's limits are refused before the
 *                      driver sees them.
 *   threads DIR        DIR/out.cl, out.json as for release. gsync_progress
 *                      and gsync_cancel in one thread while another calls
 *                      gsync_watch_enable (see tsan.test).
 *   (GSYNC_PLATFORM=TEXT: the first platform whose name holds TEXT)
 * Exit status 0 when every check passed, 2 when the case could not run.
 */
#define _POSIX_C_SOURCE 200809L
#include "libgsync.h"
#include "check.h"

#include <pthread.h>
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

/* The stencil kernel of DIR/name.cl built with libgsync's options and
 * then extra, its own arguments set: a and b of N words, iters rounds. */
typedef struct stencil {
  gsync_program *p;
  char *source;
  cl_kernel kern;
  cl_mem a, b;
} stencil;
enum { N = 4096 };

static void stencil_open(stencil *s, const char *name, const char *extra,
                         cl_uint iters) {
  cl_int rc;
  cl_uint n = N;
  s->p = load(name, &s->source);
  s->kern = build(s->p, s->source, extra, "stencil");
  s->a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &rc);
  s->b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &rc);
  if (clSetKernelArg(s->kern, 0, sizeof s->a, &s->a) ||
      clSetKernelArg(s->kern, 1, sizeof s->b, &s->b) ||
      clSetKernelArg(s->kern, 2, sizeof n, &n) ||
      clSetKernelArg(s->kern, 3, sizeof iters, &iters))
    die("clSetKernelArg", "stencil");
}

static void stencil_close(stencil *s) {
  clReleaseMemObject(s->a);
  clReleaseMemObject(s->b);
  clReleaseKernel(s->kern);
  gsync_program_release(s->p);
  free(s->source);
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
 * memory that held the state must outlive the launch. Three rounds whose
 * release came while the launch ran, as the allocator may hand the freed
 * state to another block in one; a launch of 10,000 rounds runs for tens
 * of ms on PoCL, but a loaded machine may stall this thread for longer,
 * and a round whose launch ended first checks nothing: up to 12 rounds. */
static void case_release(size_t state_bytes) {
  enum { WANTED = 3, MOST = 12 };
  stencil s;
  stencil_open(&s, "out", GSYNC_WATCH_BUILD_OPTION, 10000);
  int ok = 1, running = 0;
  for (int r = 0; r < MOST && running < WANTED; r++) {
    int ran;
    ok &= release_round(s.p, s.kern, state_bytes, &ran);
    running += ran;
  }
  check(running == WANTED,
        "release: %d handles released while their launch runs", WANTED);
  check(ok,
        "release: nothing written to the freed state (canaries of %zu "
        "bytes)",
        state_bytes);
  stencil_close(&s);
}

/* A build of the tree barrier's output (DIR/nd.cl, --no-discovery) with
 * options that shrink its leaves, launched as a host that follows the
 * constraints by hand does: a state of the size they give for 8 groups
 * (BYTES), followed by a canary, and 8 groups that all run at once (the
 * lit test lets PoCL run 8 threads). The rule's leaves must stay inside
 * the state, whatever the build defines. Then the same options written
 * into the constraints' build.options (nd-reserved.json) are refused by
 * gsync_program_load. */
static void case_macros(size_t state_bytes) {
  enum { GROUPS = 8, GUARD = 4096 };
  char err[ERRLEN];
  stencil s;
  stencil_open(&s, "nd", "-DGSYNC_TREE_LEAF=2u -DGSYNC_TREE_FLAT_MAX=2u", 20);
  cl_int rc;
  cl_mem state =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE, state_bytes + GUARD, NULL, &rc);
  unsigned char *host = malloc(state_bytes + GUARD);
  if (rc != CL_SUCCESS || host == NULL)
    die("clCreateBuffer", "state");
  memset(host, 0, state_bytes);
  memset(host + state_bytes, CANARY, GUARD);
  size_t local = 64, global = GROUPS * local;
  if (clEnqueueWriteBuffer(queue, state, CL_TRUE, 0, state_bytes + GUARD, host,
                           0, NULL, NULL) ||
      clSetKernelArg(s.kern, 4, sizeof state, &state) ||
      clEnqueueNDRangeKernel(queue, s.kern, 1, NULL, &global, &local, 0, NULL,
                             NULL) ||
      clEnqueueReadBuffer(queue, state, CL_TRUE, 0, state_bytes + GUARD, host,
                          0, NULL, NULL))
    die("the launch", "tree with small leaves");
  cl_uint words[16];
  memcpy(words, host, sizeof words);
  check(words[5] == GROUPS && words[10] == 0,
        "macros: the launch of %d groups completed (%u took part, abort word "
        "%u)",
        GROUPS, (unsigned)words[5], (unsigned)words[10]);
  check(intact(host + state_bytes, GUARD),
        "macros: nothing written past the %zu bytes of state", state_bytes);
  gsync_program *p;
  err[0] = '\0';
  gsync_status st =
      gsync_program_load(in_dir("nd-reserved.json"), &p, err, sizeof err);
  check(st == GSYNC_ERR_FORMAT,
        "macros: constraints whose build options "
        "define GSYNC_TREE_LEAF -> %s",
        gsync_status_name(st));
  printf("message: %s\n", err);
  free(host);
  clReleaseMemObject(state);
  stencil_close(&s);
}

/* The output of a kernel in a directory whose name holds a blank, which
 * includes a header from there and was rewritten with a -D whose value
 * holds blanks: libgsync's build options must build it (PoCL refused the
 * -I it was given whole in quotes, "-I/a b", and searched " /a b " for
 * -I"/a b"), and the launch must see the header and the value. DIR/sub
 * holds out.cl and out.json; the kernel fill writes 40 + V (2). */
static void case_spaces(const char *sub) {
  char err[ERRLEN], name[4096], *source;
  snprintf(name, sizeof name, "%s/out", sub);
  gsync_program *p = load(name, &source);
  const char *options = gsync_program_build_options(p, dev);
  cl_int rc;
  cl_program prog =
      clCreateProgramWithSource(ctx, 1, (const char **)&source, NULL, &rc);
  rc = rc == CL_SUCCESS ? clBuildProgram(prog, 1, &dev, options, NULL, NULL)
                        : rc;
  check(rc == CL_SUCCESS, "spaces: libgsync's options build it (%d)", rc);
  printf("options: %s\n", options);
  if (rc != CL_SUCCESS) {
    char log[2048] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
                          NULL);
    printf("log: %s\n", log);
    exit(1);
  }
  cl_kernel kern = clCreateKernel(prog, "fill", &rc);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, NULL, &rc);
  cl_uint got = 0;
  gsync_kernel *gk;
  if (clSetKernelArg(kern, 0, sizeof out, &out) ||
      gsync_kernel_create(p, ctx, queue, kern, 1, &gk, err, sizeof err) ||
      gsync_enqueue(gk, queue, 1, 1, &got, err, sizeof err) ||
      clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 4, &got, 0, NULL, NULL))
    die("the launch", err);
  check(got == 42, "spaces: the kernel saw the header and the value (%u)",
        (unsigned)got);
  gsync_kernel_release(gk);
  clReleaseMemObject(out);
  clReleaseKernel(kern);
  clReleaseProgram(prog);
  gsync_program_release(p);
  free(source);
}

/* One launch's shape, and what its refusal's message says (NULL: the
 * launch runs). */
typedef struct shape_case {
  const char *what, *says;
  cl_uint dims;
  size_t groups[3], local[3], offset[3];
} shape_case;

/* Launches past a rule's or the device's limits: each refused by
 * libgsync with GSYNC_ERR_LAUNCH and a message that says which limit,
 * before the driver sees it (PoCL aborts the process on 2^33 groups).
 * DIR/flip.cl, flip.json: the stencil rewritten with the flip barrier,
 * whose state does not grow with the groups, so a handle can be made for
 * 2^34 of them. */
static void case_limits(void) {
  char err[ERRLEN];
  stencil s;
  stencil_open(&s, "flip", "", 2);
  size_t dims[3]; /* the device's work-items per dimension */
  clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof dims, dims, NULL);
  gsync_kernel *gk;
  if (gsync_kernel_create(s.p, ctx, queue, s.kern, (size_t)1 << 34, &gk, err,
                          sizeof err))
    die("gsync_kernel_create", err);
  const size_t g33 = (size_t)1 << 33, g30 = (size_t)1 << 30, g16 = 1u << 16;
  const size_t near_end = SIZE_MAX - 1;
  const shape_case cases[] = {
      {"2^33 work-groups", "limit of", 1, {g33}, {1}, {0}},
      {"2^30 work-groups", "limit of", 1, {g30}, {1}, {0}},
      {"2^16 x 2^16 work-groups", "limit of", 2, {g16, g16}, {1, 1}, {0, 0}},
      {"a local size above the device's",
       "a work-group may have",
       2,
       {1, 1},
       {dims[0], 2},
       {0, 0}},
      {"a local size above the device's in dimension 2",
       "in dimension 2",
       3,
       {1, 1, 1},
       {1, 1, dims[2] + 1},
       {0, 0, 0}},
      {"2 work-groups past an offset of SIZE_MAX - 1",
       "past the offset",
       1,
       {2},
       {1},
       {near_end}},
      {"a shape within the limits", NULL, 2, {2, 1}, {16, 4}, {0, 0}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const shape_case *c = &cases[i];
    err[0] = '\0';
    gsync_status st = gsync_enqueue_nd(gk, queue, c->dims, c->offset, c->groups,
                                       c->local, err, sizeof err);
    if (st == GSYNC_OK)
      st = gsync_finish(gk, queue, NULL, err, sizeof err);
    check(c->says ? st == GSYNC_ERR_LAUNCH && strstr(err, c->says) != NULL
                  : st == GSYNC_OK,
          "limits: %s -> %s", c->what, gsync_status_name(st));
    if (c->says)
      printf("message: %s\n", err);
  }
  err[0] = '\0';
  gsync_status st =
      gsync_enqueue(gk, queue, (size_t)1 << 33, 1, NULL, err, sizeof err);
  check(st == GSYNC_ERR_LAUNCH, "limits: gsync_enqueue of 2^33 -> %s",
        gsync_status_name(st));
  gsync_kernel_release(gk);
  stencil_close(&s);
  /* Rules that state no bound (flip with the ticket discovery:
   * max_work_groups 0): the state's 32-bit words still bound the launch. */
  stencil_open(&s, "flip-ticket", "", 2);
  if (gsync_kernel_create(s.p, ctx, queue, s.kern, (size_t)1 << 34, &gk, err,
                          sizeof err))
    die("flip-ticket.json", err);
  err[0] = '\0';
  st = gsync_enqueue(gk, queue, (size_t)1 << 33, 1, NULL, err, sizeof err);
  check(st == GSYNC_ERR_LAUNCH && strstr(err, "its state can count"),
        "limits: 2^33 work-groups, constraints without a limit -> %s",
        gsync_status_name(st));
  printf("message: %s\n", err);
  gsync_kernel_release(gk);
  stencil_close(&s);
}

/* What another thread saw of a handle while gsync_watch_enable ran. */
typedef struct watcher {
  gsync_kernel *k;
  int started; /* set by the thread, atomically, once it runs */
  int stop;    /* set by the main thread, atomically */
  long calls;  /* of gsync_progress and gsync_cancel */
  long odd;    /* results neither "not watched yet" nor what follows */
  long before; /* calls that found the handle not yet watched */
} watcher;

/* Calls gsync_progress and gsync_cancel without pause until told to stop:
 * before the watch is published they say "not watched"
 * (GSYNC_ERR_ARGUMENT); after, progress is 0 and cancel finds nothing
 * launched (GSYNC_ERR_LAUNCH), or, on a device without a channel, both
 * say so (GSYNC_ERR_DEVICE). Anything else is counted as odd. */
static void *watch_from_afar(void *arg) {
  watcher *w = arg;
  __atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
    gsync_progress_info info = {sizeof info, 7, 7, 7};
    gsync_status p = gsync_progress(w->k, &info, NULL, 0);
    gsync_status c = gsync_cancel(w->k, NULL, 0);
    w->calls += 2;
    w->before += p == GSYNC_ERR_ARGUMENT;
    w->odd += !(p == GSYNC_ERR_ARGUMENT || p == GSYNC_ERR_DEVICE ||
                (p == GSYNC_OK && info.barriers == 0 && info.launches == 0));
    w->odd += c != GSYNC_ERR_ARGUMENT && c != GSYNC_ERR_LAUNCH &&
              c != GSYNC_ERR_DEVICE;
  }
  return NULL;
}

/* gsync_progress and gsync_cancel from one thread while another calls
 * gsync_watch_enable, which moves the state into shared memory, clears it
 * and publishes it: the readers must see it unpublished or whole (run
 * under ThreadSanitizer, a data race is reported). Then a launch watched
 * from that thread completes and is right. */
static void case_threads(void) {
  enum { ROUNDS = 8 };
  char err[ERRLEN];
  stencil s;
  stencil_open(&s, "out", GSYNC_WATCH_BUILD_OPTION, 2);
  gsync_program *p = s.p;
  cl_kernel kern = s.kern;
  long calls = 0, odd = 0, before = 0;
  int enabled = 1;
  for (int r = 0; r < ROUNDS; r++) {
    gsync_kernel *gk;
    if (gsync_kernel_create(p, ctx, queue, kern, 8, &gk, err, sizeof err))
      die("gsync_kernel_create", err);
    watcher w = {gk, 0, 0, 0, 0, 0};
    pthread_t t;
    if (pthread_create(&t, NULL, watch_from_afar, &w) != 0)
      die("pthread_create", NULL);
    while (!__atomic_load_n(&w.started, __ATOMIC_ACQUIRE))
      sleep_s(0.0001);
    enabled &= gsync_watch_enable(gk, ctx, dev, queue, NULL, err, sizeof err) ==
               GSYNC_OK;
    sleep_s(0.001);
    __atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
    pthread_join(t, NULL);
    calls += w.calls;
    odd += w.odd;
    before += w.before;
    gsync_kernel_release(gk);
  }
  check(enabled, "threads: gsync_watch_enable -> GSYNC_OK in each round");
  check(odd == 0 && before > 0 && before < calls,
        "threads: progress and cancel during gsync_watch_enable saw it "
        "unpublished or whole");
  gsync_kernel *gk;
  if (gsync_kernel_create(p, ctx, queue, kern, 8, &gk, err, sizeof err) ||
      gsync_watch_enable(gk, ctx, dev, queue, NULL, err, sizeof err))
    die("gsync_watch_enable", err);
  cl_uint parts = 0;
  check(gsync_enqueue(gk, queue, 8, 64, &parts, err, sizeof err) == GSYNC_OK,
        "threads: a launch of the watched handle completes");
  gsync_kernel_release(gk);
  stencil_close(&s);
}

int main(int argc, char **argv) {
  cl_int rc;
  if (argc < 3) {
    fprintf(stderr, "usage: libgsync-hostile CASE DIR [ARG]\n");
    return 2;
  }
  dir = argv[2];
  char pick[512];
  if (gsync_pick_device(NULL, 0, NULL, &dev, pick, sizeof pick))
    die("gsync_pick_device", pick);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
  if (rc != CL_SUCCESS)
    die("clCreateCommandQueue", NULL);
  if (strcmp(argv[1], "release") == 0 && argc == 4)
    case_release(strtoul(argv[3], NULL, 10));
  else if (strcmp(argv[1], "threads") == 0)
    case_threads();
  else if (strcmp(argv[1], "limits") == 0)
    case_limits();
  else if (strcmp(argv[1], "spaces") == 0 && argc == 4)
    case_spaces(argv[3]);
  else if (strcmp(argv[1], "macros") == 0 && argc == 4)
    case_macros(strtoul(argv[3], NULL, 10));
  else
    die("unknown case", argv[1]);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  printf("%d failed\n", failures);
  return failures != 0;
}
