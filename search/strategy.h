/* A search strategy walks the indices of a constrained space. The tuner
 * asks it for points to evaluate (several ahead, so compilation can run
 * before timing) and tells it each result; a strategy that has nothing more
 * to propose is done. Later strategies (random, local search, model-guided)
 * implement the same table. */
#ifndef AT_STRATEGY_H
#define AT_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

typedef struct at_strategy {
    const char *name;
    /* State for a space of n points, or NULL on no memory. */
    void *(*create)(size_t n, uint64_t seed);
    /* Writes up to max point indices to evaluate next; returns how many.
     * 0 with nothing outstanding means the search is over. */
    size_t (*propose)(void *state, size_t *idx, size_t max);
    /* The result of an evaluated index: its time in ms, or a negative value
     * when it failed (compile error, wrong answer). */
    void (*observe)(void *state, size_t idx, double ms);
    void (*destroy)(void *state);
} at_strategy;

const at_strategy *at_strategy_find(const char *name); /* NULL if unknown */

#endif
