/* The end of a tune: the leaders re-timed interleaved with the copy,
 * and the winner's cubin compiled alone and checked again. */
#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "runtime/driver/driver.h"
#include "runtime/measure/measure.h"
#include "runtime/tune/tune_impl.h"

/* The winner's cubin for the cache and the API (tune_alone.c), checked
 * again. */
static int winner_cubin(run *r, cand *c, at_err *e)
{
    void *cubin = NULL;
    size_t size = 0;
    int rc = at_alone_cubin(r, c, &cubin, &size, e);
    CUmodule mod = NULL;
    CUfunction fn;
    if (!rc)
        rc = at_cu_fail(e, at_cu.cuModuleLoadData(&mod, cubin),
                        "cuModuleLoadData", c->name);
    if (!rc)
        rc = at_module_function(mod, cubin, size, AT_KERNEL_SYMBOL, &fn,
                                c->name, e);
    if (!rc)
        rc = at_measure_prepare(r->p, &c->pt, fn, c->name, e);
    if (!rc)
        rc = at_measure_verify(r->b, &c->pt, fn, c->name, AT_CHECK_ALL,
                               e);
    if (mod)
        at_cu.cuModuleUnload(mod);
    if (rc) {
        free(cubin);
        return rc;
    }
    r->out->cubin = cubin;
    r->out->cubin_size = size;
    return 0;
}

/* A leader an earlier worker evaluated: its kernel loaded (the walk's
 * program from the compiled-variant cache, else the point compiled
 * alone) and checked on the problem where it was not. 1: dropped (it
 * could not be loaded, or was wrong there). */
static int load_resumed(run *r, cand *c, at_err *e)
{
    char *src = at_expand(r->p, &c->pt, AT_KERNEL_SYMBOL,
                          at_tune_prelude(r, &c->pt), e);
    if (!src)
        return AUTOTUNE_ENOMEM;
    int64_t blob;
    at_err w = {0};
    int hit = r->o->cubins ? at_cubins_find(r->o->cubins, &r->cc.ckey, src,
                                            &blob, c->kernel, &w)
                           : 0;
    free(src);
    if (hit == 1)
        hit = at_cubins_blob(r->o->cubins, blob, &c->cubin, &c->size, &w);
    int rc = 0;
    if (hit != 1) {
        snprintf(c->kernel, sizeof c->kernel, "%s", AT_KERNEL_SYMBOL);
        rc = at_alone_cubin(r, c, &c->cubin, &c->size, e);
    }
    if (!rc)
        rc = at_cu_fail(e, at_cu.cuModuleLoadData(&c->mod, c->cubin),
                        "cuModuleLoadData", c->name);
    if (!rc)
        rc = at_module_function(c->mod, c->cubin, c->size, c->kernel, &c->fn,
                                c->name, e);
    if (!rc)
        rc = at_measure_prepare(r->p, &c->pt, c->fn, c->name, e);
    if (!rc && !c->verified && at_family_verifies(r->p->family)) {
        rc = at_measure_verify(r->b, &c->pt, c->fn, c->name,
                               AT_CHECK_PROBLEM, e);
        c->verified = !rc;
    }
    if (rc == AUTOTUNE_EWRONG || rc == AUTOTUNE_ECOMPILE ||
        rc == AUTOTUNE_ELAUNCH) {
        at_tune_failure(r, e->msg, 0);
        at_err_clear(e);
        return 1;
    }
    return rc;
}

/* The leaders from earlier workers loaded; those that cannot be are
 * dropped. */
static int load_leaders(run *r, at_err *e)
{
    for (int i = 0; i < r->leaders.n;) {
        cand *c = &r->leaders.c[i];
        int rc = c->fn ? 0 : load_resumed(r, c, e);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            c->resumed = 0;
            ++i;
            continue;
        }
        at_cand_free(c);
        memmove(c, c + 1, (size_t)(r->leaders.n - i - 1) * sizeof *c);
        --r->leaders.n;
    }
    if (r->leaders.n == 0)
        return at_fail(e, AUTOTUNE_ENO_VARIANT, "no leading variant could "
                       "be loaded again after the GPU worker's restart; "
                       "first failure: %s", r->out->first_failure);
    return 0;
}

/* Contender 0 is the copy, 1.. the leaders. */
static int time_contender(void *ctx, int i, int samples, at_timing *t,
                          at_err *e)
{
    run *r = ctx;
    if (i == 0)
        return at_measure_time_copy(r->b, samples, t, e);
    cand *c = &r->leaders.c[i - 1];
    /* A sample of a long kernel (a round of the rotation sets past a
     * millisecond) is steady already: 3 a round, not 10, keep the
     * rounds' cost near the walk's (a 1.3 ms matmul: 0.4 s, not 1.2). */
    if (c->t.median_ms * at_measure_sets(r->b) > 1.0 && samples > 3)
        samples = 3;
    return at_measure_time(r->b, &c->pt, c->fn, c->name, samples, 0, 0, t,
                           e);
}

/* The leaders again, interleaved with the copy (runtime/measure/measure.h). The winner is
 * the lowest median, ties going to the earlier leader. */
int at_tune_retime(run *r, at_err *e)
{
    at_round_result res[1 + AT_LEADERS];
    int rc = load_leaders(r, e);
    if (!rc)
        rc = at_rounds(1 + r->leaders.n, time_contender, r, res, e);
    if (rc)
        return rc;
    for (int i = 0; i < r->leaders.n; ++i)
        r->leaders.c[i].final_ms = res[1 + i].ms;
    int win = 0;
    for (int i = 0; i < r->leaders.n; ++i)
        if (r->leaders.c[i].final_ms < r->leaders.c[win].final_ms)
            win = i;
    at_tuned *o = r->out;
    /* The leaders by final time, for the summary. */
    int order[AT_LEADERS];
    for (int i = 0; i < r->leaders.n; ++i) {
        int q = i;
        while (q > 0 && r->leaders.c[i].final_ms < r->leaders.c[order[q - 1]].final_ms) {
            order[q] = order[q - 1];
            --q;
        }
        order[q] = i;
    }
    o->n_leaders = r->leaders.n;
    for (int i = 0; i < r->leaders.n; ++i) {
        snprintf(o->leaders[i].name, sizeof o->leaders[i].name, "%s",
                 r->leaders.c[order[i]].name);
        o->leaders[i].ms = r->leaders.c[order[i]].final_ms;
    }
    cand *c = &r->leaders.c[win];
    const at_problem *p = r->p;
    o->point = c->pt;
    snprintf(o->name, sizeof o->name, "%s", c->name);
    o->kernel = c->t;
    o->kernel.median_ms = c->final_ms;
    o->copy.median_ms = res[0].ms;
    o->gbps = at_tune_gbps(r, o->kernel.median_ms);
    o->copy_gbps = at_copy_gbps(r->p, o->copy.median_ms);
    o->frac_copy = o->gbps / o->copy_gbps;
    at_launch g;
    p->family->ops.launch(p, &c->pt, &g);
    AT_CU_TRY(e, c->name, cuFuncGetAttribute, &o->registers,
              CU_FUNC_ATTRIBUTE_NUM_REGS, c->fn);
    AT_CU_TRY(e, c->name, cuFuncGetAttribute, &o->local_bytes,
              CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, c->fn);
    AT_CU_TRY(e, c->name, cuFuncGetAttribute, &o->shared_bytes,
              CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, c->fn);
    o->shared_bytes += (int)g.smem; /* static + dynamic */
    return winner_cubin(r, c, e);
}
