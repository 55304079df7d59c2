/* The end of a launch: gsync_finish and gsync_finish_nd wait for it and
 * read how many work-groups took part, the virtual grid and the abort
 * record; an aborted launch's message says where it hung and what can
 * cause that; gsync_launch_note says why not every launched work-group
 * took part. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Writes into out (size bytes) the work-group of the latest launch of k
 * whose linear id is id: "7" for a 1-D launch, "(3, 1)" for a 2-D one. */
static void group_name(const gsync_kernel *k, cl_uint id, char *out,
                       size_t size) {
  size_t w = k->last_shape[0] ? k->last_shape[0] : 1;
  size_t h = k->last_shape[1] ? k->last_shape[1] : 1;
  size_t x = id % w, y = id / w;
  if (k->last_dim <= 1)
    snprintf(out, size, "%u", (unsigned)id);
  else if (k->last_dim == 2)
    snprintf(out, size, "(%zu, %zu)", x, y);
  else
    snprintf(out, size, "(%zu, %zu, %zu)", x, y % h, y / h);
}

/* Each cause (a gsync_cause bit) and its words, "%s" standing for the
 * spin limit, in the order of the bits, which messages keep: the one list
 * that the message, the launch info and gsync_launch_cause share. */
static const struct {
  cl_uint cause;
  const char *words;
} causes_table[] = {
    {GSYNC_CAUSE_TOO_MANY_GROUPS,
     "more work-groups launched than the device runs at once (this output "
     "has no discovery)"},
    {GSYNC_CAUSE_BARRIER_NOT_REACHED,
     "a global_barrier() that some work-group does not reach"},
    {GSYNC_CAUSE_LONG_PHASE,
     "work between two barriers that takes longer than %s (--spin-limit)"},
    {GSYNC_CAUSE_JOINED_AND_STOPPED,
     "a work-group that joined stopped before closing the poll"},
    {GSYNC_CAUSE_SLOW_START, "the device starts work-groups more slowly than "
                             "%s allows (--spin-limit)"}};
#define N_CAUSES (sizeof causes_table / sizeof causes_table[0])

static cl_uint causes_of(const gsync_kernel *k, const cl_uint *rec) {
  if (rec[ABORT_KIND] == ABORTED_IN_DISCOVERY)
    return GSYNC_CAUSE_JOINED_AND_STOPPED | GSYNC_CAUSE_SLOW_START;
  return (k->abort.discovery ? 0u : (cl_uint)GSYNC_CAUSE_TOO_MANY_GROUPS) |
         GSYNC_CAUSE_BARRIER_NOT_REACHED | GSYNC_CAUSE_LONG_PHASE;
}

/* "the spin limit of 5000 ms", or "the spin limit" where the constraints
 * do not say it. */
static void limit_words(const gsync_kernel *k, char *out, size_t size) {
  if (k->abort.spin_limit_ms)
    snprintf(out, size, "the spin limit of %zu ms", k->abort.spin_limit_ms);
  else
    snprintf(out, size, "the spin limit");
}

size_t gsync_launch_cause(const gsync_kernel *k, cl_uint cause, char *buf,
                          size_t len) {
  if (buf != NULL && len > 0)
    buf[0] = '\0';
  size_t i = 0;
  while (i < N_CAUSES && cause != causes_table[i].cause)
    i++;
  if (k == NULL || i == N_CAUSES)
    return 0;
  char limit[64];
  limit_words(k, limit, sizeof limit);
  int n = snprintf(buf, buf != NULL ? len : 0, causes_table[i].words, limit);
  return n > 0 ? (size_t)n : 0;
}

/* The causes of causes, as a message lists them: "A, B, or C". */
static void list_causes(const gsync_kernel *k, cl_uint causes, char *out,
                        size_t size) {
  size_t at = 0, left = 0;
  for (size_t i = 0; i < N_CAUSES; i++)
    left += (causes & causes_table[i].cause) != 0;
  out[0] = '\0';
  for (size_t i = 0; i < N_CAUSES && at < size; i++) {
    if (!(causes & causes_table[i].cause))
      continue;
    left--;
    at += (size_t)snprintf(out + at, size - at, "%s",
                           at == 0     ? ""
                           : left == 0 ? ", or "
                                       : ", ");
    if (at < size)
      at += gsync_launch_cause(k, causes_table[i].cause, out + at, size - at);
  }
}

/* Writes the message for the abort record rec of a launch of k into err;
 * returns GSYNC_ERR_TIMEOUT. The message says what was seen, all from the
 * record (a later launch of k may have been enqueued since), and lists the
 * causes that can explain it: the device cannot tell them apart. */
gsync_status gsli_timeout_error(const gsync_kernel *k, const cl_uint *rec,
                                char *err, size_t errlen) {
  const abort_info *a = &k->abort;
  int timed = k->info.abort_bytes >= ABORT_RECORD_BYTES;
  char group[96] = "", real[64], waited[48], causes[512];
  group_name(k, rec[ABORT_REAL_GROUP], real, sizeof real);
  if (rec[ABORT_GROUP] == rec[ABORT_REAL_GROUP] ||
      rec[ABORT_GROUP] == 0xffffffffu)
    snprintf(group, sizeof group, "%s", real);
  else
    snprintf(group, sizeof group, "%u (launched as %s)",
             (unsigned)rec[ABORT_GROUP], real);
  if (timed)
    snprintf(waited, sizeof waited, "%u ms", (unsigned)rec[ABORT_WAITED_MS]);
  else
    snprintf(waited, sizeof waited, "past the spin limit");
  list_causes(k, causes_of(k, rec), causes, sizeof causes);
  if (rec[ABORT_KIND] == ABORTED_IN_DISCOVERY)
    return gsli_fail(
        err, errlen, GSYNC_ERR_TIMEOUT,
        "kernel %s: occupancy discovery aborted the launch: "
        "work-group %s waited %s for the poll to close and saw %u of "
        "%u launched work-groups join; possible causes: %s",
        k->info.name, group, waited, (unsigned)rec[ABORT_ARRIVED],
        (unsigned)rec[ABORT_EXPECTED], causes);
  char place[96], launched[64];
  cl_uint site = rec[ABORT_SITE];
  if (site >= 1 && site <= a->n_sites)
    snprintf(place, sizeof place, "at %.80s", a->site_places[site - 1]);
  else
    snprintf(place, sizeof place, "site %u", (unsigned)site);
  snprintf(launched, sizeof launched, "%zu",
           timed ? (size_t)rec[ABORT_LAUNCHED] : k->last_groups);
  return gsli_fail(
      err, errlen, GSYNC_ERR_TIMEOUT,
      "kernel %s: global barrier %s aborted the launch: work-group %s "
      "waited %s and saw %u of %u work-groups arrive (%s launched); "
      "possible causes: %s",
      k->info.name, place, group, waited, (unsigned)rec[ABORT_ARRIVED],
      (unsigned)rec[ABORT_EXPECTED], launched, causes);
}

/* Fills info's fields from end on from the abort record rec of a launch
 * of k that ended early, and the state's words. */
static void record_end(const gsync_kernel *k, const cl_uint *rec,
                       const cl_uint *words, gsync_launch_info *info) {
  int timed = k->info.abort_bytes >= ABORT_RECORD_BYTES;
  switch (rec[ABORT_KIND]) {
  case ABORTED_IN_BARRIER:
    info->end = GSYNC_END_BARRIER;
    info->site = rec[ABORT_SITE];
    break;
  case ABORTED_IN_DISCOVERY:
    info->end = GSYNC_END_DISCOVERY;
    break;
  case ABORTED_BY_CANCEL:
  case ABORTED_AT_DEADLINE:
    if (k->watch.prepare) {
      info->end = rec[ABORT_KIND] == ABORTED_BY_CANCEL ? GSYNC_END_CANCELLED
                                                       : GSYNC_END_DEADLINE;
      info->barriers = words[WATCH_BARRIERS];
      if (info->end == GSYNC_END_DEADLINE)
        info->deadline_ms = words[WATCH_DEADLINE_MS];
      return;
    }
    /* Not watched: reported as a barrier's abort (gsli_timeout_error). */
    info->end = GSYNC_END_BARRIER;
    info->site = rec[ABORT_SITE];
    break;
  default:
    info->end = GSYNC_END_BARRIER;
    info->site = rec[ABORT_SITE];
  }
  info->causes = causes_of(k, rec);
  info->group = rec[ABORT_GROUP];
  info->launch_group = rec[ABORT_REAL_GROUP];
  info->arrived = rec[ABORT_ARRIVED];
  info->expected = rec[ABORT_EXPECTED];
  info->waited_ms = timed ? rec[ABORT_WAITED_MS] : 0xffffffffu;
  if (timed)
    info->launched = rec[ABORT_LAUNCHED];
}

/* Waits for k's latest launch, with k->lock held; reads the participant
 * count, the virtual grid and the abort record in one read of the state's
 * fixed words, into *info (every field). A launch that aborted leaves the state
 * mid-barrier, so it is zeroed again (ordered before the next launch) and the
 * record reported. */
gsync_status gsli_finish_launch(gsync_kernel *k, cl_command_queue queue,
                                gsync_launch_info *info, char *err,
                                size_t errlen) {
  cl_int rc;
  if (!k->launched)
    return gsli_fail(err, errlen, GSYNC_ERR_LAUNCH,
                     "kernel %s: nothing launched", k->info.name);
  info->work_dim = k->last_dim;
  for (int d = 0; d < 3; d++)
    info->groups[d] = k->last_shape[d];
  info->admitted = info->participants = (cl_uint)k->last_groups;
  info->left_out = 0;
  /* gsli_poll_cap_prepare caps only launches of more groups than the cap */
  info->polled = k->last_cap != 0 ? k->last_cap : (cl_uint)k->last_groups;
  info->launched = (cl_uint)k->last_groups;
  info->end = GSYNC_END_COMPLETED;
  info->site = info->group = info->launch_group = info->arrived = 0;
  info->expected = info->waited_ms = info->barriers = info->deadline_ms = 0;
  info->causes = 0;
  if (k->state == NULL) {
    /* Without a barrier every launched group takes part. */
    if ((rc = gsli_wait_latest(k)) != CL_SUCCESS)
      return gsli_cl_fail(err, errlen, "waiting for the launch", rc);
    return GSYNC_OK;
  }
  const kernel_info *i = &k->info;
  size_t end = i->participants_offset + 4;
  if (i->has_abort_record && i->abort_offset + i->abort_bytes > end)
    end = i->abort_offset + i->abort_bytes;
  if (i->has_grid && i->grid_offset + 12 > end)
    end = i->grid_offset + 12;
  if (k->watch.prepare && end < WATCH_END * 4)
    end = WATCH_END * 4;
  cl_uint words[64];
  if (end > sizeof words)
    return gsli_fail(err, errlen, GSYNC_ERR_FORMAT,
                     "kernel %s: state words beyond byte %zu are not supported",
                     i->name, sizeof words);
  cl_uint n;
  const cl_event *after;
  gsync_status st = gsli_after_latest(k, queue, &n, &after, err, errlen);
  if (st != GSYNC_OK)
    return st;
  rc = clEnqueueReadBuffer(queue, k->state, CL_TRUE, 0, end, words, n, after,
                           NULL);
  if (rc != CL_SUCCESS)
    return gsli_cl_fail(err, errlen, "clEnqueueReadBuffer (state)", rc);
  const cl_uint *rec = i->has_abort_record ? words + i->abort_offset / 4 : NULL;
  int learn = k->cap_unread;
  k->cap_unread = 0;
  if (rec != NULL && rec[ABORT_KIND] != 0) {
    record_end(k, rec, words, info);
    st = gsli_zero_state(k, queue, err, errlen);
    if (st == GSYNC_OK && k->watch.prepare &&
        (rec[ABORT_KIND] == ABORTED_BY_CANCEL ||
         rec[ABORT_KIND] == ABORTED_AT_DEADLINE))
      return gsli_watch_stopped(k, words, err, errlen);
    return st != GSYNC_OK ? st : gsli_timeout_error(k, rec, err, errlen);
  }
  info->admitted = info->participants = words[i->participants_offset / 4];
  if (learn)
    gsli_poll_cap_learn(k, info->admitted);
  const cl_uint *grid = i->has_grid ? words + i->grid_offset / 4 : NULL;
  if (grid != NULL && grid[0] != 0 && grid[1] != 0 && grid[2] != 0) {
    info->participants = grid[0] * grid[1] * grid[2];
    for (int d = 0; d < 3; d++)
      info->groups[d] = grid[d];
  } else {
    /* Constraints from before the grid: discovery numbered dimension 0. */
    info->groups[0] = info->admitted;
    info->groups[1] = info->groups[2] = 1;
  }
  if (info->admitted > info->participants)
    info->left_out = info->admitted - info->participants;
  return GSYNC_OK;
}

/* Waits for k's latest launch and reports how many groups took part. */
gsync_status gsync_finish(gsync_kernel *k, cl_command_queue queue,
                          cl_uint *participants, char *err, size_t errlen) {
  gsync_launch_info info;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_finish",
                              k == NULL ? "k" : "queue");
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_queue(k, queue, "gsync_finish", err, errlen);
  if (st == GSYNC_OK)
    st = gsli_finish_launch(k, queue, &info, err, errlen);
  pthread_mutex_unlock(&k->lock);
  if (st == GSYNC_OK && participants != NULL)
    *participants = info.participants;
  return st;
}

/* Waits for k's latest launch and reports the grid it ran on, as far as
 * the caller's struct reaches. */
gsync_status gsync_finish_nd(gsync_kernel *k, cl_command_queue queue,
                             gsync_launch_info *info, char *err,
                             size_t errlen) {
  gsync_launch_info all;
  if (k == NULL || queue == NULL)
    return gsli_null_argument(err, errlen, "gsync_finish_nd",
                              k == NULL ? "k" : "queue");
  pthread_mutex_lock(&k->lock);
  gsync_status st = gsli_check_queue(k, queue, "gsync_finish_nd", err, errlen);
  if (st == GSYNC_OK)
    st = gsli_finish_launch(k, queue, &all, err, errlen);
  pthread_mutex_unlock(&k->lock);
  if ((st == GSYNC_OK || st == GSYNC_ERR_TIMEOUT ||
       st == GSYNC_ERR_CANCELLED) &&
      info != NULL && info->size > sizeof info->size) {
    size_t n = info->size < sizeof all ? info->size : sizeof all;
    all.size = info->size;
    memcpy(info, &all, n);
  }
  return st;
}

/* Appends to buf (len bytes, kept NUL-terminated) at *at, which counts
 * the whole length whether or not it fits, as snprintf does. */
static void note_printf(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void note_printf(char *buf, size_t len, size_t *at, const char *fmt,
                        ...) {
  va_list ap;
  va_start(ap, fmt);
  int room = buf != NULL && *at < len;
  int n = vsnprintf(room ? buf + *at : NULL, room ? len - *at : 0, fmt, ap);
  va_end(ap);
  if (n > 0)
    *at += (size_t)n;
}

/* See libgsync.h. */
size_t gsync_launch_note(const gsync_launch_info *info, char *buf, size_t len) {
  if (buf != NULL && len > 0)
    buf[0] = '\0';
  if (info == NULL ||
      info->size <
          offsetof(gsync_launch_info, launched) + sizeof info->launched ||
      info->participants >= info->launched)
    return 0;
  size_t at = 0;
  note_printf(buf, len, &at,
              "%u of the %u work-groups launched took part in the global "
              "barrier",
              (unsigned)info->participants, (unsigned)info->launched);
  if (info->admitted < info->launched) {
    note_printf(buf, len, &at,
                ": discovery admitted only the %u that the device ran at "
                "once, and the others returned at once",
                (unsigned)info->admitted);
    if (info->polled < info->launched)
      note_printf(buf, len, &at,
                  " (it polled the first %u, as many as fitted in an earlier "
                  "launch)",
                  (unsigned)info->polled);
  }
  if (info->left_out > 0) {
    note_printf(buf, len, &at,
                "%s%u admitted work-groups were left out of the virtual grid "
                "of %zu",
                info->admitted < info->launched ? "; " : ": ",
                (unsigned)info->left_out, info->groups[0]);
    for (cl_uint d = 1; d < info->work_dim && d < 3; d++)
      note_printf(buf, len, &at, " x %zu", info->groups[d]);
  }
  note_printf(buf, len, &at,
              "; the ids count only the work-groups that took part, so a "
              "kernel that is not grid-stride (for (i = get_global_id(0); i < "
              "n; i += get_global_size(0))) leaves the data past their ids "
              "untouched");
  return at;
}
