/* The rewrite in a child process, under limits (see bounded.h).
 *
 * libclang opens and reads every included file itself, a file that is not
 * regular until it ends, and its C API has no hook into that: the
 * engine's check before the parse (lib/prescan.c) finds the includes as
 * the preprocessor would, and there are more spellings of an #include
 * than any such check follows. Deep code runs libclang's recursive parser
 * out of stack, and that ended the tool with SIGSEGV and no message. So
 * the whole rewrite runs in a forked child, which hands its result back
 * through a pipe, and the parent decides what the run writes. In the
 * child:
 *   - the engine runs on a thread of its own with a stack that ends in a
 *     guard, and libclang parses on that thread too (LIBCLANG_NOTHREADS;
 *     its own parse thread has as much stack). A fault in the guard is a
 *     stack that ran out: code nested too deeply. libclang's crash
 *     recovery is off (LIBCLANG_DISABLE_CRASH_RECOVERY) so that such a
 *     fault reaches the handler here, on a stack of its own;
 *   - the first thread watches, every TICK_MS: the memory in use (peak
 *     resident set), the time run (a stopped child does not count it),
 *     and whether the engine has used any processor time at all for
 *     WAIT_MS (it waits for input that may never come: an included FIFO,
 *     socket or terminal). It ends the child with a code of its own for
 *     each, which the parent turns into a message.
 * Any other signal that ends the child, the parent reports with the
 * input's name.
 */
#define _GNU_SOURCE /* MAP_ANONYMOUS, pthread_getcpuclockid, strsignal */
#include "bounded.h"
#include "exit_codes.h"
#include "output.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The engine's stack: 8 MiB, as much as libclang's own parse thread and
 * clang's driver have, so that what parsed before still parses and what
 * ran that stack out is now an error (a larger stack only moves that line,
 * slowly: docs/design.md, "Limits"). Then the guard below it, and the
 * stack the fault handler runs on. */
#define STACK_BYTES ((size_t)8 << 20)
#define GUARD_BYTES ((size_t)1 << 20)
#define ALT_STACK_BYTES ((size_t)64 << 10)

/* How often the child's limits are checked; a longer gap between two
 * checks (the child stopped, or starved of processor time) counts as at
 * most TICK_CAP_MS. */
#define TICK_MS 20
#define TICK_CAP_MS 100
/* How long the engine may use no processor time at all. A rewrite waits
 * for nothing but the files it reads, which never stall that long. */
#define WAIT_MS 2000

/* How the child ends when a limit stops it (beside the exit codes of
 * exit_codes.h, which it passes on). */
enum {
  CHILD_MEMORY = 100,
  CHILD_TIME,
  CHILD_WAIT,
  CHILD_STACK,
};

/* ---- In the child ---- */

/* One rewrite on the engine thread, and the watcher's view of it. */
typedef struct job {
  const gsr_options *opt;
  int fd; /* the pipe to the parent */
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cond;
  int done; /* under mu: the engine thread has finished */
  int rc;   /* its exit code */
} job;

/* The lowest address of the engine's stack, for the fault handler. */
static char *stack_low;
static char alt_stack[ALT_STACK_BYTES];

/* A fault: in the guard below the engine's stack, the stack ran out;
 * anything else (or the signal sent by another process) is a crash, which
 * then ends the child with the default action. */
static void on_fault(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  const char *a = si->si_addr;
  if (si->si_code > 0 && stack_low && a >= stack_low - GUARD_BYTES &&
      a < stack_low)
    _exit(CHILD_STACK);
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, NULL);
  raise(sig); /* delivered once the handler returns */
}

/* Writes one field of the result: its length, then its bytes. Returns 0,
 * or an errno value. */
static int put(int fd, const void *data, size_t len) {
  uint64_t n = len;
  int err = out_write_all(fd, (const char *)&n, sizeof n);
  return err ? err : out_write_all(fd, data, len);
}

/* Sends the result to the parent: the output, the constraints, the
 * number of dependencies and each of them. Returns an exit code. */
static int send_result(int fd, const gsr_result *res) {
  size_t len, n = gsr_result_num_dependencies(res);
  const char *out = gsr_result_output(res, &len);
  const char *json = gsr_result_constraints(res);
  uint64_t n64 = n;
  int err = put(fd, out, len);
  if (!err)
    err = put(fd, json, strlen(json));
  if (!err)
    err = out_write_all(fd, (const char *)&n64, sizeof n64);
  for (size_t i = 0; i < n && !err; i++) {
    const char *d = gsr_result_dependency(res, i);
    err = put(fd, d, strlen(d));
  }
  if (err)
    fprintf(stderr, "gsync-rewrite: error: cannot hand the rewrite over: %s\n",
            strerror(err));
  return err ? EXIT_INTERNAL : EXIT_OK;
}

/* The engine thread: the rewrite, its result sent, then done. */
static void *engine(void *arg) {
  job *j = arg;
  stack_t ss, old;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  int have_old = sigaltstack(&ss, &old) == 0;
  gsr_result *res = NULL;
  gsr_status st = gsr_rewrite(j->opt, &res);
  int rc = st == GSR_OK            ? send_result(j->fd, res)
           : st == GSR_ERR_INPUT   ? EXIT_INPUT
           : st == GSR_ERR_OPTIONS ? EXIT_USAGE
                                   : EXIT_INTERNAL;
  if (st == GSR_ERR_OPTIONS)
    fprintf(stderr, "Try 'gsync-rewrite --help' for more information.\n");
  gsr_result_dispose(res);
  /* A thread library that set a signal stack of its own for the thread
   * (AddressSanitizer's) frees it when the thread ends. */
  if (have_old)
    sigaltstack(&old, NULL);
  pthread_mutex_lock(&j->mu);
  j->rc = rc;
  j->done = 1;
  pthread_cond_signal(&j->cond);
  pthread_mutex_unlock(&j->mu);
  return NULL;
}

/* Milliseconds from a to b. */
static long long ms_between(const struct timespec *a,
                            const struct timespec *b) {
  return (b->tv_sec - a->tv_sec) * 1000LL + (b->tv_nsec - a->tv_nsec) / 1000000;
}

/* Processor time the engine thread has used, in nanoseconds (-1 if the
 * clock cannot be read). */
static long long cpu_ns(clockid_t clk) {
  struct timespec t;
  if (clock_gettime(clk, &t) != 0)
    return -1;
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Waits for the engine thread to finish, checking the limits every
 * TICK_MS; ends the child when one is passed, or when the parent is gone
 * (killed: no one would read the result). */
static void watch(job *j, const bounded_limits *lim, pid_t parent) {
  clockid_t clk;
  int have_clk = pthread_getcpuclockid(j->thread, &clk) == 0;
  long long cpu = have_clk ? cpu_ns(clk) : -1, ran = 0, waited = 0;
  struct timespec prev, now, until;
  clock_gettime(CLOCK_MONOTONIC, &prev);
  pthread_mutex_lock(&j->mu);
  while (!j->done) {
    until = prev;
    until.tv_nsec += TICK_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L)
      until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&j->cond, &j->mu, &until);
    if (j->done)
      break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long dt = ms_between(&prev, &now);
    dt = dt < 0 ? 0 : dt > TICK_CAP_MS ? TICK_CAP_MS : dt;
    prev = now;
    ran += dt;
    long long c = have_clk ? cpu_ns(clk) : -1;
    waited = c >= 0 && c == cpu ? waited + dt : 0;
    cpu = c;
    struct rusage ru;
    unsigned long long rss = getrusage(RUSAGE_SELF, &ru) == 0
                                 ? (unsigned long long)ru.ru_maxrss << 10
                                 : 0;
    if (lim->memory && rss > lim->memory)
      _exit(CHILD_MEMORY);
    if (lim->time_ms && ran > (long long)lim->time_ms)
      _exit(CHILD_TIME);
    if (waited >= WAIT_MS)
      _exit(CHILD_WAIT);
    if (getppid() != parent)
      _exit(EXIT_INTERNAL);
  }
  pthread_mutex_unlock(&j->mu);
}

/* Says that the child could not start the rewrite and ends it. */
static void child_fails(const char *what, int err) {
  fprintf(stderr, "gsync-rewrite: error: cannot start the rewrite: %s: %s\n",
          what, strerror(err));
  exit(EXIT_INTERNAL);
}

/* The child: the rewrite on its own thread, watched; never returns. */
static void child(const gsr_options *o, const bounded_limits *lim, int fd,
                  pid_t parent) {
  if (setenv("LIBCLANG_NOTHREADS", "1", 1) != 0 ||
      setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1) != 0)
    child_fails("setenv", errno);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGBUS, &sa, NULL);

  char *map = mmap(NULL, GUARD_BYTES + STACK_BYTES, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED)
    child_fails("mmap", errno);
  if (mprotect(map + GUARD_BYTES, STACK_BYTES, PROT_READ | PROT_WRITE) != 0)
    child_fails("mprotect", errno);
  stack_low = map + GUARD_BYTES;

  job j;
  memset(&j, 0, sizeof j);
  j.opt = o;
  j.fd = fd;
  pthread_attr_t attr;
  pthread_condattr_t cattr;
  int err = pthread_attr_init(&attr);
  if (!err)
    err = pthread_attr_setstack(&attr, stack_low, STACK_BYTES);
  if (!err)
    err = pthread_condattr_init(&cattr);
  if (!err)
    err = pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
  if (!err)
    err = pthread_cond_init(&j.cond, &cattr);
  if (!err)
    err = pthread_mutex_init(&j.mu, NULL);
  if (!err)
    err = pthread_create(&j.thread, &attr, engine, &j);
  if (err)
    child_fails("pthread", err);
  watch(&j, lim, parent);
  pthread_join(j.thread, NULL);
  pthread_attr_destroy(&attr);
  pthread_condattr_destroy(&cattr);
  pthread_cond_destroy(&j.cond);
  pthread_mutex_destroy(&j.mu);
  close(fd);
  exit(j.rc);
}

/* ---- In the parent ---- */

/* Reads len bytes from fd into buf. Returns 0, or -1 if the data ends
 * (or the read fails) first. */
static int read_exact(int fd, void *buf, size_t len) {
  for (size_t off = 0; off < len;) {
    ssize_t got = read(fd, (char *)buf + off, len - off);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return -1;
    off += (size_t)got;
  }
  return 0;
}

/* Takes one field of the result from fd (see put()): a malloc'd,
 * NUL-terminated copy in *out and its length in *len. Returns 0, -1 if
 * the data ends early, or an exit code when out of memory. */
static int take(int fd, char **out, size_t *len) {
  uint64_t n;
  if (read_exact(fd, &n, sizeof n) != 0 || n >= SIZE_MAX)
    return -1;
  if (!(*out = malloc((size_t)n + 1)))
    return exit_nomem();
  if (read_exact(fd, *out, (size_t)n) != 0)
    return -1;
  (*out)[n] = '\0';
  if (len)
    *len = (size_t)n;
  return 0;
}

/* Receives the result the child sends (see send_result()) into res.
 * Returns 0, -1 if it ends early (the child failed, or sent nothing), or
 * an exit code when out of memory. */
static int receive(int fd, bounded_result *res) {
  uint64_t n = 0;
  int rc = take(fd, &res->output, &res->output_len);
  if (!rc)
    rc = take(fd, &res->constraints, NULL);
  if (!rc &&
      (read_exact(fd, &n, sizeof n) != 0 || n >= SIZE_MAX / sizeof *res->deps))
    rc = -1;
  if (!rc && !(res->deps = calloc((size_t)n + 1, sizeof *res->deps)))
    rc = exit_nomem();
  for (uint64_t i = 0; !rc && i < n; i++, res->n_deps++)
    rc = take(fd, &res->deps[i], NULL);
  return rc;
}

/* Prints a time in milliseconds as --max-time takes it. */
static void print_time(unsigned long ms) {
  if (ms % 1000 == 0)
    fprintf(stderr, "%lu s", ms / 1000);
  else
    fprintf(stderr, "%lu ms", ms);
}

/* Turns how the child ended into an exit code, saying why unless the
 * child did. */
static int judge(int status, const char *name, const bounded_limits *lim) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    fprintf(stderr,
            "gsync-rewrite: error: rewriting '%s' ended with signal %d (%s)\n",
            name, sig, strsignal(sig));
    return EXIT_INTERNAL;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_INTERNAL;
  switch (code) {
  case CHILD_MEMORY:
    fprintf(stderr,
            "gsync-rewrite: error: stopped rewriting '%s' at %llu MiB of "
            "memory, the limit (--max-memory): a file it includes may never "
            "end (a device such as /dev/zero) or be far too large\n",
            name, lim->memory >> 20);
    return EXIT_INPUT;
  case CHILD_TIME:
    fprintf(stderr, "gsync-rewrite: error: stopped rewriting '%s' after ",
            name);
    print_time(lim->time_ms);
    fprintf(stderr, ", the limit (--max-time)\n");
    return EXIT_INPUT;
  case CHILD_WAIT:
    fprintf(stderr,
            "gsync-rewrite: error: stopped rewriting '%s': it waited %d s "
            "for input that did not come; a file it includes may be a FIFO, "
            "a socket or a terminal, which may never end\n",
            name, WAIT_MS / 1000);
    return EXIT_INPUT;
  case CHILD_STACK:
    fprintf(stderr,
            "gsync-rewrite: error: '%s' is nested too deeply: its rewrite "
            "ran out of %zu MiB of stack\n",
            name, STACK_BYTES >> 20);
    return EXIT_INPUT;
  }
  return code;
}

/* Runs the rewrite in a child process; see bounded.h. */
int bounded_rewrite(const gsr_options *o, const bounded_limits *lim,
                    bounded_result *res) {
  memset(res, 0, sizeof *res);
  const char *name = o->input_name ? o->input_name : "<stdin>";
  int fds[2];
  if (pipe(fds) != 0) {
    fprintf(stderr, "gsync-rewrite: error: cannot start the rewrite: %s\n",
            strerror(errno));
    return EXIT_INTERNAL;
  }
  fflush(NULL); /* nothing buffered is written twice */
  /* With SIGCHLD ignored (a disposition a process inherits) the child
   * would be reaped unseen, and how it ended lost. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGCHLD, &dfl, NULL);
  pid_t parent = getpid(), pid = fork();
  if (pid < 0) {
    int err = errno;
    close(fds[0]);
    close(fds[1]);
    fprintf(stderr, "gsync-rewrite: error: cannot start the rewrite: %s\n",
            strerror(err));
    return EXIT_INTERNAL;
  }
  if (pid == 0) {
    close(fds[0]);
    child(o, lim, fds[1], parent);
  }
  close(fds[1]);
  int got = receive(fds[0], res);
  close(fds[0]);
  if (got > 0) /* out of memory here: the child's work is lost */
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  int rc = got > 0 ? got : judge(status, name, lim);
  if (!rc && got < 0) {
    fprintf(stderr, "gsync-rewrite: error: the rewrite's result was cut "
                    "short\n");
    rc = EXIT_INTERNAL;
  }
  if (rc)
    bounded_result_free(res);
  return rc;
}

/* Frees what bounded_rewrite() filled in. */
void bounded_result_free(bounded_result *res) {
  free(res->output);
  free(res->constraints);
  for (size_t i = 0; i < res->n_deps; i++)
    free(res->deps[i]);
  free(res->deps);
  memset(res, 0, sizeof *res);
}
