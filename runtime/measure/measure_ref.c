/* What a family's runs need besides the buffers (its copies: an inout
 * buffer's first contents, __constant__ symbols), and the reference of a
 * family that computes it on the device (family.h, ref_source): compiled
 * once per case, run on the case's input into the poisoned reference,
 * its error units then made on the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/driver/driver.h"
#include "runtime/measure/measure_impl.h"

int at_measure_copies(at_measure *b, const at_problem *p, CUdeviceptr in,
                      CUdeviceptr out, CUfunction fn, const char *variant,
                      at_err *e)
{
    const at_family *f = p->family;
    at_copy c[AT_MAX_COPIES];
    int n = f->ops.copies(p, c, AT_MAX_COPIES);
    CUmodule mod = NULL;
    for (int i = 0; i < n; ++i) {
        if (!c[i].symbol) {
            if (out)
                AT_CU_TRY(e, variant, cuMemcpyDtoDAsync, out + c[i].dst,
                          in + c[i].src, c[i].bytes, b->stream);
            continue;
        }
        if (!fn)
            continue;
        if (!mod)
            AT_CU_TRY(e, variant, cuFuncGetModule, &mod, fn);
        CUdeviceptr sym;
        size_t size;
        CUresult r = at_cu.cuModuleGetGlobal(&sym, &size, mod, c[i].symbol);
        if (r != CUDA_SUCCESS) {
            char call[160];
            snprintf(call, sizeof call, "cuModuleGetGlobal(%s): the source "
                     "has no such __constant__ symbol at file scope",
                     c[i].symbol);
            return at_cu_fail(e, r, call, variant);
        }
        if (size < c[i].bytes)
            return at_fail(e, AUTOTUNE_EINVALID, "[variant %s] __constant__ "
                           "%s holds %zu bytes, the spec gives %zu",
                           variant ? variant : "?", c[i].symbol, size,
                           c[i].bytes);
        AT_CU_TRY(e, variant, cuMemcpyDtoDAsync, sym, in + c[i].src,
                  c[i].bytes, b->stream);
    }
    return 0;
}

/* Runs the compiled reference of case c into its reference buffer. */
static int run_reference(at_measure *b, at_case *c, CUfunction fn,
                         const at_point *pt, at_err *e)
{
    const at_problem *p = &c->p;
    const at_family *f = p->family;
    const char *what = "the reference";
    CUdeviceptr ref = c->ref + AT_GUARD;
    int rc = at_measure_signature(p, pt, fn, what, e);
    if (!rc)
        rc = at_measure_copies(b, p, c->in, ref, fn, what, e);
    if (rc)
        return rc;
    at_launch g;
    at_args a;
    f->ops.ref_launch(p, pt, &g);
    f->ops.args(p, pt, c->in, ref, 0, 0, &a);
    AT_CU_TRY(e, what, cuFuncSetAttribute, fn,
              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)g.smem);
    AT_CU_TRY(e, what, cuLaunchKernel, fn, g.grid[0], g.grid[1], g.grid[2],
              g.block[0], g.block[1], g.block[2], g.smem, b->stream, a.ptr,
              NULL);
    return at_measure_wait(b, NULL, 1, what, e);
}

/* The error units from the reference, made on the host. */
static int bounds(at_case *c, at_err *e)
{
    const at_problem *p = &c->p;
    size_t guarded = at_whole_words(p->out_bytes) + 2 * AT_GUARD;
    unsigned char *ref = malloc(guarded), *bound = calloc(1, guarded);
    int rc = 0;
    CUresult r;
    if (!ref || !bound)
        rc = at_fail(e, AUTOTUNE_ENOMEM, "error bounds of %s", c->label);
    else if ((r = at_cu.cuMemcpyDtoH(ref, c->ref, guarded)) != CUDA_SUCCESS)
        rc = at_cu_fail(e, r, "cuMemcpyDtoH(reference output)", c->label);
    if (!rc) {
        p->family->ops.ref_bounds(p, ref + AT_GUARD, bound + AT_GUARD);
        if ((r = at_cu.cuMemcpyHtoD(c->bound, bound, guarded)) !=
            CUDA_SUCCESS)
            rc = at_cu_fail(e, r, "cuMemcpyHtoD(error bounds)", c->label);
    }
    free(ref);
    free(bound);
    return rc;
}

int at_measure_compile(at_measure *b, const at_problem *p, const char *src,
                       const char *label, void **cubin, size_t *size,
                       at_err *e)
{
    at_compile_opts co = {.sm = b->d->sm};
    char opts[128 + AT_EXTRA_OPTIONS], kernel[AT_KERNEL_NAME];
    at_compile_family_extra(p->family, co.extra, sizeof co.extra);
    at_compile_options_text(&co, opts, sizeof opts);
    at_cubin_key key = {co.sm, b->d->nvrtc, opts};
    at_err w = {0};
    int rc = b->cubins ? at_cubins_get(b->cubins, &key, src, cubin, size,
                                       kernel, &w)
                       : 0;
    if (rc < 0)
        return at_fail(e, rc, "%s", w.msg);
    if (rc == 1)
        return 0;
    /* A restarted GPU worker finds it in the cache: no NVRTC run. */
    if ((rc = at_compile(src, label, &co, cubin, size, e)))
        return rc;
    const char *srcs[] = {src}, *kernels[] = {label};
    if (b->cubins &&
        (rc = at_cubins_put(b->cubins, &key, 1, srcs, kernels, *cubin, *size,
                            e))) {
        free(*cubin);
        *cubin = NULL;
    }
    return rc;
}

/* The program of src loaded, its kernel `kernel` in *fn. */
static int load(at_measure *b, const at_problem *p, const char *src,
                const char *kernel, const char *label, CUmodule *mod,
                CUfunction *fn, at_err *e)
{
    void *cubin = NULL;
    size_t size = 0;
    *mod = NULL;
    int rc = at_measure_compile(b, p, src, label, &cubin, &size, e);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(mod, cubin);
    if (r != CUDA_SUCCESS) {
        free(cubin);
        *mod = NULL;
        return at_cu_fail(e, r, "cuModuleLoadData", label);
    }
    rc = at_module_function(*mod, cubin, size, kernel, fn, label, e);
    free(cubin);
    return rc;
}

int at_case_device_ref(at_measure *b, at_case *c, at_err *e)
{
    const at_problem *p = &c->p;
    at_limits l = at_device_limits(b->d);
    at_point pt;
    char kernel[128];
    char *src = p->family->ops.ref_source(p, &l, &pt, kernel, sizeof kernel, e);
    if (!src)
        return e && e->code ? e->code : AUTOTUNE_ENOMEM;
    CUmodule mod;
    CUfunction fn;
    int rc = load(b, p, src, kernel, "the reference", &mod, &fn, e);
    free(src);
    if (!rc)
        rc = run_reference(b, c, fn, &pt, e);
    if (mod)
        at_cu.cuModuleUnload(mod);
    if (!rc && c->bound)
        rc = bounds(c, e);
    return rc;
}

int at_case_init_kernel(at_measure *b, at_case *c, at_err *e)
{
    const at_problem *p = &c->p;
    const at_family *f = p->family;
    const char *what = "the init kernel";
    at_limits l = at_device_limits(b->d);
    at_point pt;
    char kernel[128];
    char *src = f->ops.init_source(p, &l, &pt, kernel, sizeof kernel, e);
    if (!src)
        return e && e->code ? e->code : AUTOTUNE_ENOMEM;
    CUmodule mod;
    CUfunction fn;
    int rc = load(b, p, src, kernel, what, &mod, &fn, e);
    free(src);
    at_launch g;
    at_args a;
    if (!rc) {
        f->ops.init_launch(p, &pt, &g);
        f->ops.init_args(p, c->in, &a);
        rc = at_measure_params(fn, &a, what, "init_kernel.arguments", e);
    }
    if (!rc) {
        CUresult r = at_cu.cuLaunchKernel(fn, g.grid[0], g.grid[1],
                                          g.grid[2], g.block[0], g.block[1],
                                          g.block[2], 0, b->stream, a.ptr,
                                          NULL);
        rc = r != CUDA_SUCCESS ? at_cu_fail(e, r, "cuLaunchKernel", what)
                               : at_measure_wait(b, NULL, 1, what, e);
    }
    if (mod)
        at_cu.cuModuleUnload(mod);
    return rc;
}
