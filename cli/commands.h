/* The subcommands, each given the parsed options (and argv, for the
 * provenance of what it writes). Each returns the exit status: 0 done, 1
 * failed, 2 bad usage, having said why on stderr. */
#ifndef AT_COMMANDS_H
#define AT_COMMANDS_H

#include <stdio.h>

#include "options.h"

int at_cmd_tune(const opts *o, int argc, char **argv);   /* cmd_tune.c */
int at_cmd_space(const opts *o, int argc, char **argv);  /* cmd_space.c */
int at_cmd_replay(const opts *o, int argc, char **argv); /* cmd_replay.c */
int at_cmd_bench_opts(const opts *o, int argc, char **argv); /* cmd_bench.c */
int at_cmd_bench_tune(const opts *o, int argc, char **argv); /* bench_tune.c */
/* cmd_tune_list.c */
int at_cmd_tune_list(const opts *o, int argc, char **argv);
/* ps[0..n) tuned and stored on o's --devices at once (default device 0),
 * a line each on stderr as it is answered, the table on table: tune-list's
 * work, and --sizes's with --devices. The exit status. */
int at_tune_on_devices(const opts *o, const at_problem *ps, int n,
                       FILE *table);
/* `autotune cache ...`: parses its own options (cmd_cache.c). */
int at_cmd_cache(int argc, char **argv);
/* cmd_plot.c: `autotune plot ...`, run by the Python package. */
int at_cmd_plot(int argc, char **argv);
/* Its help: the subcommands and every flag they take. */
void at_cache_help(FILE *f);

#endif
