/* The commands on a kernel's state buffer (the fills, among them the
 * zeroing before a launch) and their order with its launches and reads,
 * which every file that enqueues on the state goes through, and the check
 * that the queue they go to is of the kernel's context. */
#include "internal.h"

/* ---- The order of the commands on a kernel's state ----
 *
 * Every command on the state (a launch, a fill, a read) must run after the
 * one before it. On the in-order queue the latest one went to, that order
 * is the queue's own, and a launch there asks for no event (an event and
 * a wait list cost about 1.5 µs a launch on NVIDIA's driver:
 * bench/results/h100.md). Elsewhere a command waits for the latest one's
 * event; for a launch that made none, a marker enqueued after it on its
 * queue stands in (or, without markers, that queue finishes on the host). */

/* Checks that queue belongs to the context of k's kernel, where a command
 * of another context's queue fails with a bare CL_INVALID_CONTEXT; a
 * queue k's latest command went to passed already. Returns GSYNC_OK,
 * GSYNC_ERR_ARGUMENT or GSYNC_ERR_OPENCL. */
gsync_status gsli_check_queue(const gsync_kernel *k, cl_command_queue queue,
                              const char *fn, char *err, size_t errlen) {
  cl_context qctx = NULL;
  if (queue == k->last_q)
    return GSYNC_OK;
  cl_int rc =
      clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)",
                        rc);
  if (qctx != k->ctx)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: queue belongs to another context than kernel %s "
                     "(the one gsync_kernel_create was given)",
                     fn, k->info.name);
  return GSYNC_OK;
}

/* Sets *in_order to whether queue runs its commands in order. */
cl_int gsli_queue_in_order(cl_command_queue queue, int *in_order) {
  cl_command_queue_properties props = 0;
  cl_int rc = clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                    &props, NULL);
  *in_order =
      rc == CL_SUCCESS && (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
  return rc;
}

/* Sets *n and *list to the wait list a new command on queue needs to come
 * after k's latest command (empty where the queue orders it). Returns
 * GSYNC_OK or GSYNC_ERR_OPENCL. */
gsync_status gsli_after_latest(gsync_kernel *k, cl_command_queue queue,
                               cl_uint *n, const cl_event **list, char *err,
                               size_t errlen) {
  *n = 0;
  *list = NULL;
  if (k->last_q == NULL || (queue == k->last_q && k->last_in_order))
    return GSYNC_OK;
  /* A launch without an event: a marker after it on its in-order queue
   * stands in (OpenCL 1.2); without markers, that queue finishes. */
  if (k->last == NULL &&
      clEnqueueMarkerWithWaitList(k->last_q, 0, NULL, &k->last) != CL_SUCCESS) {
    k->last = NULL;
    cl_int rc = clFinish(k->last_q);
    return rc == CL_SUCCESS
               ? GSYNC_OK
               : gsli_cl_fail(err, errlen, "clFinish (the state's last queue)",
                              rc);
  }
  *n = 1;
  *list = &k->last;
  return GSYNC_OK;
}

/* Records a command just enqueued on queue, with its event ev (owned from
 * now on; NULL only on an in-order queue), as k's latest. Returns GSYNC_OK
 * or GSYNC_ERR_OPENCL. */
gsync_status gsli_record_latest(gsync_kernel *k, cl_command_queue queue,
                                cl_event ev, char *err, size_t errlen) {
  if (k->last != NULL)
    clReleaseEvent(k->last);
  k->last = ev;
  if (queue == k->last_q)
    return GSYNC_OK;
  cl_int rc = clRetainCommandQueue(queue);
  if (rc != CL_SUCCESS) {
    /* Not recorded: let it finish, so that nothing later needs its order. */
    clFinish(queue);
    return gsli_cl_fail(err, errlen, "clRetainCommandQueue", rc);
  }
  if (k->last_q != NULL)
    clReleaseCommandQueue(k->last_q);
  k->last_q = queue;
  rc = gsli_queue_in_order(queue, &k->last_in_order);
  return rc == CL_SUCCESS
             ? GSYNC_OK
             : gsli_cl_fail(err, errlen, "clGetCommandQueueInfo", rc);
}

/* Waits on the host until k's latest command has finished. */
cl_int gsli_wait_latest(const gsync_kernel *k) {
  if (k->last != NULL)
    return clWaitForEvents(1, &k->last);
  return k->last_q != NULL ? clFinish(k->last_q) : CL_SUCCESS;
}

/* Enqueues a fill of size bytes of k's state from offset with the pattern
 * (copied at once) after k's latest command (if any), and records it as
 * the latest. what names the fill in an error. Returns GSYNC_OK or
 * GSYNC_ERR_OPENCL. */
gsync_status gsli_fill_state(gsync_kernel *k, cl_command_queue queue,
                             const void *pattern, size_t pattern_size,
                             size_t offset, size_t size, const char *what,
                             char *err, size_t errlen) {
  cl_event ev = NULL;
  cl_uint n;
  const cl_event *after;
  gsync_status st = gsli_after_latest(k, queue, &n, &after, err, errlen);
  if (st != GSYNC_OK)
    return st;
  cl_int rc = clEnqueueFillBuffer(queue, k->state, pattern, pattern_size,
                                  offset, size, n, after, &ev);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, what, rc);
  return gsli_record_latest(k, queue, ev, err, errlen);
}

/* Whether the host shares k's state and so owns word watch_cancel, which
 * gsli_zero_state must then leave alone. */
static int watch_keeps_cancel(const gsync_kernel *k) {
  return k->watch.shared != NULL;
}

/* Enqueues the zeroing of k's state after its latest command (if any),
 * which becomes the latest. Returns GSYNC_OK or GSYNC_ERR_OPENCL. */
gsync_status gsli_zero_state(gsync_kernel *k, cl_command_queue queue, char *err,
                             size_t errlen) {
  const cl_uchar zero = 0;
  k->cap_written = 0;
  /* While the host shares the state, it alone writes word watch_cancel
   * (see gsync_cancel): the zeroing goes around it. */
  size_t ranges[2][2] = {{0, k->state_bytes}, {0, 0}};
  if (watch_keeps_cancel(k)) {
    ranges[0][1] = WATCH_CANCEL * 4;
    ranges[1][0] = WATCH_CANCEL * 4 + 4;
    ranges[1][1] = k->state_bytes;
  }
  for (int r = 0; r < 2 && ranges[r][1] > ranges[r][0]; r++) {
    gsync_status st = gsli_fill_state(
        k, queue, &zero, sizeof zero, ranges[r][0], ranges[r][1] - ranges[r][0],
        "clEnqueueFillBuffer (state)", err, errlen);
    if (st != GSYNC_OK)
      return st;
  }
  return GSYNC_OK;
}
