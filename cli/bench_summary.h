/* A benchmark's problems of 64 MiB or more apart from the smaller ones
 * (issue 36): the copy is the ceiling only where a problem does not fit
 * in L2, so a median over both says little. For each group: how many,
 * the tuned kernel's median and minimum share of the copy, how many
 * missed their target, and the same by element size. */
#ifndef AT_BENCH_SUMMARY_H
#define AT_BENCH_SUMMARY_H

#include <stdio.h>

/* The line between the groups: a problem's bytes (its copy's). */
#define AT_BENCH_LARGE_BYTES (64.0 * 1024 * 1024)

typedef struct at_bench_point {
    double bytes;      /* the problem's: what its copy moves one way */
    int elem_bytes;    /* an element's bytes; 0: the family has none */
    double frac_copy;  /* the tuned kernel's share of the copy */
    int missed;        /* its target missed */
    const char *name;  /* "u8 31x3552786", said for the minimum */
} at_bench_point;

/* The summary of pts[0..n) on f (nothing for n == 0). */
void at_bench_summary(FILE *f, const at_bench_point *pts, int n);

#endif
