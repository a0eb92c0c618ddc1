/* The walk: the strategy proposes points, programs compile them, and
 * the points are evaluated in proposal order while later ones compile. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "tune_impl.h"

int at_program_points(size_t total, size_t proposed, int workers)
{
    size_t left = total > proposed ? total - proposed : 1;
    size_t w = workers > 0 ? (size_t)workers : 1;
    size_t share = (left + w - 1) / w;
    return share >= PROG_POINTS ? PROG_POINTS : (int)share;
}

/* The end of a walk: drops what is queued, waits for what runs, frees
 * every program still in the ring once. */
static void drain(run *r, slot *ring, size_t window, size_t head,
                  size_t count)
{
    at_pool_cancel(r->pool);
    r->open = NULL; /* its points are in the ring */
    for (size_t i = 0; ring && i < count; ++i) {
        prog *g = ring[(head + i) % window].g;
        at_pool_wait(r->pool, &g->cj);
        for (int k = 0; k < g->n; ++k)
            if (g->single[k])
                at_pool_wait(r->pool, &g->single[k]->cj);
        if (--g->left == 0)
            at_prog_free(g, !r->lost);
    }
    r->last = NULL;
}

/* Waits for g's compilation and handles it. The measurement is made
 * first, while the first programs compile. */
static int wait_compiled(run *r, prog *g, at_err *e)
{
    int rc = r->b ? 0 : at_tune_measure(r, e);
    if (rc)
        return rc;
    at_pool_wait(r->pool, &g->cj);
    return at_prog_done(r, g, e);
}

static int program_points(const run *r)
{
    size_t total = r->out->points;
    if (r->o->budget_evals && r->o->budget_evals < total)
        total = r->o->budget_evals;
    int k = at_program_points(total, r->proposed, r->out->workers);
    int most = r->p->family->program_points;
    return most > 0 && k > most ? most : k;
}

int at_tune_walk(run *r, const at_space_view *v, at_err *e)
{
    at_tuned *o = r->out;
    const at_strategy *s = at_strategy_find(o->strategy);
    void *st = s->create(v, o->seed);
    if (!st)
        return at_fail(e, AUTOTUNE_ENOMEM, "strategy state");
    /* Points in flight: enough for every compile worker to hold a full
     * program while the next ones fill. */
    size_t window = 2 * (size_t)o->workers * PROG_POINTS;
    if (window < AT_SEARCH_WINDOW)
        window = AT_SEARCH_WINDOW;
    size_t head = 0, count = 0;
    slot *ring = calloc(window, sizeof *ring);
    size_t *idx = calloc(window, sizeof *idx);
    int rc = ring && idx ? 0 : at_fail(e, AUTOTUNE_ENOMEM, "point ring");
    snprintf(o->stopped, sizeof o->stopped, "every point evaluated");
    r->walk_t0 = at_now_s();
    while (!rc) {
        /* Ask for points a program's worth at a time (or whatever is free
         * when nothing is in flight), so programs fill. */
        size_t want = window - count;
        r->prog_points = program_points(r);
        if (want < (size_t)r->prog_points && count > 0)
            want = 0;
        if (r->o->budget_evals && r->o->budget_evals - r->proposed < want)
            want = r->o->budget_evals - r->proposed;
        size_t k = want ? s->propose(st, idx, want) : 0;
        for (size_t i = 0; i < k && !rc; ++i) {
            slot *sl = &ring[(head + count) % window];
            sl->g = NULL;
            r->prog_points = program_points(r);
            rc = at_prog_start_point(r, sl, idx[i], e);
            count += sl->g != NULL;
            ++r->proposed;
        }
        /* A partial program goes now: nothing else would fill it soon. */
        if (!rc && r->open) {
            prog *g = r->open;
            r->open = NULL;
            rc = at_prog_submit(r, g, e);
        }
        if (rc || count == 0)
            break;
        slot *sl = &ring[head];
        prog *g = sl->g;
        int i = sl->i;
        if ((rc = wait_compiled(r, g, e)))
            break;
        prog *own = g->single[i] ? g->single[i] : g;
        if (own != g && (rc = wait_compiled(r, own, e)))
            break;
        if (r->o->budget_s && at_now_s() - r->walk_t0 > r->o->budget_s) {
            snprintf(o->stopped, sizeof o->stopped, "time budget reached");
            break;
        }
        cand c;
        const char *status;
        double t0 = at_now_s();
        rc = at_tune_evaluate(r, own, own == g ? i : 0, &c, &status, e);
        r->lost = rc == AUTOTUNE_EFAULT;
        o->gpu_s += at_now_s() - t0;
        head = (head + 1) % window;
        --count;
        if (--g->left == 0) {
            if (r->last == g)
                r->last = NULL;
            at_prog_free(g, !r->lost);
        }
        if (!rc) {
            o->evaluated++;
            rc = at_tune_record(r, &c, status, e);
        }
        if (rc) {
            at_cand_free(&c);
            break;
        }
        s->observe(st, c.idx, strcmp(status, "ok") == 0 ? c.t.median_ms
                                                         : -1.0);
        if (c.fn)
            at_lead_offer(r, &c);
        else
            at_cand_free(&c);
        rc = at_alone_prefetch(r, e);
        at_tune_progress(r, 0);
    }
    if (!rc && r->o->budget_evals && r->proposed >= r->o->budget_evals &&
        o->evaluated < o->points)
        snprintf(o->stopped, sizeof o->stopped, "evaluation budget reached");
    drain(r, ring, window, head, count);
    free(ring);
    free(idx);
    s->destroy(st);
    return rc;
}
