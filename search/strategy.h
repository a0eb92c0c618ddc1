/* A search strategy walks the points of a constrained space. The tuner
 * asks it for points to evaluate (several ahead, so compilation can run
 * before timing) and tells it each result in the order it proposed them;
 * a strategy that proposes nothing while nothing is outstanding is done.
 *
 * Every strategy proposes each point at most once and, given all the
 * results, eventually every point: it always ends, and with no budget it
 * is exhaustive. Its choices depend only on the seed and on the results
 * it was told, so a run (or a replay of recorded results) is reproducible
 * for a seed. */
#ifndef AT_STRATEGY_H
#define AT_STRATEGY_H

#include <stddef.h>
#include <stdint.h>

/* The space as a strategy sees it: n points, each one value index per axis
 * (coord[i * n_axes + a] < radix[a]). Neighbours are points that differ on
 * one axis. */
#define AT_VIEW_MAX_AXES 16
typedef struct at_space_view {
    size_t n;
    int n_axes;
    int radix[AT_VIEW_MAX_AXES];
    const unsigned char *coord;
} at_space_view;

typedef struct at_strategy {
    const char *name;
    const char *help; /* one line */
    /* State for the space (which must outlive it), or NULL on no memory. */
    void *(*create)(const at_space_view *v, uint64_t seed);
    /* Writes up to max point indices to evaluate next; returns how many. */
    size_t (*propose)(void *state, size_t *idx, size_t max);
    /* The result of a proposed index: its time in ms, or a negative value
     * when it failed (compile error, wrong answer). */
    void (*observe)(void *state, size_t idx, double ms);
    void (*destroy)(void *state);
} at_strategy;

const at_strategy *at_strategy_find(const char *name); /* NULL if unknown */
/* "exhaustive, random, local, genetic" */
const char *at_strategy_list(void);
/* The i-th strategy, NULL past the end. */
const at_strategy *at_strategy_at(size_t i);

/* Proposals outstanding at most (the tuner's window, and the replay's):
 * fixed, so a strategy sees the same sequence of calls whatever the
 * number of compile threads. */
enum { AT_SEARCH_WINDOW = 64 };

#endif
