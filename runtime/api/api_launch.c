/* Launching a tuned kernel: one call for every family, the kernel's
 * arguments as an array (the family's user_args makes the kernel's own
 * from them), as at_launch_variant launches it while tuning. */
#include <stdint.h>
#include <string.h>

#include "runtime/api/api.h"
#include "runtime/driver/driver.h"

int autotune_kernel_arg_count(const autotune_kernel *k)
{
    return k ? k->p.family->ops.user_arg_count(&k->p) : AUTOTUNE_EINVALID;
}

/* The __constant__ contents of a user's launch, from host memory, into
 * the module of the kernel launched. */
static int user_constants(autotune_kernel *k, CUmodule mod,
                          const void *const *args, CUstream stream,
                          at_err *e)
{
    at_copy cp[AT_MAX_COPIES];
    int n = k->p.family->ops.copies(&k->p, cp, AT_MAX_COPIES);
    for (int i = 0; i < n; ++i) {
        if (!cp[i].symbol)
            continue;
        CUdeviceptr sym;
        size_t size;
        if (!args[cp[i].arg])
            return at_fail(e, AUTOTUNE_EINVALID, "autotune_launch: "
                           "argument %d (__constant__ %s) is NULL [variant "
                           "%s]", cp[i].arg, cp[i].symbol, k->name);
        AT_CU_TRY(e, k->name, cuModuleGetGlobal, &sym, &size, mod,
                  cp[i].symbol);
        AT_CU_TRY(e, k->name, cuMemcpyHtoDAsync, sym, args[cp[i].arg],
                  cp[i].bytes < size ? cp[i].bytes : size, stream);
    }
    return 0;
}

/* The kernel's arguments for the user's, and whether the kernel takes
 * them, worked out once while they stay. */
static void kernel_args(autotune_kernel *k, const void *const *args, int n,
                        CUdeviceptr ws, int passes)
{
    uint64_t ptr[AT_API_MAX_ARGS + 1] = {0};
    for (int i = 0; i < n; ++i)
        ptr[i] = (uint64_t)(uintptr_t)args[i];
    ptr[n] = ws;
    if (k->args_valid && k->args_n == n &&
        memcmp(k->args_for, ptr, (size_t)(n + 1) * sizeof ptr[0]) == 0)
        return;
    for (int pass = 0; pass < passes; ++pass)
        k->p.family->ops.user_args(&k->p, &k->pt, ptr, ws, pass,
                                   &k->args[pass]);
    memcpy(k->args_for, ptr, sizeof ptr);
    k->args_n = n;
    k->args_taken = k->p.family->ops.takes(&k->p, &k->pt, k->args_for);
    k->args_valid = 1;
}

int autotune_launch_ws(autotune_kernel *k, const void *const *args, int n,
                       void *workspace, struct CUstream_st *stream)
{
    at_err e = {0};
    if (!k)
        return AUTOTUNE_EINVALID;
    const int want = k->p.family->ops.user_arg_count(&k->p);
    if (!args || n != want || n > AT_API_MAX_ARGS) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch: %s takes %d "
                "arguments, got %d%s [variant %s]", k->p.family->name, want,
                n, args ? "" : " (args is NULL)", k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    CUdeviceptr ws = (CUdeviceptr)workspace;
    if (k->ws_bytes && !ws) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch_ws: NULL workspace "
                "(%zu bytes needed) [variant %s]", k->ws_bytes, k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    at_ctx_clear(k->ctx);
    /* The context pushed only when it is not current (a runtime-API
     * program's is the same primary context). */
    CUcontext cur = NULL;
    int pushed = at_cu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS ||
                 cur != __atomic_load_n(&k->ctx->dev.ctx, __ATOMIC_ACQUIRE);
    int rc = pushed ? at_device_push(&k->ctx->dev, &e) : 0;
    if (rc)
        return at_ctx_fail(k->ctx, &e);
    const at_launch *g = &k->g;
    const int passes = g->passes > 1 ? 2 : 1;
    kernel_args(k, args, n, ws, passes);
    /* Buffers the kernel does not take (off its vectors): the point
     * compiled with every path. */
    CUfunction fn = k->fn;
    rc = k->args_taken ? 0 : at_api_general(k, &fn, &e);
    if (!rc)
        rc = user_constants(k, fn == k->fn ? k->mod : k->any_mod, args,
                            (CUstream)stream, &e);
    for (int pass = 0; !rc && pass < passes; ++pass) {
        const unsigned *grid = pass ? g->grid2 : g->grid;
        CUresult r = at_cu.cuLaunchKernel(
            fn, grid[0], grid[1], grid[2], g->block[0], g->block[1],
            g->block[2], g->smem, (CUstream)stream, k->args[pass].ptr, NULL);
        if (r != CUDA_SUCCESS)
            rc = at_cu_fail(&e, r, "cuLaunchKernel", k->name);
    }
    if (pushed)
        at_device_pop();
    return rc ? at_ctx_fail(k->ctx, &e) : 0;
}

int autotune_launch(autotune_kernel *k, const void *const *args, int n,
                    struct CUstream_st *stream)
{
    return autotune_launch_ws(k, args, n, k ? (void *)k->ws : NULL, stream);
}

int autotune_launch_io(autotune_kernel *k, const void *in, void *out,
                       struct CUstream_st *stream)
{
    at_err e = {0};
    if (!k)
        return AUTOTUNE_EINVALID;
    if (!in || !out) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_launch_io: NULL device "
                "pointer [variant %s]", k->name);
        return at_ctx_fail(k->ctx, &e);
    }
    const void *args[2] = {in, out};
    return autotune_launch(k, args, 2, stream);
}
