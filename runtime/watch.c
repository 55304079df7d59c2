/* Watching a launch (docs/watch.md): gsync_watch_enable chooses how the
 * host reaches a running kernel's state, fine-grained SVM or else a
 * host-visible buffer that a probe found to work, and gsync_progress,
 * gsync_cancel and gsync_set_deadline use it. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Watching a launch (docs/watch.md) ----
 *
 * The kernel's participant 0 counts barriers in state word watch_barriers
 * and looks for a cancel (word watch_cancel equal to the launch's tag,
 * word watch_tag) and a deadline (word watch_deadline_ms) after each
 * barrier (rewrite-rules/prelude.cl; the words are the state table's).
 * Before each launch libgsync writes every other watch word through the
 * queue, ordered like the state's zeroing; watch_cancel is written by
 * gsync_cancel alone (the zeroing leaves it), so that a cancel of a launch
 * still queued behind another is kept until it runs, and a late one, naming a
 * launch that has ended, stops no other. */

/* The macro GSYNC_WATCH_BUILD_OPTION defines: the watch compiled into the
 * barriers (rewrite-rules/prelude.cl). */
#define WATCH_MACRO "gsync_watch"

/* Whether dev's kernels read a clock a deadline can use: NVIDIA's
 * %globaltimer or an x86 CPU device's time-stamp counter (prelude.cl). */
static int watch_device_clock(cl_device_id dev) {
  cl_device_type type = 0;
  if (gsli_nv_compute_capability(dev) != 0)
    return 1;
  return clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
             CL_SUCCESS &&
         (type & CL_DEVICE_TYPE_CPU) && gsli_tsc_hz() != 0;
}

/* Whether dev offers fine-grained buffer SVM with atomics: memory that
 * the host and a running kernel both read and write, and that the
 * device's atomics keep coherent with the host's. */
static int watch_device_svm(cl_device_id dev) {
  cl_device_svm_capabilities caps = 0;
  const cl_device_svm_capabilities need =
      CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
  return clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps,
                         NULL) == CL_SUCCESS &&
         (caps & need) == need;
}

/* Moves k's state into fine-grained SVM: a buffer made over it
 * (CL_MEM_USE_HOST_PTR), so that every other use of the state is as
 * before. No launch of k is in flight. */
static gsync_status watch_share_state(gsync_kernel *k, cl_context ctx,
                                      char *err, size_t errlen) {
  cl_int rc = CL_SUCCESS;
  cl_uint *svm = clSVMAlloc(ctx,
                            CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                                CL_MEM_SVM_ATOMICS,
                            k->state_bytes, 0);
  if (svm == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_NOMEM,
                     "kernel %s: clSVMAlloc of %zu bytes (state) failed",
                     k->info.name, k->state_bytes);
  memset(svm, 0, k->state_bytes);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                              k->state_bytes, svm, &rc);
  if (rc != CL_SUCCESS) {
    clSVMFree(ctx, svm);
    return gsli_cl_fail(err, errlen, "clCreateBuffer (state over SVM)", rc);
  }
  if ((rc = clRetainContext(ctx)) != CL_SUCCESS) {
    clReleaseMemObject(buf);
    clSVMFree(ctx, svm);
    return gsli_cl_fail(err, errlen, "clRetainContext", rc);
  }
  clReleaseMemObject(k->state);
  k->state = buf;
  k->watch.ctx = ctx;
  /* Cleared above, before gsync_progress can see it. */
  atomic_store_explicit(&k->watch.shared, svm, memory_order_release);
  return GSYNC_OK;
}

/* ---- A host-visible buffer, and the probe that decides on it ----
 *
 * Where a device has no fine-grained SVM, a buffer allocated in host
 * memory (CL_MEM_ALLOC_HOST_PTR) and kept mapped while kernels run, as
 * the pinned-memory idiom does, is memory the host and a running kernel
 * share on some devices, and on others a copy that the driver brings up to
 * date only when the kernel ends or the buffer is mapped again. Nothing a
 * device reports tells which, so libgsync measures it, once per context
 * and device: a one-work-item kernel stores a word into such a buffer and
 * then polls, for at most PROBE_KERNEL_MS by the device's clock (or
 * PROBE_POLLS polls where its kernels read none), for a word the host
 * writes once it has seen the kernel's (for at most PROBE_HOST_MS). The
 * kernel stores and polls with volatile accesses, as gsync_watch_tick does
 * (rewrite-rules/prelude.cl): the probe measures what the generated code
 * does. Only when both words crossed while the kernel ran does the state
 * of watched kernels live in such a buffer. */
#define PROBE_HOST_MS 300
#define PROBE_KERNEL_MS 400
#define PROBE_POLLS (1u << 20)
#define PROBE_WORDS 16

static const char probe_source[] =
    "#if defined(__NV_CL_C_VERSION) || defined(cl_nv_pragma_unroll)\n"
    "ulong probe_clock(void) {\n"
    "  ulong t;\n"
    "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
    "  return t;\n"
    "}\n"
    "#define probe_per_us 1000ul\n"
    "#elif defined(probe_tsc_per_us)\n"
    "ulong probe_clock(void) { return __builtin_readcyclecounter(); }\n"
    "#define probe_per_us ((ulong)(probe_tsc_per_us))\n"
    "#else\n"
    "ulong probe_clock(void) { return 0ul; }\n"
    "#define probe_per_us 1ul\n"
    "#endif\n"
    "kernel void gsync_probe(volatile global uint *w, global uint *out,\n"
    "                        uint limit_us, uint max_polls) {\n"
    "  w[0] = 1u;\n"
    "  ulong t0 = probe_clock(), t = t0;\n"
    "  uint polls = 0u, seen = 0u;\n"
    "  while (seen == 0u && polls < max_polls &&\n"
    "         t - t0 < (ulong)limit_us * probe_per_us) {\n"
    "    seen = w[1];\n"
    "    polls++;\n"
    "    t = probe_clock();\n"
    "  }\n"
    "  out[0] = seen;\n"
    "  out[1] = polls;\n"
    "  out[2] = (uint)((t - t0) / probe_per_us);\n"
    "}\n";

/* One context and device's measurement. A context made later at the
 * address of a released one inherits its entry: for the same device, the
 * same kind of memory. */
typedef struct probe_result {
  cl_context ctx;
  cl_device_id dev;
  int works;
  char text[240];
} probe_result;
#define MAX_PROBES 16
static probe_result probes[MAX_PROBES];
static size_t n_probes, next_probe;
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static double monotonic_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Runs the probe kernel (made, built and launched twice, the first time to
 * get past whatever a device compiles at a kernel's first launch) on dev
 * through queue and describes in r what crossed. Returns GSYNC_OK, with
 * r->works the outcome, or why the probe could not run. */
static gsync_status probe_run(cl_context ctx, cl_device_id dev,
                              cl_command_queue queue, probe_result *r,
                              char *err, size_t errlen) {
  gsync_status st = GSYNC_OK;
  cl_int rc = CL_SUCCESS;
  const char *what = "";
  cl_program prog = NULL;
  cl_kernel kern = NULL;
  cl_mem buf = NULL, out = NULL;
  cl_uint *w = NULL, got[3] = {0, 0, 0};
  char options[64] = "";
  cl_device_type type = 0;
  unsigned long long hz = 0;
  int has_clock = gsli_nv_compute_capability(dev) != 0;
  if (!has_clock &&
      clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) ==
          CL_SUCCESS &&
      (type & CL_DEVICE_TYPE_CPU) && (hz = gsli_tsc_hz()) >= 1000000u) {
    snprintf(options, sizeof options, "-Dprobe_tsc_per_us=%lluul",
             hz / 1000000u);
    has_clock = 1;
  }
  const char *src = probe_source;
  double seen_ms = -1.0;
  prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateProgramWithSource (probe)";
    goto out;
  }
  if ((rc = clBuildProgram(prog, 1, &dev, options, NULL, NULL)) != CL_SUCCESS) {
    what = "clBuildProgram (probe)";
    goto out;
  }
  kern = clCreateKernel(prog, "gsync_probe", &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateKernel (probe)";
    goto out;
  }
  buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                       PROBE_WORDS * 4, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateBuffer (probe)";
    goto out;
  }
  out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof got, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clCreateBuffer (probe)";
    goto out;
  }
  w = clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                         PROBE_WORDS * 4, 0, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) {
    what = "clEnqueueMapBuffer (probe)";
    goto out;
  }
  for (int pass = 0; pass < 2; pass++) {
    cl_uint limit_us = pass ? PROBE_KERNEL_MS * 1000u : 0;
    cl_uint polls = !pass ? 0 : has_clock ? PROBE_POLLS * 16 : PROBE_POLLS;
    size_t one = 1;
    for (int i = 0; i < PROBE_WORDS; i++)
      __atomic_store_n(&w[i], 0, __ATOMIC_SEQ_CST);
    if (((rc = clSetKernelArg(kern, 0, sizeof buf, &buf)) != CL_SUCCESS ||
         (rc = clSetKernelArg(kern, 1, sizeof out, &out)) != CL_SUCCESS ||
         (rc = clSetKernelArg(kern, 2, sizeof limit_us, &limit_us)) !=
             CL_SUCCESS ||
         (rc = clSetKernelArg(kern, 3, sizeof polls, &polls)) != CL_SUCCESS)) {
      what = "clSetKernelArg (probe)";
      goto out;
    }
    rc =
        clEnqueueNDRangeKernel(queue, kern, 1, NULL, &one, &one, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
      what = "clEnqueueNDRangeKernel (probe)";
      goto out;
    }
    if ((rc = clFlush(queue)) != CL_SUCCESS) {
      what = "clFlush (probe)";
      goto out;
    }
    if (pass) {
      double t0 = monotonic_ms(), t = t0;
      struct timespec pause = {0, 20000};
      while (t - t0 < PROBE_HOST_MS) {
        if (__atomic_load_n(&w[0], __ATOMIC_ACQUIRE) != 0) {
          seen_ms = t - t0;
          break;
        }
        nanosleep(&pause, NULL);
        t = monotonic_ms();
      }
      /* Written whether or not the kernel's word came: a kernel that
       * started late may still see it, and then ends sooner. */
      __atomic_store_n(&w[1], 1, __ATOMIC_SEQ_CST);
    }
    if ((rc = clFinish(queue)) != CL_SUCCESS) {
      what = "clFinish (probe)";
      goto out;
    }
  }
  rc = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL,
                           NULL);
  if (rc != CL_SUCCESS) {
    what = "clEnqueueReadBuffer (probe)";
    goto out;
  }
  char kernel_side[120];
  if (got[0] != 0 && has_clock)
    snprintf(kernel_side, sizeof kernel_side,
             "the kernel saw the host's %u us after its own", (unsigned)got[2]);
  else if (got[0] != 0)
    snprintf(kernel_side, sizeof kernel_side,
             "the kernel saw the host's after %u polls", (unsigned)got[1]);
  else
    snprintf(kernel_side, sizeof kernel_side,
             "the kernel did not see the host's in %u us (%u polls)",
             (unsigned)got[2], (unsigned)got[1]);
  if (seen_ms >= 0)
    snprintf(r->text, sizeof r->text,
             "host-visible buffer: the host saw the kernel's write "
             "%.3f ms after clFlush; %s",
             seen_ms, kernel_side);
  else
    snprintf(r->text, sizeof r->text,
             "host-visible buffer: the host did not see the kernel's "
             "write in %d ms; %s",
             PROBE_HOST_MS, kernel_side);
  r->works = seen_ms >= 0 && got[0] != 0;
out:
  if (w != NULL) {
    cl_int urc = clEnqueueUnmapMemObject(queue, buf, w, 0, NULL, NULL);
    if (urc == CL_SUCCESS)
      urc = clFinish(queue);
    if (urc != CL_SUCCESS && rc == CL_SUCCESS) {
      rc = urc;
      what = "clEnqueueUnmapMemObject (probe)";
    }
  }
  if (out != NULL)
    clReleaseMemObject(out);
  if (buf != NULL)
    clReleaseMemObject(buf);
  if (kern != NULL)
    clReleaseKernel(kern);
  if (prog != NULL)
    clReleaseProgram(prog);
  if (rc != CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, what, rc);
  return st;
}

/* Whether a host-visible buffer on dev in ctx carries words both ways
 * while a kernel runs: measured the first time, then remembered. Copies
 * what was measured into text (of textlen bytes). A probe that could not
 * run counts as no, with its reason, and is tried again next time. */
static int probe_mapped(cl_context ctx, cl_device_id dev,
                        cl_command_queue queue, char *text, size_t textlen) {
  probe_result r = {ctx, dev, 0, ""};
  pthread_mutex_lock(&probe_lock);
  size_t i = 0;
  while (i < n_probes && (probes[i].ctx != ctx || probes[i].dev != dev))
    i++;
  char why[200] = "";
  if (i < n_probes) {
    r = probes[i];
  } else if (probe_run(ctx, dev, queue, &r, why, sizeof why) != GSYNC_OK) {
    snprintf(r.text, sizeof r.text,
             "host-visible buffer: the probe could not run: %s", why);
  } else {
    /* Full, the table forgets its oldest entries first. */
    probes[next_probe] = r;
    next_probe = (next_probe + 1) % MAX_PROBES;
    if (n_probes < MAX_PROBES)
      n_probes++;
  }
  pthread_mutex_unlock(&probe_lock);
  snprintf(text, textlen, "%s", r.text);
  return r.works;
}

/* Moves k's state into a host-visible buffer, mapped through queue for as
 * long as k is watched. No launch of k is in flight. The host reads and
 * writes the watch's words through the mapping; libgsync's other uses of
 * the state (zeroing, the words of each launch, gsync_finish's read) stay
 * commands on the buffer, ordered with the launches. */
static gsync_status watch_share_mapped(gsync_kernel *k, cl_context ctx,
                                       cl_command_queue queue, char *err,
                                       size_t errlen) {
  cl_int rc = CL_SUCCESS;
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                              k->state_bytes, NULL, &rc);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clCreateBuffer (state, host-visible)",
                        rc);
  cl_uint *p =
      clEnqueueMapBuffer(queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                         k->state_bytes, 0, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) {
    clReleaseMemObject(buf);
    return gsli_cl_fail(err, errlen, "clEnqueueMapBuffer (state)", rc);
  }
  if ((rc = clRetainCommandQueue(queue)) != CL_SUCCESS) {
    clEnqueueUnmapMemObject(queue, buf, p, 0, NULL, NULL);
    clFinish(queue);
    clReleaseMemObject(buf);
    return gsli_cl_fail(err, errlen, "clRetainCommandQueue", rc);
  }
  /* Word watch_cancel through the mapping, as gsync_cancel writes it
   * (gsli_zero_state leaves it to the host once the state is shared), the rest
   * as every later launch's zeroing too, which ends before gsync_progress can
   * see the memory. */
  memset(p, 0, k->state_bytes);
  clReleaseMemObject(k->state);
  k->state = buf;
  k->watch.mapped = queue;
  gsync_status st = gsli_zero_state(k, queue, err, errlen);
  if (st == GSYNC_OK && (rc = gsli_wait_latest(k)) != CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, "waiting for the state's zeroing", rc);
  atomic_store_explicit(&k->watch.shared, p, memory_order_release);
  return st;
}

/* GSYNC_WATCH_CHANNEL: "svm", "mapped" or "none" forces that channel (or
 * none where it does not work), so that each can be tested on one device;
 * unset or empty, libgsync chooses. Returns 0 for any other value. */
enum { CHANNEL_AUTO, CHANNEL_SVM, CHANNEL_MAPPED, CHANNEL_NONE };
static int watch_channel_wanted(int *choice) {
  const char *e = getenv("GSYNC_WATCH_CHANNEL");
  *choice = e == NULL || *e == '\0'    ? CHANNEL_AUTO
            : strcmp(e, "svm") == 0    ? CHANNEL_SVM
            : strcmp(e, "mapped") == 0 ? CHANNEL_MAPPED
            : strcmp(e, "none") == 0   ? CHANNEL_NONE
                                       : -1;
  return *choice >= 0;
}

/* Chooses k's channel on dev, when it has none yet; k->lock is held and
 * no launch of k is in flight. Sets k->watch.probe to what was measured,
 * and k->watch.why to the reason when no channel results. Returns GSYNC_OK
 * or an allocation's failure. */
static gsync_status watch_choose(gsync_kernel *k, cl_context ctx,
                                 cl_device_id dev, cl_command_queue queue,
                                 char *err, size_t errlen) {
  int choice;
  k->watch.probe[0] = '\0';
  if (!watch_channel_wanted(&choice))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "gsync_watch_enable: GSYNC_WATCH_CHANNEL=%s is not svm, "
                     "mapped or none",
                     getenv("GSYNC_WATCH_CHANNEL"));
  int svm = watch_device_svm(dev);
  if (choice == CHANNEL_NONE) {
    k->watch.why = "GSYNC_WATCH_CHANNEL=none";
    return GSYNC_OK;
  }
  if (svm && choice != CHANNEL_MAPPED)
    return watch_share_state(k, ctx, err, errlen);
  k->watch.why = "no fine-grained SVM with atomics";
  if (choice == CHANNEL_SVM)
    return GSYNC_OK;
  if (!probe_mapped(ctx, dev, queue, k->watch.probe, sizeof k->watch.probe))
    return GSYNC_OK;
  return watch_share_mapped(k, ctx, queue, err, errlen);
}

gsync_status gsync_watch_enable(gsync_kernel *k, cl_context ctx,
                                cl_device_id dev, cl_command_queue queue,
                                gsync_watch_support *support, char *err,
                                size_t errlen) {
  static const char fn[] = "gsync_watch_enable";
  if (k == NULL || ctx == NULL || dev == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, fn,
                              k == NULL     ? "k"
                              : ctx == NULL ? "ctx"
                              : dev == NULL ? "dev"
                                            : "queue");
  gsync_status st = GSYNC_OK;
  gsync_watch_support got = {sizeof got, 0, 0, 0, "none", NULL};
  pthread_mutex_lock(&k->lock);
  if (k->state == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_KERNEL,
                   "kernel %s reaches no global_barrier(): nothing to watch",
                   k->info.name);
    goto out;
  }
  if (ctx != k->ctx) {
    st = gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                   "%s: ctx is another context than kernel %s's (the one "
                   "gsync_kernel_create was given)",
                   fn, k->info.name);
    goto out;
  }
  if ((st = gsli_check_queue(k, queue, fn, err, errlen)) != GSYNC_OK)
    goto out;
  /* The watch words are the prelude's only where its abort record is
   * where the state table has it; without a spin limit no work-group
   * could leave a wait. */
  if (!k->info.has_abort_record || k->info.abort_offset != GSL_WORD_abort * 4 ||
      k->abort.spin_limit_ms == 0 || k->state_bytes < WATCH_END * 4) {
    st = gsli_fail(
        err, errlen, GSYNC_ERR_KERNEL,
        "kernel %s cannot be watched: it was rewritten without a spin "
        "limit (--spin-limit=0) or by an older gsync-rewrite",
        k->info.name);
    goto out;
  }
  int built = 0;
  if ((st = gsli_built_with(k, dev, WATCH_MACRO, &built, err, errlen)) !=
      GSYNC_OK)
    goto out;
  if (!built) {
    st = gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                   "kernel %s cannot be watched: its program was built without "
                   "%s (GSYNC_WATCH_BUILD_OPTION), which compiles the watch in",
                   k->info.name, GSYNC_WATCH_BUILD_OPTION);
    goto out;
  }
  cl_int rc;
  if ((rc = gsli_wait_latest(k)) != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "waiting for the last launch", rc);
    goto out;
  }
  /* Chosen once: why and probe stay as a reader may be reading them. */
  if (!atomic_load(&k->watch.prepare) &&
      (st = watch_choose(k, ctx, dev, queue, err, errlen)) != GSYNC_OK)
    goto out;
  k->watch.has_clock = watch_device_clock(dev);
  got.progress = got.cancel = k->watch.shared != NULL;
  got.deadline = k->watch.has_clock;
  got.channel = k->watch.mapped != NULL   ? "host-visible buffer"
                : k->watch.shared != NULL ? "fine-grained SVM"
                                          : "none";
  got.probe = k->watch.probe[0] != '\0' ? k->watch.probe : NULL;
  if (!got.progress && !got.deadline) {
    char *name = NULL;
    gsli_device_string(dev, CL_DEVICE_NAME, &name);
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "device \"%s\" offers no way to watch kernel %s: no channel "
                   "to a running kernel (%s%s%s) and no clock its kernels read "
                   "(deadline)",
                   name != NULL ? name : "?", k->info.name,
                   k->watch.why != NULL ? k->watch.why : "?",
                   got.probe != NULL ? "; " : "",
                   got.probe != NULL ? got.probe : "");
    free(name);
    goto out;
  }
  atomic_store_explicit(&k->watch.prepare, 1, memory_order_release);
out:
  pthread_mutex_unlock(&k->lock);
  if (support != NULL && support->size > sizeof support->size) {
    /* As far as the caller's struct reaches: older ones end sooner. */
    size_t n = support->size < sizeof got ? support->size : sizeof got;
    got.size = support->size;
    memcpy(support, &got, n);
  }
  return st;
}

/* Enqueues, after k's latest command, the words a launch starts from:
 * no barriers yet (18), the deadline (19), no start time (20-21), the
 * launch's tag (23), which gsync_cancel then names, and what the host
 * watches (24: progress and cancel where it shares the state; without a
 * channel the kernel does neither, since no one could see it). Fills,
 * because a fill copies its pattern at once and a write would need the
 * source kept. */
gsync_status gsli_watch_prepare(gsync_kernel *k, cl_command_queue queue,
                                char *err, size_t errlen) {
  cl_uint tag = atomic_load(&k->watch.tag) + 1;
  tag = tag != 0 ? tag : 1;
  cl_uint mode =
      k->watch.shared != NULL ? WATCH_PROGRESS | WATCH_CANCEL_BIT : 0;
  const struct {
    size_t word;
    cl_uint pattern[2];
  } fills[] = {{WATCH_BARRIERS, {0, k->watch.deadline_ms}},
               {WATCH_START_LO, {0, 0}},
               {WATCH_TAG, {tag, 0}},
               {WATCH_MODE, {mode, 0}}};
  /* Two words to a fill where they are a pair that starts on 8 bytes (a
   * fill's offset is a multiple of its pattern's size), one otherwise:
   * the table must keep them so. */
  _Static_assert(WATCH_DEADLINE_MS == WATCH_BARRIERS + 1 &&
                     WATCH_BARRIERS % 2 == 0,
                 "watch_barriers and watch_deadline_ms make one fill");
  _Static_assert(WATCH_START_HI == WATCH_START_LO + 1 &&
                     WATCH_START_LO % 2 == 0,
                 "watch_start_lo and watch_start_hi make one fill");
  _Static_assert(WATCH_MODE == WATCH_TAG + 1 && WATCH_TAG % 2 == 1,
                 "watch_tag and watch_mode are filled one by one");
  for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
    size_t bytes = fills[f].word >= WATCH_TAG ? 4 : 8;
    gsync_status st = gsli_fill_state(
        k, queue, fills[f].pattern, bytes, fills[f].word * 4, bytes,
        "clEnqueueFillBuffer (watch words)", err, errlen);
    if (st != GSYNC_OK)
      return st;
  }
  atomic_store(&k->watch.tag, tag);
  return GSYNC_OK;
}

/* The message of a launch that the host stopped, from the state's words. */
gsync_status gsli_watch_stopped(const gsync_kernel *k, const cl_uint *words,
                                char *err, size_t errlen) {
  if (words[GSL_WORD_abort_kind] == ABORTED_AT_DEADLINE)
    return gsli_fail(err, errlen, GSYNC_ERR_CANCELLED,
                     "kernel %s: stopped at its deadline of %u ms after %u "
                     "barriers",
                     k->info.name, (unsigned)words[WATCH_DEADLINE_MS],
                     (unsigned)words[WATCH_BARRIERS]);
  return gsli_fail(err, errlen, GSYNC_ERR_CANCELLED,
                   "kernel %s: cancelled by the host after %u barriers",
                   k->info.name, (unsigned)words[WATCH_BARRIERS]);
}

/* Why progress and cancel do not work on k: not watched, or no channel. Reads
 * only what gsync_watch_enable set before any launch. */
static gsync_status watch_unshared(gsync_kernel *k, const char *fn, char *err,
                                   size_t errlen) {
  if (!atomic_load_explicit(&k->watch.prepare, memory_order_acquire))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: kernel %s is not watched (call gsync_watch_enable)",
                     fn, k->info.name);
  return gsli_fail(
      err, errlen, GSYNC_ERR_DEVICE,
      "%s: kernel %s: no channel to a running kernel on its device "
      "(%s%s%s)",
      fn, k->info.name, k->watch.why != NULL ? k->watch.why : "?",
      k->watch.probe[0] != '\0' ? "; " : "", k->watch.probe);
}

gsync_status gsync_progress(gsync_kernel *k, gsync_progress_info *info,
                            char *err, size_t errlen) {
  static const char fn[] = "gsync_progress";
  if (k == NULL || info == NULL)
    return gsli_null_argument(err, errlen, fn, k == NULL ? "k" : "info");
  const cl_uint *w =
      atomic_load_explicit(&k->watch.shared, memory_order_acquire);
  if (w == NULL)
    return watch_unshared(k, fn, err, errlen);
  gsync_progress_info got = {sizeof got, 0, 0, 0};
  got.launches = atomic_load(&k->watch.tag);
  /* Until the latest launch's words are written (its tag with them), the
   * words are an earlier launch's: the latest has done nothing yet. */
  if (__atomic_load_n(&w[WATCH_TAG], __ATOMIC_ACQUIRE) == got.launches)
    got.barriers = __atomic_load_n(&w[WATCH_BARRIERS], __ATOMIC_ACQUIRE);
  /* Participant 0 wrote the grid before the launch's first barrier. */
  if (got.barriers != 0 && k->info.has_grid) {
    const cl_uint *g = w + k->info.grid_offset / 4;
    got.participants = __atomic_load_n(&g[0], __ATOMIC_RELAXED) *
                       __atomic_load_n(&g[1], __ATOMIC_RELAXED) *
                       __atomic_load_n(&g[2], __ATOMIC_RELAXED);
  }
  if (info->size < sizeof got)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: info->size %zu is too small", fn, info->size);
  got.size = info->size;
  *info = got;
  return GSYNC_OK;
}

gsync_status gsync_cancel(gsync_kernel *k, char *err, size_t errlen) {
  static const char fn[] = "gsync_cancel";
  if (k == NULL)
    return gsli_null_argument(err, errlen, fn, "k");
  cl_uint *w = atomic_load_explicit(&k->watch.shared, memory_order_acquire);
  if (w == NULL)
    return watch_unshared(k, fn, err, errlen);
  cl_uint tag = atomic_load(&k->watch.tag);
  if (tag == 0)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "%s: kernel %s: nothing launched", fn, k->info.name);
  __atomic_store_n(&w[WATCH_CANCEL], tag, __ATOMIC_SEQ_CST);
  return GSYNC_OK;
}

gsync_status gsync_set_deadline(gsync_kernel *k, double seconds, char *err,
                                size_t errlen) {
  static const char fn[] = "gsync_set_deadline";
  if (k == NULL)
    return gsli_null_argument(err, errlen, fn, "k");
  if (!(seconds >= 0.0 && seconds <= 4294967.0))
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: a deadline of %g s is not between 0 and 4294967 s",
                     fn, seconds);
  pthread_mutex_lock(&k->lock);
  gsync_status st = GSYNC_OK;
  if (!k->watch.prepare)
    st = watch_unshared(k, fn, err, errlen);
  else if (!k->watch.has_clock)
    st = gsli_fail(err, errlen, GSYNC_ERR_DEVICE,
                   "%s: kernel %s: the device's kernels read no clock", fn,
                   k->info.name);
  else {
    /* At least 1 ms: 0 means none. */
    double ms = seconds * 1000.0 + 0.5;
    k->watch.deadline_ms = seconds > 0.0 && ms < 1.0 ? 1u : (cl_uint)ms;
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}

/* Unmaps k's state from the host, after k's latest command, where it is
 * a host-visible buffer; before the buffer is released. */
void gsli_watch_unmap(gsync_kernel *k) {
  if (k->watch.mapped == NULL)
    return;
  cl_uint n;
  const cl_event *after;
  if (gsli_after_latest(k, k->watch.mapped, &n, &after, NULL, 0) == GSYNC_OK &&
      clEnqueueUnmapMemObject(k->watch.mapped, k->state, k->watch.shared, n,
                              after, NULL) == CL_SUCCESS)
    clFinish(k->watch.mapped);
  clReleaseCommandQueue(k->watch.mapped);
  k->watch.mapped = NULL;
  k->watch.shared = NULL;
}

/* Frees the SVM that held k's state, after its buffer was released and
 * after k's latest command: a launch still running writes its words there
 * (progress, the grid, discovery's) until it ends, and a block freed at
 * once could be another allocation's by then. The free is a command
 * after that one on its queue, so that the caller does not wait; where it
 * cannot be enqueued, the host waits for the latest command first. */
void gsli_watch_release(gsync_kernel *k) {
  if (k->watch.ctx == NULL)
    return;
  void *svm = k->watch.shared;
  cl_uint n;
  const cl_event *after;
  if (k->last_q == NULL ||
      gsli_after_latest(k, k->last_q, &n, &after, NULL, 0) != GSYNC_OK ||
      clEnqueueSVMFree(k->last_q, 1, &svm, NULL, NULL, n, after, NULL) !=
          CL_SUCCESS ||
      clFlush(k->last_q) != CL_SUCCESS) {
    gsli_wait_latest(k);
    clSVMFree(k->watch.ctx, svm);
  }
  k->watch.shared = NULL;
  clReleaseContext(k->watch.ctx);
  k->watch.ctx = NULL;
}
