/* libgsync-watch: watches running launches of the stencil run-test kernel
 * through libgsync (docs/watch.md) on the first OpenCL device and prints
 * one line per check:
 *   ok: WHAT            or            FAIL: WHAT (why)
 * then, for the record, lines starting "figure:" with what was measured.
 *
 * usage: libgsync-watch OUT.cl OUT.json [--groups G] [--local L]
 *                       [--options TEXT] [--race-rounds R]
 *                       [--bench | --unwatchable | --no-channel]
 *   (GSYNC_PLATFORM=TEXT: the first platform whose name holds TEXT)
 * OUT.cl/OUT.json: test/run/kernels/stencil.cl rewritten with a spin limit.
 * The checks: progress grows monotonically while a launch runs and ends at
 * the kernel's barrier count; a launch that would run for hours is
 * cancelled within a second, and the next launch is correct; cancels
 * racing with normal completion (R rounds, 40 by default) end in one or
 * the other, and the launch after each is correct; a cancel after its
 * launch ended stops no other; a deadline stops a launch near its time.
 * With --bench, instead: the time
 * per barrier of one launch built with GSYNC_WATCH_BUILD_OPTION and
 * watched, and one built as usual (the watch compiled out), nine pairs, then
 * nine more with a deadline set that is never reached, and how long a deadline
 * takes to stop a launch. With --unwatchable: that gsync_watch_enable refuses
 * OUT (rewritten with
 * --spin-limit=0). With --no-channel (run with GSYNC_WATCH_CHANNEL=none):
 * that progress and cancel report GSYNC_ERR_DEVICE and the deadline still
 * works. With --bench, the probe of a host-visible buffer (what it measured)
 * is printed too. Misuse cases (NULLs, calls out of order) come first.
 * Exit status 0 when every check passed.
 */
#define _POSIX_C_SOURCE 200809L
#include "libgsync.h"
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ERRLEN 512
#define N 4096 /* stencil elements */

static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue;
static cl_mem buf_a, buf_b;
static size_t groups = 64, local_size = 64;
static const char *user_options = ""; /* --options: more build options */
static int race_rounds = 40;          /* --race-rounds */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_s(double s) {
  struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  nanosleep(&t, NULL);
}

static void die(const char *what, const char *err) {
  fprintf(stderr, "libgsync-watch: %s: %s\n", what, err ? err : "");
  exit(2);
}

static char *slurp(const char *path, size_t *len) {
  char *s, err[ERRLEN];
  if (gsync_read_file(path, &s, len, err, sizeof err))
    die("gsync_read_file", err);
  return s;
}

/* Builds the stencil kernel of source, with extra build options. */
static cl_kernel build(const gsync_program *p, const char *source,
                       const char *extra) {
  char options[4096];
  cl_int rc;
  snprintf(options, sizeof options, "%s %s %s",
           gsync_program_build_options(p, dev), user_options, extra);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &rc);
  if (rc != CL_SUCCESS ||
      clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS)
    die("clBuildProgram", options);
  cl_kernel k = clCreateKernel(prog, "stencil", &rc);
  clReleaseProgram(prog);
  if (rc != CL_SUCCESS)
    die("clCreateKernel", "stencil");
  return k;
}

/* Sets a and b to all ones and the kernel's arguments for iters. */
static void arm(cl_kernel k, cl_uint iters) {
  static cl_uint ones[N];
  cl_uint n = N;
  for (size_t i = 0; i < N; i++)
    ones[i] = 1;
  if (clEnqueueWriteBuffer(queue, buf_a, CL_TRUE, 0, sizeof ones, ones, 0, NULL,
                           NULL) != CL_SUCCESS ||
      clSetKernelArg(k, 0, sizeof buf_a, &buf_a) ||
      clSetKernelArg(k, 1, sizeof buf_b, &buf_b) ||
      clSetKernelArg(k, 2, sizeof n, &n) ||
      clSetKernelArg(k, 3, sizeof iters, &iters))
    die("arm", "cannot set the stencil's arguments");
}

/* Whether every element of a is 3^iters (mod 2^32). */
static int correct(cl_uint iters) {
  static cl_uint a[N];
  cl_uint want = 1;
  for (cl_uint i = 0; i < iters; i++)
    want *= 3u;
  if (clEnqueueReadBuffer(queue, buf_a, CL_TRUE, 0, sizeof a, a, 0, NULL,
                          NULL) != CL_SUCCESS)
    die("clEnqueueReadBuffer", "a");
  for (size_t i = 0; i < N; i++)
    if (a[i] != want)
      return 0;
  return 1;
}

/* gsync_finish in a thread of its own, so that the main thread can watch. */
typedef struct finisher {
  gsync_kernel *k;
  gsync_status st;
  char err[ERRLEN];
  double done; /* when finish returned */
  int finished;
  pthread_t thread;
} finisher;

static void *finish_main(void *arg) {
  finisher *f = arg;
  f->st = gsync_finish(f->k, queue, NULL, f->err, sizeof f->err);
  f->done = now_s();
  __atomic_store_n(&f->finished, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static void launch(gsync_kernel *k, cl_kernel kern, cl_uint iters,
                   finisher *f) {
  char err[ERRLEN];
  arm(kern, iters);
  if (gsync_enqueue(k, queue, groups, local_size, NULL, err, sizeof err))
    die("gsync_enqueue", err);
  clFlush(queue);
  memset(f, 0, sizeof *f);
  f->k = k;
  if (pthread_create(&f->thread, NULL, finish_main, f) != 0)
    die("pthread_create", "finisher");
}

/* A normal launch of iters, checked against the reference. */
static int run_ok(gsync_kernel *k, cl_kernel kern, cl_uint iters) {
  char err[ERRLEN];
  arm(kern, iters);
  gsync_status st =
      gsync_enqueue(k, queue, groups, local_size, NULL, err, sizeof err);
  if (st == GSYNC_OK)
    st = gsync_finish(k, queue, NULL, err, sizeof err);
  if (st != GSYNC_OK)
    fprintf(stderr, "libgsync-watch: %s: %s\n", gsync_status_name(st), err);
  return st == GSYNC_OK && correct(iters);
}

static void check_progress(gsync_kernel *k, cl_kernel kern) {
  const cl_uint iters = 20000;
  finisher f;
  gsync_progress_info info = {sizeof info, 0, 0, 0};
  char err[ERRLEN];
  launch(k, kern, iters, &f);
  cl_uint last = 0, participants = 0;
  size_t samples = 0, between = 0;
  int monotonic = 1;
  for (;;) {
    int finished = __atomic_load_n(&f.finished, __ATOMIC_SEQ_CST);
    if (gsync_progress(k, &info, err, sizeof err) != GSYNC_OK)
      die("gsync_progress", err);
    samples++;
    monotonic &= info.barriers >= last;
    last = info.barriers;
    between += last > 0 && last < 2 * iters;
    if (info.participants)
      participants = info.participants;
    if (finished)
      break;
    sleep_s(0.0002);
  }
  pthread_join(f.thread, NULL);
  check(f.st == GSYNC_OK && correct(iters), "progress: the launch is correct");
  check(monotonic, "progress: monotonic over %s samples",
        samples > 10 ? "many" : "few");
  check(between > 0, "progress: seen between 0 and the end");
  check(last == 2 * iters, "progress: ends at the kernel's %u barriers (%u)",
        2 * iters, (unsigned)last);
  check(participants >= 1 && participants <= groups,
        "progress: participants known");
}

static void check_cancel(gsync_kernel *k, cl_kernel kern) {
  finisher f;
  gsync_progress_info info = {sizeof info, 0, 0, 0};
  char err[ERRLEN];
  launch(k, kern, 0x7fffffffu, &f); /* hours */
  sleep_s(0.3);
  gsync_progress(k, &info, err, sizeof err);
  check(info.barriers > 0 && !__atomic_load_n(&f.finished, __ATOMIC_SEQ_CST),
        "cancel: the long launch runs");
  double t0 = now_s();
  gsync_status st = gsync_cancel(k, err, sizeof err);
  check(st == GSYNC_OK, "cancel: gsync_cancel -> %s", gsync_status_name(st));
  pthread_join(f.thread, NULL);
  double latency = f.done - t0;
  check(f.st == GSYNC_ERR_CANCELLED, "cancel: gsync_finish -> %s",
        gsync_status_name(f.st));
  check(strstr(f.err, "cancelled by the host after ") != NULL,
        "cancel: the message says so");
  printf("message: %.*s\n", (int)(strcspn(f.err, "0123456789")), f.err);
  check(latency < 1.0, "cancel: ended within a second");
  printf("figure: cancel to finish %.2f ms\n", latency * 1e3);
  check(run_ok(k, kern, 10), "cancel: the next launch is correct");
  /* A cancel after its launch ended names that launch alone. */
  check(gsync_cancel(k, err, sizeof err) == GSYNC_OK,
        "cancel: a late cancel is accepted");
  check(run_ok(k, kern, 12), "cancel: the launch after a late cancel is "
                             "correct");
}

static void check_race(gsync_kernel *k, cl_kernel kern) {
  int cancelled = 0, completed = 0, broken = 0;
  /* The cancels come from the start of a launch to past its end, the
   * shortest of three (the rounds sleep 24 spans in all: one launch that a
   * loaded machine held up made them take a minute). */
  double span = 1e9;
  for (int i = 0; i < 3; i++) {
    double t0 = now_s();
    broken += !run_ok(k, kern, 400);
    double t = now_s() - t0;
    span = t < span ? t : span;
  }
  for (int r = 0; r < race_rounds; r++) {
    finisher f;
    char err[ERRLEN];
    launch(k, kern, 400, &f);
    sleep_s(span * (r % 20) / 16.0);
    gsync_cancel(k, err, sizeof err);
    pthread_join(f.thread, NULL);
    if (f.st == GSYNC_OK && correct(400))
      completed++;
    else if (f.st == GSYNC_ERR_CANCELLED &&
             strstr(f.err, "cancelled by the host"))
      cancelled++;
    else
      broken++;
    if (!run_ok(k, kern, 6 + (cl_uint)(r % 3)))
      broken++;
  }
  check(broken == 0 && cancelled + completed == race_rounds,
        "race: %d cancels near completion: each cancelled or correct, and "
        "the next launch correct",
        race_rounds);
  printf("figure: race cancelled %d completed %d\n", cancelled, completed);
}

/* Misuse: NULLs, a handle not watched, deadlines out of range. */
static void check_misuse(const gsync_program *p, const char *source) {
  char err[ERRLEN];
  gsync_progress_info info = {sizeof info, 0, 0, 0};
  gsync_watch_support sup = {sizeof sup, 0, 0, 0, NULL, NULL};
  check(gsync_watch_enable(NULL, ctx, dev, queue, &sup, err, sizeof err) ==
                GSYNC_ERR_ARGUMENT &&
            strstr(err, "k"),
        "misuse: gsync_watch_enable(NULL) -> GSYNC_ERR_ARGUMENT");
  check(gsync_progress(NULL, &info, err, sizeof err) == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_progress(NULL) -> GSYNC_ERR_ARGUMENT");
  check(gsync_cancel(NULL, NULL, 0) == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_cancel(NULL) -> GSYNC_ERR_ARGUMENT");
  check(gsync_set_deadline(NULL, 1, err, sizeof err) == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_set_deadline(NULL) -> GSYNC_ERR_ARGUMENT");
  /* A program built without the watch compiled in. */
  cl_kernel plain = build(p, source, "");
  gsync_kernel *k;
  if (gsync_kernel_create(p, ctx, queue, plain, groups, &k, err, sizeof err))
    die("gsync_kernel_create", err);
  gsync_status st =
      gsync_watch_enable(k, ctx, dev, queue, &sup, err, sizeof err);
  check(st == GSYNC_ERR_MISMATCH &&
            strstr(err, "built without -Dgsync_watch") != NULL &&
            run_ok(k, plain, 3),
        "misuse: gsync_watch_enable on a build without "
        "GSYNC_WATCH_BUILD_OPTION -> %s, and the launch is correct",
        gsync_status_name(st));
  printf("message: %s\n", err);
  st = gsync_progress(k, &info, err, sizeof err);
  check(st == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_progress after that refusal -> %s",
        gsync_status_name(st));
  gsync_kernel_release(k);
  clReleaseKernel(plain);
  cl_kernel kern = build(p, source, GSYNC_WATCH_BUILD_OPTION);
  if (gsync_kernel_create(p, ctx, queue, kern, groups, &k, err, sizeof err))
    die("gsync_kernel_create", err);
  check(gsync_watch_enable(k, ctx, dev, NULL, &sup, err, sizeof err) ==
            GSYNC_ERR_ARGUMENT,
        "misuse: gsync_watch_enable(queue NULL) -> GSYNC_ERR_ARGUMENT");
  st = gsync_progress(k, &info, err, sizeof err);
  check(st == GSYNC_ERR_ARGUMENT && strstr(err, "gsync_watch_enable"),
        "misuse: gsync_progress before gsync_watch_enable -> %s",
        gsync_status_name(st));
  st = gsync_cancel(k, err, sizeof err);
  check(st == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_cancel before "
        "gsync_watch_enable -> %s",
        gsync_status_name(st));
  if (gsync_watch_enable(k, ctx, dev, queue, NULL, err, sizeof err))
    die("gsync_watch_enable", err);
  st = gsync_cancel(k, err, sizeof err);
  check(st == GSYNC_ERR_LAUNCH, "misuse: gsync_cancel before a launch -> %s",
        gsync_status_name(st));
  check(gsync_progress(k, NULL, err, sizeof err) == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_progress(info NULL) -> GSYNC_ERR_ARGUMENT");
  info.size = 4;
  check(gsync_progress(k, &info, err, sizeof err) == GSYNC_ERR_ARGUMENT,
        "misuse: gsync_progress(info->size too small) -> GSYNC_ERR_ARGUMENT");
  check(gsync_set_deadline(k, -1, err, sizeof err) == GSYNC_ERR_ARGUMENT &&
            gsync_set_deadline(k, 1e7, err, sizeof err) == GSYNC_ERR_ARGUMENT,
        "misuse: deadlines below 0 or past 4294967 s -> GSYNC_ERR_ARGUMENT");
  check(gsync_watch_enable(k, ctx, dev, queue, NULL, err, sizeof err) ==
                GSYNC_OK &&
            run_ok(k, kern, 3),
        "misuse: gsync_watch_enable twice, and the launch is correct");
  /* A caller built against a gsync_watch_support without 'probe'. */
  gsync_watch_support older = {offsetof(gsync_watch_support, probe),
                               0,
                               0,
                               0,
                               NULL,
                               (const char *)&older};
  check(gsync_watch_enable(k, ctx, dev, queue, &older, err, sizeof err) ==
                GSYNC_OK &&
            older.channel != NULL && older.probe == (const char *)&older,
        "misuse: an older, shorter gsync_watch_support is filled as far as "
        "it reaches");
  gsync_kernel_release(k);
  clReleaseKernel(kern);
}

static double deadline_run(gsync_kernel *k, cl_kernel kern, double seconds,
                           gsync_status *st, char *err) {
  finisher f;
  if (gsync_set_deadline(k, seconds, err, ERRLEN) != GSYNC_OK)
    die("gsync_set_deadline", err);
  double t0 = now_s();
  launch(k, kern, 0x7fffffffu, &f);
  pthread_join(f.thread, NULL);
  *st = f.st;
  strcpy(err, f.err);
  gsync_set_deadline(k, 0, err + ERRLEN / 2, ERRLEN / 2);
  return f.done - t0;
}

static void check_deadline(gsync_kernel *k, cl_kernel kern) {
  char err[ERRLEN];
  gsync_status st;
  double took = deadline_run(k, kern, 0.3, &st, err);
  check(st == GSYNC_ERR_CANCELLED, "deadline: gsync_finish -> %s",
        gsync_status_name(st));
  check(strstr(err, "stopped at its deadline of 300 ms after ") != NULL,
        "deadline: the message says so");
  check(took >= 0.3 && took < 1.3, "deadline: 300 ms stops the launch "
                                   "within a second of it");
  printf("figure: deadline 300 ms took %.1f ms\n", took * 1e3);
  check(run_ok(k, kern, 10), "deadline: cleared, the next launch is correct");
}

/* With GSYNC_WATCH_CHANNEL=none: progress and cancel say they do not
 * work, and the deadline and launches still do. */
static void check_no_channel(gsync_kernel *k, cl_kernel kern) {
  char err[ERRLEN];
  gsync_progress_info info = {sizeof info, 0, 0, 0};
  gsync_watch_support sup = {sizeof sup, 0, 0, 0, NULL, NULL};
  gsync_status st =
      gsync_watch_enable(k, ctx, dev, queue, &sup, err, sizeof err);
  check(st == GSYNC_OK && !sup.progress && !sup.cancel && sup.deadline &&
            !strcmp(sup.channel, "none"),
        "none: %s: progress %d cancel %d deadline %d through %s",
        gsync_status_name(st), sup.progress, sup.cancel, sup.deadline,
        sup.channel);
  st = gsync_progress(k, &info, err, sizeof err);
  check(st == GSYNC_ERR_DEVICE, "none: gsync_progress -> %s",
        gsync_status_name(st));
  printf("message: %s\n", err);
  check(run_ok(k, kern, 5), "none: a launch is correct");
  st = gsync_cancel(k, err, sizeof err);
  check(st == GSYNC_ERR_DEVICE, "none: gsync_cancel -> %s",
        gsync_status_name(st));
  check_deadline(k, kern);
}

/* For qsort: doubles in ascending order. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Microseconds per barrier of one launch of iters. */
static double per_barrier_us(gsync_kernel *k, cl_kernel kern, cl_uint iters) {
  char err[ERRLEN];
  arm(kern, iters);
  clFinish(queue);
  double t0 = now_s();
  if (gsync_enqueue(k, queue, groups, local_size, NULL, err, sizeof err) ||
      gsync_finish(k, queue, NULL, err, sizeof err))
    die("bench launch", err);
  return (now_s() - t0) * 1e6 / (2.0 * iters);
}

static void bench(const gsync_program *p, const char *source) {
  char err[ERRLEN];
  cl_kernel with = build(p, source, GSYNC_WATCH_BUILD_OPTION),
            without = build(p, source, "");
  gsync_kernel *kw, *kn;
  if (gsync_kernel_create(p, ctx, queue, with, groups, &kw, err, sizeof err) ||
      gsync_kernel_create(p, ctx, queue, without, groups, &kn, err, sizeof err))
    die("gsync_kernel_create", err);
  gsync_watch_support sup = {sizeof sup, 0, 0, 0, NULL, NULL};
  gsync_status st =
      gsync_watch_enable(kw, ctx, dev, queue, &sup, err, sizeof err);
  printf("figure: watch %s: progress %d cancel %d deadline %d channel %s%s%s\n",
         gsync_status_name(st), sup.progress, sup.cancel, sup.deadline,
         sup.channel ? sup.channel : "-", st ? ": " : "", st ? err : "");
  printf("figure: probe: %s\n", sup.probe ? sup.probe : "none ran");
  if (!sup.progress) {
    gsync_progress_info info = {sizeof info, 0, 0, 0};
    st = gsync_progress(kw, &info, err, sizeof err);
    printf("figure: gsync_progress -> %s: %s\n", gsync_status_name(st),
           st ? err : "");
  }
  /* 20000 iterations, fewer where a barrier is slow (a state in host
   * memory, on a GPU), so that each launch stays near a second. */
  per_barrier_us(kw, with, 100); /* the first launch compiles, on some */
  double slow = per_barrier_us(kw, with, 100);
  cl_uint iters = slow > 25.0 ? (cl_uint)(5e5 / slow) : 20000;
  if (iters < 100)
    iters = 100;
  per_barrier_us(kn, without, 100);
  printf("figure: iterations per launch %u\n", (unsigned)iters);
  enum { PAIRS = 9 };
  double ratio[PAIRS];
  /* Watched as libgsync set it up, then with a deadline that is never
   * reached (an hour), which adds a clock read per barrier. */
  for (int pass = 0; pass < 2; pass++) {
    const char *what = pass ? "with a deadline" : "with";
    if (pass && (!sup.deadline ||
                 gsync_set_deadline(kw, 3600.0, err, sizeof err) != GSYNC_OK))
      break;
    for (int r = 0; r < PAIRS; r++) {
      double a = per_barrier_us(kn, without, iters);
      double b = per_barrier_us(kw, with, iters);
      printf("figure: us/barrier without %.3f %s %.3f ratio %.3f\n", a, what, b,
             b / a);
      ratio[r] = b / a;
    }
    qsort(ratio, PAIRS, sizeof ratio[0], cmp_double);
    printf("figure: median ratio %s %.3f of %d pairs (%.3f-%.3f)\n", what,
           ratio[PAIRS / 2], PAIRS, ratio[0], ratio[PAIRS - 1]);
  }
  gsync_set_deadline(kw, 0, err, sizeof err);
  if (sup.deadline)
    for (int r = 0; r < 3; r++) {
      gsync_status dst;
      double took = deadline_run(kw, with, 0.5, &dst, err);
      printf("figure: deadline 500 ms -> %s after %.1f ms: %s\n",
             gsync_status_name(dst), took * 1e3, err);
    }
  if (sup.cancel) {
    check_cancel(kw, with);
  }
  gsync_kernel_release(kw);
  gsync_kernel_release(kn);
  clReleaseKernel(with);
  clReleaseKernel(without);
}

int main(int argc, char **argv) {
  int bench_mode = 0, unwatchable = 0, no_channel = 0;
  if (argc < 3)
    die("usage", "libgsync-watch OUT.cl OUT.json [--groups G] [--options "
                 "TEXT] [--race-rounds R] [--bench]");
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--bench"))
      bench_mode = 1;
    else if (!strcmp(argv[i], "--unwatchable"))
      unwatchable = 1;
    else if (!strcmp(argv[i], "--no-channel"))
      no_channel = 1;
    else if (!strcmp(argv[i], "--options") && i + 1 < argc)
      user_options = argv[++i];
    else if (!strcmp(argv[i], "--local") && i + 1 < argc)
      local_size = (size_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--groups") && i + 1 < argc)
      groups = (size_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--race-rounds") && i + 1 < argc)
      race_rounds = atoi(argv[++i]);
    else
      die("unknown option", argv[i]);
  }
  char err[ERRLEN];
  size_t len;
  char *source = slurp(argv[1], &len);
  gsync_program *p;
  if (gsync_program_load(argv[2], &p, err, sizeof err))
    die("gsync_program_load", err);
  if (gsync_pick_device(NULL, 0, NULL, &dev, err, sizeof err))
    die("gsync_pick_device", err);
  cl_int rc;
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  if (rc == CL_SUCCESS)
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
  if (rc == CL_SUCCESS)
    buf_a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &rc);
  if (rc == CL_SUCCESS)
    buf_b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &rc);
  if (rc != CL_SUCCESS)
    die("OpenCL setup", "");
  if (bench_mode) {
    bench(p, source);
  } else if (unwatchable) {
    cl_kernel kern = build(p, source, GSYNC_WATCH_BUILD_OPTION);
    gsync_kernel *k;
    if (gsync_kernel_create(p, ctx, queue, kern, groups, &k, err, sizeof err))
      die("gsync_kernel_create", err);
    gsync_status st =
        gsync_watch_enable(k, ctx, dev, queue, NULL, err, sizeof err);
    check(st == GSYNC_ERR_KERNEL, "unwatchable: %s: %s", gsync_status_name(st),
          err);
    gsync_kernel_release(k);
    clReleaseKernel(kern);
  } else if (no_channel) {
    cl_kernel kern = build(p, source, GSYNC_WATCH_BUILD_OPTION);
    gsync_kernel *k;
    if (gsync_kernel_create(p, ctx, queue, kern, groups, &k, err, sizeof err))
      die("gsync_kernel_create", err);
    check_no_channel(k, kern);
    gsync_kernel_release(k);
    clReleaseKernel(kern);
  } else {
    check_misuse(p, source);
    cl_kernel kern = build(p, source, GSYNC_WATCH_BUILD_OPTION);
    gsync_kernel *k;
    if (gsync_kernel_create(p, ctx, queue, kern, groups, &k, err, sizeof err))
      die("gsync_kernel_create", err);
    gsync_watch_support sup = {sizeof sup, 0, 0, 0, NULL, NULL};
    gsync_status st =
        gsync_watch_enable(k, ctx, dev, queue, &sup, err, sizeof err);
    if (sup.probe)
      printf("probe: %s\n", sup.probe);
    check(st == GSYNC_OK && sup.progress && sup.cancel && sup.deadline,
          "watch: %s: progress %d cancel %d deadline %d through %s",
          gsync_status_name(st), sup.progress, sup.cancel, sup.deadline,
          sup.channel);
    check(run_ok(k, kern, 5), "watch: a launch is correct");
    check_progress(k, kern);
    check_cancel(k, kern);
    check_race(k, kern);
    check_deadline(k, kern);
    gsync_kernel_release(k);
    clReleaseKernel(kern);
  }
  clReleaseMemObject(buf_a);
  clReleaseMemObject(buf_b);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  gsync_program_release(p);
  free(source);
  return failures ? 1 : 0;
}
