/* Inside the tuner (tune.h): the state its files share. tune.c sets up
 * and runs a tune; tune_prog.c groups points into NVRTC programs;
 * tune_eval.c loads, verifies and times one point; tune_twins.c finds
 * points whose sources preprocess alike; tune_walk.c walks the
 * strategy's proposals; tune_leaders.c re-times the leaders and checks
 * the winner's cubin, which tune_alone.c compiles alone. */
#ifndef AT_TUNE_IMPL_H
#define AT_TUNE_IMPL_H

#include "runtime/driver/driver.h"
#include "search/strategy.h"
#include "runtime/tune/tune.h"

/* Per variant in the walk, unless raced: the leaders are timed again in
 * rounds (runtime/measure/measure.h), so the walk's median only has to find them. */
enum { FIRST_SAMPLES = 3 };

typedef struct cand {
    size_t idx;
    at_point pt;
    char name[128];
    char kernel[AT_KERNEL_NAME];
    CUmodule mod; /* a leader's own; NULL while its program's is used */
    CUfunction fn;
    void *cubin;
    size_t size;
    at_timing t;
    double final_ms;
    int verified; /* checked on the problem itself, not only the shapes */
    int resumed;  /* evaluated by an earlier worker: no module yet */
} cand;

/* A kernel already evaluated, with its launch: identical code launched
 * alike gives the same answer and the same time. Kept: its hash (the
 * kernel's sections, runtime/driver/driver.h) and launch, and its .text to compare. */
typedef struct code {
    uint64_t hash;
    at_launch g;       /* on the problem */
    uint64_t launches; /* at_tune_launches: everywhere, arguments too */
    unsigned char *text;
    size_t size;
    int status;   /* enum at_eval_status: AT_EVAL_OK passed its checks */
    int verified; /* on the problem itself too */
    at_timing t;
} code;

/* Points per NVRTC program: NVRTC's cost per program is paid once for
 * all of them (docs/notes/gpu-log.md: 16 points a program compile 1.6x
 * faster than one each). */
enum { PROG_POINTS = 16 };

/* One program of up to PROG_POINTS points, compiled by the pool or found in the
 * compiled-variant cache; its points are evaluated in proposal order. */
typedef struct prog {
    at_job cj;  /* the pool's job: the program's source and cubin */
    int n, left; /* points, and points not yet evaluated */
    int kernels;  /* kernels in the program: points less their aliases */
    size_t idx[PROG_POINTS];
    char kernel[PROG_POINTS][AT_KERNEL_NAME];
    char *src[PROG_POINTS]; /* each point's own source: its cache key */
    /* 1: the point's source is an earlier point's here (reduce's points
     * that differ in launch arguments alone): it takes that kernel, and
     * the program compiles it once. */
    unsigned char alias[PROG_POINTS];
    int cached;       /* the cubin came from the cache ... */
    int64_t blob;     /* ... where it is this one */
    int handled;      /* completion handled: stored, or split */
    struct prog *single[PROG_POINTS]; /* a failed program: a program per point */
    CUmodule mod;
} prog;

/* A point in flight: its program and its place there, or its outcome in
 * an earlier worker (then no program). */
typedef struct slot {
    prog *g;
    int i;
    const at_eval *prior;
    size_t idx;   /* its point */
    long twin;    /* its entry in run_twins (1-based), or 0 */
    int copy;     /* it takes that entry's outcome: nothing to compile */
} slot;

/* A planted variant (AUTOTUNE_PLANT, for the GPU suite): its point and
 * the code put at the start of its kernel. */
typedef struct plant {
    at_point pt;
    char code[160];
} plant;

enum { MAX_PLANTS = 8 };

/* A leader's point compiled alone ahead of the end (tune_alone.c): job
 * NULL if the cache had it. */
typedef struct alone {
    size_t idx;
    at_job *job;
} alone;

enum { MAX_ALONE = 64 };

/* The compile side of a run: the worker pool, the options that shape the
 * code, and the programs being filled (tune_prog.c, tune_walk.c,
 * tune_alone.c). */
typedef struct run_compile {
    at_pool *pool;
    at_compile_opts co;
    char co_text[128 + AT_EXTRA_OPTIONS];
    at_cubin_key ckey;
    prog *open;   /* the program being filled with cache misses */
    prog *last;   /* the last program started (cache hits join it) */
    int prog_points; /* the open program's size (tune_walk.c) */
    double pool_s;   /* starting the compile workers */
    alone alone[MAX_ALONE];
    int n_alone;
} run_compile;

/* The leaders, fastest first once re-timed (tune_eval.c enters them,
 * tune_leaders.c re-times them). */
typedef struct run_leaders {
    cand c[AT_LEADERS];
    int n;
} run_leaders;

/* Kernels already evaluated, by the hash of their code (tune_eval.c):
 * open addressing. */
typedef struct run_same {
    code *codes;
    size_t n_codes_cap;
} run_same;

/* Points that are one kernel (tune_twins.c): the digest of the first's
 * preprocessed source, the hash of its launches, and, once it is
 * evaluated, its outcome for the others. */
typedef struct twin {
    uint64_t d[2], g;
    int done, status, verified;
    at_timing t;
    char *why; /* a failure's message, or NULL */
} twin;

typedef struct run_twins {
    twin *t;
    size_t n, cap;
    size_t *index;    /* open addressing: an entry of t + 1, or 0 */
    size_t index_cap; /* a power of two, at least twice the points */
    int off; /* AUTOTUNE_TWINS=0, a family that batches its points, or
              * a source that cannot be digested */
} run_twins;

/* What the user is told and when (tune.c, tune_walk.c). */
typedef struct run_progress {
    double t0, walk_t0, last_print;
    int tty;
    size_t proposed;
    char last_why[320]; /* the last failure's message */
} run_progress;

/* One tune: what is tuned, where and how (set up by tune.c, read by
 * all), and the state of each job. */
typedef struct run {
    const at_device *d;
    const at_problem *p;
    const at_tune_opts *o;
    at_tuned *out;
    const at_point *pts;
    const at_eval **prior_of; /* per point: its earlier outcome, or NULL */
    at_measure *b;    /* inputs, references, the copy's time */
    double copy_gbps;
    int lost; /* a variant faulted or hung: the device is not touched */
    run_compile cc;
    run_leaders leaders;
    run_same same;
    run_twins twins;
    run_progress progress;
#ifdef AT_TEST
    plant plants[MAX_PLANTS];
    int n_plants;
#endif
} run;

void at_cand_free(cand *c);
/* A progress message (fmt has one %s) on the progress stream. */
void at_tune_say(run *r, const char *fmt, const char *msg);
double at_tune_gbps(const run *r, double ms);
void at_tune_progress(run *r, int final);

/* tune.c: the measurement (r->b: inputs, references, the copy's time),
 * made by the walk once its first programs are compiling. */
int at_tune_measure(run *r, at_err *e);

/* tune_plant.c, in test builds (AT_TEST) only */
#ifdef AT_TEST
/* Reads AUTOTUNE_PLANT ("fault@I,trap@J,spin@K,skip@L": the I-th point
 * of the space, before any is left out). */
int at_tune_plants(run *r, const at_point *pts, size_t n, at_err *e);
/* The prelude that plants a fault in pt's kernel, or NULL. */
const char *at_tune_prelude(const run *r, const at_point *pt);
#else
static inline const char *at_tune_prelude(const run *r, const at_point *pt)
{
    (void)r;
    (void)pt;
    return NULL;
}
#endif

/* tune_skip.c */
/* Removes the points named in r->o->skip from pts, but those of
 * r->o->prior (a resumed tune keeps its space); how many went. */
size_t at_tune_leave_out(run *r, at_point *pts, size_t *n);
/* r->prior_of from r->o->prior over r->pts (n points). */
int at_tune_prior_index(run *r, size_t n, at_err *e);

/* tune_prog.c */
/* unload 0: the context is lost or busy with a hung kernel (a module
 * unload would wait for it): the module is left to the process's end. */
void at_prog_free(prog *g, int unload);
int at_prog_start_point(run *r, slot *s, size_t i, at_err *e);
int at_prog_submit(run *r, prog *g, at_err *e);
int at_prog_done(run *r, prog *g, at_err *e);

/* tune_eval.c */
/* enum at_eval_status of a record's word (not known: AT_EVAL_WRONG). */
int at_eval_status_of(const char *name);
/* A failure for the report (quiet: not said again). */
void at_tune_failure(run *r, const char *msg, int quiet);
/* A point an earlier worker evaluated, taken as it was into c. */
void at_tune_resume(run *r, const at_eval *ev, size_t idx, cand *c,
                    const char **status);
/* Tells o->on_eval (if any) c's outcome. */
void at_tune_tell(run *r, const cand *c, const char *status, const char *why);
void at_lead_offer(run *r, cand *c);
int at_tune_record(run *r, const cand *c, const char *status, at_err *e);
int at_tune_evaluate(run *r, prog *g, int k, cand *c, const char **status,
             at_err *e);

/* tune_twins.c */
/* Reads AUTOTUNE_TWINS (0 or 1; else AUTOTUNE_EINVALID) and, where twins
 * apply (a family that compiles each point alone), makes the index for a
 * space of points. */
int at_twins_setup(run *r, size_t points, at_err *e);
/* Point i's twin entry (src: its source, or NULL to expand it): *first
 * the entry (1-based; 0: none), *copy 1 if an earlier point made it.
 * Always 0 (a point that cannot be digested is simply no twin). */
int at_twin_of(run *r, size_t i, const char *src, long *first, int *copy);
/* The outcome of the entry's first point, for its copies. */
void at_twin_done(run *r, long first, const cand *c, const char *status,
                  const char *why);
/* Point idx, a copy of entry first, given its outcome in c. */
int at_twin_take(run *r, long first, size_t idx, cand *c,
                 const char **status, at_err *e);
/* The message of the entry's failure ("" if it did not fail). */
const char *at_twin_why(const run *r, long first);
void at_twins_free(run *r);
/* A hash of pt's launches, their arguments and workspace on the problem
 * and on each check problem: points of one kernel with equal hashes run
 * alike everywhere they are checked and timed. 0 if a check problem
 * cannot be made. */
int at_tune_launches(const run *r, const at_point *pt, uint64_t *h);

/* tune_walk.c */
/* Points the next program gets: PROG_POINTS, but near the end of a walk
 * (total points, proposed so far) a worker's share of what is left, so
 * that the workers finish together rather than a few compiling whole
 * programs while the rest wait (as in guided self-scheduling). */
int at_program_points(size_t total, size_t proposed, int workers);
int at_tune_walk(run *r, const at_space_view *v, at_err *e);

/* tune_leaders.c */
int at_tune_retime(run *r, at_err *e);

/* tune_alone.c */
/* Compiles the leaders alone in the pool's idle workers, from halfway
 * through the walk. */
int at_alone_prefetch(run *r, at_err *e);
/* c's cubin compiled alone: from the cache, the prefetch or NVRTC now;
 * stored in the cache. */
int at_alone_cubin(run *r, const cand *c, void **cubin, size_t *size,
                   at_err *e);
/* After the pool is gone: their NVRTC time counted, the jobs freed. */
void at_alone_free(run *r);

#endif
