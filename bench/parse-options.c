/* gsync-parse-options: how long libclang takes to parse an input the way
 * gsync-rewrite does (lib/parse.c: -xcl, -cl-std=CL1.2, global_barrier()
 * declared by an -include'd header), with other CXTranslationUnit options,
 * so that an option that could spare the rewrite work is measured before it
 * is used. bench/results/rewrite-speed.md holds what it found.
 *
 *   gsync-parse-options OPTIONS FILE.cl DECL.h [RUNS] [-- EXTRA-ARGS...]
 *
 * OPTIONS is the CXTranslationUnit_* bit mask (0x201 is what the tool
 * passes: DetailedPreprocessingRecord | KeepGoing). Prints the median wall
 * time of RUNS (default 5) parses and the number of diagnostics (an option
 * that breaks the parse shows there). Count instructions with
 * valgrind --tool=callgrind and RUNS 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <clang-c/Index.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Milliseconds of a monotonic clock. */
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* Orders doubles, for qsort. */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: gsync-parse-options OPTIONS FILE.cl DECL.h "
                    "[RUNS] [-- EXTRA-ARGS...]\n");
    return 2;
  }
  unsigned opts = (unsigned)strtoul(argv[1], NULL, 0);
  int runs = argc > 4 && strcmp(argv[4], "--") != 0 ? atoi(argv[4]) : 5;
  const char *args[64];
  int n = 0;
  args[n++] = "-xcl";
  args[n++] = "-cl-std=CL1.2";
  args[n++] = "-include";
  args[n++] = argv[3];
  for (int i = 4; i < argc && n < 64; i++)
    if (strcmp(argv[i], "--") == 0)
      while (++i < argc && n < 64)
        args[n++] = argv[i];
  if (runs < 1 || runs > 1000)
    runs = 5;
  double *ms = malloc((size_t)runs * sizeof *ms);
  unsigned diags = 0;
  for (int r = 0; ms && r < runs; r++) {
    double t0 = now_ms();
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec = clang_parseTranslationUnit2(index, argv[2], args, n,
                                                      NULL, 0, opts, &tu);
    ms[r] = now_ms() - t0;
    if (ec != CXError_Success) {
      fprintf(stderr, "gsync-parse-options: libclang error %d\n", (int)ec);
      return 1;
    }
    diags = clang_getNumDiagnostics(tu);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
  }
  if (!ms)
    return 1;
  qsort(ms, (size_t)runs, sizeof *ms, cmp_double);
  printf("options 0x%x: %.1f ms (median of %d), %u diagnostics\n", opts,
         ms[runs / 2], runs, diags);
  free(ms);
  return 0;
}
