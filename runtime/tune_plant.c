/* Points left out of a tune, points an earlier worker evaluated, and
 * points planted with a fault.
 *
 * A variant that faulted, trapped or hung on this GPU before is in the
 * cache's failed list (runtime/cache_failed.c) and is left out before the
 * walk, so the tune goes on as if it had not been in the space.
 *
 * AUTOTUNE_PLANT="fault@I,trap@J,spin@K,skip@L" makes the I-th point of
 * the space write to an illegal address, the J-th execute __trap(), the
 * K-th spin forever and the L-th return at once when launched on the
 * problem (its grid), so that it is fast and wrong there but right on the
 * check shapes: real variants of a real space, for the GPU suite to prove
 * that such variants are contained and never chosen
 * (tests/gpu/faults.sh). */
#include <stdlib.h>
#include <string.h>

#include "tune_impl.h"

static const struct {
    const char *name, *code;
} kinds[] = {
    {"fault", "if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 "
              "&& threadIdx.y == 0) *(volatile int *)8 = 1;"},
    {"trap", "if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 "
             "&& threadIdx.y == 0) __trap();"},
    {"spin", "if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 "
             "&& threadIdx.y == 0) for (;;) __nanosleep(1000);"},
    {"skip", "if (gridDim.x == %uu && gridDim.y == %uu && gridDim.z == %uu) "
             "return;"},
};

int at_tune_plants(run *r, const at_point *pts, size_t n, at_err *e)
{
    const char *env = getenv("AUTOTUNE_PLANT");
    char buf[256];
    if (!env || !*env)
        return 0;
    if (strlen(env) >= sizeof buf)
        return at_fail(e, AUTOTUNE_EINVALID, "AUTOTUNE_PLANT too long");
    snprintf(buf, sizeof buf, "%s", env);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        char *at = strchr(t, '@'), *end;
        size_t k = 0, nk = sizeof kinds / sizeof kinds[0];
        if (at) {
            *at = '\0';
            while (k < nk && strcmp(t, kinds[k].name) != 0)
                ++k;
        }
        unsigned long long i = at ? strtoull(at + 1, &end, 10) : 0;
        if (!at || k == nk || !at[1] || *end || i >= n ||
            r->n_plants == MAX_PLANTS)
            return at_fail(e, AUTOTUNE_EINVALID, "AUTOTUNE_PLANT: '%s' is "
                           "not fault@I, trap@I, spin@I or skip@I with I "
                           "below %zu (at most %d)", env, n, MAX_PLANTS);
        plant *pl = &r->plants[r->n_plants++];
        at_launch g;
        r->p->family->launch(r->p, &pts[i], &g);
        pl->pt = pts[i];
        snprintf(pl->code, sizeof pl->code, kinds[k].code, g.grid[0],
                 g.grid[1], g.grid[2]);
    }
    return 0;
}

const char *at_tune_prelude(const run *r, const at_point *pt)
{
    for (int i = 0; i < r->n_plants; ++i)
        if (memcmp(&r->plants[i].pt, pt, sizeof *pt) == 0)
            return r->plants[i].code;
    return NULL;
}

/* Whether an earlier worker of this tune evaluated pt. */
static int in_prior(const run *r, const at_point *pt)
{
    for (size_t k = 0; k < r->o->n_prior; ++k)
        if (memcmp(&r->o->prior[k].pt, pt, sizeof *pt) == 0)
            return 1;
    return 0;
}

size_t at_tune_leave_out(run *r, at_point *pts, size_t *n)
{
    size_t kept = 0;
    for (size_t i = 0; i < *n; ++i) {
        char name[128];
        r->p->family->point_name(r->p->family, &pts[i], name, sizeof name);
        int failed = 0;
        for (size_t k = 0; k < r->o->n_skip && !failed; ++k)
            failed = strcmp(r->o->skip[k].point, name) == 0;
        /* A resumed tune keeps the space its first worker had: the
         * variant that faulted there is in the failed list now, and its
         * outcome in the prior ones. */
        if (!failed || in_prior(r, &pts[i]))
            pts[kept++] = pts[i];
    }
    size_t gone = *n - kept;
    *n = kept;
    return gone;
}

int at_tune_prior_index(run *r, size_t n, at_err *e)
{
    if (!r->o->n_prior)
        return 0;
    r->prior_of = calloc(n ? n : 1, sizeof *r->prior_of);
    if (!r->prior_of)
        return at_fail(e, AUTOTUNE_ENOMEM, "earlier outcomes");
    for (size_t k = 0; k < r->o->n_prior; ++k) {
        const at_eval *ev = &r->o->prior[k];
        size_t i = ev->idx;
        /* The same space gives the same list; otherwise found by value. */
        if (i >= n || memcmp(&r->pts[i], &ev->pt, sizeof ev->pt) != 0)
            for (i = 0; i < n; ++i)
                if (memcmp(&r->pts[i], &ev->pt, sizeof ev->pt) == 0)
                    break;
        if (i < n && !r->prior_of[i])
            r->prior_of[i] = ev;
    }
    return 0;
}
