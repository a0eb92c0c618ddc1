/* The transpose family's fitted tile sides: a tile side that is no power
 * of two (96 to 480) exists only as a side of the matrix rounded up to 32,
 * so that one tile spans it. Medium-thin matrices (a side of 65 to a few
 * hundred) cut every tile of a power of two: f16 89 x 597876 took 128-row
 * tiles, 89 rows used; bf16 150 x 315067 took 64-row tiles, each output
 * row of 150 written by three blocks, the last with two thirds of its
 * threads idle (H100: 56% and 84% of the copy; with a 160-row tile the
 * latter 87%, docs/PERFORMANCE.md). */
#include "transpose.h"

int at_tp_pow2(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static int64_t fitted(int64_t side)
{
    return (side + 31) / 32 * 32;
}

int at_tp_side_ok(const at_problem *p, int a, int value)
{
    if (a == TILE_Y)
        return at_tp_pow2(value) || value == fitted(p->v[TP_ROWS]);
    if (a == TILE_X)
        return at_tp_pow2(value) || value == fitted(p->v[TP_COLS]);
    return 1;
}
