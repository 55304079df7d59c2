/* The command line of gsync-rewrite: its options, and the files a run
 * writes. Kept apart from main.c so that the option fuzzer
 * (fuzz/cli-fuzzer.c) runs the same code.
 */
#ifndef GSYNC_CLI_H
#define GSYNC_CLI_H

#include "bounded.h"
#include "depfile.h"
#include "exit_codes.h"
#include "output.h"

/* The options as parsed. */
typedef struct cli {
  const char *input, *output, *constraints, *barrier, *discovery, *rules_dir;
  int no_discovery, no_uniformity, list, inline_includes;
  unsigned long spin_limit; /* as gsr_options.spin_limit */
  bounded_limits limits;    /* --max-memory, --max-time */
  const char **pargs;
  int n_pargs;
  /* Dependency file: -MD/-MMD (md_opt as spelled), -MF, -MT/-MQ, -MP. */
  const char *md_opt, *depfile, *dep_only_opt;
  char *depfile_owned; /* the name derived from -o */
  dep_target *targets;
  size_t n_targets;
  int phony;
} cli;

/* The files a run writes: the output (possibly standard output), the
 * constraints and the dependency file, each an index into set or -1. */
typedef struct cli_outputs {
  out_set set;
  int output, constraints, depfile;
} cli_outputs;

/* Parses the command line into c (zeroed by the caller). Returns -1 when
 * the run should go on, or an exit code: EXIT_OK after --help or
 * --version, else after a usage error was printed. */
int cli_parse(int argc, char **argv, cli *c);

/* Plans the files the run writes (out_plan), refusing one that names the
 * input. Returns 0, or an exit code after saying why. */
int cli_plan_outputs(const cli *c, cli_outputs *o);

/* Prints a usage error (fmt with one %s, arg) and a pointer to --help;
 * returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);

/* Frees what cli_parse allocated. */
void cli_free(cli *c);

#endif
