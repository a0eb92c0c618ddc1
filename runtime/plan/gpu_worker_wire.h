/* What passes between the tuner and its GPU worker (runtime/plan/plan.h) over
 * their socket: one request, one reply, both made by the same binary. */
#ifndef AT_GPU_WORKER_WIRE_H
#define AT_GPU_WORKER_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/plan/plan.h"

enum { WIRE_MAGIC = 0x61746777, /* "atgw" */
       WIRE_EVAL = 0x61746765,  /* "atge": a point's outcome */
       FD_SOCK = 3, FD_RECORD = 4, FD_PROGRESS = 5 };

/* What the worker is asked: everything at_plan_tune_here needs, as
 * values. The same binary on both ends (the version is checked). */
typedef struct wire_request {
    uint32_t magic, size;
    char version[16];
    int32_t device, record, progress;
    char cache[1024], cubins[1024];
    char family[32], type[16], problem[512];
    /* A family made at run time: its definition's bytes follow the
     * request (the spec's text, then its kernel's source), and the
     * family the worker makes of them must hash as the tuner's. */
    uint64_t spec_len, source_len, family_hash;
    char spec_dir[1024]; /* where its other files are ("": none) */
    int32_t jobs, warm_l2, no_cubin_cache, verify_all;
    uint64_t seed, budget_evals;
    double budget_s, compile_limit_s, kernel_limit_s, budget_share;
    int32_t effort;
    char strategy[32], record_path[1024];
    /* A resumed tune: this many at_eval follow the definition (the
     * points earlier workers evaluated). */
    uint64_t n_prior;
    double started_s; /* at_tune_opts.started_s: the first worker's */
    /* The GPU's UUID where the worker sees it alone (its environment's
     * CUDA_VISIBLE_DEVICES; device is then 0): checked on opening. */
    char uuid[48];
} wire_request;

/* Sent by the worker as each point's outcome is known, before the
 * reply: what a restarted tune resumes from. */
typedef struct wire_eval {
    uint32_t magic; /* WIRE_EVAL */
    uint32_t pad;
    at_eval ev;
} wire_eval;

typedef struct wire_reply {
    uint32_t magic;
    int32_t rc;
    char msg[1024];
    uint64_t cubin_size;
    at_plan plan; /* pointers cleared; the cubin follows */
} wire_reply;

/* n bytes sent (out 1) or received, whole; -1 on error or end of file. */
int at_wire_io(int fd, void *buf, size_t n, int out);

#endif
