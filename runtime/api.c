#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "bench.h"

/* autotune_create's failure, for autotune_last_error(NULL). */
static _Thread_local at_err create_err;

static int ctx_fail(autotune_ctx *c, at_err *e)
{
    if (c)
        c->err = *e;
    return e->code;
}

int at_ctx_create(autotune_ctx **out, int device, const char *cache_path,
                  FILE *progress, at_err *e)
{
    *out = NULL;
    autotune_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return at_fail(e, AUTOTUNE_ENOMEM, "autotune_create");
    char path[1024];
    int rc = 0;
    if (cache_path && strlen(cache_path) >= sizeof path)
        rc = at_fail(e, AUTOTUNE_EIO, "cache path too long (%zu bytes)",
                     strlen(cache_path));
    else if (cache_path)
        snprintf(path, sizeof path, "%s", cache_path);
    else
        rc = at_cache_default_path(path, sizeof path, e);
    char cpath[1024];
    if (!rc)
        rc = at_cache_open(&c->cache, path, e);
    if (!rc)
        rc = at_cubins_default_path(path, cpath, sizeof cpath, e);
    if (!rc)
        rc = at_cubins_open(&c->cubins, cpath, e);
    if (!rc)
        rc = at_device_open(&c->dev, device, e);
    if (rc) {
        autotune_destroy(c);
        return rc;
    }
    c->progress = progress;
    *out = c;
    return 0;
}

int autotune_create(autotune_ctx **out, const autotune_options *o)
{
    at_err e = {0};
    if (!out)
        return AUTOTUNE_EINVALID;
    autotune_options def = {0, NULL, 0};
    if (!o)
        o = &def;
    int rc = at_ctx_create(out, o->device, o->cache_path,
                           o->verbose ? stderr : NULL, &e);
    create_err = e;
    return rc;
}

void autotune_destroy(autotune_ctx *c)
{
    if (!c)
        return;
    at_cache_close(c->cache);
    at_cubins_close(c->cubins, NULL);
    at_device_close(&c->dev);
    free(c);
}

const char *autotune_last_error(const autotune_ctx *c)
{
    if (!c)
        return create_err.code ? create_err.msg
                               : "no context (autotune_create not called)";
    return c->err.code ? c->err.msg : "no error";
}

/* Loads a cubin into the device's context and finds the kernel. */
static int load(autotune_kernel *k, const void *cubin, at_err *e)
{
    int rc = at_device_push(&k->ctx->dev, e);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(&k->mod, cubin);
    if (r != CUDA_SUCCESS)
        rc = at_cu_fail(e, r, "cuModuleLoadData", k->name);
    if (!rc)
        rc = at_cu_fail(e, at_cu.cuModuleGetFunction(&k->fn, k->mod,
                                                    AT_KERNEL_SYMBOL),
                        "cuModuleGetFunction", k->name);
    if (!rc)
        rc = at_bench_prepare(&k->p, &k->pt, k->fn, k->name, e);
    at_device_pop();
    return rc;
}

static void fill_from_entry(autotune_kernel *k, const at_entry *en)
{
    snprintf(k->name, sizeof k->name, "%s", en->point);
    snprintf(k->created, sizeof k->created, "%s", en->created);
    k->fig.median_ms = en->median_ms;
    k->fig.gbps = en->gbps;
    k->fig.copy_gbps = en->copy_gbps;
    k->fig.frac_copy = en->frac_copy;
    k->fig.registers = en->registers;
    k->fig.shared_bytes = en->shared_bytes;
    k->fig.local_bytes = en->local_bytes;
}

static int from_cache(autotune_kernel *k, const at_key *key, int *hit,
                      at_err *e)
{
    at_entry en;
    at_err warn = {0};
    int rc = at_cache_get(k->ctx->cache, key, &en, &warn);
    if (rc < 0)
        return at_fail(e, rc, "%s", warn.msg);
    if (warn.msg[0] && k->ctx->progress)
        fprintf(k->ctx->progress, "cache: %s\n", warn.msg);
    *hit = rc;
    if (!rc)
        return 0;
    fill_from_entry(k, &en);
    k->fig.from_cache = 1;
    /* The entry's hash covers its point; still, a point this build would
     * not launch (its name or constraints disagree) is never used. */
    at_limits l = at_device_limits(&k->ctx->dev);
    if (!at_entry_point(&k->p, &l, &en, &k->pt)) {
        if (k->ctx->progress)
            fprintf(k->ctx->progress, "cache: entry point '%s' (%s) is not a "
                    "valid point of this build; tuning again\n", en.point,
                    en.params);
        at_entry_free(&en);
        memset(&k->fig, 0, sizeof k->fig);
        *hit = 0;
        return 0;
    }
    rc = load(k, en.cubin, e);
    at_entry_free(&en);
    return rc;
}

static int tune_and_store(autotune_kernel *k, const at_key *key,
                          const at_tune_opts *o, at_tuned *t, at_err *e)
{
    autotune_ctx *c = k->ctx;
    at_tune_opts with = *o;
    if (!with.cubins && !with.no_cubin_cache)
        with.cubins = c->cubins;
    int rc = at_tune(&c->dev, &k->p, &with, t, e);
    if (rc)
        return rc;
    k->pt = t->point;
    snprintf(k->name, sizeof k->name, "%s", t->name);
    at_entry en;
    memset(&en, 0, sizeof en);
    en.key = *key;
    snprintf(en.point, sizeof en.point, "%s", t->name);
    at_point_params(k->p.family, &t->point, en.params, sizeof en.params);
    en.cubin = t->cubin;
    en.cubin_size = t->cubin_size;
    en.median_ms = t->kernel.median_ms;
    en.gbps = t->gbps;
    en.copy_gbps = t->copy_gbps;
    en.frac_copy = t->frac_copy;
    en.registers = t->registers;
    en.shared_bytes = t->shared_bytes;
    en.local_bytes = t->local_bytes;
    en.seed = t->seed;
    en.tune_seconds = t->seconds;
    en.points = (int)t->points;
    at_utc_now(en.created, sizeof en.created);
    /* The kernel's figures are this run's, whatever another process may
     * store under the same key afterwards. */
    fill_from_entry(k, &en);
    if (t->evaluated == t->points && (rc = at_cache_put(c->cache, &en, e)))
        return rc;
    return load(k, t->cubin, e);
}

int at_ctx_get(autotune_ctx *c, const autotune_problem *up,
               const at_tune_opts *o, autotune_kernel **out,
               at_tuned *summary)
{
    at_err e = {0};
    if (!c || !out)
        return AUTOTUNE_EINVALID;
    at_err_clear(&c->err);
    *out = NULL;
    at_tuned local;
    at_tuned *t = summary ? summary : &local;
    memset(t, 0, sizeof *t);
    autotune_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        at_fail(&e, AUTOTUNE_ENOMEM, "autotune_get");
        return ctx_fail(c, &e);
    }
    k->ctx = c;
    at_key key;
    at_limits l = at_device_limits(&c->dev);
    int hit = 0;
    int rc = at_problem_init(&k->p, up, &e);
    if (!rc)
        rc = at_key_fill(&key, &c->dev, &k->p, &l, &e);
    if (!rc && !o->retune)
        rc = from_cache(k, &key, &hit, &e);
    if (!rc && !hit)
        rc = tune_and_store(k, &key, o, t, &e);
    if (t == &local)
        at_tuned_free(t);
    if (rc) {
        autotune_kernel_destroy(k);
        return ctx_fail(c, &e);
    }
    *out = k;
    return 0;
}

int autotune_get(autotune_ctx *c, const autotune_problem *p,
                 autotune_kernel **out)
{
    at_tune_opts o = {.progress = c ? c->progress : NULL};
    return at_ctx_get(c, p, &o, out, NULL);
}

int autotune_launch(autotune_kernel *k, const void *in, void *out,
                    struct CUstream_st *stream)
{
    at_err e = {0};
    if (!k)
        return AUTOTUNE_EINVALID;
    if (!in || !out) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch: NULL device pointer "
                "[variant %s]", k->name);
        return ctx_fail(k->ctx, &e);
    }
    at_err_clear(&k->ctx->err);
    int rc = at_device_push(&k->ctx->dev, &e);
    if (!rc) {
        rc = at_launch_variant(&k->p, &k->pt, k->fn, (CUdeviceptr)in,
                               (CUdeviceptr)out, (CUstream)stream, k->name,
                               &e);
        at_device_pop();
    }
    return rc ? ctx_fail(k->ctx, &e) : 0;
}

const char *autotune_kernel_point(const autotune_kernel *k)
{
    return k ? k->name : "";
}

int autotune_kernel_figures(const autotune_kernel *k, autotune_figures *f)
{
    if (!k || !f)
        return AUTOTUNE_EINVALID;
    *f = k->fig;
    return 0;
}

void autotune_kernel_destroy(autotune_kernel *k)
{
    if (!k)
        return;
    if (k->mod && at_device_push(&k->ctx->dev, NULL) == 0) {
        at_cu.cuModuleUnload(k->mod);
        at_device_pop();
    }
    free(k);
}
