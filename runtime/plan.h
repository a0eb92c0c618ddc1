/* The planner: what to do for a problem, in one place for the API and the
 * command line alike.
 *
 *   cache hit at the effort asked or above -> AUTOTUNE_HOW_CACHED
 *   AUTOTUNE_WISDOM_ONLY                    -> AUTOTUNE_ENOT_FOUND
 *   AUTOTUNE_ESTIMATE: the nearest tuned
 *     problem's point, verified here        -> AUTOTUNE_HOW_REUSED
 *   no device of the architecture asked,
 *     or ESTIMATE with nothing near         -> AUTOTUNE_HOW_DEFAULT
 *   else tune (MEASURE: a share of the
 *     space; EXHAUSTIVE: all), store        -> AUTOTUNE_HOW_TUNED
 *
 * The answer says how it was obtained, and carries what emission and the
 * API need: the point, its cubin (none for a default point), figures and
 * provenance. */
#ifndef AT_PLAN_H
#define AT_PLAN_H

#include "gen/emit.h"
#include "tune.h"

typedef struct at_plan_env {
    at_cache *cache;        /* the tuning cache */
    at_cubins *cubins;      /* compiled-variant cache; NULL: none */
    const at_device *dev;   /* NULL: no device here */
    int sm;                 /* architecture asked for; 0: the device's */
    const char *no_device;  /* why there is no device (for the answer) */
    FILE *progress;         /* cache warnings; NULL: quiet */
    const char *worker;     /* GPU worker binary (gpu_worker.h); NULL:
                             * tune in this process */
} at_plan_env;

typedef struct at_plan {
    int how;                /* AUTOTUNE_HOW_* */
    char why[1100];         /* AUTOTUNE_HOW_DEFAULT: why not tuned */
    char from[512];         /* AUTOTUNE_HOW_REUSED: the problem tuned */
    at_problem p;
    at_point pt;
    char name[128];         /* the point's */
    void *cubin;            /* NULL for a default point */
    size_t cubin_size;
    /* The point's kernel in cubin: "" for AT_KERNEL_SYMBOL (a tuned or
     * cached one's); an estimate's may be in a program of several. */
    char kernel[AT_KERNEL_NAME];
    autotune_figures fig;
    char created[32];       /* when it was tuned (UTC) */
    /* Where it was tuned. */
    char gpu[256], driver_build[32], nvrtc[32];
    int sm, sms, driver;
    uint64_t seed;          /* of the tune that found it (0: default) */
    int stored;             /* tuned here and stored in the cache */
    int verified;           /* a default or reused point: checked here */
    at_tuned tuned;         /* AUTOTUNE_HOW_TUNED: the tune's summary */
} at_plan;

/* Tunes p here (no lock, no cache lookup), leaving out the variants that
 * failed before and remembering one that faults now; stores the answer.
 * For the GPU worker. */
int at_plan_tune_here(const at_plan_env *env, const at_problem *p,
                      const at_tune_opts *o, at_plan *pl, at_err *e);

int at_plan_get(const at_plan_env *env, const at_problem *p,
                const at_tune_opts *o, at_plan *out, at_err *e);
void at_plan_free(at_plan *pl);
/* The emitted file's provenance from an answer (pointers into pl). */
void at_plan_provenance(const at_plan *pl, const char *command,
                        at_provenance *pv);

/* AUTOTUNE_MEASURE's search unless the caller chose one: the strategy
 * that came nearest the optimum soonest in replays of the exhaustive
 * records (docs/PERFORMANCE.md), over a share of the points. */
#define AT_MEASURE_STRATEGY "genetic"
#define AT_MEASURE_SHARE 0.10

#endif
