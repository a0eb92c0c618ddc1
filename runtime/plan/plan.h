/* The plan layer: answers a problem from the store, the nearest tuned problems or a tune (in a GPU worker process), and the public API over it. */
#ifndef AT_PLAN_LAYER_H
#define AT_PLAN_LAYER_H

#include "gen/emit.h"
#include "runtime/tune/tune.h"
#include "runtime/store/store.h"
#include "gen/family.h"

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

typedef struct at_plan_env {
    at_cache *cache;        /* the tuning cache */
    at_cubins *cubins;      /* compiled-variant cache; NULL: none */
    const at_device *dev;   /* NULL: no device here */
    int sm;                 /* architecture asked for; 0: the device's */
    const char *no_device;  /* why there is no device (for the answer) */
    FILE *progress;         /* cache warnings; NULL: quiet */
    const char *worker;     /* GPU worker binary (runtime/plan/plan.h); NULL:
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

/* AUTOTUNE_ESTIMATE's one variant: a point's cubin for a problem, taken
 * from a tuned entry of the same source, else from the compiled-variant
 * cache (compiled alone, as the tuner compiles a winner, or in one of the
 * tuner's programs of several points: the very code a tune timed), else
 * compiled here; then loaded and verified on the problem itself and the
 * family's check shapes. Nothing is timed. */

/* have, have_size: a cubin of pt compiled for the problem `have_for`
 * (NULL: none), used when pt's source is the same for both. On success
 * *cubin is malloc'd and kernel names pt's kernel in it. AUTOTUNE_EWRONG
 * when pt fails its verification. */
int at_estimate_check(const at_device *d, const at_problem *p,
                      const at_point *pt, const at_tune_opts *o,
                      const at_problem *have_for, const void *have,
                      size_t have_size, void **cubin, size_t *size,
                      char kernel[AT_KERNEL_NAME], at_err *e);

/* The tuned problems nearest a new one, and the point AUTOTUNE_ESTIMATE
 * reuses from them: among the cache's entries of the same family, type,
 * template and GPU (or, without a device, architecture), the AT_NEAR_K
 * nearest by gen/distance.h, their points weighed by runtime/plan/near_pick.h;
 * the chosen point is valid for the new problem (its constraints under
 * the device's limits). */

typedef struct at_near {
    at_entry en;       /* the nearest entry that kept the point (its
                        * cubin malloc'd) */
    at_problem from;   /* its problem */
    at_point pt;       /* the point, valid for the new problem */
    int own;           /* pt is en's best point: en.cubin is pt's code */
    double distance;   /* of en */
    double score;      /* runtime/plan/near_pick.h */
    int neighbours;    /* tuned problems weighed */
} at_near;

/* key: the new problem's (at_key_fill); with_device: match its GPU
 * exactly (name, SM count, driver, NVRTC), else its architecture only.
 * 1 found (*out filled; at_entry_free(&out->en) after), 0 none, < 0
 * error. The problem itself is never its own neighbour. */
int at_near_find(at_cache *c, const at_key *key, int with_device,
                 const at_problem *p, const at_limits *l, at_near *out,
                 at_err *e);

/* Tuning in a GPU worker process. A variant that faults (an illegal
 * address, a trap) leaves the CUDA context unusable, and one that never
 * finishes cannot be stopped from inside its process. So a tune's device
 * work runs in a process of its own: the autotune binary run as
 * `autotune __gpu-worker`, exec'd (a process whose CUDA is initialised
 * cannot fork a child that uses CUDA). It tunes and stores as the planner
 * would, and sends the answer back over a socket.
 *
 * The worker tells the tuner each point's outcome as it is known. When a
 * variant faults or passes the kernel limit (a fault of the GPU's
 * context), the worker records it in the cache's failed list and ends;
 * the tuner starts a new worker with every outcome so far, which takes
 * them as they were and goes on from there: nothing is evaluated twice,
 * and the answer is the one the space without the failed variants gives.
 * A launch the driver refuses (too many threads for the registers, too
 * much shared memory) is the variant's own: it fails in the same worker,
 * which goes on. */

/* The worker binary: AUTOTUNE_WORKER if set ("none": tune in this
 * process, without isolation), else what at_worker_set_path gave (the
 * command line gives itself), else the autotune built beside this
 * library (AT_WORKER_DEFAULT). NULL: in this process. */
const char *at_worker_path(void);
void at_worker_set_path(const char *path);

/* Parent: pl as at_plan's tuning would give it, tuned in worker processes
 * (a new one after each variant that faults or hangs, at most
 * AT_WORKER_RESTARTS, each resuming the last). */
enum { AT_WORKER_RESTARTS = 64 };
int at_worker_tune(const at_plan_env *env, const at_problem *p,
                   const at_tune_opts *o, at_plan *pl, at_err *e);

/* Worker: serves the request on descriptor 3; the process's exit status. */
int at_worker_main(void);

/* A list of problems answered on every device asked for (autotune
 * tune-list, --devices; runtime/plan/plan_list.c, docs/SCALE.md). A
 * thread a device, each with its own cache connection, takes the next
 * problem not yet answered for its GPU model and answers it as at_plan_get
 * does (a GPU worker of its device tunes a miss); devices of one model
 * share the list, so a problem is tuned once per model. The GPU workers'
 * compile pools share one set of slots, a core each (at_slots_share).
 * With a PostgreSQL store the list is shared with every host running it
 * through the store's jobs table (runtime/store/store.h): each host adds
 * the list, takes jobs while any is left, waits for the other hosts'
 * jobs (taking again one whose host's lease ran out), then reads their
 * answers from the store. */
typedef struct at_list_result {
    int item;          /* the problem's index */
    int model;         /* the GPU model's index */
    char gpu[256];     /* its name */
    int device;        /* the ordinal that answered; -1: another host */
    int how;           /* AUTOTUNE_HOW_* */
    int rc;            /* 0, or the problem's error code */
    char msg[1100];    /* its error */
    char point[128];
    double seconds;    /* the answer's wall time here */
    double frac_copy, median_ms;
    size_t evaluated;
    /* A tune's own: its wall time in the GPU worker, of it on the GPU,
     * and the variants compiled here (not from the compiled cache). */
    double tune_s, gpu_s;
    size_t compiled;
} at_list_result;

typedef struct at_list_env {
    const char *cache_path; /* the cache each device's thread opens */
    const int *devices;     /* ordinals */
    int n_devices;
    FILE *progress;         /* a line a problem; NULL: quiet */
    double lease_s;         /* a shared list's leases; <= 0: 60 s */
} at_list_env;

/* ps[0..n) answered on every GPU model of env's devices: *out
 * (malloc'd, even on an error: what was answered) holds n x *n_models
 * results, by problem then model. 0 (a problem's own failure is its
 * result's rc), or an error of the whole run: a device or the store that
 * cannot be opened. */
int at_plan_list(const at_list_env *env, const at_problem *ps, int n,
                 const at_tune_opts *o, at_list_result **out, int *n_models,
                 at_err *e);

#endif
