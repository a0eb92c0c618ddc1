/* Points left out of a tune, and points an earlier worker evaluated.
 *
 * A variant that faulted, trapped or hung on this GPU before is in the
 * cache's failed list (runtime/store/cache_failed.c) and is left out
 * before the walk, so the tune goes on as if it had not been in the
 * space. */
#include <stdlib.h>
#include <string.h>

#include "runtime/tune/tune_impl.h"

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
        r->p->family->ops.point_name(r->p->family, &pts[i], name, sizeof name);
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
