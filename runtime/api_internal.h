/* What the command line needs beyond the public API: a context on an
 * explicit cache, and getting a kernel with tuning options. */
#ifndef AT_API_INTERNAL_H
#define AT_API_INTERNAL_H

#include "autotune.h"
#include "plan.h"

struct autotune_ctx {
    at_device dev;
    at_cache *cache;
    at_cubins *cubins; /* compiled-variant cache beside it */
    at_err err;
    FILE *progress;
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
};

/* autotune_get with tuning options, for a problem already made: the
 * planner's answer, loaded. */
int at_ctx_get(autotune_ctx *ctx, const at_problem *p, const at_tune_opts *o,
               autotune_kernel **out);
/* Keeps e as the context's last error (c may be NULL); e's code. */
int at_ctx_fail(autotune_ctx *c, at_err *e);
/* Opens a context on an explicit cache path (NULL: the default). */
int at_ctx_create(autotune_ctx **ctx, int device, const char *cache_path,
                  FILE *progress, at_err *e);

#endif
