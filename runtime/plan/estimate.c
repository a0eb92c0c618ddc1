#include "runtime/plan/plan.h"

#include <stdlib.h>
#include <string.h>

#include "base/pcg.h"
#include "runtime/driver/driver.h"
#include "gen/expand.h"

/* The compiled-variant cache's cubin of src: compiled alone, else in
 * one of the tune's programs (the walk's key); 1 found, 0 not, < 0. */
static int cached(at_cubins *c, const at_cubin_key *alone, const char *walk,
                  const char *src, void **cubin, size_t *size,
                  char kernel[AT_KERNEL_NAME], at_err *w)
{
    int rc = at_cubins_get(c, alone, src, cubin, size, kernel, w);
    if (rc == 0 && strcmp(alone->options, walk) != 0) {
        at_cubin_key k = *alone;
        k.options = walk;
        rc = at_cubins_get(c, &k, src, cubin, size, kernel, w);
    }
    return rc;
}

/* The cubin: the tuned entry's when the source is the same, else the
 * compiled-variant cache's, else compiled here (and stored there). */
static int get_cubin(const at_device *d, const at_problem *p,
                     const at_point *pt, const char *name,
                     const at_tune_opts *o, const at_problem *have_for,
                     const void *have, size_t have_size, void **cubin,
                     size_t *size, char kernel[AT_KERNEL_NAME], at_err *e)
{
    snprintf(kernel, AT_KERNEL_NAME, "%s", AT_KERNEL_SYMBOL);
    char *src = at_expand(p, pt, AT_KERNEL_SYMBOL, NULL, e);
    if (!src)
        return e->code ? e->code : AUTOTUNE_ENOMEM;
    char *was = have ? at_expand(have_for, pt, AT_KERNEL_SYMBOL, NULL, e)
                     : NULL;
    int same = was && strcmp(was, src) == 0;
    free(was);
    if (same) {
        free(src);
        if (!(*cubin = malloc(have_size)))
            return at_fail(e, AUTOTUNE_ENOMEM, "cubin");
        memcpy(*cubin, have, have_size);
        *size = have_size;
        return 0;
    }
    at_compile_opts co;
    char text[192 + AT_EXTRA_OPTIONS], opts[192 + AT_EXTRA_OPTIONS + 8];
    at_tune_compile_opts(o, p->family, d->sm, &co, text, sizeof text);
    /* The key the tuner stores a winner under (runtime/tune/tune_alone.c). */
    snprintf(opts, sizeof opts, "%s%s", text,
             at_family_alone_key(p->family));
    at_cubin_key key = {d->sm, d->nvrtc, opts};
    at_err w = {0};
    int rc = o->cubins ? cached(o->cubins, &key, text, src, cubin, size,
                                kernel, &w)
                       : 0;
    if (rc < 0) {
        free(src);
        return at_fail(e, rc, "%s", w.msg);
    }
    if (rc == 0) {
        /* A variant found whose cubin was not may have named its kernel. */
        snprintf(kernel, AT_KERNEL_NAME, "%s", AT_KERNEL_SYMBOL);
        rc = at_compile(src, name, &co, cubin, size, e);
        const char *k = AT_KERNEL_SYMBOL;
        const char *srcs[] = {src};
        if (!rc && o->cubins &&
            (rc = at_cubins_put(o->cubins, &key, 1, srcs, &k, *cubin,
                                *size, e)) != 0) {
            free(*cubin);
            *cubin = NULL;
        }
    } else {
        rc = 0;
    }
    free(src);
    return rc;
}

static int verify(const at_device *d, const at_problem *p,
                  const at_point *pt, const char *name,
                  const at_tune_opts *o, const void *cubin, size_t size,
                  const char *kernel, at_err *e)
{
    int rc = at_device_push(d, e);
    if (rc)
        return rc;
    at_measure *b = NULL;
    CUmodule mod = NULL;
    CUfunction fn = NULL;
    uint64_t seed = o->seed ? o->seed : at_pcg_fresh_seed();
    rc = at_measure_create(&b, d, p, seed, AT_MEASURE_WARM_L2, o->cubins, e);
    if (!rc)
        rc = at_cu_fail(e, at_cu.cuModuleLoadData(&mod, cubin),
                        "cuModuleLoadData", name);
    if (!rc)
        rc = at_module_function(mod, cubin, size, kernel, &fn, name, e);
    if (!rc)
        rc = at_measure_prepare(p, pt, fn, name, e);
    if (!rc)
        rc = at_measure_verify(b, pt, fn, name, AT_CHECK_ALL, e);
    if (mod)
        at_cu.cuModuleUnload(mod);
    at_measure_destroy(b);
    at_device_pop();
    return rc;
}

int at_estimate_check(const at_device *d, const at_problem *p,
                      const at_point *pt, const at_tune_opts *o,
                      const at_problem *have_for, const void *have,
                      size_t have_size, void **cubin, size_t *size,
                      char kernel[AT_KERNEL_NAME], at_err *e)
{
    char name[128];
    p->family->ops.point_name(p->family, pt, name, sizeof name);
    *cubin = NULL;
    int rc = get_cubin(d, p, pt, name, o, have_for, have, have_size, cubin,
                       size, kernel, e);
    if (!rc)
        rc = verify(d, p, pt, name, o, *cubin, *size, kernel, e);
    if (rc) {
        free(*cubin);
        *cubin = NULL;
    }
    return rc;
}
