/* What a family's runs need besides the buffers (its copies: an inout
 * buffer's first contents, __constant__ symbols), and the reference of a
 * family that computes it on the device (family.h, ref_source): compiled
 * once per case, run on the case's input into the poisoned reference,
 * its error units then made on the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "measure_impl.h"
#include "module.h"

int at_measure_copies(at_measure *b, const at_problem *p, CUdeviceptr in,
                      CUdeviceptr out, CUfunction fn, const char *variant,
                      at_err *e)
{
    const at_family *f = p->family;
    at_copy c[AT_MAX_COPIES];
    int n = f->copies ? f->copies(p, c, AT_MAX_COPIES) : 0;
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
    f->ref_launch(p, pt, &g);
    f->args(p, pt, c->in, ref, 0, 0, &a);
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
        p->family->ref_bounds(p, ref + AT_GUARD, bound + AT_GUARD);
        if ((r = at_cu.cuMemcpyHtoD(c->bound, bound, guarded)) !=
            CUDA_SUCCESS)
            rc = at_cu_fail(e, r, "cuMemcpyHtoD(error bounds)", c->label);
    }
    free(ref);
    free(bound);
    return rc;
}

int at_case_device_ref(at_measure *b, at_case *c, at_err *e)
{
    const at_problem *p = &c->p;
    at_limits l = at_device_limits(b->d);
    at_point pt;
    char kernel[128];
    char *src = p->family->ref_source(p, &l, &pt, kernel, sizeof kernel, e);
    if (!src)
        return e && e->code ? e->code : AUTOTUNE_ENOMEM;
    at_compile_opts co = {.sm = b->d->sm};
    snprintf(co.extra, sizeof co.extra, "%s",
             p->family->nvrtc_options ? p->family->nvrtc_options : "");
    void *cubin = NULL;
    size_t size = 0;
    int rc = at_compile(src, "the reference", &co, &cubin, &size, e);
    free(src);
    if (rc)
        return rc;
    CUmodule mod = NULL;
    CUfunction fn;
    CUresult r = at_cu.cuModuleLoadData(&mod, cubin);
    if (r != CUDA_SUCCESS) {
        free(cubin);
        return at_cu_fail(e, r, "cuModuleLoadData", "the reference");
    }
    rc = at_module_function(mod, cubin, size, kernel, &fn, "the reference",
                            e);
    free(cubin);
    if (!rc)
        rc = run_reference(b, c, fn, &pt, e);
    at_cu.cuModuleUnload(mod);
    if (!rc && c->bound)
        rc = bounds(c, e);
    return rc;
}
