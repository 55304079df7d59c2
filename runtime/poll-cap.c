/* The poll cap: how many of a launch's work-groups discovery polls, learnt
 * from the launches before it, for the discovery rules that read one. */
#include "internal.h"

/* ---- The poll cap (docs/constraints.md "The poll cap") ----
 *
 * A discovery rule with a poll cap polls only the first N launched groups
 * when state word poll_cap_offset holds N; the rest return at once without
 * touching the state. libgsync sets N to how many groups took part in the
 * latest launch, on the same device and local size, that launched more
 * than took part, so an oversubscribed launch costs about what a launch of
 * the groups that fit does. Every CAP_REMEASURE-th capped launch polls
 * every group again, so that a device that came to hold more groups (one
 * that another program no longer shares) is seen. A capped launch that
 * admits fewer than its cap says that the device does not run the first
 * groups together (PoCL deals groups out to its threads in runs of
 * consecutive ids) or runs fewer now: the next launch polls every group
 * again, and after CAP_SHORT such launches that device and local size get
 * no cap. */
#define CAP_REMEASURE 32u
#define CAP_SHORT 2u

/* k's entry for dev and local size local, made (replacing the oldest)
 * when it has none. */
static size_t cap_entry(gsync_kernel *k, cl_device_id dev, size_t local) {
  size_t n = sizeof k->caps / sizeof k->caps[0];
  for (size_t i = 0; i < k->n_caps && i < n; i++)
    if (k->caps[i].dev == dev && k->caps[i].local == local)
      return i;
  size_t i = k->n_caps++ % n;
  k->caps[i].dev = dev;
  k->caps[i].local = local;
  k->caps[i].fit = k->caps[i].capped = k->caps[i].short_ = 0;
  return i;
}

/* Chooses the cap of a launch of groups work-groups of local work-items on
 * queue and, where the state's word does not already act so, enqueues its
 * write after k's latest command. Returns GSYNC_OK or GSYNC_ERR_OPENCL. */
gsync_status gsli_poll_cap_prepare(gsync_kernel *k, cl_command_queue queue,
                                   size_t groups, size_t local, char *err,
                                   size_t errlen) {
  cl_device_id dev;
  cl_int rc =
      clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clGetCommandQueueInfo(QUEUE_DEVICE)", rc);
  size_t e = cap_entry(k, dev, local);
  cl_uint cap = 0;
  if (k->caps[e].fit != 0 && groups > k->caps[e].fit &&
      k->caps[e].short_ < CAP_SHORT) {
    if (k->caps[e].capped < CAP_REMEASURE) {
      cap = k->caps[e].fit;
      k->caps[e].capped++;
    } else {
      k->caps[e].capped = 0; /* this launch measures again */
    }
  }
  k->last_cap = cap;
  k->last_dev = dev;
  k->last_local = local;
  k->cap_unread = 1;
  /* A cap of the launch's size or more caps nothing, as 0 does. */
  cl_uint now = k->cap_written < groups ? k->cap_written : 0;
  if (now == cap)
    return GSYNC_OK;
  gsync_status st = gsli_fill_state(
      k, queue, &cap, sizeof cap, k->info.poll_cap_offset, sizeof cap,
      "clEnqueueFillBuffer (poll cap)", err, errlen);
  if (st == GSYNC_OK)
    k->cap_written = cap;
  return st;
}

/* Takes what a launch that completed admitted, out of the groups it
 * polled, for the caps of later launches. */
void gsli_poll_cap_learn(gsync_kernel *k, cl_uint admitted) {
  size_t e = cap_entry(k, k->last_dev, k->last_local);
  if (k->last_cap != 0) {
    if (admitted < k->last_cap) { /* see CAP_SHORT */
      k->caps[e].short_++;
      k->caps[e].capped = CAP_REMEASURE;
    }
  } else if (admitted < k->last_groups) {
    k->caps[e].fit = admitted; /* fewer than were launched fit */
    k->caps[e].capped = 0;
  } else if (admitted > k->caps[e].fit) {
    k->caps[e].fit = 0; /* more fit than the cap said: measure again */
  }
}
