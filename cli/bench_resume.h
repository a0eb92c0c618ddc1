/* `autotune bench --resume FILE`: the problems an earlier run of the same
 * problems finished, read from its CSV (a whole one, or the partial one a
 * stopped run leaves beside --csv) instead of run again, so that a sweep
 * of 100 can be finished in parts and summed up as one. */
#ifndef AT_BENCH_RESUME_H
#define AT_BENCH_RESUME_H

#include "bench_families.h"

/* A problem's columns as the CSV holds them after the GPU's:
 * "family,type,field,...,field" (the family's fields in its order). */
void at_bench_csv_key(const at_problem *p, char *buf, size_t n);

/* Reads path (a benchmark CSV of bf's family). For each of the n problems
 * ps[i] whose copy and tuned rows it holds, fills *cs[i] (the rows it
 * holds present, the other contenders absent with a note) and sets
 * got[i]; gpu gets the GPU its rows name. A problem it does not hold is
 * left alone. 0, or AUTOTUNE_EIO / AUTOTUNE_EINVALID naming the file and
 * line: unreadable, not a benchmark CSV of this family, rows of two
 * GPUs, a kernel this benchmark does not have, a number that is not. */
int at_bench_resume(const char *path, const at_bench_family *bf,
                    const at_problem *const *ps, at_cmp *const *cs, int n,
                    int *got, char *gpu, size_t gpu_n, at_err *e);

#endif
