/* The api layer: the public API (include/autotune.h) over the planner,
 * and what the command line needs beyond it: a context on an explicit
 * cache, and getting a kernel with tuning options. */
#ifndef AT_API_LAYER_H
#define AT_API_LAYER_H

#include <pthread.h>

#include "autotune.h"
#include "runtime/plan/plan.h"

/* One thread's use of the caches: SQLite connections are not shared
 * between threads at once, so a call takes one from the context's pool
 * (opening another when all are in use). */
typedef struct at_conn {
    at_cache *cache;
    at_cubins *cubins;
    struct at_conn *next;
} at_conn;

/* A tune in a background thread (runtime/api/api_background.c). */
typedef struct at_bg at_bg;

struct autotune_ctx {
    at_device dev;
    at_cache *cache;   /* the first connection's (the command line's) */
    at_cubins *cubins; /* compiled-variant cache beside it */
    char cache_path[1024];
    at_err err;        /* the last error of the command line's thread */
    FILE *progress;
    int effort;        /* autotune_get's (AUTOTUNE_EFFORT_*) */
    pthread_mutex_t mu; /* the pool and the background list */
    pthread_cond_t bg_done;
    at_conn first, *idle;
    at_bg *bg;
};

enum { AT_API_MAX_ARGS = 16 };

struct autotune_problem {
    autotune_ctx *ctx; /* its errors' (may be NULL) */
    at_problem p;      /* begun; finished by autotune_get */
};

struct autotune_kernel {
    autotune_ctx *ctx;
    at_problem p;
    at_point pt;
    char name[128];
    CUmodule mod;
    CUfunction fn;
    autotune_figures fig;
    CUdeviceptr ws; /* its own workspace (zeroed), for autotune_launch */
    size_t ws_bytes;
    at_launch g;    /* the launch's geometry, computed once */
    /* The last launch's arguments, reused while the pointers (the
     * user's, then the workspace) stay. */
    at_args args[2];
    uint64_t args_for[AT_API_MAX_ARGS + 1];
    int args_n;
    int args_valid;
    int args_taken; /* whether the kernel takes them (family's takes) */
    at_bg *bg;      /* its background tune, until refreshed */
    /* The point compiled with every path, for buffers the kernel does not
     * take (runtime/api/api_general.c); NULL until one comes. */
    CUmodule any_mod;
    CUfunction any_fn;
    /* Modules and workspaces refreshed away (launches may still be in
     * flight), freed with k. */
    CUmodule old[4], old_any[4];
    CUdeviceptr old_ws[4];
    int n_old;
};

/* autotune_get with tuning options, for a problem already made: the
 * planner's answer, loaded. */
int at_ctx_get(autotune_ctx *ctx, const at_problem *p, const at_tune_opts *o,
               autotune_kernel **out);
/* Keeps e as the calling thread's last error on c (NULL: as
 * autotune_last_error(NULL)'s); e's code. at_ctx_clear forgets it at the
 * start of a call. */
int at_ctx_fail(autotune_ctx *c, at_err *e);
void at_ctx_clear(autotune_ctx *c);
/* Opens a context on an explicit cache path (NULL: the default). With
 * device_memo, the device's facts may come from that memo of the host's
 * GPUs (at_device_open_remembered): for a process that may only look the
 * cache up, and that resolves the device before any other use. */
int at_ctx_create(autotune_ctx **ctx, int device, const char *cache_path,
                  const char *device_memo, FILE *progress, at_err *e);
/* A connection to the caches for this call, and its return. */
int at_conn_take(autotune_ctx *c, at_conn **out, at_err *e);
void at_conn_give(autotune_ctx *c, at_conn *conn);

/* The kernel for a launch whose buffers k's own kernel does not take
 * (ops.takes): its point compiled with every path, at the first such
 * launch; in the context, pushed. */
int at_api_general(autotune_kernel *k, CUfunction *fn, at_err *e);

/* Background tunes (runtime/api/api_background.c): starts one for p at
 * effort unless one runs for p already; k->bg is set. */
int at_bg_start(autotune_ctx *c, autotune_kernel *k, int effort, at_err *e);
/* Waits for every background tune and frees them; 0 or the first's
 * error (e). */
int at_bg_wait_all(autotune_ctx *c, at_err *e);
/* Waits for them and frees them (autotune_destroy). */
void at_bg_free_all(autotune_ctx *c);

#endif
