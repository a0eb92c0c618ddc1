/* A benchmark's problems as run (or taken from --resume's CSV), and the
 * report on them for people (cli/bench_report.c). */
#ifndef AT_BENCH_REPORT_H
#define AT_BENCH_REPORT_H

#include <stdio.h>

#include "bench_families.h"

typedef struct at_bench_row {
    at_problem p;
    at_cmp c;
    int resumed; /* its figures came from --resume's CSV */
} at_bench_row;

/* The table of rows[0..done), then a sweep's worst rows against the copy
 * and each contender (sweep), then the summary (unless one problem). */
void at_bench_report(FILE *f, const at_bench_family *bf,
                     const at_bench_row *rows, int done, int sweep, int one);

#endif
