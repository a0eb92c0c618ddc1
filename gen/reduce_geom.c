/* The reduce family's geometry: how a point's blocks fall on a problem
 * (flat points' groups and steps, strips, splits in chunks or in waves
 * of the device's SMs). The rest of the family in reduce.c. */
#include "reduce.h"

int at_rd_flat(const at_point *pt) { return pt->v[GROUP] == 0; }

/* A flat point's threads a group down columns: ld, a chunk of vec rows;
 * one-element vectors skip the padding, cols threads a row. */
int64_t at_rd_flat_span(const at_problem *p, const at_point *pt)
{
    return pt->v[VEC] == 1 ? p->v[RD_COLS] : p->v[RD_LD];
}

/* A flat point's groups a block: threads / span (1 where the span passes
 * the block, which no valid point has). */
static int64_t flat_groups(const at_problem *p, const at_point *pt)
{
    const int64_t span = at_rd_flat_span(p, pt), threads = pt->v[THREADS];
    return span <= threads ? threads / span : 1;
}

int at_rd_flat_k(const at_problem *p, const at_point *pt)
{
    if (!at_rd_down(p) || !at_rd_flat(pt))
        return 1;
    const int64_t span = at_rd_flat_span(p, pt), threads = pt->v[THREADS];
    return span <= threads ? 1 : (int)((span + threads - 1) / threads);
}

int64_t at_rd_flat_lanes(const at_problem *p, const at_point *pt)
{
    return flat_groups(p, pt) * pt->v[VEC];
}

int64_t at_rd_flat_step(const at_problem *p, const at_point *pt)
{
    return at_rd_flat_lanes(p, pt) * pt->v[ITEMS];
}

/* The SMs a split in waves fills (reduce.h). */
static int64_t wave_sms(const at_problem *p)
{
    const int64_t sms = p->sms > 0 ? p->sms : AT_RD_NOMINAL_SMS;
    return sms < AT_RD_MAX_SMS ? sms : AT_RD_MAX_SMS;
}

void at_rd_geom_of(const at_problem *p, const at_point *pt, at_rd_geom *g)
{
    const int *x = pt->v;
    const int64_t rows = p->v[RD_ROWS], cols = p->v[RD_COLS];
    if (!at_rd_down(p) && at_rd_flat(pt)) {
        at_rd_flat_rows_geom(p, pt, wave_sms(p), g);
    } else if (at_rd_down(p) && at_rd_flat(pt)) {
        /* Chunks of vec rows (ld vectors), a group of ld threads each;
         * in waves, a chunk for every group a round (lanes), about waves
         * x SMs blocks. Rounding up to whole steps (lanes x items) cost
         * blocks: f16 amax down 1015457x47, 353 of 396 (H200,
         * docs/PERFORMANCE.md "What any reduction can reach"). */
        const int64_t lanes = at_rd_flat_lanes(p, pt);
        const int64_t blocks = x[WAVES] * wave_sms(p);
        g->units = 1;
        g->seg = x[WAVES]  ? ((rows + blocks - 1) / blocks + lanes - 1) /
                                lanes * lanes
                 : x[CHUNK] ? at_rd_flat_step(p, pt) * x[CHUNK]
                            : rows;
        g->split = (rows + g->seg - 1) / g->seg;
    } else if (at_rd_down(p)) {
        const int64_t ty = x[THREADS] / x[GROUP], w = x[GROUP] * x[VEC];
        g->units = (cols + w - 1) / w;
        if (x[WAVES]) {
            /* A few hundred strips split by a chunk fill the device's
             * last wave part way: split each into as many segments of
             * whole steps as the strips fit in waves quarters of every
             * SM's 2048 threads, no more. */
            const int64_t step = ty * x[ITEMS];
            int64_t split = x[WAVES] * wave_sms(p) *
                            (AT_RD_WAVE_THREADS / x[THREADS]) / g->units;
            if (split < 1)
                split = 1;
            g->seg = ((rows + split - 1) / split + step - 1) / step * step;
        } else {
            g->seg = x[CHUNK] ? ty * x[ITEMS] * x[CHUNK] : rows;
        }
        g->split = (rows + g->seg - 1) / g->seg;
    } else {
        const int64_t rpb = x[THREADS] / x[GROUP];
        g->units = (rows + rpb - 1) / rpb;
        g->seg = x[CHUNK] ? (int64_t)x[GROUP] * x[VEC] * x[ITEMS] * x[CHUNK]
                          : cols;
        g->split = (cols + g->seg - 1) / g->seg;
    }
}
