/* The bandwidth benchmark of one problem: the device-to-device copy of the
 * same bytes, the tuned kernel, cuBLAS geam (where it has the operation),
 * and the naive and classic baselines (templates/baselines.cu). Each is
 * checked bit for bit against the CPU reference on the same random input
 * (finite floats, so cuBLAS's arithmetic gives the input back) before its
 * time counts; then all are timed with one protocol (bench.h: rotating
 * buffer sets past the L2 cache, events, samples of >= 0.1 ms) in
 * interleaved rounds, and each reports the median of its round medians. */
#ifndef AT_COMPARE_H
#define AT_COMPARE_H

#include "api_internal.h"
#include "cublas.h"

enum {
    AT_CMP_MEMCPY,
    AT_CMP_TUNED,
    AT_CMP_CUBLAS,
    AT_CMP_NAIVE,
    AT_CMP_CLASSIC,
    AT_CMP_N
};

/* "memcpy", "tuned", "cublas", "naive", "classic": the CSV's names. */
const char *at_cmp_kernel_name(int k);

typedef struct at_cmp_row {
    int present;   /* 0: not run; why says why */
    char why[256];
    double ms;     /* median of the round medians */
    double min_ms, max_ms; /* of the round medians */
    double gbps;   /* bytes read + written / ms */
    double frac_copy; /* gbps / the copy's */
} at_cmp_row;

typedef struct at_cmp {
    at_cmp_row row[AT_CMP_N];
    char point[128];   /* the tuned kernel's point */
    int from_cache;    /* the tuned kernel came from the tuning cache */
    double tune_s;     /* 0 if from the cache */
    uint64_t seed;     /* of the random input all kernels were checked on */
    int sets;          /* rotating buffer sets */
    int past_l2;       /* a round of sets moves at least two L2 caches */
} at_cmp;

/* Compiled baselines, one module per element size, kept for a run. */
typedef struct at_baselines at_baselines;
int at_baselines_create(at_baselines **b, const at_device *d, at_err *e);
void at_baselines_destroy(at_baselines *b);

/* Benchmarks problem u on ctx's device: tunes it (or takes the cache's
 * answer) with o, then checks and times everything on random input from
 * o->seed (0: a fresh seed; out->seed says which). cb may be NULL (no
 * cuBLAS; cublas_why says why). A wrong answer from any kernel fails the
 * run: AUTOTUNE_EWRONG naming it and the seed. */
int at_compare(autotune_ctx *ctx, const autotune_problem *u,
               const at_tune_opts *o, at_baselines *bl, at_cublas *cb,
               const char *cublas_why, at_cmp *out, at_err *e);

#endif
