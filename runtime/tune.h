/* Tuning one problem on one device: the family's constrained space, walked
 * by a strategy, compiled by a pool of NVRTC threads while the device
 * verifies and times the variants already compiled; the leading few are
 * re-timed interleaved before a winner is named. */
#ifndef AT_TUNE_H
#define AT_TUNE_H

#include <stdio.h>

#include "../gen/family.h"
#include "bench.h"
#include "cache.h"
#include "device.h"

typedef struct at_tune_opts {
    int jobs;             /* compile threads; <= 0: processors less one */
    uint64_t seed;        /* random input; 0: fresh (printed) */
    FILE *progress;       /* NULL: quiet */
    const char *strategy; /* NULL: "exhaustive" */
} at_tune_opts;

typedef struct at_tuned {
    at_point point;
    char name[128];
    void *cubin;
    size_t cubin_size;
    at_timing kernel, copy;
    double gbps, copy_gbps, frac_copy;
    int registers, shared_bytes, local_bytes;
    size_t space_total, points, compiled, compile_failed, wrong, timed;
    double seconds;
    double nvrtc_cpu_s; /* NVRTC time summed over the compile threads */
    double gpu_s;       /* wall time in module loads, checks and timing */
    int threads;        /* compile threads */
    uint64_t seed;
    int sets;
    char first_failure[1024]; /* the first failed variant's message */
} at_tuned;

int at_tune(const at_device *d, const at_problem *p, const at_tune_opts *o,
            at_tuned *out, at_err *e);
void at_tuned_free(at_tuned *t);

/* The point a cache entry holds, if this build would launch it: its
 * parameters parse, give the recorded name and pass the constraints. 1 yes
 * (*pt set), 0 no. */
int at_entry_point(const at_problem *p, const at_limits *l,
                   const at_entry *en, at_point *pt);

/* Fills a cache key. d may be NULL (emitting for an architecture without a
 * device): then only cc and the problem and template parts are set. */
int at_key_fill(at_key *k, const at_device *d, const at_problem *p,
                const at_limits *l, at_err *e);

#endif
