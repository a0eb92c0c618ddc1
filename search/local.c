/* Iterated local search. From a random start, evaluate the current
 * point's neighbours (every point that differs on one axis) and move to
 * the best of them while it beats the current point; at a local optimum,
 * perturb the best point found so far on two or three axes and descend
 * again from there. A neighbourhood is proposed at once, so its points
 * compile in parallel. Every point is proposed at most once; when no
 * perturbation finds a fresh point, a random fresh point is the new
 * start, so the search ends having seen everything. */
#include <stdlib.h>
#include <string.h>

#include "walk.h"

enum { START, DESCEND };

typedef struct {
    at_walk w;
    size_t cur, start, best;
    int phase;
    size_t *queue, nq, head;
    unsigned char *tmp;
} state;

static void destroy(void *st)
{
    state *s = st;
    if (!s)
        return;
    at_walk_free(&s->w);
    free(s->queue);
    free(s->tmp);
    free(s);
}

static void *create(const at_space_view *v, uint64_t seed)
{
    state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t qn = 1;
    for (int a = 0; a < v->n_axes; ++a)
        qn += (size_t)v->radix[a];
    s->queue = malloc(qn * sizeof *s->queue);
    s->tmp = malloc((size_t)v->n_axes + 1);
    if (!s->queue || !s->tmp || at_walk_init(&s->w, v, seed) != 0) {
        free(s->queue);
        free(s->tmp);
        free(s);
        return NULL;
    }
    s->cur = s->start = s->best = AT_NONE;
    return s;
}

static void enqueue(state *s, size_t i)
{
    at_walk_take(&s->w, i);
    s->queue[s->nq++] = i;
}

/* The best known neighbour of p (differing on one axis); with
 * queue_fresh, the neighbours not yet proposed are queued. */
static size_t best_neighbour(state *s, size_t p, int queue_fresh)
{
    const at_space_view *v = s->w.v;
    size_t best = AT_NONE;
    for (int a = 0; a < v->n_axes; ++a) {
        for (int k = 0; k < v->radix[a]; ++k) {
            memcpy(s->tmp, at_walk_coord(&s->w, p), (size_t)v->n_axes);
            if (s->tmp[a] == k)
                continue;
            s->tmp[a] = (unsigned char)k;
            size_t q = at_walk_find(&s->w, s->tmp);
            if (q == AT_NONE)
                continue;
            if (!s->w.proposed[q]) {
                if (queue_fresh)
                    enqueue(s, q);
            } else if (at_walk_better(&s->w, q, best)) {
                best = q;
            }
        }
    }
    return best;
}

/* A fresh point near the best one, or any fresh point. */
static size_t perturbed(state *s)
{
    const at_space_view *v = s->w.v;
    if (s->best != AT_NONE) {
        for (int tries = 0; tries < 64; ++tries) {
            memcpy(s->tmp, at_walk_coord(&s->w, s->best), (size_t)v->n_axes);
            int changes = 2 + (int)at_walk_rand(&s->w, 2);
            for (int c = 0; c < changes; ++c) {
                int a = (int)at_walk_rand(&s->w, (uint32_t)v->n_axes);
                s->tmp[a] = (unsigned char)at_walk_rand(&s->w,
                                                        (uint32_t)v->radix[a]);
            }
            size_t q = at_walk_find(&s->w, s->tmp);
            if (q != AT_NONE && !s->w.proposed[q])
                return q;
        }
    }
    return at_walk_fresh(&s->w);
}

/* Decides the next step once every proposal is answered: fills the queue,
 * or leaves it empty when the space is exhausted. */
static void step(state *s)
{
    for (;;) {
        if (s->phase == START) {
            if (s->start != AT_NONE && s->w.ms[s->start] >= 0) {
                s->cur = s->start;
                s->phase = DESCEND;
                best_neighbour(s, s->cur, 1);
                if (s->nq)
                    return;
                continue; /* every neighbour known already: decide now */
            }
            s->start = perturbed(s);
            if (s->start == AT_NONE)
                return;
            enqueue(s, s->start);
            return;
        }
        /* DESCEND: the neighbourhood of cur is known. */
        size_t nb = best_neighbour(s, s->cur, 0);
        if (nb != AT_NONE && at_walk_better(&s->w, nb, s->cur)) {
            s->cur = nb;
            best_neighbour(s, s->cur, 1);
            if (s->nq)
                return;
            continue;
        }
        s->phase = START; /* a local optimum: perturb */
        s->start = AT_NONE;
    }
}

static size_t propose(void *st, size_t *idx, size_t max)
{
    state *s = st;
    if (s->head == s->nq && s->w.outstanding == 0) {
        s->nq = s->head = 0;
        step(s);
    }
    size_t k = 0;
    while (k < max && s->head < s->nq)
        idx[k++] = s->queue[s->head++];
    return k;
}

static void observe(void *st, size_t idx, double ms)
{
    state *s = st;
    at_walk_result(&s->w, idx, ms);
    if (at_walk_better(&s->w, idx, s->best))
        s->best = idx;
}

const at_strategy at_strategy_local = {
    .name = "local",
    .help = "iterated local search: best neighbour (one axis changed) "
            "until none is better, then perturb the best on 2-3 axes",
    .create = create,
    .propose = propose,
    .observe = observe,
    .destroy = destroy,
};
