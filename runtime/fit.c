/* How many work-groups fit, for output without discovery:
 * gsync_groups_that_fit runs a probe launch of the kernel (compiled in
 * with gsync_program_build_options' -Dgsync_fit_probe) that counts the
 * work-groups that run at once, and remembers the answer per device and
 * local size. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the program of k's kernel was built for dev with FIT_MACRO
 * defined (gsync_program_build_options gives it): only then does the
 * kernel have the probe, and a probe launch run none of its code. */
static gsync_status check_fit_build(const gsync_kernel *k, cl_device_id dev,
                                    char *err, size_t errlen) {
  int found;
  gsync_status st = gsli_built_with(k, dev, FIT_MACRO, &found, err, errlen);
  if (st == GSYNC_OK && !found)
    return gsli_fail(err, errlen, GSYNC_ERR_MISMATCH,
                     "kernel %s: its program was not built with "
                     "gsync_program_build_options() (no -D" FIT_MACRO
                     "), so it cannot measure how many work-groups fit",
                     k->info.name);
  return st;
}

/* Writes into buf (len bytes) what parameter p takes, as a message says
 * it: "a global pointer", "a value of 8 bytes", "an image", ... */
static void param_words(const param_info *p, char *buf, size_t len) {
  for (size_t j = 0; j < N_PARAM_KINDS; j++)
    if (strcmp(gsli_param_kinds[j].name, p->kind_name) == 0) {
      if (p->kind == PARAM_PRIVATE)
        snprintf(buf, len, "%s of %zu bytes", gsli_param_kinds[j].words,
                 p->bytes);
      else
        snprintf(buf, len, "%s", gsli_param_kinds[j].words);
      return;
    }
  snprintf(buf, len, "of a kind this libgsync does not know (\"%.40s\")",
           p->kind_name);
}

/* Makes the kernel object the probe launches: a new one of k's kernel,
 * by name, from its program, with each of its own arguments set to a
 * harmless value (NULL buffers, PROBE_LOCAL_BYTES of local memory, zeros
 * of each value's size). The probe runs none of the kernel's code, so it
 * needs none of the user's arguments, which may be unset, or name buffers
 * released since. Returns GSYNC_OK and *out, or GSYNC_ERR_KERNEL for a
 * parameter the probe cannot make up or a kernel whose parameters differ
 * from "params", or GSYNC_ERR_OPENCL. */
static gsync_status probe_kernel(const gsync_kernel *k, cl_kernel *out,
                                 char *err, size_t errlen) {
  const kernel_info *i = &k->info;
  size_t most = 1;
  char what[96];
  for (size_t a = 0; a < i->n_params; a++) {
    const param_info *p = &i->params[a];
    if (p->kind == PARAM_PRIVATE && p->bytes > most)
      most = p->bytes;
    if (p->kind != PARAM_OTHER)
      continue;
    param_words(p, what, sizeof what);
    return gsli_fail(
        err, errlen, GSYNC_ERR_KERNEL,
        "kernel %s: parameter %zu (%s) is %s, which the probe of how "
        "many work-groups fit cannot make up: launch no more "
        "work-groups than you know fit, or rewrite with discovery",
        i->name, a, p->name, what);
  }
  cl_program prog = NULL;
  cl_int rc =
      clGetKernelInfo(k->kernel, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_PROGRAM)", rc);
  cl_kernel probe = clCreateKernel(prog, i->name, &rc);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clCreateKernel (probe)", rc);
  cl_uint nargs = 0;
  gsync_status st = GSYNC_OK;
  rc = clGetKernelInfo(probe, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
  if (rc != CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", rc);
  else if (nargs != i->n_params + 1)
    st = gsli_fail(err, errlen, GSYNC_ERR_KERNEL,
                   "kernel %s has %u parameters, but its constraints list %zu "
                   "besides the state argument (\"params\"; built from another "
                   "rewrite?)",
                   i->name, (unsigned)nargs, i->n_params);
  unsigned char *zeros = st == GSYNC_OK ? calloc(most, 1) : NULL;
  if (st == GSYNC_OK && zeros == NULL)
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
  for (size_t a = 0; st == GSYNC_OK && a < i->n_params; a++) {
    const param_info *p = &i->params[a];
    rc = p->kind == PARAM_LOCAL
             ? clSetKernelArg(probe, (cl_uint)a, PROBE_LOCAL_BYTES, NULL)
         : p->kind == PARAM_PRIVATE
             ? clSetKernelArg(probe, (cl_uint)a, p->bytes, zeros)
             : clSetKernelArg(probe, (cl_uint)a, sizeof(cl_mem), NULL);
    if (rc != CL_SUCCESS) {
      param_words(p, what, sizeof what);
      st = gsli_fail(
          err, errlen, GSYNC_ERR_OPENCL,
          "kernel %s: the probe of how many work-groups fit cannot set "
          "parameter %zu (%s, %s): clSetKernelArg failed: %s (%d)",
          i->name, a, p->name, what, gsli_cl_error_name(rc), (int)rc);
    }
  }
  free(zeros);
  if (st != GSYNC_OK) {
    clReleaseKernel(probe);
    return st;
  }
  *out = probe;
  return GSYNC_OK;
}

/* Runs one probe launch of launch work-groups (in dimension 0) of local
 * work-items per dimension after k's latest command, and reads how many
 * ran at once into *fit. The probe launches a kernel object of its own
 * (probe_kernel); with constraints from before "params", k's kernel with
 * the user's arguments. The probe's state words are reset after it in
 * the queue; if that cannot be enqueued, the next launch zeroes the whole
 * state first. k->lock is held. */
static gsync_status run_fit_probe(gsync_kernel *k, cl_command_queue queue,
                                  cl_uint work_dim, const size_t *local,
                                  size_t launch, size_t *fit, char *err,
                                  size_t errlen) {
  /* Words fit_count to fit_on: all 0 but fit_on. */
  static const cl_uint on[FIT_ON - FIT_COUNT + 1] = {[FIT_ON - FIT_COUNT] = 1},
                                               off[FIT_ON - FIT_COUNT + 1] = {
                                                   0};
  size_t global[3];
  cl_event ev_on = NULL, ev_run = NULL, ev_off = NULL;
  cl_uint count = 0;
  cl_kernel kernel = k->kernel;
  gsync_status st;
  if (k->info.has_params &&
      (st = probe_kernel(k, &kernel, err, errlen)) != GSYNC_OK)
    return st;
  for (cl_uint d = 0; d < work_dim; d++)
    global[d] = (d == 0 ? launch : 1) * local[d];
  k->fit_left_on = 1;
  cl_uint n;
  const cl_event *after;
  cl_int rc = CL_SUCCESS;
  if ((st = gsli_after_latest(k, queue, &n, &after, err, errlen)) == GSYNC_OK &&
      (rc = clEnqueueWriteBuffer(queue, k->state, CL_FALSE, FIT_COUNT * 4,
                                 sizeof on, on, n, after, &ev_on)) !=
          CL_SUCCESS)
    st = gsli_cl_fail(err, errlen, "clEnqueueWriteBuffer (state)", rc);
  if (st != GSYNC_OK) {
    if (kernel != k->kernel)
      clReleaseKernel(kernel);
    return st;
  }
  /* The lock keeps another handle of k's kernel from setting the state
   * argument in between; the probe's own kernel needs none. */
  pthread_mutex_lock(&gsli_launch_lock);
  rc = clSetKernelArg(kernel, k->info.state_index, sizeof(cl_mem), &k->state);
  if (rc == CL_SUCCESS)
    rc = clEnqueueNDRangeKernel(queue, kernel, work_dim, NULL, global, local, 1,
                                &ev_on, &ev_run);
  pthread_mutex_unlock(&gsli_launch_lock);
  if (kernel != k->kernel)
    clReleaseKernel(kernel); /* the enqueued probe keeps it */
  if (rc != CL_SUCCESS && !k->info.has_params) {
    st = gsli_fail(
        err, errlen, GSYNC_ERR_OPENCL,
        "clEnqueueNDRangeKernel (probe) failed: %s (%d); these "
        "constraints have no \"params\" (an older gsync-rewrite wrote "
        "them), so the probe launched kernel %s with its own "
        "arguments, which must be set: rewrite with this "
        "gsync-rewrite, and the probe needs none",
        gsli_cl_error_name(rc), (int)rc, k->info.name);
    ev_run = ev_on, ev_on = NULL;
  } else if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clEnqueueNDRangeKernel (probe)", rc);
    ev_run = ev_on, ev_on = NULL;
  } else if ((rc = clEnqueueReadBuffer(queue, k->state, CL_TRUE,
                                       k->info.participants_offset, 4, &count,
                                       1, &ev_run, NULL)) != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clEnqueueReadBuffer (state)", rc);
  }
  /* The probe is over (or never ran): its words back to zero. */
  rc = clEnqueueWriteBuffer(queue, k->state, CL_FALSE, FIT_COUNT * 4,
                            sizeof off, off, 1, &ev_run, &ev_off);
  if (rc == CL_SUCCESS) {
    k->fit_left_on = 0;
    /* An earlier failure keeps its message. */
    gsync_status rst = gsli_record_latest(k, queue, ev_off,
                                          st == GSYNC_OK ? err : NULL, errlen);
    if (st == GSYNC_OK)
      st = rst;
  } else if (st == GSYNC_OK) {
    st = gsli_cl_fail(err, errlen, "clEnqueueWriteBuffer (state)", rc);
  }
  if (ev_on != NULL)
    clReleaseEvent(ev_on);
  clReleaseEvent(ev_run);
  if (st == GSYNC_OK && (count == 0 || count > launch))
    st =
        gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                  "kernel %s: the probe of how many work-groups fit counted %u "
                  "of %zu launched",
                  k->info.name, (unsigned)count, launch);
  if (st == GSYNC_OK)
    *fit = count;
  return st;
}

gsync_status gsync_groups_that_fit(gsync_kernel *k, cl_command_queue queue,
                                   cl_uint work_dim, const size_t *local_size,
                                   size_t *groups, char *err, size_t errlen) {
  static const char fn[] = "gsync_groups_that_fit";
  if (k == NULL || queue == NULL || local_size == NULL || groups == NULL)
    return gsli_null_argument(err, errlen, fn,
                              k == NULL        ? "k"
                              : queue == NULL  ? "queue"
                              : groups == NULL ? "groups"
                                               : "local_size");
  if (work_dim < 1 || work_dim > 3)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: a launch needs 1 to 3 dimensions",
                     k->info.name);
  if (k->state == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "kernel %s reaches no global_barrier(): any number of "
                     "work-groups may be launched",
                     k->info.name);
  if (k->abort.discovery)
    return gsli_fail(
        err, errlen, GSYNC_ERR_ARGUMENT,
        "kernel %s was rewritten with discovery: launch any number "
        "of work-groups, and discovery admits those that fit",
        k->info.name);
  cl_device_id dev = NULL;
  cl_int rc =
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)",
                        rc);
  size_t launch = k->max_groups, total, shape[3] = {1, 1, 1};
  if (k->info.max_work_groups != 0 && launch > k->info.max_work_groups)
    launch = k->info.max_work_groups;
  if (launch > 0x3fffffffu)
    launch = 0x3fffffffu;
  shape[0] = launch;
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_queue(k, queue, fn, err, errlen);
  if (st == GSYNC_OK)
    st = gsli_check_shape(k, queue, work_dim, NULL, shape, local_size, &total,
                          err, errlen);
  size_t local = 1, i;
  for (cl_uint d = 0; d < work_dim; d++)
    local *= local_size[d];
  for (i = 0; st == GSYNC_OK && i < k->n_fit; i++)
    if (k->fit[i].dev == dev && k->fit[i].local == local)
      break;
  if (st == GSYNC_OK && i < k->n_fit) {
    *groups = k->fit[i].groups;
  } else if (st == GSYNC_OK &&
             (st = check_fit_build(k, dev, err, errlen)) == GSYNC_OK &&
             (st = run_fit_probe(k, queue, work_dim, local_size, launch, groups,
                                 err, errlen)) == GSYNC_OK) {
    size_t n = sizeof k->fit / sizeof k->fit[0];
    if (k->n_fit == n)
      memmove(k->fit, k->fit + 1, (n - 1) * sizeof k->fit[0]);
    else
      k->n_fit++;
    k->fit[k->n_fit - 1].dev = dev;
    k->fit[k->n_fit - 1].local = local;
    k->fit[k->n_fit - 1].groups = *groups;
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}
