/* `autotune bench FAMILY`: the bandwidth benchmark (runtime/compare.h) over
 * a suite of shapes and types, or over the one problem the flags give; a
 * table on stdout, the same as CSV with the header
 * gpu,type,rows,cols,batch,kernel,ms,gbps,frac_copy. */
#ifndef AT_BENCH_CMD_H
#define AT_BENCH_CMD_H

#include "../runtime/tune.h"

typedef struct at_bench_args {
    const char *family;
    int one;                  /* 1: the problem below; 0: the suite */
    autotune_problem problem;
    const char *csv;          /* where the CSV goes */
    int device;
    int quiet;                /* no tuning progress */
    at_tune_opts tune;        /* how to tune each problem */
} at_bench_args;

/* Exit status: 0 done, 1 failed (said on stderr). */
int at_cmd_bench(const at_bench_args *a);

/* The suite's problems, for `autotune bench --list` and the tests. */
int at_bench_suite_size(void);
const autotune_problem *at_bench_suite_at(int i);

#endif
