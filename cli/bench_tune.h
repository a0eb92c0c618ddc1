/* `autotune bench tune`'s rows (bench_tune.c): a tuning run, or a
 * calibration of the host's NVRTC (bench_calibrate.c). */
#ifndef AT_BENCH_TUNE_H
#define AT_BENCH_TUNE_H

#include <stddef.h>

#include "gen/family.h"

enum { COLD, WARM, HIT, N_RUNS, CAL_ALONE = N_RUNS, CAL_BUSY, N_KINDS };

typedef struct bench_tune_row {
    at_problem p;
    int cache; /* COLD ... CAL_BUSY */
    double wall_s, variants_per_s, nvrtc_cpu_s, best_ms;
    long long compiled, workers;
    char point[128];
} bench_tune_row;

/* The calibration rows into r[0] (one process) and r[1] (procs at once,
 * <= 0: as many as a tune's compile workers): the transpose family's
 * program of 16 points of 8192 x 8192 f32 as a tune compiles it, for the
 * GPU's architecture sm; compiled = points compiled, nvrtc_cpu_s their
 * CPU time in all. 0, or 1 said. */
int at_bench_calibrate(int sm, int procs, bench_tune_row *r);

/* Device's name and architecture, looked up in a child process so that
 * this one never initialises the driver (bench_device.c). 0, or the
 * error of at_device_open (driver.h) in e. */
int at_bench_device(int device, char *name, size_t n, int *sm, at_err *e);

#endif
