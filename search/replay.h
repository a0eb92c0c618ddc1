/* Replay: a strategy run against a recorded space without a GPU. The
 * walk is the tuner's (proposals in a window of AT_SEARCH_WINDOW, results
 * in proposal order); the recorded median stands in for each evaluation. */
#ifndef AT_REPLAY_H
#define AT_REPLAY_H

#include "record.h"

typedef struct at_replay_result {
    const char *strategy;
    size_t space_size;
    int seeds;
    /* Evaluations until the best found is within 1% / 2% of the record's
     * optimum (failed points count: they cost an evaluation too), mean
     * over the seeds, and the worst seed's. */
    double evals_to_1pct, evals_to_2pct;
    size_t worst_1pct, worst_2pct;
} at_replay_result;

/* Told each seed's evaluations as the replay runs them: the points'
 * indices in order, evals of them (`autotune replay --csv`). Nonzero
 * stops the replay with that code (e said why). */
typedef int (*at_replay_each)(void *ctx, const at_strategy *s, int seed,
                              const size_t *order, size_t evals, at_err *e);

/* Seeds 1..seeds; each (NULL: none) told every seed's evaluations. */
int at_replay(const at_strategy *s, const at_record *r, int seeds,
              at_replay_each each, void *each_ctx, at_replay_result *out,
              at_err *e);
/* One seed: the evaluation counts to within 1% and 2%; and, if order is
 * not NULL, the first max proposals in order (for reproducibility
 * checks). */
int at_replay_one(const at_strategy *s, const at_record *r, uint64_t seed,
                  size_t *to_1pct, size_t *to_2pct, size_t *order,
                  size_t max, at_err *e);

#endif
