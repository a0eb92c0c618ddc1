/* The tune layer: one problem tuned on one device, its space walked by a strategy while compile workers and the GPU verify and time the variants. */
#ifndef AT_TUNE_LAYER_H
#define AT_TUNE_LAYER_H

#include <stdio.h>

#include "gen/family.h"
#include "runtime/measure/measure.h"
#include "runtime/store/store.h"
#include "runtime/driver/driver.h"

/* Tuning one problem on one device: the family's constrained space, walked
 * by a strategy, compiled by NVRTC in a pool of worker processes (or found in the
 * compiled-variant cache) while the device verifies and times the variants
 * already compiled; the leading few are re-timed interleaved before a
 * winner is named. */

/* One point's outcome in a walk, as the tuner tells it (on_eval) and as
 * a resumed tune takes it back (prior): a GPU worker that faults or hangs
 * ends, and the next one goes on from where it stopped (runtime/plan/plan.h). */
enum at_eval_status { AT_EVAL_OK, AT_EVAL_WRONG, AT_EVAL_COMPILE_FAILED,
                      AT_EVAL_LAUNCH_FAILED, AT_EVAL_FAULTED };
typedef struct at_eval {
    uint64_t idx;    /* in the tune's list of points */
    at_point pt;     /* that point, checked against the list */
    int32_t status;  /* enum at_eval_status */
    int32_t verified;
    at_timing t;     /* AT_EVAL_OK's */
    char why[320];   /* a failure's message */
} at_eval;

/* The record's word for a status ("ok", "wrong", ...). */
const char *at_eval_status_name(int status);

typedef struct at_tune_opts {
    int jobs;             /* compile worker processes; <= 0: processors */
    uint64_t seed;        /* random input and search; 0: fresh (printed) */
    FILE *progress;       /* NULL: quiet */
    const char *strategy; /* NULL: "exhaustive" */
    size_t budget_evals;  /* evaluations at most; 0: no limit */
    double budget_s;      /* seconds of search at most; 0: no limit */
    double compile_limit_s; /* per variant; 0: AT_COMPILE_LIMIT_S */
    double kernel_limit_s;  /* per launch on the GPU; 0: the default
                             * (AT_KERNEL_LIMIT_COPIES copies, >= 1 s) */
    int warm_l2;          /* time from L2 (no buffer rotation) */
    int verify_all;       /* every point checked on the problem itself
                           * before it is timed, not only those that
                           * could lead */
    at_cubins *cubins;    /* compiled-variant cache; NULL: none */
    int no_cubin_cache;   /* the API: do not use the context's */
    int retune;           /* the API: tune even on a cache hit */
    int effort;           /* AUTOTUNE_ESTIMATE..WISDOM_ONLY; 0:
                           * AUTOTUNE_EXHAUSTIVE */
    double budget_share;  /* without budget_evals: evaluations at most
                           * this share of the points (AUTOTUNE_MEASURE's
                           * 10%); 0: no limit */
    FILE *record;         /* one CSV row per evaluation; NULL: none */
    const at_failed *skip; /* variants that failed here before: left out */
    size_t n_skip;
    const char *record_path;
    /* A resumed tune: points an earlier worker evaluated (each taken as
     * it was, never evaluated again; its record rows are written), which
     * are kept in the space though the failed list has them. */
    const at_eval *prior;
    size_t n_prior;
    /* When the tune began (at_now_s, CLOCK_MONOTONIC: one clock for the
     * host's processes), so that a record's elapsed_s counts from it
     * across GPU workers; 0: this run's own start. */
    double started_s;
    /* Told each point's outcome as it is known (NULL: nobody). */
    void (*on_eval)(void *ctx, const at_eval *ev);
    void *on_eval_ctx;
} at_tune_opts;

#define AT_COMPILE_LIMIT_S 60.0
#define AT_KERNEL_LIMIT_COPIES 1000.0

enum { AT_LEADERS = 5, AT_FAILURES_KEPT = 8 };
/* A point of a tune's profile (AT_PROFILE of them, runtime/store). */
typedef struct at_profile_point {
    double ms; /* its walk median */
    char params[256];
} at_profile_point;

typedef struct at_tuned {
    at_point point;
    char name[128];
    void *cubin;
    size_t cubin_size;
    at_timing kernel, copy;
    double gbps, copy_gbps, frac_copy;
    int registers, shared_bytes, local_bytes;
    char strategy[32];
    size_t space_total, points;
    size_t left_out;        /* points left out: they failed here before */
    size_t evaluated;       /* points the strategy had evaluated */
    size_t compiled, compile_failed, wrong, timed;
    size_t launch_failed;   /* refused by the driver: too many threads for
                             * their registers, too much shared memory */
    size_t faulted_before;  /* faulted or hung in an earlier worker */
    size_t resumed;         /* of evaluated: taken from earlier workers */
    size_t cached;          /* of compiled: from the compiled-variant cache */
    size_t kernels;         /* the kernels NVRTC compiled for the others
                             * (points of one code in a program share one) */
    size_t same_code;       /* cubins identical to an evaluated one */
    size_t same_source;     /* of same_code: known before compiling, the
                             * source preprocessing to an evaluated one's
                             * (one whose twin failed to compile is
                             * counted in compile_failed instead) */
    size_t raced;           /* stopped after the quick samples */
    size_t raced_on_check;  /* of raced: stopped by the time of their
                             * check's run on the problem */
    size_t verified;        /* checked on the problem itself (passed or
                             * not) */
    double seconds;         /* the whole tune */
    double setup_s;         /* inputs, references, copy timing */
    double search_s;        /* the walk: compile, check, time (its first
                             * compiles overlap the measurement's setup) */
    double retime_s;        /* the leaders again */
    double nvrtc_cpu_s; /* NVRTC time summed over the compile workers */
    double gpu_s;       /* wall time in module loads, checks and timing */
    double check_s;     /* of gpu_s: the checks */
    double time_s;      /* of gpu_s: the timing */
    int workers;        /* compile worker processes */
    uint64_t seed;
    int sets;
    char stopped[64];    /* why the search ended */
    int n_leaders;
    struct {
        char name[128];
        double ms; /* median of the round medians */
    } leaders[AT_LEADERS];   /* fastest first */
    char first_failure[1024]; /* the first failed variant's message */
    /* The first failures, each its message (the variant named in it). */
    int n_failures;
    char failures[AT_FAILURES_KEPT][320];
    /* The outputs with a rule of their own (a mismatch budget, a sum):
     * what the winner used of it, and the most any variant did. */
    char check_note[512];
    /* The profile: the walk's fastest points as timed there (unsorted;
     * at_profile_text sorts). */
    int n_profile;
    at_profile_point profile[AT_PROFILE];
    char faulted[128]; /* AUTOTUNE_EFAULT: the variant that faulted or hung */
} at_tuned;

/* The compile options that shape the code (o's limit, the family's
 * NVRTC options, the architecture), and their text for the
 * compiled-variant cache's key. */
struct at_compile_opts;
void at_tune_compile_opts(const at_tune_opts *o, const at_family *f, int sm,
                          struct at_compile_opts *co, char *text, size_t n);

int at_tune(const at_device *d, const at_problem *p, const at_tune_opts *o,
            at_tuned *out, at_err *e);
void at_tuned_free(at_tuned *t);

/* Offers a timed point to o's profile: kept if among the AT_PROFILE
 * fastest so far. */
void at_profile_offer(at_tuned *o, const char *params, double ms);
/* The profile as text, fastest first, as many lines as fit in n. */
void at_profile_text(const at_tuned *o, char *buf, size_t n);

#endif
