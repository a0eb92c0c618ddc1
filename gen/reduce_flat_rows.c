/* The reduce family's flat points along rows (templates/reduce.cu's
 * AT_COLS 0 with AT_FLAT: a warp's whole rows as one run of vectors, a
 * lane's items side by side, split at each row's last element by a scan
 * over the lanes): which problems and points take them, and their
 * geometry. */
#include <stddef.h>

#include "reduce.h"

/* A chunk's rows a warp. */
static int64_t chunk_rows(const at_point *pt)
{
    return (int64_t)AT_RD_FLAT_ROWS_PER_CHUNK * pt->v[CHUNK];
}

void at_rd_flat_rows_geom(const at_problem *p, const at_point *pt,
                          int64_t sms, at_rd_geom *g)
{
    const int *x = pt->v;
    const int64_t rows = p->v[RD_ROWS], w = x[THREADS] / 32;
    /* Whole rows a warp (seg of them), no split; in waves, the rows
     * shared evenly among waves x 16 warps an SM, so that no wave runs
     * part full (16 warps: a block count would leave 128-thread blocks'
     * SMs a quarter full). */
    const int64_t warps = x[WAVES] * sms * AT_RD_FLAT_ROWS_WAVE_WARPS;
    g->seg = x[WAVES] ? (rows + warps - 1) / warps : chunk_rows(pt);
    g->units = (rows + w * g->seg - 1) / (w * g->seg);
    g->split = 1;
}

/* Along rows, flat (templates/reduce.cu: a warp's whole rows as one run
 * of vectors, a lane's items side by side, split at each row's last
 * element by a scan over the lanes): for short rows end to end and off
 * the vector alone, where the row by row walk pays each row's ends
 * element by element; 16-byte loads, rows no shorter than a lane's run,
 * one accumulator, no split. */
const char *at_rd_flat_rows_refusal(const at_problem *p,
                                    const at_point *pt)
{
    const int *x = pt->v;
    const int64_t rows = p->v[RD_ROWS], cols = p->v[RD_COLS],
                  ld = p->v[RD_LD];
    if (ld != cols || ld > AT_RD_FLAT_ROWS_LD || ld % x[VEC] == 0)
        return "flat along rows: rows end to end, off the vector, at most "
               "2048 long";
    if (cols < (int64_t)x[ITEMS] * x[VEC])
        return "flat along rows: rows shorter than a lane's items";
    if (x[VEC] * p->type->bytes != 16)
        return "a load four times as wide fits";
    if (!x[CHUNK] == !x[WAVES] || x[COMBINE] != COMBINE_LAST ||
        x[ACCS] > 1 || x[TREE])
        return "flat along rows: whole rows a warp (a chunk's or a split "
               "in waves'), one accumulator, no split to combine";
    const int64_t seg = chunk_rows(pt);
    if (x[CHUNK] && (rows + seg - 1) / seg < AT_RD_FLAT_ROWS_WARPS)
        return "flat along rows: too few warps of rows";
    /* At least four rows a warp on the nominal device: the space is the
     * same on every one. */
    if (x[WAVES] && rows < 4LL * x[WAVES] * AT_RD_NOMINAL_SMS *
                               AT_RD_FLAT_ROWS_WAVE_WARPS)
        return "too few rows for waves of blocks";
    return NULL;
}
