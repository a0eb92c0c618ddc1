#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "gpu_worker.h"
#include "measure.h"
#include "module.h"
#include "plan.h"

/* autotune_create's failure, for autotune_last_error(NULL). */
static _Thread_local at_err create_err;

int at_ctx_fail(autotune_ctx *c, at_err *e)
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
static int load(autotune_kernel *k, const void *cubin, size_t size,
                at_err *e)
{
    int rc = at_device_push(&k->ctx->dev, e);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(&k->mod, cubin);
    if (r != CUDA_SUCCESS)
        rc = at_cu_fail(e, r, "cuModuleLoadData", k->name);
    if (!rc)
        rc = at_module_function(k->mod, cubin, size,
                                AT_KERNEL_SYMBOL, &k->fn, k->name, e);
    if (!rc)
        rc = at_measure_prepare(&k->p, &k->pt, k->fn, k->name, e);
    k->ws_bytes = at_workspace_bytes(&k->p, &k->pt);
    if (!rc && k->ws_bytes) {
        char call[96];
        snprintf(call, sizeof call, "cuMemAlloc(%zu bytes of workspace)",
                 k->ws_bytes);
        rc = at_cu_fail(e, at_cu.cuMemAlloc(&k->ws, k->ws_bytes), call,
                        k->name);
        if (!rc)
            rc = at_cu_fail(e, at_cu.cuMemsetD32(k->ws, 0, k->ws_bytes / 4),
                            "cuMemsetD32(workspace)", k->name);
    }
    at_device_pop();
    return rc;
}

int at_ctx_get(autotune_ctx *c, const at_problem *p, const at_tune_opts *o,
               autotune_kernel **out)
{
    at_err e = {0};
    if (!c || !out)
        return AUTOTUNE_EINVALID;
    at_err_clear(&c->err);
    *out = NULL;
    autotune_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        at_fail(&e, AUTOTUNE_ENOMEM, "autotune_get");
        return at_ctx_fail(c, &e);
    }
    k->ctx = c;
    k->p = *p;
    /* With a device the planner always has a cubin: cached or tuned. */
    at_plan pl;
    at_plan_env env = {.cache = c->cache, .cubins = c->cubins,
                       .dev = &c->dev, .progress = c->progress,
                       .worker = at_worker_path()};
    int rc = at_plan_get(&env, p, o, &pl, &e);
    if (!rc) {
        k->pt = pl.pt;
        k->fig = pl.fig;
        snprintf(k->name, sizeof k->name, "%s", pl.name);
        rc = load(k, pl.cubin, pl.cubin_size, &e);
    }
    at_plan_free(&pl);
    if (rc) {
        autotune_kernel_destroy(k);
        return at_ctx_fail(c, &e);
    }
    *out = k;
    return 0;
}

int autotune_get(autotune_ctx *c, const autotune_problem *p,
                 autotune_kernel **out)
{
    if (!c || !out)
        return AUTOTUNE_EINVALID;
    at_err e = {0};
    at_problem prob;
    if (at_problem_from_api(&prob, p, &e)) {
        *out = NULL;
        return at_ctx_fail(c, &e);
    }
    at_tune_opts o = {.progress = c->progress};
    return at_ctx_get(c, &prob, &o, out);
}

size_t autotune_kernel_workspace_bytes(const autotune_kernel *k)
{
    return k ? k->ws_bytes : 0;
}

int autotune_launch(autotune_kernel *k, const void *in, void *out,
                    struct CUstream_st *stream)
{
    return autotune_launch_ws(k, in, out, k ? (void *)k->ws : NULL, stream);
}

int autotune_launch_ws(autotune_kernel *k, const void *in, void *out,
                       void *workspace, struct CUstream_st *stream)
{
    at_err e = {0};
    if (!k)
        return AUTOTUNE_EINVALID;
    CUdeviceptr ws = (CUdeviceptr)workspace;
    if (k->ws_bytes && !ws) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch_ws: NULL workspace "
                "(%zu bytes needed) [variant %s]", k->ws_bytes, k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    if (!in || !out) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch: NULL device pointer "
                "[variant %s]", k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    if (k->p.family->user_args) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch: %s takes %d "
                "arguments: use autotune_launch_args [variant %s]",
                k->p.family->name, k->p.family->user_arg_count(&k->p),
                k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    at_err_clear(&k->ctx->err);
    int rc = at_device_push(&k->ctx->dev, &e);
    if (!rc) {
        rc = at_launch_variant(&k->p, &k->pt, k->fn, (CUdeviceptr)in,
                               (CUdeviceptr)out, ws, (CUstream)stream,
                               k->name, &e);
        at_device_pop();
    }
    return rc ? at_ctx_fail(k->ctx, &e) : 0;
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
    if ((k->mod || k->ws) && at_device_push(&k->ctx->dev, NULL) == 0) {
        if (k->ws)
            at_cu.cuMemFree(k->ws);
        if (k->mod)
            at_cu.cuModuleUnload(k->mod);
        at_device_pop();
    }
    free(k);
}
