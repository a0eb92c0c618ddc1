/* The interleaved timing protocol: several contenders (the leading
 * variants and the copy in the tuner; the copy, the tuned kernel and the
 * libraries in the benchmark) timed in turn, round after round, so a
 * change of clock or of the machine's load moves every contender alike.
 * Each contender's figure is the median of its round medians. */
#ifndef AT_ROUNDS_H
#define AT_ROUNDS_H

#include "measure.h"

enum { AT_ROUNDS = 5, AT_ROUND_SAMPLES = 10 };

/* Times contender i once (AT_ROUND_SAMPLES samples). */
typedef int (*at_round_fn)(void *ctx, int i, int samples, at_timing *t,
                           at_err *e);

typedef struct at_round_result {
    double ms;             /* median of the round medians */
    double min_ms, max_ms; /* of the round medians */
} at_round_result;

/* n contenders, AT_ROUNDS rounds, in order 0..n-1 within a round. */
int at_rounds(int n, at_round_fn fn, void *ctx, at_round_result *out,
              at_err *e);

#endif
