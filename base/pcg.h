/* PCG32 (O'Neill, pcg-random.org; the minimal C version's algorithm):
 * 64-bit state, 32-bit output, selectable stream. Used for random inputs
 * and random search; tested against the published reference output. */
#ifndef AT_PCG_H
#define AT_PCG_H

#include <stdint.h>

typedef struct at_pcg {
    uint64_t state, inc;
} at_pcg;

void at_pcg_seed(at_pcg *g, uint64_t initstate, uint64_t initseq);
uint32_t at_pcg_next(at_pcg *g);
/* Uniform in [0, bound), without modulo bias; bound > 0. */
uint32_t at_pcg_bounded(at_pcg *g, uint32_t bound);
/* A fresh seed from the clock and the process, for runs that print it:
 * from 1 to 2^63 - 1 (AT_SEED_MAX). */
#define AT_SEED_MAX 9223372036854775807ULL
uint64_t at_pcg_fresh_seed(void);

#endif
