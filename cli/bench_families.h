/* What `autotune bench FAMILY` needs of a family beyond its gen/ entry:
 * the suite of problems, the contenders a user would pick instead (cuBLAS,
 * CUB, classic kernels), the targets each row is judged by, and the CSV's
 * problem columns. One entry per family, looked up by name; the benchmark
 * (bench.c) and the comparison (compare.c) are generic over it. These live
 * in the command line, not in libautotune.a: an application that links the
 * library carries no contender. */
#ifndef AT_BENCH_FAMILIES_H
#define AT_BENCH_FAMILIES_H

#include <stdio.h>

#include "base/pcg.h"
#include "runtime/measure/measure.h"

/* The figures of one problem: the copy, the tuned kernel, then the
 * family's contenders in order. */
enum { AT_CMP_MEMCPY, AT_CMP_TUNED, AT_CMP_FIRST_CONTENDER,
       AT_CMP_MAX = 8 };

typedef struct at_cmp_row {
    const char *kernel; /* the CSV's name: "memcpy", "tuned", "cublas" */
    int present;        /* 0: not run or not timed; why says why */
    int wrong;          /* a contender that answered wrong (not timed) */
    char why[384];
    double ms;          /* median of the round medians */
    double min_ms, max_ms; /* of the round medians */
    double gbps;        /* bytes read + written / ms */
    double frac_copy;   /* gbps / the copy's */
} at_cmp_row;

typedef struct at_cmp {
    int n;             /* rows in use */
    at_cmp_row row[AT_CMP_MAX];
    char point[128];   /* the tuned kernel's point */
    int from_cache;    /* the tuned kernel came from the tuning cache */
    double tune_s;     /* 0 if from the cache */
    uint64_t seed;     /* of the random input all kernels were checked on */
    int sets;          /* rotating buffer sets */
    int past_l2;       /* a round of sets moves at least two L2 caches */
} at_cmp;

typedef struct at_contender {
    const char *name; /* the CSV's kernel column */
    /* 1 if it can run p (after any preparation), 0 if not (why says
     * why: the row is skipped with that note), < 0 an error. */
    int (*ready)(void *state, const at_problem *p, char *why, size_t n,
                 at_err *e);
    /* One run of p on stream s, in and out being p's buffers. */
    int (*run)(void *state, const at_problem *p, CUdeviceptr in,
               CUdeviceptr out, CUstream s, at_err *e);
    /* The run the check makes, where it differs from the timed one (a
     * library whose results come in another type: its call, then a
     * widening into p's result type); NULL: run. */
    int (*check)(void *state, const at_problem *p, CUdeviceptr in,
                 CUdeviceptr out, CUstream s, at_err *e);
} at_contender;

/* A problem as text: its type and its fields ("rows=8192 cols=8192"),
 * made through the family's field table (at_problem_set_text). */
typedef struct at_text_problem {
    const char *type;
    const char *fields;
} at_text_problem;

typedef struct at_bench_family {
    const char *family;
    const at_text_problem *suite;
    int suite_n;
    const at_contender *contenders;
    int n_contenders;
    /* State for a run on d's current context (libraries loaded, kernels
     * compiled on first use); a line for the header about what was found
     * (a library's version, or why it is missing). NULL on no memory. */
    void *(*open)(const at_device *d, char *note, size_t n);
    void (*close)(void *state); /* on the same context */
    /* Optional: given every problem before the first runs, builds what its
     * contenders will need at once (CUB's helpers, in parallel), a line
     * for each step on log (NULL: quiet). What fails here is left to the
     * problem's own run to report. NULL: nothing to build ahead. */
    void (*ahead)(void *state, const at_problem *const *ps, int n,
                  FILE *log);
    /* The table's shape column ("4099x2053 ld 4160/2053"). */
    void (*shape)(const at_problem *p, char *buf, size_t n);
    /* "met (...)", "MISSED ...: why" or "" where no target applies. */
    void (*verdict)(const at_problem *p, const at_cmp *c, char *buf,
                    size_t n);
    /* A problem drawn at random for a sweep: its type (a static name)
     * and fields as text; NULL: the family has no sweep. */
    void (*draw)(at_pcg *g, const char **type, char *fields, size_t n);
} at_bench_family;

const at_bench_family *at_bench_family_find(const char *family);

#endif
