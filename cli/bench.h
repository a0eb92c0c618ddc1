/* `autotune bench FAMILY`: the bandwidth comparison (compare.h) over the
 * family's suite, over problems drawn at random (--sweep N, with the
 * worst rows against the copy and each contender last), or over the one
 * problem the flags give; a table on
 * stdout, the same as CSV with the header
 * gpu,family,type,AT_CSV_PROBLEM,kernel,ms,gbps,frac_copy. */
#ifndef AT_BENCH_H
#define AT_BENCH_H

#include "runtime/tune/tune.h"

typedef struct at_bench_args {
    const char *family;
    const at_problem *one;    /* the problem to run; NULL: the suite */
    int sweep;                /* > 0: that many problems drawn at random
                               * (from tune.seed, or a fresh seed) */
    int list;                 /* print the problems and stop */
    const char *csv;          /* where the CSV goes */
    const char *resume;       /* a CSV whose problems are not run again
                               * (their figures taken from it); NULL */
    int device;
    int quiet;                /* no tuning progress */
    int json;                 /* autotune.bench/1 on stdout, table on
                               * stderr */
    at_tune_opts tune;        /* how to tune each problem */
} at_bench_args;

/* Exit status: 0 done, 1 failed, 2 bad usage (said on stderr). */
int at_cmd_bench(const at_bench_args *a);

#endif
