/* libgsync-misuse: walks every public libgsync function through the ways
 * a host program can misuse it, on the first OpenCL device, and prints
 * one line per case:
 *   ok: FUNCTION: CASE -> STATUS
 *   FAIL: FUNCTION: CASE: got STATUS, want STATUS (message)
 * A case passes when the call returns the status it must, with a message
 * when it fails, and nothing crashes, hangs or reads past a buffer (the
 * suite runs under AddressSanitizer too).
 *
 * usage: libgsync-misuse [--threads] DIR   (GSYNC_PLATFORM=TEXT: the
 *                              first platform whose name holds TEXT)
 * DIR holds the files the lit test made: out.cl and out.json (the stencil
 * run-test kernel rewritten with the default barrier), nd.cl and nd.json
 * (the same with --no-discovery), nd-old.json (nd.json without "params":
 * constraints edited after the rewrite), image.cl and image.json
 * (Inputs/image.cl rewritten with --no-discovery: an image for parameter
 * 2), reqd.cl and reqd.json (Inputs/reqd.cl rewritten: a kernel
 * with reqd_work_group_size), reqd-nd.cl and reqd-nd.json (the same with
 * --no-discovery) and fifo, a FIFO; scratch files are made there too. With
 * --threads, only the case of two threads on one handle and a third on
 * another of its cl_kernel, which needs out.cl and out.json alone
 * (test/run/tsan.test runs it under ThreadSanitizer). Exit status 0 when
 * every case passed.
 */
#define _POSIX_C_SOURCE 200809L
#include "libgsync.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define ERRLEN 512

static int failures;
static const char *dir;
static cl_device_id dev;
static cl_context ctx;
static cl_command_queue queue, queue2;

/* Checks one case: got must be want, and a failure must come with a
 * message in err (when err is not NULL). Prints the case's line. */
static void expect(const char *what, gsync_status got, gsync_status want,
                   const char *err) {
  int message_ok = got == GSYNC_OK || err == NULL || err[0] != '\0';
  if (got == want && message_ok) {
    printf("ok: %s -> %s\n", what, gsync_status_name(got));
    return;
  }
  printf("FAIL: %s: got %s, want %s (%s)\n", what, gsync_status_name(got),
         gsync_status_name(want), err ? err : "no message buffer");
  failures++;
}

/* Checks a condition that is not a status. */
static void check(const char *what, int ok) {
  printf("%s: %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

/* The path DIR/name, in a static buffer (one at a time). */
static const char *in_dir(const char *name) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return path;
}

/* Reads DIR/name into a malloc'd string, or exits. */
static char *slurp(const char *name) {
  char *s, err[ERRLEN];
  if (gsync_read_file(in_dir(name), &s, NULL, err, sizeof err)) {
    fprintf(stderr, "libgsync-misuse: %s\n", err);
    exit(2);
  }
  return s;
}

/* Writes len bytes of text to DIR/name. */
static void spill(const char *name, const char *text, size_t len) {
  FILE *f = fopen(in_dir(name), "wb");
  if (!f || fwrite(text, 1, len, f) != len)
    exit(2);
  fclose(f);
}

/* Builds the program of source on the device with options; exits on a
 * failure, which is not what this test is about. */
static cl_program build(const char *source, const char *options) {
  cl_int rc;
  cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &rc);
  if (rc != CL_SUCCESS ||
      clBuildProgram(p, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "libgsync-misuse: cannot build a program\n");
    exit(2);
  }
  return p;
}

/* A stencil kernel of p with its own arguments set: a and b of n words,
 * 2 iterations. */
static cl_kernel stencil(cl_program p, cl_mem buf) {
  cl_int rc;
  cl_kernel k = clCreateKernel(p, "stencil", &rc);
  cl_uint n = 64, iters = 2;
  if (rc != CL_SUCCESS || clSetKernelArg(k, 0, sizeof buf, &buf) ||
      clSetKernelArg(k, 1, sizeof buf, &buf) ||
      clSetKernelArg(k, 2, sizeof n, &n) ||
      clSetKernelArg(k, 3, sizeof iters, &iters)) {
    fprintf(stderr, "libgsync-misuse: cannot make the kernel\n");
    exit(2);
  }
  return k;
}

/* gsync_program_load: NULLs, message buffers of every size, files that
 * are not constraints or not regular. */
static void program_load(void) {
  char err[ERRLEN];
  gsync_program *p = (gsync_program *)&p;
  expect("gsync_program_load: path NULL",
         gsync_program_load(NULL, &p, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  check("gsync_program_load: path NULL leaves *out NULL", p == NULL);
  expect("gsync_program_load: out NULL",
         gsync_program_load(in_dir("out.json"), NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_load: err NULL",
         gsync_program_load(in_dir("missing.json"), &p, NULL, 100),
         GSYNC_ERR_IO, NULL);
  snprintf(err, sizeof err, "unchanged");
  gsync_program_load(in_dir("missing.json"), &p, err, 0);
  check("gsync_program_load: errlen 0 writes nothing",
        strcmp(err, "unchanged") == 0);
  gsync_program_load(in_dir("missing.json"), &p, err, 1);
  check("gsync_program_load: errlen 1 gets an empty message", err[0] == 0);
  expect("gsync_program_load: a directory",
         gsync_program_load(dir, &p, err, sizeof err), GSYNC_ERR_IO, err);
  check("gsync_program_load: a directory is named as one",
        strstr(err, "a directory, not a regular file") != NULL);
  expect("gsync_program_load: /dev/zero",
         gsync_program_load("/dev/zero", &p, err, sizeof err), GSYNC_ERR_IO,
         err);
  expect("gsync_program_load: a FIFO (no writer)",
         gsync_program_load(in_dir("fifo"), &p, err, sizeof err), GSYNC_ERR_IO,
         err);
  spill("empty.json", "", 0);
  expect("gsync_program_load: an empty file",
         gsync_program_load(in_dir("empty.json"), &p, err, sizeof err),
         GSYNC_ERR_FORMAT, err);
  char *good = slurp("out.json");
  size_t gl = strlen(good);
  char *bad = malloc(gl + 8);
  memcpy(bad, good, gl);
  memcpy(bad + gl, " junk", 6);
  spill("trailing.json", bad, gl + 5);
  expect("gsync_program_load: text after the document",
         gsync_program_load(in_dir("trailing.json"), &p, err, sizeof err),
         GSYNC_ERR_FORMAT, err);
  bad[gl] = '\0';
  spill("nul.json", bad, gl + 5);
  expect("gsync_program_load: a NUL byte after the document",
         gsync_program_load(in_dir("nul.json"), &p, err, sizeof err),
         GSYNC_ERR_FORMAT, err);
  free(bad);
  FILE *f = fopen(in_dir("huge.json"), "wb");
  for (int i = 0; f && i < 17 * 1024; i++)
    fprintf(f, "%1023s\n", "");
  if (f)
    fclose(f);
  expect("gsync_program_load: a file of 17 MiB",
         gsync_program_load(in_dir("huge.json"), &p, err, sizeof err),
         GSYNC_ERR_IO, err);
  remove(in_dir("huge.json"));
  expect("gsync_program_load: the tool's file",
         gsync_program_load(in_dir("out.json"), &p, err, sizeof err), GSYNC_OK,
         err);
  gsync_program_release(p);
  gsync_program_release(NULL);
  check("gsync_program_release: NULL", 1);
  free(good);
}

/* gsync_read_file: what it refuses, and the output read whole. */
static void read_file_checks(const char *source) {
  char err[ERRLEN], *text = NULL;
  size_t len = 0;
  expect("gsync_read_file: path NULL",
         gsync_read_file(NULL, &text, &len, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_read_file: text NULL",
         gsync_read_file(in_dir("out.cl"), NULL, &len, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_read_file: a missing file",
         gsync_read_file(in_dir("missing.cl"), &text, &len, err, sizeof err),
         GSYNC_ERR_IO, err);
  check("gsync_read_file: the message names the file",
        strstr(err, "missing.cl") != NULL);
  expect("gsync_read_file: a FIFO (no writer)",
         gsync_read_file(in_dir("fifo"), &text, &len, err, sizeof err),
         GSYNC_ERR_IO, err);
  expect("gsync_read_file: the output",
         gsync_read_file(in_dir("out.cl"), &text, &len, err, sizeof err),
         GSYNC_OK, err);
  check("gsync_read_file: the whole output, its length, a NUL after it",
        text && len == strlen(source) && !memcmp(text, source, len + 1));
  free(text);
}

/* gsync_pick_device: what it refuses, and that it names what there is. */
static void pick_device_checks(cl_device_id want) {
  char err[ERRLEN];
  cl_device_id dev = NULL;
  cl_platform_id platform = NULL;
  expect("gsync_pick_device: device_out NULL",
         gsync_pick_device(NULL, 0, NULL, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_pick_device: a platform no name contains",
         gsync_pick_device("no platform is called this", 0, NULL, &dev, err,
                           sizeof err),
         GSYNC_ERR_DEVICE, err);
  check("gsync_pick_device: the message lists the platforms there are",
        strstr(err, "no OpenCL platform named like 'no platform is called "
                    "this' (there are: '") != NULL);
  expect("gsync_pick_device: a device past the platform's",
         gsync_pick_device("", 4096, NULL, &dev, err, sizeof err),
         GSYNC_ERR_DEVICE, err);
  check("gsync_pick_device: the message says how many it has",
        strstr(err, "has no device 4096 (it has ") != NULL);
  expect("gsync_pick_device: $GSYNC_PLATFORM's device, the one this program "
         "runs on",
         gsync_pick_device(NULL, 0, &platform, &dev, err, sizeof err), GSYNC_OK,
         err);
  check("gsync_pick_device: the same device, and its platform",
        dev == want && platform != NULL);
}

/* gsync_program_check_device, _build_options, _check_source. */
static void program_checks(gsync_program *gp, const char *source) {
  char err[ERRLEN];
  expect("gsync_program_check_device: program NULL",
         gsync_program_check_device(NULL, dev, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_check_device: dev NULL",
         gsync_program_check_device(gp, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_check_device: the device",
         gsync_program_check_device(gp, dev, err, sizeof err), GSYNC_OK, err);
  const char *o = gsync_program_build_options(NULL, dev);
  check("gsync_program_build_options: program NULL gives \"\"", o && !o[0]);
  o = gsync_program_build_options(gp, NULL);
  check("gsync_program_build_options: dev NULL gives a string", o != NULL);
  /* The output builds right optimised on every device, PoCL included
   * (docs/pocl.md, section 6): no option turns the optimiser off. */
  o = gsync_program_build_options(gp, dev);
  check("gsync_program_build_options: no -cl-opt-disable, on any device",
        o && strstr(o, "-cl-opt-disable") == NULL);
  gsync_program *ndp = NULL;
  gsync_status st =
      gsync_program_load(in_dir("nd.json"), &ndp, err, sizeof err);
  o = st == GSYNC_OK ? gsync_program_build_options(ndp, dev) : NULL;
  check("gsync_program_build_options: the same without discovery",
        o && strstr(o, "-cl-opt-disable") == NULL);
  check("gsync_program_build_options: -Dgsync_fit_probe without discovery",
        o && strstr(o, "-Dgsync_fit_probe") != NULL);
  o = gsync_program_build_options(gp, dev);
  check("gsync_program_build_options: no -Dgsync_fit_probe with discovery",
        o && strstr(o, "gsync_fit_probe") == NULL);
  gsync_program_release(ndp);

  /* The calls of outputs of --barrier=auto (docs/auto.md). */
  gsync_barrier_choice choice;
  memset(&choice, 0, sizeof choice);
  choice.size = sizeof choice;
  expect("gsync_program_choose_barrier: program NULL",
         gsync_program_choose_barrier(NULL, dev, &choice, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_choose_barrier: dev NULL",
         gsync_program_choose_barrier(gp, NULL, &choice, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_choose_barrier: choice NULL",
         gsync_program_choose_barrier(gp, dev, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_choose_barrier: the device",
         gsync_program_choose_barrier(gp, dev, &choice, err, sizeof err),
         GSYNC_OK, err);
  check("gsync_program_choose_barrier: an output of one rule names it",
        choice.rule && choice.define == NULL &&
            !strcmp(choice.source, "named"));
  expect("gsync_program_set_barrier: program NULL",
         gsync_program_set_barrier(NULL, "tree", err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_set_barrier: a rule the output does not hold",
         gsync_program_set_barrier(gp, "no-such-rule", err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  char path[64];
  expect("gsync_check_cache_path: dev NULL",
         gsync_check_cache_path(NULL, path, sizeof path, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_check_cache_path: path NULL",
         gsync_check_cache_path(dev, NULL, 0, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_check_cache_store: rule NULL",
         gsync_check_cache_store(dev, NULL, NULL, NULL, 0, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);

  const char *fn = "gsync_program_check_source";
  char what[128];
  snprintf(what, sizeof what, "%s: program NULL", fn);
  expect(what, gsync_program_check_source(NULL, source, 1, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  snprintf(what, sizeof what, "%s: source NULL, length 1", fn);
  expect(what, gsync_program_check_source(gp, NULL, 1, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  snprintf(what, sizeof what, "%s: source NULL, length 0", fn);
  expect(what, gsync_program_check_source(gp, NULL, 0, err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  snprintf(what, sizeof what, "%s: the output", fn);
  expect(
      what,
      gsync_program_check_source(gp, source, strlen(source), err, sizeof err),
      GSYNC_OK, err);
  snprintf(what, sizeof what, "%s: the output cut before its fingerprint", fn);
  expect(what, gsync_program_check_source(gp, source, 10, err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  char *nd = slurp("nd.cl");
  snprintf(what, sizeof what, "%s: the --no-discovery output", fn);
  expect(what, gsync_program_check_source(gp, nd, strlen(nd), err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  size_t sl = strlen(source), nl = strlen(nd);
  char *both = malloc(sl + nl + 1);
  memcpy(both, source, sl);
  memcpy(both + sl, nd, nl + 1);
  snprintf(what, sizeof what, "%s: two outputs joined", fn);
  expect(what, gsync_program_check_source(gp, both, sl + nl, err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  free(both);
  free(nd);
}

/* gsync_program_get_info, _kernel_info, _param_info: NULLs, sizes that
 * reach no field or only some, indices past the counts, and what they
 * read of the stencil's constraints (out.json) and of nd-old.json, which
 * has no "params". */
static void program_infos(gsync_program *gp) {
  char err[ERRLEN];
  gsync_program_info pi = {.size = sizeof pi};
  expect("gsync_program_get_info: program NULL",
         gsync_program_get_info(NULL, &pi, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  expect("gsync_program_get_info: info NULL",
         gsync_program_get_info(gp, NULL, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  pi.size = sizeof pi.size;
  expect("gsync_program_get_info: a size that holds no field",
         gsync_program_get_info(gp, &pi, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  pi.size = offsetof(gsync_program_info, discovery);
  pi.discovery = 7;
  expect("gsync_program_get_info: a size that ends before discovery",
         gsync_program_get_info(gp, &pi, err, sizeof err), GSYNC_OK, err);
  check("gsync_program_get_info: fills the fields the size reaches alone",
        pi.size == offsetof(gsync_program_info, discovery) && pi.barrier &&
            pi.discovery == 7);
  pi.size = sizeof pi;
  expect("gsync_program_get_info: the stencil's",
         gsync_program_get_info(gp, &pi, err, sizeof err), GSYNC_OK, err);
  size_t sl = pi.n_sites > 0 ? strlen(pi.sites[0]) : 0;
  check("gsync_program_get_info: the file's path, rule, limit, fingerprint",
        strcmp(pi.path, in_dir("out.json")) == 0 && pi.barrier[0] &&
            pi.discovery == 1 && pi.spin_limit_ms > 0 && pi.fingerprint &&
            strlen(pi.fingerprint) == 16);
  check("gsync_program_get_info: one kernel, two sites, the -I",
        pi.n_kernels == 1 && pi.n_sites == 2 && sl > 15 &&
            strcmp(pi.sites[0] + sl - 15, "stencil.cl:10:5") == 0 &&
            pi.n_build_args == 1 && strncmp(pi.build_args[0], "-I", 2) == 0);

  gsync_kernel_info ki = {.size = sizeof ki};
  expect("gsync_program_kernel_info: program NULL",
         gsync_program_kernel_info(NULL, 0, &ki, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_kernel_info: info NULL",
         gsync_program_kernel_info(gp, 0, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_kernel_info: index past the kernels",
         gsync_program_kernel_info(gp, 1, &ki, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_kernel_info: the stencil",
         gsync_program_kernel_info(gp, 0, &ki, err, sizeof err), GSYNC_OK, err);
  check("gsync_program_kernel_info: its state argument and numbers",
        strcmp(ki.name, "stencil") == 0 && ki.global_barrier &&
            ki.work_dim == 1 && ki.state_index == 4 && ki.fixed_bytes > 0 &&
            ki.participants_offset + 4 <= ki.fixed_bytes &&
            ki.grid_offset != GSYNC_NO_OFFSET &&
            ki.abort_offset != GSYNC_NO_OFFSET && ki.abort_bytes == 32 &&
            ki.max_work_groups > 0 && ki.has_params && ki.n_params == 4);

  gsync_param_info pa = {.size = sizeof pa};
  expect("gsync_program_param_info: info NULL",
         gsync_program_param_info(gp, 0, 0, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_param_info: kernel index past the kernels",
         gsync_program_param_info(gp, 1, 0, &pa, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_param_info: index past the parameters",
         gsync_program_param_info(gp, 0, 4, &pa, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_program_param_info: parameter 2",
         gsync_program_param_info(gp, 0, 2, &pa, err, sizeof err), GSYNC_OK,
         err);
  check("gsync_program_param_info: n, a value of 4 bytes",
        strcmp(pa.name, "n") == 0 && strcmp(pa.kind, "private") == 0 &&
            pa.bytes == 4);
  gsync_program_param_info(gp, 0, 0, &pa, err, sizeof err);
  check("gsync_program_param_info: a, a global pointer of no bytes",
        strcmp(pa.name, "a") == 0 && strcmp(pa.kind, "global") == 0 &&
            pa.bytes == 0);

  gsync_program *old = NULL;
  gsync_status st =
      gsync_program_load(in_dir("nd-old.json"), &old, err, sizeof err);
  if (st == GSYNC_OK)
    st = gsync_program_kernel_info(old, 0, &ki, err, sizeof err);
  check("gsync_program_kernel_info: constraints without \"params\"",
        st == GSYNC_OK && !ki.has_params && ki.n_params == 0);
  if (st == GSYNC_OK)
    expect("gsync_program_param_info: constraints without \"params\"",
           gsync_program_param_info(old, 0, 0, &pa, err, sizeof err),
           GSYNC_ERR_ARGUMENT, err);
  gsync_program_release(old);
}

/* What probe_new does with the kernel's own arguments. */
enum { ARGS_NONE, ARGS_RELEASED, ARGS_KEPT };

/* Probes a new handle of a new stencil kernel of lib, made for 64 groups,
 * with the constraints ndp; its arguments are none (ARGS_NONE), or those
 * of a launch on a buffer released before the probe (ARGS_RELEASED) or
 * after it (ARGS_KEPT). Returns the status. */
static gsync_status probe_new(gsync_program *ndp, cl_program lib, int args,
                              char *err, size_t errlen) {
  const size_t local[3] = {16, 1, 1};
  size_t fit = 0;
  cl_uint parts = 0;
  cl_int rc;
  cl_mem own = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 4, NULL, &rc);
  cl_kernel k = args != ARGS_NONE ? stencil(lib, own)
                                  : clCreateKernel(lib, "stencil", &rc);
  gsync_kernel *gk = NULL;
  gsync_status st =
      gsync_kernel_create(ndp, ctx, queue, k, 64, &gk, err, errlen);
  if (st == GSYNC_OK && args != ARGS_NONE)
    st = gsync_enqueue(gk, queue, 1, local[0], &parts, err, errlen);
  if (args != ARGS_KEPT)
    clReleaseMemObject(own);
  if (st == GSYNC_OK)
    st = gsync_groups_that_fit(gk, queue, 1, local, &fit, err, errlen);
  if (args == ARGS_KEPT)
    clReleaseMemObject(own);
  if (st == GSYNC_OK && (fit < 1 || fit > 64))
    st = GSYNC_ERR_LAUNCH;
  gsync_kernel_release(gk);
  clReleaseKernel(k);
  return st;
}

/* gsync_groups_that_fit needs none of the user's arguments (issue 24,
 * item 7; issue 29, item 8): it probes a kernel whose buffers were
 * released after a launch, and one whose arguments were never set.
 * Constraints edited after the rewrite (nd-old.json, without "params")
 * no longer match their fingerprint and are refused; a parameter the
 * probe cannot make up is refused by name (image.cl: the third is an
 * image). */
static void fit_without_arguments(gsync_program *ndp, cl_program lib) {
  char err[ERRLEN], what[160];
  const char *fn = "gsync_groups_that_fit";
  snprintf(what, sizeof what, "%s: after the user's buffers were released", fn);
  expect(what, probe_new(ndp, lib, ARGS_RELEASED, err, sizeof err), GSYNC_OK,
         err);
  snprintf(what, sizeof what, "%s: a kernel whose arguments were never set",
           fn);
  expect(what, probe_new(ndp, lib, ARGS_NONE, err, sizeof err), GSYNC_OK, err);
  gsync_program *old = NULL, *image = NULL;
  char *image_src = slurp("image.cl");
  if (gsync_program_load(in_dir("nd-old.json"), &old, err, sizeof err) ||
      gsync_program_load(in_dir("image.json"), &image, err, sizeof err) ||
      image_src == NULL) {
    check("gsync_groups_that_fit: load nd-old.json and image.json", 0);
    gsync_program_release(old);
    free(image_src);
    return;
  }
  snprintf(what, sizeof what,
           "%s: constraints edited after the rewrite (\"params\" removed)", fn);
  err[0] = '\0';
  expect(what, probe_new(old, lib, ARGS_NONE, err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  check("gsync_groups_that_fit: ... says the fingerprint no longer holds",
        strstr(err, "no longer hold what their fingerprint") != NULL);
  cl_program image_lib =
      build(image_src, gsync_program_build_options(image, dev));
  snprintf(what, sizeof what, "%s: an image parameter", fn);
  err[0] = '\0';
  expect(what, probe_new(image, image_lib, ARGS_NONE, err, sizeof err),
         GSYNC_ERR_KERNEL, err);
  check("gsync_groups_that_fit: ... names the parameter",
        strstr(err, "parameter 2 (img) is an image") != NULL);
  clReleaseProgram(image_lib);
  free(image_src);
  gsync_program_release(old);
  gsync_program_release(image);
}

/* gsync_groups_that_fit: refusals, a program built without libgsync's options,
 * and an answer a launch of that many groups passes with. gk is a handle
 * of the discovery output's kernel. */
static void max_groups(gsync_kernel *gk, cl_mem buf) {
  char err[ERRLEN];
  const size_t local[3] = {16, 1, 1};
  size_t fit = 0;
  const char *fn = "gsync_groups_that_fit";
  char what[128];
  snprintf(what, sizeof what, "%s: k NULL", fn);
  expect(what,
         gsync_groups_that_fit(NULL, queue, 1, local, &fit, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  snprintf(what, sizeof what, "%s: groups NULL", fn);
  expect(what,
         gsync_groups_that_fit(gk, queue, 1, local, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  snprintf(what, sizeof what, "%s: output with discovery needs none", fn);
  expect(what,
         gsync_groups_that_fit(gk, queue, 1, local, &fit, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  gsync_program *ndp = NULL;
  char *nd = slurp("nd.cl");
  if (gsync_program_load(in_dir("nd.json"), &ndp, err, sizeof err) ||
      nd == NULL) {
    check("gsync_groups_that_fit: load the --no-discovery output", 0);
    return;
  }
  cl_program plain = build(nd, "");
  cl_program lib = build(nd, gsync_program_build_options(ndp, dev));
  cl_kernel kp = stencil(plain, buf), kl = stencil(lib, buf);
  gsync_kernel *gp = NULL, *gl = NULL;
  gsync_kernel_create(ndp, ctx, queue, kp, 64, &gp, err, sizeof err);
  gsync_kernel_create(ndp, ctx, queue, kl, 64, &gl, err, sizeof err);
  snprintf(what, sizeof what, "%s: work_dim 0", fn);
  expect(what,
         gsync_groups_that_fit(gl, queue, 0, local, &fit, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  snprintf(what, sizeof what, "%s: built without libgsync's options", fn);
  expect(what,
         gsync_groups_that_fit(gp, queue, 1, local, &fit, err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  snprintf(what, sizeof what, "%s: built with them", fn);
  expect(what,
         gsync_groups_that_fit(gl, queue, 1, local, &fit, err, sizeof err),
         GSYNC_OK, err);
  check("gsync_groups_that_fit: at least 1 fit, at most the 64 created for",
        fit >= 1 && fit <= 64);
  cl_uint parts = 0;
  snprintf(what, sizeof what, "%s: a launch of that many passes", fn);
  expect(what, gsync_enqueue(gl, queue, fit, local[0], &parts, err, sizeof err),
         GSYNC_OK, err);
  check("gsync_groups_that_fit: all of them took part", parts == fit);
  fit_without_arguments(ndp, lib);
  gsync_kernel_release(gp);
  gsync_kernel_release(gl);
  clReleaseKernel(kp);
  clReleaseKernel(kl);
  clReleaseProgram(plain);
  clReleaseProgram(lib);
  gsync_program_release(ndp);
  free(nd);
}

/* gsync_kernel_create: NULLs, sizes, kernels of other programs. */
static void kernel_create(gsync_program *gp, cl_kernel k, cl_mem buf) {
  char err[ERRLEN], what[128];
  gsync_kernel *gk = (gsync_kernel *)&gk;
  const char *fn = "gsync_kernel_create";
  struct {
    const char *arg;
    const gsync_program *p;
    cl_context c;
    cl_command_queue q;
    cl_kernel k;
    gsync_kernel **out;
  } nulls[] = {{"out", gp, ctx, queue, k, NULL},
               {"program", NULL, ctx, queue, k, &gk},
               {"ctx", gp, NULL, queue, k, &gk},
               {"queue", gp, ctx, NULL, k, &gk},
               {"kernel", gp, ctx, queue, NULL, &gk}};
  for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++) {
    snprintf(what, sizeof what, "%s: %s NULL", fn, nulls[i].arg);
    expect(what,
           gsync_kernel_create(nulls[i].p, nulls[i].c, nulls[i].q, nulls[i].k,
                               4, nulls[i].out, err, sizeof err),
           GSYNC_ERR_ARGUMENT, err);
  }
  check("gsync_kernel_create: a refusal leaves *out NULL", gk == NULL);
  snprintf(what, sizeof what, "%s: max_groups 0", fn);
  expect(what, gsync_kernel_create(gp, ctx, queue, k, 0, &gk, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  snprintf(what, sizeof what, "%s: max_groups SIZE_MAX", fn);
  expect(what,
         gsync_kernel_create(gp, ctx, queue, k, SIZE_MAX, &gk, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  snprintf(what, sizeof what, "%s: max_groups SIZE_MAX / 4", fn);
  expect(what,
         gsync_kernel_create(gp, ctx, queue, k, SIZE_MAX / 4, &gk, err,
                             sizeof err),
         GSYNC_ERR_OPENCL, err);
  char want[128];
  snprintf(want, sizeof want,
           "the state for up to %zu work-groups "
           "(max_groups) is ",
           SIZE_MAX / 4);
  check("gsync_kernel_create: ... says how large the state is, and the most "
        "the device allocates",
        strncmp(err, "kernel stencil: ", 16) == 0 &&
            strstr(err, want) != NULL &&
            strstr(err, "the device allocates at most ") != NULL);

  char *nd = slurp("nd.cl");
  cl_program ndp = build(nd, gsync_program_build_options(gp, dev));
  cl_kernel ndk = stencil(ndp, buf);
  snprintf(what, sizeof what, "%s: a kernel of the --no-discovery output", fn);
  expect(what,
         gsync_kernel_create(gp, ctx, queue, ndk, 4, &gk, err, sizeof err),
         GSYNC_ERR_MISMATCH, err);
  clReleaseKernel(ndk);
  clReleaseProgram(ndp);
  free(nd);

  cl_program op =
      build("kernel void other(global uint *a) { a[0] = 1; }\n", NULL);
  cl_int rc;
  cl_kernel ok = clCreateKernel(op, "other", &rc);
  snprintf(what, sizeof what, "%s: a kernel the constraints do not list", fn);
  expect(what, gsync_kernel_create(gp, ctx, queue, ok, 4, &gk, err, sizeof err),
         GSYNC_ERR_KERNEL, err);
  clReleaseKernel(ok);
  clReleaseProgram(op);
  gsync_kernel_release(NULL);
  check("gsync_kernel_release: NULL", 1);
}

/* A launch on `queue` held back by a user event, then one on `other`: the
 * second returns at once (the host does not wait for the first) but does
 * not run before the first can. */
static void held_queue(gsync_kernel *gk, cl_command_queue other) {
  char err[ERRLEN];
  cl_int rc;
  cl_uint parts;
  cl_event hold = clCreateUserEvent(ctx, &rc), after = NULL;
  int inorder = other == queue2;
  const char *name =
      inorder ? "a second in-order queue" : "an out-of-order queue";
  char what[160];
  clEnqueueMarkerWithWaitList(queue, 1, &hold, NULL);
  expect("gsync_enqueue: behind a user event",
         gsync_enqueue(gk, queue, 2, 16, NULL, err, sizeof err), GSYNC_OK, err);
  snprintf(what, sizeof what, "gsync_enqueue: then on %s, not waiting", name);
  expect(what, gsync_enqueue(gk, other, 2, 16, NULL, err, sizeof err), GSYNC_OK,
         err);
  clEnqueueMarkerWithWaitList(other, 0, NULL, &after);
  clFlush(other);
  struct timespec nap = {0, 100 * 1000 * 1000};
  nanosleep(&nap, NULL);
  cl_int status = CL_COMPLETE;
  clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                 &status, NULL);
  snprintf(what, sizeof what, "launch after a held queue's: on %s, waits",
           name);
  check(what, status != CL_COMPLETE);
  clSetUserEventStatus(hold, CL_COMPLETE);
  expect("gsync_finish: once the user event is complete",
         gsync_finish(gk, other, &parts, err, sizeof err), GSYNC_OK, err);
  clWaitForEvents(1, &after);
  clReleaseEvent(after);
  clReleaseEvent(hold);
}

/* gsync_enqueue and gsync_finish: NULLs, shapes, order, two queues. */
static void launches(gsync_kernel *gk) {
  char err[ERRLEN];
  cl_uint parts = 0;
  expect("gsync_finish: before any launch",
         gsync_finish(gk, queue, &parts, err, sizeof err), GSYNC_ERR_LAUNCH,
         err);
  expect("gsync_enqueue: k NULL",
         gsync_enqueue(NULL, queue, 2, 16, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_enqueue: queue NULL",
         gsync_enqueue(gk, NULL, 2, 16, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  expect("gsync_finish: k NULL",
         gsync_finish(NULL, queue, &parts, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  expect("gsync_finish: queue NULL",
         gsync_finish(gk, NULL, &parts, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  expect("gsync_enqueue: 0 work-groups",
         gsync_enqueue(gk, queue, 0, 16, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  expect("gsync_enqueue: local size 0",
         gsync_enqueue(gk, queue, 2, 0, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  expect("gsync_enqueue: more work-groups than created for",
         gsync_enqueue(gk, queue, 5, 16, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  expect("gsync_enqueue: SIZE_MAX work-groups",
         gsync_enqueue(gk, queue, SIZE_MAX, 16, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  expect("gsync_enqueue: local size SIZE_MAX",
         gsync_enqueue(gk, queue, 2, SIZE_MAX, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  expect("gsync_enqueue: local size above the device's",
         gsync_enqueue(gk, queue, 1, 1u << 20, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  expect("gsync_finish: after refused launches only",
         gsync_finish(gk, queue, &parts, err, sizeof err), GSYNC_ERR_LAUNCH,
         err);
  expect("gsync_enqueue: and wait",
         gsync_enqueue(gk, queue, 2, 16, &parts, err, sizeof err), GSYNC_OK,
         err);
  check("gsync_enqueue: participants 1 or 2", parts >= 1 && parts <= 2);
  expect("gsync_finish: twice for one launch",
         gsync_finish(gk, queue, &parts, err, sizeof err), GSYNC_OK, err);
  expect("gsync_enqueue: a launch while one runs (1)",
         gsync_enqueue(gk, queue, 2, 16, NULL, err, sizeof err), GSYNC_OK, err);
  expect("gsync_enqueue: a launch while one runs (2)",
         gsync_enqueue(gk, queue, 2, 16, NULL, err, sizeof err), GSYNC_OK, err);
  expect("gsync_finish: the later of the two",
         gsync_finish(gk, queue, NULL, err, sizeof err), GSYNC_OK, err);
  expect("gsync_enqueue: on a second queue",
         gsync_enqueue(gk, queue2, 2, 16, NULL, err, sizeof err), GSYNC_OK,
         err);
  expect("gsync_enqueue: then on the first",
         gsync_enqueue(gk, queue, 2, 16, NULL, err, sizeof err), GSYNC_OK, err);
  expect("gsync_finish: on the other queue than the launch's",
         gsync_finish(gk, queue2, &parts, err, sizeof err), GSYNC_OK, err);
  held_queue(gk, queue2);
  cl_int rc;
  cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES,
                               CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q3 = clCreateCommandQueueWithProperties(ctx, dev, ooo, &rc);
  if (rc == CL_SUCCESS) {
    held_queue(gk, q3);
    clReleaseCommandQueue(q3);
  } else {
    printf("skipped: the device has no out-of-order queues\n");
  }
}

/* One thread's share of the two-thread case: launches and finishes. */
typedef struct worker {
  gsync_kernel *gk;
  int bad;
} worker;

static void *work(void *arg) {
  worker *w = arg;
  char err[ERRLEN];
  cl_uint parts;
  for (int i = 0; i < 10; i++) {
    w->bad +=
        gsync_enqueue(w->gk, queue, 2, 16, NULL, err, sizeof err) != GSYNC_OK;
    w->bad += gsync_finish(w->gk, queue, &parts, err, sizeof err) != GSYNC_OK;
  }
  return NULL;
}

/* Two threads on one handle, and on two handles of one cl_kernel. */
static void threads(gsync_program *gp, cl_kernel k, gsync_kernel *gk) {
  char err[ERRLEN];
  gsync_kernel *other = NULL;
  expect("gsync_kernel_create: a second handle of the same cl_kernel",
         gsync_kernel_create(gp, ctx, queue, k, 4, &other, err, sizeof err),
         GSYNC_OK, err);
  worker w[3] = {{gk, 0}, {gk, 0}, {other, 0}};
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, work, &w[i]);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  check("two threads on one handle, a third on another handle of its "
        "cl_kernel: every call succeeds",
        w[0].bad + w[1].bad + w[2].bad == 0);
  gsync_kernel_release(other);
}

/* What a launch the driver would refuse says, where OpenCL's code names
 * nothing: the local size a kernel was compiled for (reqd.cl: 16), refused
 * before the launch and before the probe of how many fit, and the
 * arguments a kernel is missing. */
static void launch_errors(gsync_program *gp, cl_program prog, cl_mem buf) {
  char err[ERRLEN];
  cl_int rc;
  gsync_kernel *gk = NULL;
  cl_kernel bare = clCreateKernel(prog, "stencil", &rc);
  gsync_kernel_create(gp, ctx, queue, bare, 4, &gk, err, sizeof err);
  expect("gsync_enqueue: a kernel whose own arguments are not set",
         gsync_enqueue(gk, queue, 2, 16, NULL, err, sizeof err),
         GSYNC_ERR_OPENCL, err);
  check("gsync_enqueue: ... says which arguments to set",
        strstr(err, "CL_INVALID_KERNEL_ARGS (-52): not every argument is "
                    "set; set the kernel's own 4 (indices 0 to 3) with "
                    "clSetKernelArg before the launch, and libgsync sets the "
                    "state argument (index 4)") != NULL);
  gsync_kernel_release(gk);
  clReleaseKernel(bare);

  gsync_program *rp = NULL;
  if (gsync_program_load(in_dir("reqd.json"), &rp, err, sizeof err)) {
    fprintf(stderr, "libgsync-misuse: %s\n", err);
    exit(2);
  }
  char *source = slurp("reqd.cl");
  cl_program p = build(source, gsync_program_build_options(rp, dev));
  cl_kernel k = clCreateKernel(p, "reqd", &rc);
  cl_uint n = 64;
  clSetKernelArg(k, 0, sizeof buf, &buf);
  clSetKernelArg(k, 1, sizeof n, &n);
  gk = NULL;
  gsync_kernel_create(rp, ctx, queue, k, 4, &gk, err, sizeof err);
  expect("gsync_enqueue: another local size than reqd_work_group_size",
         gsync_enqueue(gk, queue, 2, 8, NULL, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  check("gsync_enqueue: ... names the size the kernel was compiled for",
        strcmp(err, "kernel reqd: local size 8 is not the one the kernel was "
                    "compiled for, reqd_work_group_size(16, 1, 1): launch it "
                    "with that local size") == 0);
  size_t groups2[2] = {2, 1}, local2[2] = {8, 2};
  expect("gsync_enqueue_nd: 8 x 2 for reqd_work_group_size(16, 1, 1)",
         gsync_enqueue_nd(gk, queue, 2, NULL, groups2, local2, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  check("gsync_enqueue_nd: ... names both sizes",
        strstr(err, "local size 8 x 2 is not the one the kernel was compiled "
                    "for, reqd_work_group_size(16, 1, 1)") != NULL);
  expect("gsync_enqueue: the local size of reqd_work_group_size",
         gsync_enqueue(gk, queue, 2, 16, NULL, err, sizeof err), GSYNC_OK, err);
  cl_uint parts = 0;
  expect("gsync_finish: ... completes",
         gsync_finish(gk, queue, &parts, err, sizeof err), GSYNC_OK, err);
  gsync_kernel_release(gk);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(source);
  gsync_program_release(rp);

  /* The probe of how many fit is a launch too: the driver refused it with
   * a bare CL_INVALID_WORK_GROUP_SIZE (-54). */
  if (gsync_program_load(in_dir("reqd-nd.json"), &rp, err, sizeof err)) {
    fprintf(stderr, "libgsync-misuse: %s\n", err);
    exit(2);
  }
  source = slurp("reqd-nd.cl");
  p = build(source, gsync_program_build_options(rp, dev));
  k = clCreateKernel(p, "reqd", &rc);
  gk = NULL;
  gsync_kernel_create(rp, ctx, queue, k, 8, &gk, err, sizeof err);
  size_t local = 8, fit = 0;
  expect("gsync_groups_that_fit: another local size than "
         "reqd_work_group_size",
         gsync_groups_that_fit(gk, queue, 1, &local, &fit, err, sizeof err),
         GSYNC_ERR_LAUNCH, err);
  check("gsync_groups_that_fit: ... names the size the kernel was compiled "
        "for",
        strstr(err, "kernel reqd: local size 8 is not the one the kernel was "
                    "compiled for, reqd_work_group_size(16, 1, 1)") != NULL);
  local = 16;
  expect("gsync_groups_that_fit: the local size of reqd_work_group_size",
         gsync_groups_that_fit(gk, queue, 1, &local, &fit, err, sizeof err),
         GSYNC_OK, err);
  gsync_kernel_release(gk);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(source);
  gsync_program_release(rp);
}

/* A context or queue other than the kernel's, which every command on its
 * state would refuse with a bare CL_INVALID_CONTEXT (-34): refused by
 * name before any. k is the stencil kernel of ctx's program gp, built
 * as out.cl; nd.cl, built here, gives the probe of how many fit. */
static void other_context(gsync_program *gp, cl_kernel k) {
  char err[ERRLEN];
  cl_int rc;
  cl_context ctx2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  cl_command_queue q2 =
      clCreateCommandQueueWithProperties(ctx2, dev, NULL, &rc);
  gsync_kernel *gk = NULL;
  expect("gsync_kernel_create: ctx other than the kernel's",
         gsync_kernel_create(gp, ctx2, q2, k, 4, &gk, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  check("gsync_kernel_create: ... says so",
        strcmp(err, "gsync_kernel_create: kernel belongs to another context "
                    "than ctx (kernel stencil): give the context its program "
                    "was built in, and a queue of it") == 0);
  expect("gsync_kernel_create: a queue of another context",
         gsync_kernel_create(gp, ctx, q2, k, 4, &gk, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  check("gsync_kernel_create: ... says so",
        strstr(err, "queue belongs to another context than ctx") != NULL);
  gsync_kernel_create(gp, ctx, queue, k, 4, &gk, err, sizeof err);
  const char *want = "queue belongs to another context than kernel stencil "
                     "(the one gsync_kernel_create was given)";
  expect("gsync_enqueue: a queue of another context",
         gsync_enqueue(gk, q2, 2, 16, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  check("gsync_enqueue: ... says so", strstr(err, want) != NULL);
  size_t groups[2] = {2, 1}, local[2] = {16, 1};
  expect("gsync_enqueue_nd: a queue of another context",
         gsync_enqueue_nd(gk, q2, 2, NULL, groups, local, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  cl_uint parts = 0;
  expect("gsync_enqueue: ... and then on the kernel's",
         gsync_enqueue(gk, queue, 2, 16, &parts, err, sizeof err), GSYNC_OK,
         err);
  expect("gsync_finish: a queue of another context",
         gsync_finish(gk, q2, &parts, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  check("gsync_finish: ... says so", strstr(err, want) != NULL);
  expect("gsync_finish_nd: a queue of another context",
         gsync_finish_nd(gk, q2, NULL, err, sizeof err), GSYNC_ERR_ARGUMENT,
         err);
  expect("gsync_watch_enable: ctx other than the kernel's",
         gsync_watch_enable(gk, ctx2, dev, q2, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  check("gsync_watch_enable: ... says so",
        strstr(err, "ctx is another context than kernel stencil's") != NULL);
  expect("gsync_watch_enable: a queue of another context",
         gsync_watch_enable(gk, ctx, dev, q2, NULL, err, sizeof err),
         GSYNC_ERR_ARGUMENT, err);
  gsync_kernel_release(gk);

  gsync_program *ndp = NULL;
  char *nd = slurp("nd.cl");
  if (gsync_program_load(in_dir("nd.json"), &ndp, err, sizeof err) == 0) {
    cl_program p = build(nd, gsync_program_build_options(ndp, dev));
    cl_kernel nk = clCreateKernel(p, "stencil", &rc);
    gk = NULL;
    gsync_kernel_create(ndp, ctx, queue, nk, 4, &gk, err, sizeof err);
    size_t fit = 0;
    expect("gsync_groups_that_fit: a queue of another context",
           gsync_groups_that_fit(gk, q2, 1, local, &fit, err, sizeof err),
           GSYNC_ERR_ARGUMENT, err);
    check("gsync_groups_that_fit: ... says so", strstr(err, want) != NULL);
    gsync_kernel_release(gk);
    clReleaseKernel(nk);
    clReleaseProgram(p);
  }
  gsync_program_release(ndp);
  free(nd);
  clReleaseCommandQueue(q2);
  clReleaseContext(ctx2);
}

/* gsync_launch_cause: the words of one cause, with the kernel's spin limit;
 * nothing for no kernel or a value that is not one cause. */
static void launch_cause(const gsync_kernel *gk) {
  char buf[256] = "x";
  check("gsync_launch_cause: kernel NULL says nothing",
        gsync_launch_cause(NULL, GSYNC_CAUSE_LONG_PHASE, buf, sizeof buf) ==
                0 &&
            buf[0] == '\0');
  cl_uint nots[] = {0, GSYNC_CAUSE_TOO_MANY_GROUPS | GSYNC_CAUSE_LONG_PHASE,
                    1u << 5, 1u << 31};
  int none = 1;
  for (size_t i = 0; i < sizeof nots / sizeof nots[0]; i++) {
    buf[0] = 'x';
    none &=
        gsync_launch_cause(gk, nots[i], buf, sizeof buf) == 0 && buf[0] == '\0';
  }
  check("gsync_launch_cause: 0, two causes, unknown bits say nothing", none);
  size_t n = gsync_launch_cause(gk, GSYNC_CAUSE_LONG_PHASE, buf, sizeof buf);
  check("gsync_launch_cause: a long phase, with the spin limit",
        n == strlen(buf) &&
            strcmp(buf, "work between two barriers that takes longer than "
                        "the spin limit of 5000 ms (--spin-limit)") == 0);
  char small[8];
  check("gsync_launch_cause: a short buffer gets the start, the whole "
        "length returned",
        gsync_launch_cause(gk, GSYNC_CAUSE_LONG_PHASE, small, sizeof small) ==
                n &&
            strcmp(small, "work be") == 0);
}

/* gsync_launch_note: nothing to say where every launched group took part
 * or the caller's struct is too short to say how many were launched; the
 * whole length however short the buffer, as snprintf. */
static void launch_note(void) {
  gsync_launch_info info;
  memset(&info, 0, sizeof info);
  info.size = sizeof info;
  info.work_dim = 1;
  info.admitted = info.participants = info.polled = info.launched = 4;
  info.groups[0] = 4;
  info.groups[1] = info.groups[2] = 1;
  char buf[1024] = "x";
  check("gsync_launch_note: info NULL says nothing",
        gsync_launch_note(NULL, buf, sizeof buf) == 0 && buf[0] == '\0');
  buf[0] = 'x';
  check("gsync_launch_note: all took part says nothing",
        gsync_launch_note(&info, buf, sizeof buf) == 0 && buf[0] == '\0');
  info.admitted = info.participants = 1;
  info.launched = 64;
  info.polled = 8;
  size_t n = gsync_launch_note(&info, buf, sizeof buf);
  check("gsync_launch_note: 1 of 64 says how many, why and what follows",
        n == strlen(buf) &&
            strcmp(buf, "1 of the 64 work-groups launched took part in the "
                        "global barrier: discovery admitted only the 1 that "
                        "the device ran at once, and the others returned at "
                        "once (it polled the first 8, as many as fitted in "
                        "an earlier launch); the ids count only the "
                        "work-groups that took part, so a kernel that is not "
                        "grid-stride (for (i = get_global_id(0); i < n; i += "
                        "get_global_size(0))) leaves the data past their ids "
                        "untouched") == 0);
  char small[10];
  check("gsync_launch_note: a short buffer gets the start, the whole length "
        "returned",
        gsync_launch_note(&info, small, sizeof small) == n &&
            strcmp(small, "1 of the ") == 0);
  check("gsync_launch_note: buf NULL, len 0 returns the length",
        gsync_launch_note(&info, NULL, 0) == n);
  info.size = offsetof(gsync_launch_info, launched);
  check("gsync_launch_note: a struct without 'launched' says nothing",
        gsync_launch_note(&info, buf, sizeof buf) == 0);
  info.size = sizeof info;
  info.work_dim = 2;
  info.admitted = info.polled = info.launched = 6;
  info.participants = 4;
  info.left_out = 2;
  info.groups[0] = info.groups[1] = 2;
  gsync_launch_note(&info, buf, sizeof buf);
  const char *want = "4 of the 6 work-groups launched took part in the "
                     "global barrier: 2 admitted work-groups were left out "
                     "of the virtual grid of 2 x 2; the ids";
  check("gsync_launch_note: groups left out of the grid",
        strncmp(buf, want, strlen(want)) == 0);
}

int main(int argc, char **argv) {
  char err[ERRLEN];
  cl_platform_id platform;
  cl_int rc;
  int threads_only = argc == 3 && strcmp(argv[1], "--threads") == 0;
  if (argc != 2 && !threads_only) {
    fprintf(stderr, "usage: libgsync-misuse [--threads] DIR\n");
    return 2;
  }
  dir = argv[argc - 1];
  char pick[512];
  if (gsync_pick_device(NULL, 0, &platform, &dev, pick, sizeof pick)) {
    fprintf(stderr, "libgsync-misuse: %s\n", pick);
    return 2;
  }
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
  queue2 = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 4, NULL, &rc);
  if (rc != CL_SUCCESS)
    return 2;

  if (!threads_only)
    program_load();
  gsync_program *gp = NULL;
  if (gsync_program_load(in_dir("out.json"), &gp, err, sizeof err)) {
    fprintf(stderr, "libgsync-misuse: %s\n", err);
    return 2;
  }
  char *source = slurp("out.cl");
  if (!threads_only) {
    read_file_checks(source);
    pick_device_checks(dev);
    program_checks(gp, source);
    program_infos(gp);
  }
  cl_program prog = build(source, gsync_program_build_options(gp, dev));
  cl_kernel k = stencil(prog, buf);
  if (!threads_only)
    kernel_create(gp, k, buf);
  gsync_kernel *gk = NULL;
  expect("gsync_kernel_create: the output's kernel",
         gsync_kernel_create(gp, ctx, queue, k, 4, &gk, err, sizeof err),
         GSYNC_OK, err);
  if (gk && threads_only) {
    threads(gp, k, gk);
  } else if (gk) {
    launches(gk);
    threads(gp, k, gk);
    max_groups(gk, buf);
    launch_cause(gk);
  }
  gsync_kernel_release(gk);
  if (!threads_only) {
    launch_errors(gp, prog, buf);
    other_context(gp, k);

    launch_note();
    for (int s = GSYNC_OK; s <= GSYNC_ERR_CANCELLED; s++)
      check(gsync_status_name((gsync_status)s),
            strncmp(gsync_status_name((gsync_status)s), "GSYNC_", 6) == 0);
    check("gsync_status_name: a value out of range",
          strcmp(gsync_status_name((gsync_status)999), "GSYNC_ERR_UNKNOWN") ==
              0);
  }

  gsync_program_release(gp);
  free(source);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(queue2);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  printf("%d failed\n", failures);
  return failures != 0;
}
