/* The transpose family's medium-thin tiles: fitted sides and flat runs.
 * A tile side that is no power of two (96 to 480) exists only as a side
 * of the matrix rounded up to 32, so that one tile spans it. Medium-thin
 * matrices (a side of 65 to a few hundred) cut every tile of a power of
 * two: f16 89 x 597876 took 128-row tiles, 89 rows used; bf16 150 x
 * 315067 took 64-row tiles, each output row of 150 written by three
 * blocks, the last with two thirds of its threads idle (H100: 56% and 84%
 * of the copy; with a 160-row tile the latter 87%, docs/PERFORMANCE.md).
 * Where such a tile spans the rows and the output rows are end to end,
 * its output is one run (f16 75 x 400600: 150-byte rows, each off the
 * sector, stored skewed at 89% of the copy, as one run 94%); but not
 * everywhere (bf16 270 x 115692, 540-byte rows: 92% skewed, 90% flat), so
 * a point chooses (flat). */
#include <inttypes.h>
#include <stdio.h>

#include "transpose.h"

int at_tp_pow2(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

static int64_t fitted(int64_t side)
{
    return (side + 31) / 32 * 32;
}

int at_tp_flat_runs(const at_problem *p, int tx, int ty)
{
    const int64_t *v = p->v;
    return (v[TP_COLS] <= tx && v[TP_LD_IN] == v[TP_COLS] ? AT_TP_FLAT_IN
                                                          : 0) |
           (v[TP_ROWS] <= ty && v[TP_LD_OUT] == v[TP_ROWS] ? AT_TP_FLAT_OUT
                                                           : 0);
}

int at_tp_value_ok(const at_problem *p, int a, int value)
{
    if (a == TILE_Y)
        return at_tp_pow2(value) || value == fitted(p->v[TP_ROWS]);
    if (a == TILE_X)
        return at_tp_pow2(value) || value == fitted(p->v[TP_COLS]);
    /* Flat runs where no tile (at most 512 a side) has one. */
    if (a == FLAT)
        return !value || at_tp_flat_runs(p, 512, 512);
    return 1;
}

#define REJECT(...) (why ? (void)snprintf(why, n, __VA_ARGS__) : (void)0, 0)

int at_tp_medium_valid(const at_problem *p, const at_point *pt, char *why,
                       size_t n)
{
    if (!at_tp_value_ok(p, TILE_Y, pt->v[TILE_Y]) ||
        !at_tp_value_ok(p, TILE_X, pt->v[TILE_X]))
        return REJECT("tile %dx%d: a side of no power of two is a fitted "
                      "one, the matrix's %" PRId64 "x%" PRId64 " rounded up "
                      "to 32", pt->v[TILE_X], pt->v[TILE_Y], p->v[TP_ROWS],
                      p->v[TP_COLS]);
    if (pt->v[FLAT] && (pt->v[KIND] == KIND_STRIP ||
                        !at_tp_flat_runs(p, pt->v[TILE_X], pt->v[TILE_Y])))
        return REJECT("flat 1 is for tiles spanning the matrix's rows or "
                      "columns whose rows are end to end");
    return 1;
}
