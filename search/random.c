/* Random sampling: the points in a random order (PCG, from the seed),
 * without repeats. */
#include <stdlib.h>

#include "walk.h"

static void *create(const at_space_view *v, uint64_t seed)
{
    at_walk *w = malloc(sizeof *w);
    if (w && at_walk_init(w, v, seed) != 0) {
        free(w);
        return NULL;
    }
    return w;
}

static size_t propose(void *st, size_t *idx, size_t max)
{
    at_walk *w = st;
    size_t k = 0, i;
    while (k < max && (i = at_walk_fresh(w)) != AT_NONE) {
        at_walk_take(w, i);
        idx[k++] = i;
    }
    return k;
}

static void observe(void *st, size_t idx, double ms)
{
    at_walk_result(st, idx, ms);
}

static void destroy(void *st)
{
    if (st)
        at_walk_free(st);
    free(st);
}

const at_strategy at_strategy_random = {
    .name = "random",
    .help = "random sampling without repeats (PCG from --seed)",
    .create = create,
    .propose = propose,
    .observe = observe,
    .destroy = destroy,
};
