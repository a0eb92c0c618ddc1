/* The point compiled with every path, for a launch whose buffers the
 * tuned kernel does not take (ops.takes: the transpose's kernel without
 * its element path, given a pointer off its vectors). Compiled at the
 * first such launch and kept with the kernel; the tuned kernel, the one
 * measured, serves every other launch. */
#include <stdio.h>
#include <stdlib.h>

#include "gen/expand.h"
#include "runtime/api/api.h"
#include "runtime/driver/driver.h"
#include "runtime/measure/measure.h"

int at_api_general(autotune_kernel *k, CUfunction *fn, at_err *e)
{
    if (k->any_fn) {
        *fn = k->any_fn;
        return 0;
    }
    if (k->any_mod) { /* loaded by a try that failed after it */
        at_cu.cuModuleUnload(k->any_mod);
        k->any_mod = NULL;
    }
    const at_family *f = k->p.family;
    const at_point *pts[1] = {&k->pt};
    char variant[160], kernel[AT_KERNEL_NAME];
    snprintf(variant, sizeof variant, "%s, with every path", k->name);
    char *src = at_expand_program_paths(&k->p, pts, 1, AT_PATHS_ALL, e);
    if (!src)
        return e->code ? e->code : at_fail(e, AUTOTUNE_ENOMEM, "%s", variant);
    at_compile_opts co = {.sm = k->ctx->dev.sm};
    at_compile_family_extra(f, co.extra, sizeof co.extra);
    void *cubin = NULL;
    size_t size = 0;
    int rc = at_compile(src, variant, &co, &cubin, &size, e);
    free(src);
    if (rc)
        return rc;
    at_family_kernel_symbol(f, 0, kernel, sizeof kernel);
    rc = at_cu_fail(e, at_cu.cuModuleLoadData(&k->any_mod, cubin),
                    "cuModuleLoadData", variant);
    if (!rc)
        rc = at_module_function(k->any_mod, cubin, size, kernel, &k->any_fn,
                                variant, e);
    if (!rc)
        rc = at_measure_prepare(&k->p, &k->pt, k->any_fn, variant, e);
    free(cubin);
    if (rc)
        k->any_fn = NULL; /* the module stays with k until a retry */
    else
        *fn = k->any_fn;
    return rc;
}
