#include "pcg.h"

#include <unistd.h>

#include "clock.h"

void at_pcg_seed(at_pcg *g, uint64_t initstate, uint64_t initseq)
{
    g->state = 0;
    g->inc = (initseq << 1u) | 1u;
    at_pcg_next(g);
    g->state += initstate;
    at_pcg_next(g);
}

uint32_t at_pcg_next(at_pcg *g)
{
    uint64_t old = g->state;
    g->state = old * 6364136223846793005ULL + g->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

uint32_t at_pcg_bounded(at_pcg *g, uint32_t bound)
{
    uint32_t threshold = -bound % bound;
    for (;;) {
        uint32_t r = at_pcg_next(g);
        if (r >= threshold)
            return r % bound;
    }
}

uint64_t at_pcg_fresh_seed(void)
{
    uint64_t s = at_wall_ns();
    s ^= (uint64_t)getpid() << 32;
    /* splitmix64 finaliser, so close clocks give distant seeds */
    s = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ULL;
    s = (s ^ (s >> 27)) * 0x94d049bb133111ebULL;
    /* 63 bits, never 0: a seed is exact as a JSON integer and in the
     * cache's signed 64-bit column. */
    s = (s ^ (s >> 31)) >> 1;
    return s ? s : 1;
}
