/* The winner's cubin compiled alone (its kernel named as every stored
 * cubin's is), for the cache and the API. The walk compiles points 16 to
 * a program; the winner is known only at the end, and compiling it then
 * would put a whole NVRTC run (about 0.15 s) after the last timing. So
 * once half the points are evaluated, each leader without a stored alone
 * cubin is compiled alone by the compile pool, when workers are idle (a
 * warm walk compiles nothing; a cold one nears its end), while the walk
 * goes on. */
#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "runtime/tune/tune_impl.h"

static at_cubin_key alone_key(const run *r, char *opts, size_t n)
{
    /* A family compiled a point a program: the walk's cubins are alone
     * already (at_family_kernel_symbol), found under the walk's key. */
    snprintf(opts, n, "%s%s", r->cc.co_text,
             at_family_alone_key(r->p->family));
    at_cubin_key key = r->cc.ckey;
    key.options = opts;
    return key;
}

static char *alone_src(run *r, const cand *c, at_err *e)
{
    return at_expand(r->p, &c->pt, AT_KERNEL_SYMBOL,
                     at_tune_prelude(r, &c->pt), e);
}

static alone *find(run *r, size_t idx)
{
    for (int i = 0; i < r->cc.n_alone; ++i)
        if (r->cc.alone[i].idx == idx)
            return &r->cc.alone[i];
    return NULL;
}

int at_alone_prefetch(run *r, at_err *e)
{
    size_t total = r->out->points;
    if (r->o->budget_evals && r->o->budget_evals < total)
        total = r->o->budget_evals;
    if (!r->o->cubins || 2 * r->out->evaluated < total)
        return 0;
    for (int i = 0; i < r->leaders.n; ++i) {
        cand *c = &r->leaders.c[i];
        /* At most half the workers (and none of a pool of 3 or fewer),
         * so the walk keeps its core. */
        if (r->cc.n_alone == MAX_ALONE || find(r, c->idx) ||
            r->out->workers < 4 ||
            2 * at_pool_idle(r->cc.pool) <= r->out->workers)
            continue;
        char opts[192 + AT_EXTRA_OPTIONS], kernel[AT_KERNEL_NAME];
        at_cubin_key key = alone_key(r, opts, sizeof opts);
        char *src = alone_src(r, c, e);
        if (!src)
            return AUTOTUNE_ENOMEM;
        int64_t blob;
        at_err w = {0};
        int hit = at_cubins_find(r->o->cubins, &key, src, &blob, kernel, &w);
        if (hit < 0) {
            free(src);
            return at_fail(e, hit, "%s", w.msg);
        }
        alone *a = &r->cc.alone[r->cc.n_alone++];
        a->idx = c->idx;
        a->job = NULL;
        if (hit) { /* stored already: nothing to compile */
            free(src);
            continue;
        }
        if (!(a->job = calloc(1, sizeof *a->job))) {
            free(src);
            return at_fail(e, AUTOTUNE_ENOMEM, "compile job");
        }
        a->job->src = src;
        a->job->opts = r->cc.co;
        snprintf(a->job->variant, sizeof a->job->variant, "%s", c->name);
        at_pool_submit(r->cc.pool, a->job);
    }
    return 0;
}

int at_alone_cubin(run *r, const cand *c, void **cubin, size_t *size,
                   at_err *e)
{
    char *src = alone_src(r, c, e);
    if (!src)
        return AUTOTUNE_ENOMEM;
    char opts[192 + AT_EXTRA_OPTIONS], kernel[AT_KERNEL_NAME];
    at_cubin_key key = alone_key(r, opts, sizeof opts);
    at_err w = {0};
    int rc = r->o->cubins ? at_cubins_get(r->o->cubins, &key, src, cubin,
                                          size, kernel, &w)
                          : 0;
    if (rc < 0) {
        free(src);
        return at_fail(e, rc, "%s", w.msg);
    }
    if (rc == 1) {
        free(src);
        return 0;
    }
    alone *a = find(r, c->idx);
    rc = 1;
    if (a && a->job) {
        at_pool_wait(r->cc.pool, a->job);
        if (a->job->rc == 0) { /* the job's cubin is ours now */
            *cubin = a->job->cubin;
            *size = a->job->size;
            a->job->cubin = NULL;
            rc = 0;
        }
    }
    if (rc) /* not prefetched, or cancelled: compiled here */
        rc = at_compile(src, c->name, &r->cc.co, cubin, size, e);
    const char *k = AT_KERNEL_SYMBOL;
    const char *srcs[] = {src};
    if (!rc && r->o->cubins)
        rc = at_cubins_put(r->o->cubins, &key, 1, srcs, &k, *cubin, *size, e);
    free(src);
    if (rc) {
        free(*cubin);
        *cubin = NULL;
    }
    return rc;
}

void at_alone_free(run *r)
{
    for (int i = 0; i < r->cc.n_alone; ++i) {
        if (r->cc.alone[i].job) {
            r->out->nvrtc_cpu_s += r->cc.alone[i].job->ms / 1e3;
            at_job_release(r->cc.alone[i].job);
            free(r->cc.alone[i].job);
        }
    }
    r->cc.n_alone = 0;
}
