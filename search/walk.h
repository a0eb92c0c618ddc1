/* What the adaptive strategies share: the space's points found by their
 * coordinates, which points were proposed, the results so far, and a
 * random order of the points to draw fresh ones from. */
#ifndef AT_WALK_H
#define AT_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "base/pcg.h"
#include "strategy.h"

#define AT_NONE ((size_t)-1)

typedef struct at_walk {
    const at_space_view *v;
    at_pcg rng;
    size_t *slot_idx; /* open addressing: coordinate code -> point */
    uint64_t *slot_code;
    size_t slots;
    unsigned char *proposed;
    double *ms; /* < 0 failed; NaN not yet known */
    size_t *order; /* a random permutation, drawn from at cursor */
    size_t cursor, n_proposed, outstanding;
} at_walk;

int at_walk_init(at_walk *w, const at_space_view *v, uint64_t seed);
void at_walk_free(at_walk *w);
/* The point with these coordinates, AT_NONE if it is not in the space. */
size_t at_walk_find(const at_walk *w, const unsigned char *coord);
const unsigned char *at_walk_coord(const at_walk *w, size_t idx);
/* Marks idx proposed and outstanding. */
void at_walk_take(at_walk *w, size_t idx);
/* Records a result (ms < 0: failed). */
void at_walk_result(at_walk *w, size_t idx, double ms);
/* A random point not yet proposed, AT_NONE if none is left. */
size_t at_walk_fresh(at_walk *w);
/* Lower is better; failures and unknowns are worst. */
int at_walk_better(const at_walk *w, size_t a, size_t b);
/* Uniform in [0, n). */
uint32_t at_walk_rand(at_walk *w, uint32_t n);

#endif
