/* Exhaustive: every point once, in enumeration order. */
#include <stdlib.h>

#include "strategy.h"

typedef struct {
    size_t n, next;
} state;

static void *create(const at_space_view *v, uint64_t seed)
{
    (void)seed;
    state *s = calloc(1, sizeof *s);
    if (s)
        s->n = v->n;
    return s;
}

static size_t propose(void *st, size_t *idx, size_t max)
{
    state *s = st;
    size_t k = 0;
    while (k < max && s->next < s->n)
        idx[k++] = s->next++;
    return k;
}

static void observe(void *st, size_t idx, double ms)
{
    (void)st;
    (void)idx;
    (void)ms;
}

const at_strategy at_strategy_exhaustive = {
    .name = "exhaustive",
    .help = "every point, in enumeration order",
    .create = create,
    .propose = propose,
    .observe = observe,
    .destroy = free,
};
