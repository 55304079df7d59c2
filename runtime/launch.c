/* Kernels and launches: a kernel's handle (gsync_kernel_create, with its
 * state buffer, and gsync_kernel_release), the checks of a launch's shape
 * against the constraints and the device, and the launch itself, enqueued
 * after the handle's previous command (gsync_enqueue, gsync_enqueue_nd). */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Returns the constraints entry for the kernel named name, or NULL. */
static const kernel_info *find_kernel(const gsync_program *p,
                                      const char *name) {
  for (size_t i = 0; i < p->n_kernels; i++)
    if (strcmp(p->kernels[i].name, name) == 0)
      return &p->kernels[i];
  return NULL;
}

/* Computes the state bytes for launches of up to groups work-groups into
 * *bytes. Returns 0 if the size does not fit a size_t. */
int gsli_state_size(const kernel_info *info, size_t groups, size_t *bytes) {
  if (info->per_group_bytes != 0 &&
      groups > (SIZE_MAX - info->fixed_bytes) / info->per_group_bytes)
    return 0;
  *bytes = info->fixed_bytes + info->per_group_bytes * groups;
  return 1;
}

/* Reports a state buffer of k->state_bytes that the device cannot have:
 * its size and what it follows from, then why (because, the cause in
 * words). Returns GSYNC_ERR_OPENCL. */
static gsync_status state_fail(const gsync_kernel *k, const char *because,
                               char *err, size_t errlen) {
  return gsli_fail(err, errlen, GSYNC_ERR_OPENCL,
                   "kernel %s: the state for up to %zu work-groups "
                   "(max_groups) is %zu bytes (%zu + %zu x %zu), %s",
                   k->info.name, k->max_groups, k->state_bytes,
                   k->info.fixed_bytes, k->info.per_group_bytes, k->max_groups,
                   because);
}

/* Refuses, before the driver, a state larger than the queue's device
 * allocates at once: drivers answer that with different codes
 * (CL_INVALID_BUFFER_SIZE on PoCL, others on NVIDIA), so the limit is
 * checked here and said the same way everywhere. Returns GSYNC_OK when it
 * fits or the limit cannot be read (clCreateBuffer then decides). */
static gsync_status state_fits(const gsync_kernel *k, cl_command_queue queue,
                               char *err, size_t errlen) {
  cl_device_id dev = NULL;
  cl_ulong most = 0;
  char because[200];
  if (clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) !=
          CL_SUCCESS ||
      clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof most, &most,
                      NULL) != CL_SUCCESS ||
      most == 0 || (cl_ulong)k->state_bytes <= most)
    return GSYNC_OK;
  snprintf(because, sizeof because,
           "and the device allocates at most %llu bytes at once "
           "(CL_DEVICE_MAX_MEM_ALLOC_SIZE): create the handle for fewer "
           "work-groups",
           (unsigned long long)most);
  return state_fail(k, because, err, errlen);
}

/* Looks kernel up in the constraints and, if it reaches a barrier, makes
 * and zeroes its state buffer. Returns GSYNC_OK and sets *out, or why not. */
gsync_status gsync_kernel_create(const gsync_program *program, cl_context ctx,
                                 cl_command_queue queue, cl_kernel kernel,
                                 size_t max_groups, gsync_kernel **out,
                                 char *err, size_t errlen) {
  char *name = NULL;
  gsync_kernel *k = NULL;
  gsync_status st = GSYNC_OK;
  size_t size = 0;
  cl_int rc;

  static const char fn[] = "gsync_kernel_create";
  if (out == NULL)
    return gsli_null_argument(err, errlen, fn, "out");
  *out = NULL;
  if (program == NULL || ctx == NULL || queue == NULL || kernel == NULL)
    return gsli_null_argument(err, errlen, fn,
                              program == NULL ? "program"
                              : ctx == NULL   ? "ctx"
                              : queue == NULL ? "queue"
                                              : "kernel");
  rc = clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, NULL, &size);
  if (rc == CL_SUCCESS) {
    if ((name = malloc(size + 1)) == NULL)
      return gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    rc = clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, name, NULL);
    name[size] = '\0';
  }
  if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_FUNCTION_NAME)",
                      rc);
    goto free_name;
  }
  /* Commands of another context's queue, or on a buffer of another
   * context, fail with a bare CL_INVALID_CONTEXT. */
  cl_context kctx = NULL, qctx = NULL;
  const char *query = "clGetKernelInfo(CL_KERNEL_CONTEXT)";
  rc = clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof kctx, &kctx, NULL);
  if (rc == CL_SUCCESS) {
    query = "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)";
    rc = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx,
                               NULL);
  }
  if (rc != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, query, rc);
    goto free_name;
  }
  if (kctx != ctx || qctx != ctx) {
    st = gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                   "%s: %s belongs to another context than ctx (kernel %s): "
                   "give the context its program was built in, and a queue "
                   "of it",
                   fn, kctx != ctx ? "kernel" : "queue", name);
    goto free_name;
  }
  const kernel_info *info = find_kernel(program, name);
  if (info == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_KERNEL, "%s: no kernel \"%s\"",
                   program->path, name);
    goto free_name;
  }
  if (max_groups == 0) {
    st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                   "kernel %s: max_groups must be at least 1", name);
    goto free_name;
  }
  /* Before the state is made to the constraints' layout: the program must
   * be built from the output they were written with. */
  if ((st = gsli_check_kernel_program(program, kernel, err, errlen)) !=
      GSYNC_OK)
    goto free_name;

  if (info->global_barrier) {
    cl_uint nargs = 0;
    rc =
        clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (rc != CL_SUCCESS) {
      st = gsli_cl_fail(err, errlen, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", rc);
      goto free_name;
    }
    /* A mismatch means the program was not built from the output these
     * constraints belong to. */
    if (nargs != info->state_index + 1) {
      st = gsli_fail(
          err, errlen, GSYNC_ERR_KERNEL,
          "kernel %s has %u parameters, but %s puts its state argument "
          "at index %u (built from another rewrite?)",
          name, (unsigned)nargs, program->path, (unsigned)info->state_index);
      goto free_name;
    }
  }

  k = calloc(1, sizeof *k);
  if (k == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    goto free_name;
  }
  k->info = *info;
  k->info.name = name;
  name = NULL;
  k->ctx = ctx;
  k->max_groups = max_groups;
  pthread_mutex_init(&k->lock, NULL);
  if (!gsli_copy_params(&k->info, info) ||
      !gsli_copy_abort_info(&k->abort, &program->abort)) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "out of memory");
    goto free_kernel;
  }
  /* An output of --barrier=auto: built with one of its rules. */
  if (program->n_auto && info->global_barrier) {
    cl_device_id dev = NULL;
    k->kernel = kernel;
    rc = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    st = rc != CL_SUCCESS
             ? gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(DEVICE)", rc)
             : gsli_auto_check_built(program, k, dev, err, errlen);
    k->kernel = NULL;
    if (st != GSYNC_OK)
      goto free_kernel;
  }
  if (info->global_barrier) {
    if (!gsli_state_size(info, max_groups, &k->state_bytes)) {
      st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: state for %zu work-groups overflows",
                     k->info.name, max_groups);
      goto free_kernel;
    }
    if ((st = state_fits(k, queue, err, errlen)) != GSYNC_OK)
      goto free_kernel;
    rc = CL_SUCCESS;
    k->state =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE,
                       k->state_bytes > 0 ? k->state_bytes : 4, NULL, &rc);
    if (rc != CL_SUCCESS) {
      char because[96];
      snprintf(because, sizeof because, "which clCreateBuffer refused: %s (%d)",
               gsli_cl_error_name(rc), (int)rc);
      st = state_fail(k, because, err, errlen);
      goto free_kernel;
    }
    /* The first launch comes after this fill (gsli_after_latest), on an
     * out-of-order queue too. */
    if ((st = gsli_zero_state(k, queue, err, errlen)) != GSYNC_OK)
      goto free_kernel;
  }
  if ((rc = clRetainKernel(kernel)) != CL_SUCCESS) {
    st = gsli_cl_fail(err, errlen, "clRetainKernel", rc);
    goto free_kernel;
  }
  k->kernel = kernel;
  *out = k;
  return GSYNC_OK;

free_kernel:
  gsync_kernel_release(k);
free_name:
  free(name);
  return st;
}

/* Releases k's event, state buffer and kernel reference; NULL is a no-op.
 * A launch may still run: the buffer object outlives it by OpenCL's rules,
 * and the memory a watched state lives in is given back after k's latest
 * command (gsli_watch_unmap, gsli_watch_release). */
void gsync_kernel_release(gsync_kernel *k) {
  if (k == NULL)
    return;
  if (k->state != NULL)
    gsli_watch_unmap(k); /* after k->last, so before it is released */
  if (k->state != NULL)
    clReleaseMemObject(k->state);
  gsli_watch_release(k); /* after k->last too */
  if (k->last != NULL)
    clReleaseEvent(k->last);
  if (k->last_q != NULL)
    clReleaseCommandQueue(k->last_q);
  if (k->kernel != NULL)
    clReleaseKernel(k->kernel);
  gsli_free_abort_info(&k->abort);
  free(k->info.name);
  gsli_free_params(&k->info);
  pthread_mutex_destroy(&k->lock);
  free(k);
}

gsync_status gsync_kernel_state(gsync_kernel *k, cl_mem *state, size_t *bytes,
                                char *err, size_t errlen) {
  if (k == NULL || state == NULL)
    return gsli_null_argument(err, errlen, "gsync_kernel_state",
                              k == NULL ? "k" : "state");
  pthread_mutex_lock(&k->lock);
  *state = k->state;
  if (bytes != NULL)
    *bytes = k->state_bytes;
  pthread_mutex_unlock(&k->lock);
  return GSYNC_OK;
}

/* Checks a launch shape against the constraints and create-time bound.
 * Returns GSYNC_OK or GSYNC_ERR_LAUNCH with the reason. */
static gsync_status check_launch(const gsync_kernel *k, size_t groups,
                                 size_t local_size, char *err, size_t errlen) {
  const kernel_info *i = &k->info;
  if (groups == 0 || local_size == 0)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: empty launch (%zu work-groups of %zu)",
                     i->name, groups, local_size);
  if (groups > k->max_groups)
    return gsli_fail(
        err, errlen, GSYNC_ERR_LAUNCH,
        "kernel %s: %zu work-groups exceed the %zu it was created for", i->name,
        groups, k->max_groups);
  if (groups > SIZE_MAX / local_size)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu x %zu work-items overflow", i->name,
                     groups, local_size);
  if (!i->global_barrier)
    return GSYNC_OK;
  if (i->max_work_groups != 0 && groups > i->max_work_groups)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu work-groups exceed its limit of %zu (the "
                     "most its barrier and discovery count)",
                     i->name, groups, i->max_work_groups);
  /* Constraints from before max_work_groups: the state's words count
   * work-groups in 32 bits whatever the rules. */
  if (groups > 0xffffffffu)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu work-groups exceed the %lu its state can "
                     "count",
                     i->name, groups, 0xfffffffful);
  if (local_size < i->min_local_size)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: local size %zu is below its minimum of %zu",
                     i->name, local_size, i->min_local_size);
  return GSYNC_OK;
}

/* Reads into k->limits what a launch on dev may have, unless it holds
 * dev's already. Returns GSYNC_OK or GSYNC_ERR_OPENCL. */
static gsync_status read_limits(gsync_kernel *k, cl_device_id dev, char *err,
                                size_t errlen) {
  if (k->limits.dev == dev)
    return GSYNC_OK;
  size_t group = 0, items[16];
  cl_uint dims = 0, bits = 0;
  cl_int rc = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group,
                              &group, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims,
                         &dims, NULL);
  if (rc == CL_SUCCESS && (dims < 3 || dims > 16))
    rc = CL_INVALID_VALUE;
  if (rc == CL_SUCCESS)
    rc = clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                         dims * sizeof items[0], items, NULL);
  if (rc == CL_SUCCESS)
    rc = clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetDeviceInfo (launch limits)", rc);
  /* A device that cannot say leaves the driver to refuse the launch. */
  if (clGetKernelWorkGroupInfo(
          k->kernel, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
          sizeof k->limits.reqd, k->limits.reqd, NULL) != CL_SUCCESS)
    memset(k->limits.reqd, 0, sizeof k->limits.reqd);
  /* The kernel's own limit, CL_KERNEL_WORK_GROUP_SIZE, is the driver's to
   * enforce at the launch (launch_fail names it then): NVIDIA's OpenCL
   * reports 256 for every kernel, one of 10 registers too, as if each
   * took 255, and launches 1024 (test/gpu/run.sh's 1024 row). */
  k->limits.group_items = group;
  memcpy(k->limits.dim_items, items, sizeof k->limits.dim_items);
  k->limits.max_size =
      bits >= 64 || bits == 0 ? SIZE_MAX : ((size_t)1 << bits) - 1;
  k->limits.dev = dev;
  return GSYNC_OK;
}

/* Checks an N-D launch shape on queue: the products of the work-groups
 * and of the local sizes over the dimensions fit a size_t and pass
 * check_launch; each dimension's local size, their product, and each
 * dimension's global size and offset keep to the device's limits (an
 * OpenCL driver may abort the process on a launch past them, PoCL does).
 * offset may be NULL. Sets *total to the work-groups launched. Returns
 * GSYNC_OK, GSYNC_ERR_LAUNCH or GSYNC_ERR_OPENCL. */
gsync_status gsli_check_shape(gsync_kernel *k, cl_command_queue queue,
                              cl_uint work_dim, const size_t *offset,
                              const size_t *groups, const size_t *local,
                              size_t *total, char *err, size_t errlen) {
  size_t g = 1, l = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    if ((groups[d] != 0 && g > SIZE_MAX / groups[d]) ||
        (local[d] != 0 && l > SIZE_MAX / local[d]))
      return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                       "kernel %s: the launch's size overflows", k->info.name);
    g *= groups[d];
    l *= local[d];
  }
  gsync_status st = check_launch(k, g, l, err, errlen);
  cl_device_id dev;
  cl_int rc;
  if (st == GSYNC_OK &&
      (rc = clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev,
                                  NULL)) != CL_SUCCESS)
    st =
        gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)", rc);
  if (st == GSYNC_OK)
    st = read_limits(k, dev, err, errlen);
  for (cl_uint d = 0; st == GSYNC_OK && d < work_dim; d++) {
    size_t before = offset != NULL ? offset[d] : 0;
    if (local[d] > k->limits.dim_items[d])
      st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: local size %zu in dimension %u exceeds the "
                     "device's limit of %zu (CL_DEVICE_MAX_WORK_ITEM_SIZES)",
                     k->info.name, local[d], (unsigned)d,
                     k->limits.dim_items[d]);
    else if (groups[d] > k->limits.max_size / local[d] ||
             before > k->limits.max_size - groups[d] * local[d])
      st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: %zu x %zu work-items%s in dimension %u exceed "
                     "the %zu the device's size_t holds",
                     k->info.name, groups[d], local[d],
                     before != 0 ? " past the offset" : "", (unsigned)d,
                     k->limits.max_size);
  }
  if (st == GSYNC_OK && l > k->limits.group_items)
    st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                   "kernel %s: local size %zu exceeds the %zu work-items a "
                   "work-group may have on this device "
                   "(CL_DEVICE_MAX_WORK_GROUP_SIZE)",
                   k->info.name, l, k->limits.group_items);
  const size_t *reqd = k->limits.reqd;
  int differs = 0;
  for (cl_uint d = 0; st == GSYNC_OK && reqd[0] != 0 && d < 3; d++)
    differs |= reqd[d] != (d < work_dim ? local[d] : 1);
  if (differs) {
    char shape[3 * 24] = "";
    for (cl_uint d = 0; d < work_dim; d++)
      snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%zu",
               d ? " x " : "", local[d]);
    st = gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                   "kernel %s: local size %s is not the one the kernel was "
                   "compiled for, reqd_work_group_size(%zu, %zu, %zu): launch "
                   "it with that local size",
                   k->info.name, shape, reqd[0], reqd[1], reqd[2]);
  }
  if (st == GSYNC_OK)
    *total = g;
  return st;
}

/* Held while a launch sets a kernel's state argument and enqueues it:
 * two handles may share one cl_kernel, and another thread's argument must
 * not slip in between. */
pthread_mutex_t gsli_launch_lock = PTHREAD_MUTEX_INITIALIZER;

/* Reports a failed clEnqueueNDRangeKernel of k with what the code means
 * for this kernel, where OpenCL's code alone says too little: the most
 * work-items the kernel can have on this device, or the arguments the
 * caller must set. (A local size other than the kernel's
 * reqd_work_group_size is refused before the launch, gsli_check_shape.) */
static gsync_status launch_fail(const gsync_kernel *k, cl_command_queue queue,
                                cl_uint work_dim, const size_t *local,
                                cl_int rc, char *err, size_t errlen) {
  const char *name = k->info.name;
  cl_device_id dev = NULL;
  size_t most = 0;
  if (rc == CL_INVALID_WORK_GROUP_SIZE &&
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) ==
          CL_SUCCESS) {
    size_t items = 1;
    for (cl_uint d = 0; d < work_dim; d++)
      items *= local[d];
    if (clGetKernelWorkGroupInfo(k->kernel, dev, CL_KERNEL_WORK_GROUP_SIZE,
                                 sizeof most, &most, NULL) == CL_SUCCESS &&
        most != 0 && items > most)
      return gsli_fail(
          err, errlen, GSYNC_ERR_OPENCL,
          "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): a "
          "local size of %zu work-items is more than the %zu this "
          "kernel can have on this device (CL_KERNEL_WORK_GROUP_SIZE)",
          name, gsli_cl_error_name(rc), (int)rc, items, most);
  }
  if (rc == CL_INVALID_KERNEL_ARGS) {
    cl_uint own = k->info.state_index;
    if (k->state != NULL && own > 0)
      return gsli_fail(
          err, errlen, GSYNC_ERR_OPENCL,
          "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): not "
          "every argument is set; set the kernel's own %u (indices 0 "
          "to %u) with clSetKernelArg before the launch, and libgsync "
          "sets the state argument (index %u)",
          name, gsli_cl_error_name(rc), (int)rc, own, own - 1, own);
    return gsli_fail(
        err, errlen, GSYNC_ERR_OPENCL,
        "kernel %s: clEnqueueNDRangeKernel failed: %s (%d): not "
        "every argument is set; set them with clSetKernelArg before "
        "the launch",
        name, gsli_cl_error_name(rc), (int)rc);
  }
  return gsli_cl_fail(err, errlen, "clEnqueueNDRangeKernel", rc);
}
/* Sets the state argument and enqueues a launch that gsli_check_shape passed,
 * after the handle's previous command; k->lock is held. Returns GSYNC_OK
 * or GSYNC_ERR_OPENCL. */
static gsync_status enqueue_checked(gsync_kernel *k, cl_command_queue queue,
                                    cl_uint work_dim, const size_t *offset,
                                    const size_t *groups, const size_t *local,
                                    size_t total, char *err, size_t errlen) {
  gsync_status st;
  cl_int rc = CL_SUCCESS;
  cl_event ev = NULL;
  /* The state must be zero at every launch, and the kernel does not leave
   * it so; gsync_kernel_create zeroed it for the first. */
  if (k->state != NULL &&
      ((!k->info.reset_by_kernel && k->launched) || k->fit_left_on)) {
    if ((st = gsli_zero_state(k, queue, err, errlen)) != GSYNC_OK)
      return st;
    k->fit_left_on = 0;
  }
  if (k->watch.prepare &&
      (st = gsli_watch_prepare(k, queue, err, errlen)) != GSYNC_OK)
    return st;
  size_t global[3], items = 1;
  for (cl_uint d = 0; d < work_dim; d++) {
    global[d] = groups[d] * local[d];
    items *= local[d];
  }
  k->cap_unread = 0;
  if (k->state != NULL && k->info.has_poll_cap &&
      (st = gsli_poll_cap_prepare(k, queue, total, items, err, errlen)) !=
          GSYNC_OK)
    return st;
  pthread_mutex_lock(&gsli_launch_lock);
  if (k->state != NULL)
    rc = clSetKernelArg(k->kernel, k->info.state_index, sizeof(cl_mem),
                        &k->state);
  if (rc != CL_SUCCESS) {
    pthread_mutex_unlock(&gsli_launch_lock);
    return gsli_cl_fail(err, errlen, "clSetKernelArg (state)", rc);
  }
  /* Launches of one kernel share its state, so each comes after the last;
   * on the same in-order queue that needs no event. */
  cl_uint n;
  const cl_event *after;
  int in_order = queue == k->last_q && k->last_in_order;
  if (!in_order && (rc = gsli_queue_in_order(queue, &in_order)) != CL_SUCCESS) {
    pthread_mutex_unlock(&gsli_launch_lock);
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo", rc);
  }
  if ((st = gsli_after_latest(k, queue, &n, &after, err, errlen)) != GSYNC_OK) {
    pthread_mutex_unlock(&gsli_launch_lock);
    return st;
  }
  rc = clEnqueueNDRangeKernel(queue, k->kernel, work_dim, offset, global, local,
                              n, after, in_order ? NULL : &ev);
  pthread_mutex_unlock(&gsli_launch_lock);
  if (rc != CL_SUCCESS)
    return launch_fail(k, queue, work_dim, local, rc, err, errlen);
  if ((st = gsli_record_latest(k, queue, ev, err, errlen)) != GSYNC_OK)
    return st;
  k->launched = 1;
  k->last_groups = total;
  k->last_dim = work_dim;
  for (cl_uint d = 0; d < 3; d++)
    k->last_shape[d] = d < work_dim ? groups[d] : 1;
  return GSYNC_OK;
}

/* Checks the launch shape, sets the state argument, enqueues the launch
 * after the handle's previous command, and optionally reads the
 * participant count. Returns GSYNC_OK or why the launch was refused. */
gsync_status gsync_enqueue(gsync_kernel *k, cl_command_queue queue,
                           size_t groups, size_t local_size,
                           cl_uint *participants, char *err, size_t errlen) {
  size_t total;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_enqueue",
                              k == NULL ? "k" : "queue");
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_queue(k, queue, "gsync_enqueue", err, errlen);
  if (st == GSYNC_OK)
    st = gsli_check_shape(k, queue, 1, NULL, &groups, &local_size, &total, err,
                          errlen);
  if (st == GSYNC_OK)
    st = enqueue_checked(k, queue, 1, NULL, &groups, &local_size, total, err,
                         errlen);
  if (st == GSYNC_OK && participants != NULL) {
    gsync_launch_info info;
    st = gsli_finish_launch(k, queue, &info, err, errlen);
    if (st == GSYNC_OK)
      *participants = info.participants;
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}

/* The N-D form of gsync_enqueue, with a global offset. */
gsync_status gsync_enqueue_nd(gsync_kernel *k, cl_command_queue queue,
                              cl_uint work_dim, const size_t *global_offset,
                              const size_t *groups, const size_t *local_size,
                              char *err, size_t errlen) {
  size_t total;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_enqueue_nd",
                              k == NULL ? "k" : "queue");
  if (work_dim < 1 || work_dim > 3 || groups == NULL || local_size == NULL)
    return gsli_fail(
        err, errlen, GSYNC_ERR_LAUNCH,
        "kernel %s: a launch needs 1 to 3 dimensions, with work-groups "
        "and a local size for each",
        k->info.name);
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_queue(k, queue, "gsync_enqueue_nd", err, errlen);
  if (st == GSYNC_OK)
    st = gsli_check_shape(k, queue, work_dim, global_offset, groups, local_size,
                          &total, err, errlen);
  if (st == GSYNC_OK)
    st = enqueue_checked(k, queue, work_dim, global_offset, groups, local_size,
                         total, err, errlen);
  pthread_mutex_unlock(&k->lock);
  return st;
}
