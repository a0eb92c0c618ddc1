/* What the command line needs beyond the public API: tuning options, the
 * tuning summary, and the kernel's problem, point and provenance. */
#ifndef AT_API_INTERNAL_H
#define AT_API_INTERNAL_H

#include "autotune.h"
#include "tune.h"

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
    char created[32]; /* when it was tuned (UTC) */
};

/* autotune_get with tuning options; *summary (if not NULL) is filled when
 * this call tuned (summary->points > 0) and zeroed on a cache hit. Only a
 * search that evaluated the whole space is stored in the cache: a
 * budgeted one returns its winner without storing it. */
int at_ctx_get(autotune_ctx *ctx, const autotune_problem *up,
               const at_tune_opts *o, autotune_kernel **out,
               at_tuned *summary);
/* Opens a context on an explicit cache path (NULL: the default). */
int at_ctx_create(autotune_ctx **ctx, int device, const char *cache_path,
                  FILE *progress, at_err *e);

#endif
