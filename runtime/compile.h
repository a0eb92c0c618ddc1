/* NVRTC compilation of one expanded source to a cubin, and a pool of
 * compile workers that compiles submitted jobs while the caller times
 * earlier ones: each worker is a thread of the pool driving a worker
 * process of its own (compile_proc.h). */
#ifndef AT_COMPILE_H
#define AT_COMPILE_H

#include <stddef.h>

#include "base/error.h"

enum { AT_EXTRA_OPTIONS = 512, AT_MAX_EXTRA_ARGS = 32 };

/* In at_compile_opts.extra: compile with the CUDA toolkit's headers (the
 * include folders beside NVRTC, <cub/cub.cuh> as CUB's device-side part)
 * for a user's kernel that includes them. Not an NVRTC option; in the
 * options text, so in the compiled-variant cache's key (with NVRTC's
 * version, which the toolkit's headers go with). */
#define AT_TOOLKIT_OPTION "--autotune-toolkit-headers=1"

/* How to compile: the target, a time limit and further options. */
typedef struct at_compile_opts {
    int sm;         /* 90 -> sm_90 */
    double limit_s; /* per program; <= 0: none */
    /* Further NVRTC options, separated by spaces (a family's own: a
     * spec's options); part of the options text, so of cache keys. */
    char extra[AT_EXTRA_OPTIONS];
} at_compile_opts;

struct at_family;
/* The extra options a family's variants are compiled with: its NVRTC
 * options, and AT_TOOLKIT_OPTION where it may include the toolkit's
 * headers. */
void at_compile_family_extra(const struct at_family *f, char *buf,
                             size_t n);

/* The options NVRTC gets that shape the code, as one string (cache keys):
 * "--gpu-architecture=sm_90 --std=c++17". */
void at_compile_options_text(const at_compile_opts *o, char *buf, size_t n);

/* Compiles src. On success *cubin is malloc'd. On a compile error:
 * AUTOTUNE_ECOMPILE with the variant and the first lines of the NVRTC log;
 * past the time limit: AUTOTUNE_ECOMPILE saying so. */
int at_compile(const char *src, const char *variant, const at_compile_opts *o,
               void **cubin, size_t *size, at_err *e);

typedef struct at_job {
    /* in: set by the caller before submitting; src is owned by the job */
    char *src;
    char variant[128];
    at_compile_opts opts;
    size_t index;   /* the caller's */
    int src_cached; /* the caller's: cubin came from a cache, not NVRTC */
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

/* threads: compile workers (<= 0: the online processors), each with a
 * worker process of its own (compile_proc.h): NVRTC never runs in this
 * process. */
int at_pool_create(at_pool **p, int threads, at_err *e);
int at_pool_workers(const at_pool *p);
/* Workers with nothing to do now (0 while jobs wait in the queue). */
int at_pool_idle(at_pool *p);
/* The process id of worker i's compile process (0: none now). */
int at_pool_worker_pid(at_pool *p, int i);
void at_pool_submit(at_pool *p, at_job *j);
void at_pool_wait(at_pool *p, at_job *j);
/* Drops the jobs not yet started: they are marked done with
 * rc = AUTOTUNE_EINVALID. Running ones finish (wait for them). */
void at_pool_cancel(at_pool *p);
/* Cancels queued jobs, ends running ones (their worker processes are
 * killed: the jobs fail), joins the threads. */
void at_pool_destroy(at_pool *p);
/* Frees a job's source and cubin (not the job itself). */
void at_job_release(at_job *j);

#endif
