#include "replay.h"

#include <stdlib.h>

int at_replay_one(const at_strategy *s, const at_record *r, uint64_t seed,
                  size_t *to_1pct, size_t *to_2pct, size_t *order,
                  size_t max, at_err *e)
{
    const at_space_view *v = &r->view;
    void *st = s->create(v, seed);
    size_t ring[AT_SEARCH_WINDOW];
    unsigned char *seen = calloc(v->n, 1);
    if (!st || !seen) {
        if (st)
            s->destroy(st);
        free(seen);
        return at_fail(e, AUTOTUNE_ENOMEM, "replay of %s", s->name);
    }
    double opt = r->ms[r->best], best = -1;
    size_t head = 0, count = 0, evals = 0, proposed = 0;
    *to_1pct = *to_2pct = 0;
    int rc = 0;
    while (!*to_2pct || !*to_1pct) {
        size_t idx[AT_SEARCH_WINDOW];
        size_t k = s->propose(st, idx, AT_SEARCH_WINDOW - count);
        for (size_t i = 0; i < k && !rc; ++i) {
            if (idx[i] >= v->n || seen[idx[i]])
                rc = at_fail(e, AUTOTUNE_EINVALID, "strategy %s proposed "
                             "point %zu %s", s->name, idx[i],
                             idx[i] >= v->n ? "outside the space" : "twice");
            else {
                seen[idx[i]] = 1;
                if (order && proposed < max)
                    order[proposed] = idx[i];
                ++proposed;
                ring[(head + count++) % AT_SEARCH_WINDOW] = idx[i];
            }
        }
        if (rc || count == 0)
            break;
        size_t p = ring[head];
        head = (head + 1) % AT_SEARCH_WINDOW;
        --count;
        double ms = r->ms[p];
        s->observe(st, p, ms);
        ++evals;
        if (ms > 0 && (best < 0 || ms < best))
            best = ms;
        if (!*to_1pct && best > 0 && best <= opt * 1.01)
            *to_1pct = evals;
        if (!*to_2pct && best > 0 && best <= opt * 1.02)
            *to_2pct = evals;
    }
    s->destroy(st);
    free(seen);
    if (!rc && (!*to_1pct || !*to_2pct))
        rc = at_fail(e, AUTOTUNE_EINVALID, "strategy %s stopped after %zu "
                     "of %zu points without reaching the optimum", s->name,
                     evals, v->n);
    return rc;
}

int at_replay(const at_strategy *s, const at_record *r, int seeds,
              at_replay_each each, void *each_ctx, at_replay_result *out,
              at_err *e)
{
    out->strategy = s->name;
    out->space_size = r->view.n;
    out->seeds = seeds;
    double sum1 = 0, sum2 = 0;
    out->worst_1pct = out->worst_2pct = 0;
    size_t *order = each ? malloc(r->view.n * sizeof *order) : NULL;
    if (each && !order)
        return at_fail(e, AUTOTUNE_ENOMEM, "replay of %s", s->name);
    int rc = 0;
    for (int k = 1; k <= seeds && !rc; ++k) {
        size_t a, b;
        rc = at_replay_one(s, r, (uint64_t)k, &a, &b, order,
                           order ? r->view.n : 0, e);
        /* Within 1% is within 2% too: a is the later, the last one run. */
        if (!rc && each)
            rc = each(each_ctx, s, k, order, a > b ? a : b, e);
        if (rc)
            break;
        sum1 += (double)a;
        sum2 += (double)b;
        if (a > out->worst_1pct)
            out->worst_1pct = a;
        if (b > out->worst_2pct)
            out->worst_2pct = b;
    }
    free(order);
    if (rc)
        return rc;
    out->evals_to_1pct = sum1 / seeds;
    out->evals_to_2pct = sum2 / seeds;
    return 0;
}
