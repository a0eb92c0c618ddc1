/* NVRTC compilation of one expanded source to a cubin, and a pool of
 * threads that compiles submitted jobs while the caller times earlier ones. */
#ifndef AT_COMPILE_H
#define AT_COMPILE_H

#include <stddef.h>

#include "error.h"

/* Compiles src for sm (90 -> sm_90). On success *cubin is malloc'd. On a
 * compile error: AUTOTUNE_ECOMPILE with the variant and the first lines of
 * the NVRTC log. */
int at_compile(const char *src, const char *variant, int sm, void **cubin,
               size_t *size, at_err *e);

typedef struct at_job {
    /* in: set by the caller before submitting; src is owned by the job */
    char *src;
    char variant[128];
    int sm;
    size_t index; /* the caller's */
    /* out: valid after at_pool_wait */
    int rc;
    at_err err;
    void *cubin;
    size_t size;
    double ms;
    /* pool's */
    int done;
    struct at_job *next;
} at_job;

typedef struct at_pool at_pool;

/* threads <= 0: the online processors less one (at least one). */
int at_pool_create(at_pool **p, int threads, at_err *e);
int at_pool_threads(const at_pool *p);
void at_pool_submit(at_pool *p, at_job *j);
void at_pool_wait(at_pool *p, at_job *j);
/* Drops jobs not yet started, waits for running ones, joins the threads.
 * Queued jobs are marked done with rc = AUTOTUNE_EINVALID. */
void at_pool_destroy(at_pool *p);
/* Frees a job's source and cubin (not the job itself). */
void at_job_release(at_job *j);

#endif
