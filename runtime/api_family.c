/* The API's families of the user's own kernels (issue 15): a spec loaded
 * from a file or from memory, or described in C, and a launch with the
 * spec's arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "api_internal.h"
#include "gen/spec_desc.h"
#include "gen/spec_family.h"

int autotune_family_load(autotune_ctx *c, const char *path,
                         const char **family)
{
    if (!c || !path || !family)
        return AUTOTUNE_EINVALID;
    at_err e = {0};
    const at_family *f;
    at_ctx_clear(c);
    if (at_spec_family_load(path, &f, &e))
        return at_ctx_fail(c, &e);
    *family = f->name;
    return 0;
}

/* The __constant__ contents of a user's launch, from host memory. */
static int user_constants(autotune_kernel *k, const void *const *args,
                          CUstream stream, at_err *e)
{
    at_copy cp[AT_MAX_COPIES];
    const at_family *f = k->p.family;
    int n = f->copies ? f->copies(&k->p, cp, AT_MAX_COPIES) : 0;
    for (int i = 0; i < n; ++i) {
        if (!cp[i].symbol)
            continue;
        CUdeviceptr sym;
        size_t size;
        if (!args[cp[i].arg])
            return at_fail(e, AUTOTUNE_EINVALID, "autotune_launch_args: "
                           "argument %d (__constant__ %s) is NULL [variant "
                           "%s]", cp[i].arg, cp[i].symbol, k->name);
        AT_CU_TRY(e, k->name, cuModuleGetGlobal, &sym, &size, k->mod,
                  cp[i].symbol);
        AT_CU_TRY(e, k->name, cuMemcpyHtoDAsync, sym, args[cp[i].arg],
                  cp[i].bytes < size ? cp[i].bytes : size, stream);
    }
    return 0;
}

int autotune_launch_args(autotune_kernel *k, const void *const *args, int n,
                         struct CUstream_st *stream)
{
    at_err e = {0};
    if (!k)
        return AUTOTUNE_EINVALID;
    const at_family *f = k->p.family;
    if (!f->user_args || !args || n != f->user_arg_count(&k->p)) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch_args: %s takes %d "
                "arguments, got %d%s [variant %s]", f->name,
                f->user_args ? f->user_arg_count(&k->p) : 0, n,
                f->user_args ? "" : " (use autotune_launch)", k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    uint64_t ptr[16] = {0};
    for (int i = 0; i < n && i < 16; ++i)
        ptr[i] = (uint64_t)(uintptr_t)args[i];
    at_args a;
    at_launch g;
    f->user_args(&k->p, &k->pt, ptr, &a);
    f->launch(&k->p, &k->pt, &g);
    at_ctx_clear(k->ctx);
    int rc = at_device_push(&k->ctx->dev, &e);
    if (rc)
        return at_ctx_fail(k->ctx, &e);
    rc = user_constants(k, args, (CUstream)stream, &e);
    CUresult r = CUDA_SUCCESS;
    if (!rc)
        r = at_cu.cuLaunchKernel(k->fn, g.grid[0], g.grid[1], g.grid[2],
                                 g.block[0], g.block[1], g.block[2], g.smem,
                                 (CUstream)stream, a.ptr, NULL);
    if (!rc && r != CUDA_SUCCESS)
        rc = at_cu_fail(&e, r, "cuLaunchKernel", k->name);
    at_device_pop();
    return rc ? at_ctx_fail(k->ctx, &e) : 0;
}

int autotune_family_load_text(autotune_ctx *c, const char *spec,
                              const char *source, const char **family)
{
    if (!c || !spec || !source || !family)
        return AUTOTUNE_EINVALID;
    at_err e = {0};
    const at_family *f;
    at_ctx_clear(c);
    if (at_spec_family_load_mem(spec, "(autotune_family_load_text)", NULL,
                                source, &f, &e))
        return at_ctx_fail(c, &e);
    *family = f->name;
    return 0;
}

int autotune_family_define(autotune_ctx *c, const autotune_family_desc *d,
                           const char **family)
{
    if (!c || !d || !d->source || !family)
        return AUTOTUNE_EINVALID;
    at_err e = {0};
    const at_family *f;
    at_ctx_clear(c);
    char *text = at_spec_text_of(d, &e);
    int rc = text ? at_spec_family_load_mem(text, "(autotune_family_desc)",
                                            NULL, d->source, &f, &e)
                  : e.code;
    free(text);
    if (rc)
        return at_ctx_fail(c, &e);
    *family = f->name;
    return 0;
}

