/* The walk: the strategy proposes points, programs compile them, and
 * the points are evaluated in proposal order while later ones compile. */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "runtime/tune/tune_impl.h"

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
    at_pool_cancel(r->cc.pool);
    r->cc.open = NULL; /* its points are in the ring */
    for (size_t i = 0; ring && i < count; ++i) {
        prog *g = ring[(head + i) % window].g;
        if (!g) /* an earlier worker's outcome */
            continue;
        at_pool_wait(r->cc.pool, &g->cj);
        for (int k = 0; k < g->n; ++k)
            if (g->single[k])
                at_pool_wait(r->cc.pool, &g->single[k]->cj);
        if (--g->left == 0)
            at_prog_free(g, !r->lost);
    }
    r->cc.last = NULL;
}

/* Waits for g's compilation and handles it. The measurement is made
 * first, while the first programs compile. */
static int wait_compiled(run *r, prog *g, at_err *e)
{
    int rc = r->b ? 0 : at_tune_measure(r, e);
    if (rc)
        return rc;
    at_pool_wait(r->cc.pool, &g->cj);
    return at_prog_done(r, g, e);
}

/* The ring of points in flight: window slots, count of them from head. */
typedef struct ring {
    slot *s;
    size_t window, head, count;
} ring;

static void ring_pop(ring *q)
{
    q->head = (q->head + 1) % q->window;
    --q->count;
}

/* The point at the ring's head, its program compiled, evaluated and
 * recorded (and told), and popped; a fault or a hang is recorded and
 * told too, then ends the walk (AUTOTUNE_EFAULT). *stop: the time budget
 * ended the walk before it (nothing popped). */
static int evaluate_head(run *r, ring *q, cand *c, const char **status,
                         int *stop, at_err *e)
{
    at_tuned *o = r->out;
    prog *g = q->s[q->head].g;
    int i = q->s[q->head].i, rc;
    if ((rc = wait_compiled(r, g, e)))
        return rc;
    prog *own = g->single[i] ? g->single[i] : g;
    if (own != g && (rc = wait_compiled(r, own, e)))
        return rc;
    if (r->o->budget_s && at_now_s() - r->progress.walk_t0 > r->o->budget_s) {
        snprintf(o->stopped, sizeof o->stopped, "time budget reached");
        *stop = 1;
        return 0;
    }
    double t0 = at_now_s();
    r->progress.last_why[0] = '\0';
    rc = at_tune_evaluate(r, own, own == g ? i : 0, c, status, e);
    r->lost = rc == AUTOTUNE_EFAULT;
    if (!rc)
        at_twin_done(r, q->s[q->head].twin, c, *status,
                     r->progress.last_why);
    o->gpu_s += at_now_s() - t0;
    ring_pop(q);
    if (--g->left == 0) {
        if (r->cc.last == g)
            r->cc.last = NULL;
        at_prog_free(g, !r->lost);
    }
    if (rc == AUTOTUNE_EFAULT) { /* in the record and told, once */
        at_err w = {0};
        o->evaluated++;
        at_tune_record(r, c, "faulted", &w);
        at_tune_tell(r, c, "faulted", e->msg);
        return rc;
    }
    if (rc)
        return rc;
    o->evaluated++;
    at_tune_tell(r, c, *status, strcmp(*status, "ok") ? r->progress.last_why : "");
    return at_tune_record(r, c, *status, e);
}

static int points_a_program(const run *r)
{
    size_t total = r->out->points;
    if (r->o->budget_evals && r->o->budget_evals < total)
        total = r->o->budget_evals;
    int k = at_program_points(total, r->progress.proposed, r->out->workers);
    return at_family_program_points(r->p->family, k);
}

/* The point at the ring's head, evaluated by an earlier worker: taken
 * as it was (its record row and report are that worker's). */
static int resume_head(run *r, ring *q, cand *c, const char **status,
                       at_err *e)
{
    int rc = r->b ? 0 : at_tune_measure(r, e);
    if (rc)
        return rc;
    const slot *sl = &q->s[q->head];
    at_tune_resume(r, sl->prior, sl->idx, c, status);
    if (!sl->copy)
        at_twin_done(r, sl->twin, c, *status, sl->prior->why);
    ring_pop(q);
    r->out->evaluated++;
    return 0;
}

/* The point at the ring's head, a twin of one evaluated before it:
 * its outcome taken, recorded and told, and popped. */
static int copy_head(run *r, ring *q, cand *c, const char **status,
                     at_err *e)
{
    long first = q->s[q->head].twin;
    int rc = at_twin_take(r, first, q->s[q->head].idx, c, status, e);
    if (rc)
        return rc;
    ring_pop(q);
    r->out->evaluated++;
    at_tune_tell(r, c, *status, at_twin_why(r, first));
    return at_tune_record(r, c, *status, e);
}

/* Proposes up to want points into the ring: each started compiling
 * (at_prog_start_point), or, where an earlier worker evaluated it, its
 * outcome kept for its turn. */
static int propose(run *r, const at_strategy *s, void *st, ring *q,
                   size_t *idx, size_t want, at_err *e)
{
    size_t k = want ? s->propose(st, idx, want) : 0;
    int rc = 0;
    for (size_t i = 0; i < k && !rc; ++i) {
        slot *sl = &q->s[(q->head + q->count) % q->window];
        sl->g = NULL;
        sl->prior = r->prior_of ? r->prior_of[idx[i]] : NULL;
        sl->idx = idx[i];
        sl->twin = sl->copy = 0;
        r->cc.prog_points = points_a_program(r);
        if (!sl->prior)
            rc = at_prog_start_point(r, sl, idx[i], e);
        else /* an earlier worker's outcome, for its twins */
            at_twin_of(r, idx[i], NULL, &sl->twin, &sl->copy);
        q->count += sl->g != NULL || sl->prior || sl->copy;
        ++r->progress.proposed;
    }
    /* A partial program goes now: nothing else would fill it soon. */
    if (!rc && r->cc.open) {
        prog *g = r->cc.open;
        r->cc.open = NULL;
        rc = at_prog_submit(r, g, e);
    }
    return rc;
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
    ring q = {NULL, 2 * (size_t)o->workers * PROG_POINTS, 0, 0};
    if (q.window < AT_SEARCH_WINDOW)
        q.window = AT_SEARCH_WINDOW;
    q.s = calloc(q.window, sizeof *q.s);
    size_t *idx = calloc(q.window, sizeof *idx);
    int rc = q.s && idx ? 0 : at_fail(e, AUTOTUNE_ENOMEM, "point ring");
    int stop = 0;
    snprintf(o->stopped, sizeof o->stopped, "every point evaluated");
    r->progress.walk_t0 = at_now_s();
    while (!rc && !stop) {
        /* Ask for points a program's worth at a time (or whatever is free
         * when nothing is in flight), so programs fill. */
        size_t want = q.window - q.count;
        r->cc.prog_points = points_a_program(r);
        if (want < (size_t)r->cc.prog_points && q.count > 0)
            want = 0;
        if (r->o->budget_evals && r->o->budget_evals - r->progress.proposed < want)
            want = r->o->budget_evals - r->progress.proposed;
        rc = propose(r, s, st, &q, idx, want, e);
        if (rc || q.count == 0)
            break;
        cand c;
        const char *status = "ok";
        memset(&c, 0, sizeof c);
        rc = q.s[q.head].prior  ? resume_head(r, &q, &c, &status, e)
             : q.s[q.head].copy ? copy_head(r, &q, &c, &status, e)
                                : evaluate_head(r, &q, &c, &status, &stop, e);
        if (rc || stop) {
            at_cand_free(&c);
            break;
        }
        s->observe(st, c.idx, strcmp(status, "ok") == 0 ? c.t.median_ms
                                                         : -1.0);
        if (c.fn || (c.resumed && strcmp(status, "ok") == 0))
            at_lead_offer(r, &c);
        else
            at_cand_free(&c);
        rc = at_alone_prefetch(r, e);
        at_tune_progress(r, 0);
    }
    if (!rc && r->o->budget_evals && r->progress.proposed >= r->o->budget_evals &&
        o->evaluated < o->points)
        snprintf(o->stopped, sizeof o->stopped, "evaluation budget reached");
    drain(r, q.s, q.window, q.head, q.count);
    free(q.s);
    free(idx);
    s->destroy(st);
    return rc;
}
