/* A genetic search. Generations of GEN points: the first drawn at random;
 * each later child takes every axis from one of two parents (uniform
 * crossover), parents picked by tournaments among the best points found
 * so far, then mutates each axis with probability 1/axes. A child that is
 * not in the space or was seen already is mutated again; after a few
 * tries a random fresh point takes its place, so the search ends having
 * seen everything. */
#include <stdlib.h>
#include <string.h>

#include "walk.h"

enum { GEN = 24, ELITE = 2 * GEN, TOURNAMENT = 3, TRIES = 32 };

typedef struct {
    at_walk w;
    size_t queue[GEN], nq, head;
    size_t elite[ELITE]; /* best first */
    int n_elite;
    unsigned char *child;
} state;

static void destroy(void *st)
{
    state *s = st;
    if (!s)
        return;
    at_walk_free(&s->w);
    free(s->child);
    free(s);
}

static void *create(const at_space_view *v, uint64_t seed)
{
    state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->child = malloc((size_t)v->n_axes + 1);
    if (!s->child || at_walk_init(&s->w, v, seed) != 0) {
        free(s->child);
        free(s);
        return NULL;
    }
    return s;
}

static size_t tournament(state *s)
{
    size_t best = AT_NONE;
    for (int t = 0; t < TOURNAMENT; ++t) {
        size_t c = s->elite[at_walk_rand(&s->w, (uint32_t)s->n_elite)];
        if (at_walk_better(&s->w, c, best))
            best = c;
    }
    return best;
}

static size_t breed(state *s)
{
    const at_space_view *v = s->w.v;
    if (s->n_elite == 0)
        return at_walk_fresh(&s->w);
    const unsigned char *a = at_walk_coord(&s->w, tournament(s));
    const unsigned char *b = at_walk_coord(&s->w, tournament(s));
    for (int x = 0; x < v->n_axes; ++x)
        s->child[x] = at_walk_rand(&s->w, 2) ? a[x] : b[x];
    for (int t = 0; t < TRIES; ++t) {
        for (int x = 0; x < v->n_axes; ++x)
            if (at_walk_rand(&s->w, (uint32_t)v->n_axes) == 0)
                s->child[x] = (unsigned char)at_walk_rand(
                    &s->w, (uint32_t)v->radix[x]);
        size_t q = at_walk_find(&s->w, s->child);
        if (q != AT_NONE && !s->w.proposed[q])
            return q;
    }
    return at_walk_fresh(&s->w);
}

static size_t propose(void *st, size_t *idx, size_t max)
{
    state *s = st;
    if (s->head == s->nq && s->w.outstanding == 0) {
        s->nq = s->head = 0;
        for (int g = 0; g < GEN; ++g) {
            size_t q = breed(s);
            if (q == AT_NONE)
                break;
            at_walk_take(&s->w, q);
            s->queue[s->nq++] = q;
        }
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
    if (ms < 0)
        return;
    int pos = s->n_elite;
    while (pos > 0 && at_walk_better(&s->w, idx, s->elite[pos - 1]))
        --pos;
    if (pos >= ELITE)
        return;
    if (s->n_elite < ELITE)
        s->n_elite++;
    memmove(&s->elite[pos + 1], &s->elite[pos],
            (size_t)(s->n_elite - 1 - pos) * sizeof s->elite[0]);
    s->elite[pos] = idx;
}

const at_strategy at_strategy_genetic = {
    .name = "genetic",
    .help = "generations of 24: uniform crossover of tournament winners "
            "among the best 48, mutation 1/axes",
    .create = create,
    .propose = propose,
    .observe = observe,
    .destroy = destroy,
};
