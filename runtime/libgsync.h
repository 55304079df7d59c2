/* libgsync: launches kernels rewritten by gsync-rewrite.
 *
 * A host program needs one call more than usual: load the constraints file
 * the tool wrote, check the device, then let gsync_kernel_create() make and
 * zero the hidden state buffer and gsync_enqueue() set it and launch.
 * The library never prints and never exits; every function returns a
 * gsync_status and, on failure, writes a one-line message into err (when
 * err is not NULL and errlen is not 0). A NULL handle or pointer where one
 * is needed is GSYNC_ERR_ARGUMENT, never a crash.
 *
 * Without libgsync: a host that launches a rewritten kernel itself (plain
 * clEnqueueNDRangeKernel) sets the state argument, the kernel's last, to a
 * zeroed buffer of fixed + per_group x work-groups bytes
 * (gsync_program_kernel_info; docs/constraints.md, "Launching"). Forgotten,
 * the launch fails with CL_INVALID_KERNEL_ARGS (-52) and no more; a
 * smaller buffer is not refused by OpenCL at all, and the kernel reads and
 * writes past its end. gsync_kernel_create makes the buffer to size, and
 * gsync_enqueue sets it and, where the caller left one of the kernel's own
 * arguments unset, says which to set.
 *
 * Threads: a gsync_program may be shared once loaded (all but
 * gsync_program_build_options only read it; for an output of
 * --barrier=auto, gsync_program_check_device, _choose_barrier and
 * _set_barrier write the choice too). Calls on one gsync_kernel
 * from several threads take turns: each waits for the one in progress, so
 * a gsync_finish in one thread holds back a launch in another until it
 * returns; launches of one handle never overlap on the device, whatever
 * the queues. Handles that share one cl_kernel may be used from different
 * threads (the state argument is set and the launch enqueued under one
 * lock), but setting the kernel's other arguments is the caller's to
 * order, as OpenCL says for any cl_kernel. Releasing a handle while
 * another thread uses it is an error libgsync cannot catch.
 */
#ifndef LIBGSYNC_H
#define LIBGSYNC_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 is the only success. */
typedef enum gsync_status {
  GSYNC_OK = 0,
  GSYNC_ERR_IO,     /* the constraints file could not be read */
  GSYNC_ERR_FORMAT, /* it is not gsync-constraints version 1 */
  GSYNC_ERR_DEVICE, /* the device does not meet "requires" */
  GSYNC_ERR_KERNEL, /* the kernel is not in the constraints */
  GSYNC_ERR_LAUNCH, /* a launch shape the constraints forbid */
  GSYNC_ERR_OPENCL, /* an OpenCL call failed; err names it */
  GSYNC_ERR_NOMEM,
  GSYNC_ERR_TIMEOUT,  /* a spin gave up and the launch was aborted; err
                         names the barrier and the likely cause */
  GSYNC_ERR_MISMATCH, /* the program was not built from the output these
                         constraints were written with */
  GSYNC_ERR_ARGUMENT, /* a NULL handle or pointer where one is needed */
  GSYNC_ERR_CANCELLED /* the launch was stopped by gsync_cancel or its
                         deadline (gsync_set_deadline); err says which and
                         after how many barriers */
} gsync_status;

typedef struct gsync_program gsync_program; /* one constraints file */
typedef struct gsync_kernel gsync_kernel;   /* one kernel + its state */

/* Reads and validates a constraints file written by gsync-rewrite.
 * GSYNC_ERR_IO when it cannot be read, or is not a regular file of at
 * most 16 MiB; GSYNC_ERR_FORMAT, naming the file and the field, when it is
 * not valid gsync-constraints version 1, when a state size or offset is
 * out of bounds, or when one differs from the "state_layout" it declares.
 * Fields this version does not know are ignored. */
gsync_status gsync_program_load(const char *constraints_path,
                                gsync_program **out, char *err, size_t errlen);
void gsync_program_release(gsync_program *program);

/* The device a program of this project runs on: device index (0: the
 * first) of the first OpenCL platform whose name contains platform ("" or
 * NULL with $GSYNC_PLATFORM unset or empty: the first platform; NULL:
 * $GSYNC_PLATFORM's text), into *device_out and, unless NULL,
 * *platform_out. gsync-run, gsync-check, gsync-bench and gsync-graph all
 * pick theirs with it, so GSYNC_PLATFORM means one thing to each.
 * GSYNC_ERR_DEVICE with err saying what there is where no platform matches
 * or it lacks that device; GSYNC_ERR_ARGUMENT for a NULL device_out. */
gsync_status gsync_pick_device(const char *platform, cl_uint index,
                               cl_platform_id *platform_out,
                               cl_device_id *device_out, char *err,
                               size_t errlen);

/* Reads the whole file at path into a new NUL-terminated buffer, *text,
 * for the caller to free(), and its length into *len unless len is NULL:
 * the rewritten output, for clCreateProgramWithSource. As for constraints
 * files, only a regular file of at most 16 MiB is read (a FIFO or a
 * device is refused, not waited on); GSYNC_ERR_IO with err naming the
 * file and why, GSYNC_ERR_NOMEM, GSYNC_ERR_ARGUMENT for a NULL path or
 * text. */
gsync_status gsync_read_file(const char *path, char **text, size_t *len,
                             char *err, size_t errlen);

/* Checks that dev meets the program's "requires" (OpenCL C version,
 * extensions, atomic capabilities); GSYNC_ERR_DEVICE with err saying what
 * is missing, e.g. 'device "X" lacks atomic capability acq_rel required by
 * barrier acq-rel'. OpenCL C 3.0 stands in for 2.0 when the device has the
 * atomic capabilities required; the int32 atomics extensions are core from
 * OpenCL 1.1 on and need not be listed. On PoCL, also that its
 * clBuildProgram can take every build option as it was rewritten with
 * (gsync_program_build_options): a -D value with a double quote, a tab or
 * a line break is GSYNC_ERR_DEVICE naming the option, as PoCL would
 * define another macro or refuse the build. */
gsync_status gsync_program_check_device(const gsync_program *program,
                                        cl_device_id dev, char *err,
                                        size_t errlen);

/* The options to pass to clBuildProgram for this program on dev; add your
 * own after them. First -cl-std=: the version the output needs (the
 * higher of the input's -cl-std and the barrier's), except that a program
 * needing OpenCL C 2.0 gets -cl-std=CL3.0 on a device that offers 3.0 with
 * the required atomic capabilities (PoCL builds 2.0 atomics only that
 * way). Then the preprocessor options the source was rewritten with
 * (constraints "build.options": -D and -I, paths absolute, -I for the
 * input's own directory first), the value of one with a blank, a quote
 * or a backslash in double quotes after its flag, with \ and " escaped
 * (-I"/a b", -D"N=a b"), as OpenCL compilers take it. PoCL splits at
 * blanks outside double quotes, then reads each double quote as a blank
 * (3.1; later versions drop it) and keeps each backslash: for it only a
 * value with a blank is quoted,
 * and nothing escaped, and a directory with a blank, a quote or a
 * backslash is held open until gsync_program_release and named
 * -I/proc/self/fd/N (what it cannot take at all,
 * gsync_program_check_device refuses). Then, on NVIDIA devices,
 * -DGSYNC_NV_SM=<compute capability, e.g. 90>, so rules use PTX that only
 * newer GPUs have (sm_70+) only where it exists; on a CPU device with a
 * spin limit, -Dgsync_clock_hz=<its time-stamp counter's rate>, the clock
 * that bounds waits there (measured once a call, in 20 ms). Nothing
 * else: the output builds right optimised everywhere, PoCL included
 * (docs/pocl.md, section 6), so a host that builds it with options of its
 * own gets the same kernel. Valid until
 * the next call with the same program, which makes this the one call on a
 * program that threads must not make at once. "" for a NULL program; NULL
 * if out of memory. */
const char *gsync_program_build_options(const gsync_program *program,
                                        cl_device_id dev);

/* Outputs of --barrier=auto (docs/auto.md) hold several barrier rules, of
 * which a build compiles the one whose macro it defines.
 * gsync_program_build_options defines the rule libgsync chooses for the
 * device, the first of: the rule forced by gsync_program_set_barrier,
 * else by the environment variable GSYNC_BARRIER; gsync-check's
 * recommendation cached for this device (gsync_check_cache_path); the
 * device table (include/gsync-auto.def); the rules inside, in order;
 * each only where the device can build it (a forced one must).
 * gsync_program_check_device fails with GSYNC_ERR_DEVICE where no rule
 * inside builds, or the forced one does not, saying why.
 * gsync_program_choose_barrier says which rule that is, and why; for an
 * output of one rule, that rule ("named"). The strings point into the
 * program, valid until the next choice or gsync_program_release; like
 * gsync_program_build_options, not to be called by threads at once. */
typedef struct gsync_barrier_choice {
  size_t size;
  const char *rule;   /* "tree" */
  const char *define; /* "GSYNC_BARRIER_TREE"; NULL for a named rule */
  const char *source; /* "forced", "cache", "table", "first" or "named" */
  const char *why;    /* one line: the rule, and why */
} gsync_barrier_choice;
gsync_status gsync_program_choose_barrier(const gsync_program *program,
                                          cl_device_id dev,
                                          gsync_barrier_choice *choice,
                                          char *err, size_t errlen);
/* Forces rule (NULL: no more) for the program's builds, before
 * GSYNC_BARRIER; GSYNC_ERR_ARGUMENT where the output does not hold it. */
gsync_status gsync_program_set_barrier(gsync_program *program, const char *rule,
                                       char *err, size_t errlen);
/* gsync-check's cache of its recommendation for dev: the file's path
 * into path (len bytes), "" where there is no cache (GSYNC_CHECK_CACHE
 * set empty, or neither it, XDG_CACHE_HOME nor HOME set). The directory
 * is $GSYNC_CHECK_CACHE, else $XDG_CACHE_HOME/gsync, else
 * $HOME/.cache/gsync; the file check-<hash of the device's platform,
 * name, version and driver version>.json. */
gsync_status gsync_check_cache_path(cl_device_id dev, char *path, size_t len,
                                    char *err, size_t errlen);
/* Writes rule (and why, one line) as the recommendation for dev into the
 * cache, making its directory; its path into path (len bytes) unless
 * path is NULL, "" where there is no cache (then nothing is written).
 * GSYNC_ERR_IO where the file cannot be written. */
gsync_status gsync_check_cache_store(cl_device_id dev, const char *rule,
                                     const char *why, char *path, size_t len,
                                     char *err, size_t errlen);

/* Checks that source, the text of a program (as given to
 * clCreateProgramWithSource), is the output these constraints were
 * written with: its gsync_fingerprint and gsync_state_layout lines must
 * match the constraints' "fingerprint" and "state_layout"
 * (docs/constraints.md). GSYNC_ERR_MISMATCH, saying which differs,
 * otherwise. gsync_kernel_create makes this check itself on the source of
 * the kernel's program; call it for a program made from binaries, which
 * keeps no source, on the source they were built from. A source with no
 * fingerprint passes only with constraints that have no state argument,
 * or that have no fingerprint either (both from an older gsync-rewrite). */
gsync_status gsync_program_check_source(const gsync_program *program,
                                        const char *source, size_t length,
                                        char *err, size_t errlen);

/* What a loaded program's constraints say, for a host that makes its own
 * launches and needs the kernels' state numbers (the gsync Python package
 * reads the parameters here for its messages on PyOpenCL's arguments, and
 * launches through libgsync). The caller sets size to the struct's
 * sizeof; fields past it are neither read nor written, so that the
 * structs can grow. GSYNC_ERR_ARGUMENT for a NULL program or info, a size
 * that reaches no field, or an index past the counts. The strings and
 * arrays point into the program: they stay valid, unchanged, until
 * gsync_program_release. */

/* An optional offset the constraints do not give: files from before it
 * was written, or rules without it. */
#define GSYNC_NO_OFFSET ((size_t)-1)

typedef struct gsync_program_info {
  size_t size;
  const char *path;         /* the constraints file, as it was loaded */
  const char *barrier;      /* the barrier rule */
  int discovery;            /* the output runs occupancy discovery */
  size_t spin_limit_ms;     /* 0: no limit, or not said (older files) */
  const char *fingerprint;  /* the output's; NULL where the file has none */
  size_t n_kernels;         /* for gsync_program_kernel_info */
  const char *const *sites; /* "barrier_sites": sites[n - 1] is
                               "file:line:col" of site n */
  size_t n_sites;
  const char *const *build_args; /* "build.options", as written */
  size_t n_build_args;
} gsync_program_info;
gsync_status gsync_program_get_info(const gsync_program *program,
                                    gsync_program_info *info, char *err,
                                    size_t errlen);

/* Kernel index (0 to n_kernels - 1) as the constraints describe it
 * (docs/constraints.md). For a kernel that reaches no global_barrier()
 * every field after global_barrier is 0, but grid_offset, abort_offset
 * and poll_cap_offset, which are GSYNC_NO_OFFSET. */
typedef struct gsync_kernel_info {
  size_t size;
  const char *name;
  int global_barrier;  /* it takes the state argument */
  cl_uint work_dim;    /* the dimensions its ids ask about */
  cl_uint state_index; /* the state argument's index, its last */
  size_t fixed_bytes;  /* the state: fixed + per_group x work-groups */
  size_t per_group_bytes;
  int reset_by_kernel; /* the kernel zeroes the state for the next launch */
  size_t participants_offset; /* uint32: work-groups that took part */
  size_t grid_offset;         /* 3 x uint32: the virtual grid */
  size_t abort_offset;        /* the abort record */
  size_t abort_bytes;         /* its size (24 in files from before the
                                 spin limit was a time; 0 without one) */
  size_t poll_cap_offset;     /* uint32: discovery's poll cap */
  size_t max_work_groups;     /* 0: no static bound */
  size_t min_local_size;
  int coresident_launch_required;
  int has_params;  /* "params" given (not in files from before it) */
  size_t n_params; /* the parameters before the state argument */
} gsync_kernel_info;
gsync_status gsync_program_kernel_info(const gsync_program *program,
                                       size_t index, gsync_kernel_info *info,
                                       char *err, size_t errlen);

/* Parameter param (0 to n_params - 1) of kernel index, from "params". */
typedef struct gsync_param_info {
  size_t size;
  const char *name; /* "" where the file names none */
  const char *kind; /* as the file spells it: "global", "constant",
                       "local", "private", or a handle such as "image" */
  size_t bytes;     /* "private": the value's size; 0 otherwise */
} gsync_param_info;
gsync_status gsync_program_param_info(const gsync_program *program,
                                      size_t index, size_t param,
                                      gsync_param_info *info, char *err,
                                      size_t errlen);

/* Prepares kernel for launches of up to max_groups work-groups: checks
 * that kernel and queue belong to ctx (GSYNC_ERR_ARGUMENT otherwise, as
 * for a queue of another context given to any later call on the handle:
 * OpenCL says only CL_INVALID_CONTEXT), finds the kernel in
 * the constraints by name (GSYNC_ERR_KERNEL if absent, or if its parameter
 * count does not match the state argument's index), checks that its
 * program was built from the output the constraints belong to
 * (GSYNC_ERR_MISMATCH; see gsync_program_check_source), creates the state
 * buffer in ctx and enqueues its zeroing on queue. For a kernel that
 * reaches no global_barrier() it only records that the kernel needs no
 * state. The handle retains kernel; release it before its context.
 * gsync_kernel_release may come while a launch of the handle runs: the
 * state, the shared memory of a watched one too, is given back once the
 * launch is over, and the call does not wait for it (but for a state in
 * a host-visible buffer, which it unmaps once the launch is over). */
gsync_status gsync_kernel_create(const gsync_program *program, cl_context ctx,
                                 cl_command_queue queue, cl_kernel kernel,
                                 size_t max_groups, gsync_kernel **out,
                                 char *err, size_t errlen);
void gsync_kernel_release(gsync_kernel *k);

/* k's state buffer into *state (NULL for a kernel that reaches no
 * global_barrier()) and its size in bytes into *bytes (may be NULL), for
 * a host that inspects it: not retained, valid until gsync_kernel_release
 * or gsync_watch_enable (which may move the state). The launches set it;
 * a host never needs to. */
gsync_status gsync_kernel_state(gsync_kernel *k, cl_mem *state, size_t *bytes,
                                char *err, size_t errlen);

/* Sets the hidden argument and enqueues a 1-D launch of groups x local_size
 * work-items (gsync_enqueue_nd launches 2-D and 3-D, and with a global
 * offset); the caller sets the kernel's other arguments. GSYNC_ERR_LAUNCH
 * refuses groups == 0, more groups than given at create time or than the
 * constraints' max_work_groups (what the rules count; 2^32 - 1 where the
 * file has none), a local size below min_local_size, and a shape the
 * device cannot launch: a local size above its work-items per group (or
 * the kernel's, CL_KERNEL_WORK_GROUP_SIZE) or per dimension, one other
 * than the kernel's reqd_work_group_size, or a global size, with the
 * offset, past its size_t. The message names the limit.
 * Launches of one handle are ordered (they share the state) even on an
 * out-of-order queue or on other queues: a launch on the in-order queue
 * of the handle's previous command relies on that queue's order and makes
 * no event; elsewhere it waits for the previous command's event, or, where
 * that command made none, for a marker enqueued after it on its queue. The
 * state is re-zeroed before each launch only when
 * the kernel does not reset it itself. If participants is not NULL, this is
 * gsync_enqueue followed by gsync_finish: it waits and reports as that does.
 * With participants NULL it returns at once; call gsync_finish before
 * trusting the results. */
gsync_status gsync_enqueue(gsync_kernel *k, cl_command_queue queue,
                           size_t groups, size_t local_size,
                           cl_uint *participants, char *err, size_t errlen);

/* An N-D launch: work_dim dimensions (1 to 3), groups[d] work-groups of
 * local_size[d] work-items in dimension d, and global_offset (NULL: none)
 * as clEnqueueNDRangeKernel takes it. Otherwise as gsync_enqueue, which is
 * this with work_dim 1: the work-group count and the local size that the
 * limits above speak of are the products over the dimensions. With
 * discovery the admitted work-groups take part as a virtual grid of the
 * same number of dimensions (docs/nd.md); gsync_finish_nd says which.
 * Returns at once: call gsync_finish or gsync_finish_nd before trusting
 * the results. */
gsync_status gsync_enqueue_nd(gsync_kernel *k, cl_command_queue queue,
                              cl_uint work_dim, const size_t *global_offset,
                              const size_t *groups, const size_t *local_size,
                              char *err, size_t errlen);

/* What a finished launch ran on (gsync_finish_nd). The caller sets size to
 * sizeof(gsync_launch_info); fields past it are neither read nor written,
 * so that the struct can grow. */
typedef struct gsync_launch_info {
  size_t size;
  cl_uint work_dim;     /* of the launch */
  cl_uint admitted;     /* work-groups discovery admitted (without
                           discovery: all launched) */
  cl_uint participants; /* work-groups that took part in the global
                           barrier: groups[0] * groups[1] * groups[2] */
  cl_uint left_out;     /* admitted but left out of the virtual grid (they
                           returned at once): admitted - participants */
  size_t groups[3];     /* the virtual grid: what get_num_groups(d) returned
                           in the kernel; 1 past work_dim */
  cl_uint polled;       /* work-groups discovery polled: all launched, or
                           the first so many by launch id where libgsync
                           capped the poll at what fit before (the rest
                           returned at once; docs/constraints.md) */
  cl_uint launched;     /* work-groups launched: groups[0] x ... of the
                           launch itself */
  /* How the launch ended: GSYNC_END_COMPLETED, or, where gsync_finish_nd
   * returned GSYNC_ERR_TIMEOUT or GSYNC_ERR_CANCELLED (it then fills
   * these fields and the ones above as for the launch as enqueued), what
   * its abort record says (docs/constraints.md), for a host that reports
   * it otherwise than by err's message: */
  cl_uint end;          /* a gsync_end */
  cl_uint site;         /* GSYNC_END_BARRIER: the barrier's site number,
                           "barrier_sites" (gsync_program_info) */
  cl_uint group;        /* the work-group that gave up: its id among those
                           taking part, 0xffffffff where discovery had
                           given it none */
  cl_uint launch_group; /* its linear id in the launch */
  cl_uint arrived;      /* the work-groups it saw arrive (or join) */
  cl_uint expected;     /* and waited for */
  cl_uint waited_ms;    /* how long it waited; 0xffffffff in records from
                           before the spin limit was a time */
  cl_uint barriers;     /* GSYNC_END_CANCELLED, _DEADLINE: the barriers
                           completed */
  cl_uint deadline_ms;  /* GSYNC_END_DEADLINE: the deadline */
  cl_uint causes;       /* GSYNC_END_BARRIER, _DISCOVERY: what can explain
                           it, gsync_cause bits; err's message lists them in
                           the order of their bits, and gsync_launch_cause
                           gives each one's words */
} gsync_launch_info;
typedef enum gsync_end {
  GSYNC_END_COMPLETED = 0,
  GSYNC_END_BARRIER,   /* a wait at a global barrier timed out */
  GSYNC_END_DISCOVERY, /* a wait in occupancy discovery timed out */
  GSYNC_END_CANCELLED, /* gsync_cancel */
  GSYNC_END_DEADLINE   /* gsync_set_deadline */
} gsync_end;

/* What can make a launch wait past the spin limit (gsync_launch_info's
 * causes): the device cannot tell them apart, so a message lists each
 * that the output allows. */
typedef enum gsync_cause {
  GSYNC_CAUSE_TOO_MANY_GROUPS = 1,     /* an output without discovery, on
                                          more groups than run at once */
  GSYNC_CAUSE_BARRIER_NOT_REACHED = 2, /* a global_barrier() that some
                                          work-group does not reach */
  GSYNC_CAUSE_LONG_PHASE = 4,          /* work between two barriers
                                          longer than the spin limit */
  GSYNC_CAUSE_JOINED_AND_STOPPED = 8,  /* discovery: a group that joined
                                          stopped before the poll closed */
  GSYNC_CAUSE_SLOW_START = 16          /* discovery: the device starts
                                          groups more slowly than the
                                          spin limit allows */
} gsync_cause;

/* The words for one cause (a single gsync_cause bit) of an aborted launch
 * of kernel, as its message says them, with the kernel's spin limit:
 * written into buf (len bytes, always NUL-terminated, cut short where it
 * does not fit; buf may be NULL with len 0). Returns the whole length, as
 * snprintf does; 0, with buf "", for a NULL kernel or a value that is not
 * one cause. */
size_t gsync_launch_cause(const gsync_kernel *kernel, cl_uint cause, char *buf,
                          size_t len);

/* What a user needs to know of a finished launch in which fewer work-groups
 * took part than were launched, as one line: how many took part, why
 * (discovery admitted only those the device ran at once, the others
 * returned at once; or the virtual grid left some out), and what follows
 * (the ids count only the groups that took part, so a kernel that is not
 * grid-stride leaves the data past their ids untouched). Written into buf
 * (len bytes, always NUL-terminated, cut short where it does not fit; buf
 * may be NULL with len 0). Returns the note's whole length, as snprintf
 * does, and 0, with buf "", when every launched group took part or info
 * (from gsync_finish_nd) does not reach the launched field. */
size_t gsync_launch_note(const gsync_launch_info *info, char *buf, size_t len);

/* gsync_finish, reporting the virtual grid of the launch in *info (may be
 * NULL), and, for a launch that did not complete, how it ended (field
 * end and after). For a kernel without a global barrier, or constraints written
 * before the grid was recorded, the grid is the launch's own (with
 * discovery on such old constraints: the admitted count in dimension 0). */
gsync_status gsync_finish_nd(gsync_kernel *k, cl_command_queue queue,
                             gsync_launch_info *info, char *err, size_t errlen);

/* Waits for k's latest launch and says how it ended. GSYNC_OK: if
 * participants is not NULL, it receives how many work-groups took part in
 * the global barrier (all launched groups for a kernel without one).
 * GSYNC_ERR_TIMEOUT: a work-group waited longer than the spin limit
 * (gsync-rewrite --spin-limit) at a barrier or in discovery, so the launch
 * was aborted and every work-group left the kernel early: its results are
 * not valid. err then names the barrier (file:line:col), the work-group and
 * how many groups had arrived, and the likely cause, e.g. "kernel heat:
 * global barrier at heat.cl:42:5 timed out in work-group 0 (2 of 64 groups
 * arrived): more work-groups were launched (64) than are co-resident
 * (--no-discovery), or the barrier is not reached by every group". The
 * state is zeroed again for the next launch. Until gsync_finish has seen
 * the abort, later launches of k run on the aborted state: their results
 * are not valid either, and the first abort stays recorded for
 * gsync_finish to report. */
gsync_status gsync_finish(gsync_kernel *k, cl_command_queue queue,
                          cl_uint *participants, char *err, size_t errlen);

/* For output rewritten with --no-discovery, whose launches must have no
 * more work-groups than the device runs at once: how many of local_size[0]
 * x ... x local_size[work_dim - 1] work-items it runs at once, into
 * *groups. Measured, not estimated: one probe launch of k's kernel, so
 * with its registers and local memory, in which no work-group runs the
 * kernel's code; they count how many of them run at once and leave
 * (docs/constraints.md). The probe launches a kernel object of its own,
 * made from k's program by name, with every argument set by libgsync
 * (NULL buffers, a few bytes of local memory, zero values, as the
 * constraints' "params" describe them), so it needs none of the user's:
 * they may be unset, or name buffers released since. Local memory that
 * the user's launches give local pointer arguments is not counted.
 * GSYNC_ERR_KERNEL for a kernel that takes an image, sampler, pipe or
 * device queue, which the probe cannot make up. (Constraints from before
 * "params": the probe launches k's kernel with its own arguments, which
 * must then be set.) The probe launches as many groups as k was
 * created for (at most the constraints' max_work_groups), so that is also
 * the most *groups can be; the answer is kept per handle, device and
 * local size, and later calls return it at once. Needs the program built
 * with gsync_program_build_options() (GSYNC_ERR_MISMATCH otherwise: only
 * those options give the kernel its probe). Launches of k
 * already enqueued run first. Output with discovery needs no probe:
 * launch any number of groups, discovery admits those that fit
 * (GSYNC_ERR_ARGUMENT says so). Another program using the device at the
 * same time can leave fewer groups room than were measured. */
gsync_status gsync_groups_that_fit(gsync_kernel *k, cl_command_queue queue,
                                   cl_uint work_dim, const size_t *local_size,
                                   size_t *groups, char *err, size_t errlen);

/* Watching a running launch (docs/watch.md): its progress, a cancel and a
 * deadline. Needs output rewritten with a spin limit (the default), which
 * gives every work-group a way out of a wait, and the program built with
 * GSYNC_WATCH_BUILD_OPTION after gsync_program_build_options(): that
 * compiles the watch into the barriers, and a program built without it
 * has no trace of the watch (and costs nothing for it).
 * gsync_watch_enable refuses a kernel of a program built without it
 * (GSYNC_ERR_MISMATCH).
 *
 * gsync_watch_enable prepares k on dev, once, before its launches (any
 * launch in flight is waited for): it chooses how the host and the running
 * kernel share the state and says in *support (may be NULL) what works.
 * Progress and cancel need a channel the device honours while the kernel
 * runs: fine-grained buffer SVM with atomics (the state then lives in
 * SVM, through a buffer made over it); else a host-visible buffer
 * (CL_MEM_ALLOC_HOST_PTR, kept mapped through queue), if a probe kernel
 * run once per context and device measured words crossing it both ways
 * while it ran (it takes up to about 0.7 s, and queue must be free to run
 * it at once); else none. GSYNC_WATCH_CHANNEL=svm, mapped or none forces
 * one (none where it does not work). The deadline needs only the device's
 * clock (NVIDIA GPUs, x86 CPU devices). GSYNC_OK whatever is available;
 * GSYNC_ERR_DEVICE only when nothing is (err says why). The caller sets
 * support->size. */
#define GSYNC_WATCH_BUILD_OPTION "-Dgsync_watch"
typedef struct gsync_watch_support {
  size_t size;
  int progress;        /* gsync_progress works */
  int cancel;          /* gsync_cancel works */
  int deadline;        /* gsync_set_deadline works */
  const char *channel; /* "fine-grained SVM", "host-visible buffer" or
                          "none" (static) */
  const char *probe;   /* what the probe measured, one line, while k lives;
                          NULL where none ran (SVM, or forced) */
} gsync_watch_support;
gsync_status gsync_watch_enable(gsync_kernel *k, cl_context ctx,
                                cl_device_id dev, cl_command_queue queue,
                                gsync_watch_support *support, char *err,
                                size_t errlen);

/* How far the latest launch of k is: callable at any time from any
 * thread, while another waits in gsync_finish; it reads the shared state
 * and never blocks. The caller sets size. */
typedef struct gsync_progress_info {
  size_t size;
  cl_uint barriers;     /* global barriers the latest launch has
                           completed (0 before it starts) */
  cl_uint participants; /* work-groups taking part (0 until known) */
  cl_uint launches;     /* launches of k enqueued since watching began */
} gsync_progress_info;
gsync_status gsync_progress(gsync_kernel *k, gsync_progress_info *info,
                            char *err, size_t errlen);

/* Asks k's latest launch to stop: participant 0 leaves at its next
 * barrier, every other work-group in its next wait, and gsync_finish
 * reports GSYNC_ERR_CANCELLED ("cancelled by the host after N barriers")
 * and zeroes the state for the next launch. Results are then not valid.
 * A launch that completes first reports as usual; a cancel never reaches
 * a later launch. Callable from any thread (a signal handler too: it is
 * one atomic store); never blocks. */
gsync_status gsync_cancel(gsync_kernel *k, char *err, size_t errlen);

/* Stops each later launch of k once it has run seconds (0: no deadline) by
 * the device's clock, at participant 0's next barrier; gsync_finish then
 * reports GSYNC_ERR_CANCELLED ("stopped at the deadline ..."). Up to
 * 4294967 s, in whole milliseconds. */
gsync_status gsync_set_deadline(gsync_kernel *k, double seconds, char *err,
                                size_t errlen);

/* What a device does with the barriers (gsync-check, docs/check.md):
 * each call measures one rule on kernels rewritten from gsync-check's
 * built-in ones, bench/kernels/mp.cl and loop.cl, whose parameters the
 * calls set. Every launch is waited for; an abort is GSYNC_ERR_TIMEOUT.
 *
 * gsync_stress: the message-passing stress test. k is mp.cl's kernel
 * (slots, stale, episodes) rewritten; it launches groups work-groups of
 * local_size items running episodes episodes, in each of which every
 * item writes its slot, passes a global barrier and reads another
 * group's slot; a read that does not see the episode's value is stale.
 * A correct barrier has none; a barrier that does nothing must show some,
 * or the test cannot see a broken one on this device (it is blind). */
typedef struct gsync_stress_result {
  size_t size;
  unsigned long long stale; /* stale reads, over the items taking part */
  cl_uint participants;     /* work-groups that took part */
  double seconds;           /* the launch, enqueue to its end */
} gsync_stress_result;
gsync_status gsync_stress(gsync_kernel *k, cl_command_queue queue,
                          size_t groups, size_t local_size, cl_uint episodes,
                          gsync_stress_result *result, char *err,
                          size_t errlen);

/* gsync_time_barrier: what one global barrier costs. k is loop.cl's
 * kernel (data, n, iters) rewritten: iters phases of a grid-stride
 * increment and a global barrier. Launches it reps times (at most 64)
 * with short_iters and with long_iters phases; the difference of the
 * medians over long_iters - short_iters phases is the cost of a phase, so
 * the launch's and discovery's costs cancel out. */
typedef struct gsync_timing {
  size_t size;
  double us_per_barrier; /* µs per phase: a barrier and the increment */
  double launch_us;      /* median launch with no phase, enqueue to end */
  cl_uint participants;  /* work-groups that took part */
} gsync_timing;
gsync_status gsync_time_barrier(gsync_kernel *k, cl_command_queue queue,
                                size_t groups, size_t local_size,
                                cl_uint short_iters, cl_uint long_iters,
                                int reps, gsync_timing *timing, char *err,
                                size_t errlen);

/* gsync_check_rule: the whole check of one barrier rule on dev, from up
 * to four rewrites of the built-in kernels, named by their path without
 * the ".cl" of the output and the ".json" of its constraints (NULL: that
 * part is not measured):
 *   GSYNC_CHECK_STRESS     mp.cl, --no-discovery: the stress test with as
 *                          many work-groups as fit, and at least 2 (every
 *                          one takes part)
 *   GSYNC_CHECK_LOOP       loop.cl, --no-discovery: the co-resident count
 *                          (gsync_groups_that_fit) and gsync_time_barrier
 *                          at an eighth, a quarter, half and all of it
 *   GSYNC_CHECK_DISCOVERY  loop.cl with discovery, with no phase: what
 *                          discovery admits of 4 x the co-resident count
 *                          launched, and its launch against the LOOP
 *                          kernel's with as many groups (no barrier met)
 *   GSYNC_CHECK_ABORT      loop.cl, --no-discovery, a short spin limit,
 *                          one phase, with 2 x the co-resident count + 1
 *                          launched: a barrier that cannot complete; how
 *                          long after the spin limit the launch ended
 * A part that needs the co-resident count measures it on its own kernel
 * where LOOP is not given. GSYNC_ERR_DEVICE where the device does not
 * meet a part's constraints (err says what it lacks): the rule does not
 * run there. Other failures as the calls above. */
enum {
  GSYNC_CHECK_STRESS,
  GSYNC_CHECK_LOOP,
  GSYNC_CHECK_DISCOVERY,
  GSYNC_CHECK_ABORT,
  GSYNC_CHECK_PARTS
};
typedef struct gsync_check_options {
  size_t size;
  size_t local_size;   /* work-items per group; 0: 256 on a GPU, else 64 */
  cl_uint episodes;    /* stress episodes; 0: 100000 */
  cl_uint short_iters; /* gsync_time_barrier's; 0: 100 */
  cl_uint long_iters;  /* 0: 2100 */
  int reps;            /* 0: 7 (also the discovery rounds) */
  size_t max_groups;   /* the most the co-resident probe may find, and
                          discovery's launch; 0: 65536 */
} gsync_check_options;
#define GSYNC_CHECK_MAX_SHAPES 4
typedef struct gsync_check_result {
  size_t size;
  size_t local_size; /* as launched */
  size_t coresident; /* work-groups that fit (LOOP's kernel; else
                        STRESS's); 0 where not measured */
  int stressed;      /* STRESS ran: */
  gsync_stress_result stress;
  size_t stress_groups;
  size_t n_shapes; /* LOOP ran at these shapes: */
  size_t groups[GSYNC_CHECK_MAX_SHAPES];
  gsync_timing timing[GSYNC_CHECK_MAX_SHAPES];
  int discovered; /* DISCOVERY ran: */
  size_t disc_launched;
  cl_uint disc_admitted_min, disc_admitted_max; /* over the rounds */
  double disc_us, plain_us; /* medians: with discovery, and LOOP's kernel
                               (or, without it, none: 0) */
  int abort_ran;            /* ABORT ran: */
  int aborted;              /* it ended by the spin limit, as it must */
  size_t abort_groups;
  double spin_limit_ms; /* the limit it was rewritten with */
  double abort_ms;      /* its launch, enqueue to end */
  double abort_late_ms; /* abort_ms - the limit */
} gsync_check_result;
gsync_status gsync_check_rule(cl_context ctx, cl_device_id dev,
                              cl_command_queue queue,
                              const char *const files[GSYNC_CHECK_PARTS],
                              const gsync_check_options *options,
                              gsync_check_result *result, char *err,
                              size_t errlen);

/* A static, human-readable name for a status. */
const char *gsync_status_name(gsync_status s);

#ifdef __cplusplus
}
#endif
#endif
