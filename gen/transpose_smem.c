/* A tile's shared memory (templates/transpose.cu, AT_SMEM_BYTES): its
 * size, and the padded layout of a packed tile for the space's smem 3
 * (AT_SMEM 1 with AT_CSKEW units after every 32 of a row and
 * AT_ROW_EXTRA at its end), chosen by counting the bank conflicts of the
 * tile's two shared-memory passes: the put (a thread writes AT_CH
 * consecutive 4-byte units of a row) and the column reads of the
 * unskewed store (a thread reads AT_VEC units down a column). With one
 * unit of padding (smem 1), 16 lanes 8 units apart share 4 banks: every
 * put store of the 1-byte winner (tile 128x256, blocks 16x32, vec 2) is
 * 4-way, 10.3 M of its 13.7 M excess wavefronts a launch of i8
 * 19194x22735 (Nsight Compute, H100). 2 units every 32 and rows of 137
 * make both passes conflict-free; over the 216 power-of-two packed
 * geometries of the space the chosen layouts take the two passes from
 * 2.3x to 1.2x the wavefronts of conflict-free ones.
 *
 * The time is another matter, hence an axis value the tuner weighs, not
 * smem 1's layout. Over every point of five 1- and 2-byte problems
 * (H100), the new layout ran a median 0.2% to 2.3% faster a problem, but
 * from 8.6% faster to 4.5% slower (tenth and ninetieth percentiles), the
 * winner of i8 19194x22735 as fast either way, and the best point of u8
 * 154x2172284 5% slower (docs/PERFORMANCE.md, "A packed tile's banks").
 *
 * Changing the choice changes kernels under an unchanged template: bump
 * the transpose family's abi with it (it keys the cache). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "transpose.h"

enum { WARP = 32, MAX_CSKEW = 4, MAX_EXTRA = 4, MEMO = 64 };

/* Shared-memory wavefronts of one warp's 4-byte accesses: the most
 * distinct addresses any bank gets (lanes on one address share it). */
static int wavefronts(const long *addr)
{
    int per_bank[WARP] = {0}, most = 0;
    for (int l = 0; l < WARP; ++l) {
        int seen = 0;
        for (int m = 0; m < l && !seen; ++m)
            seen = addr[m] == addr[l];
        if (seen)
            continue;
        const int n = ++per_bank[addr[l] % WARP];
        most = n > most ? n : most;
    }
    return most;
}

/* A padded row's units (the template's AT_ROW): at least tx + 1. */
static int row_units(int tx, at_tp_banks b)
{
    return tx + b.cskew * (tx / WARP) + b.extra;
}

static long unit_at(const at_tp_tile *t, at_tp_banks b, long g, long c)
{
    return g * row_units(t->tx, b) + c + b.cskew * (c / WARP);
}

long at_tp_bank_wavefronts(const at_tp_tile *t, at_tp_banks b)
{
    const int ch = t->vec * t->pack, g = t->ty / t->pack;
    const int warps = t->bx * t->by / WARP;
    long put = 0, col = 0, a[WARP];
    /* Warp 0's pass, one row step: every warp and step is the same
     * pattern moved by whole rows or whole runs of 32 units (a
     * constant address offset, which keeps every conflict). The
     * test checks it against a count over every warp and step. */
    for (int j = 0; j < t->tx / (t->bx * ch); ++j)
        for (int k = 0; k < ch; ++k) {
            for (int l = 0; l < WARP; ++l)
                a[l] = unit_at(t, b, l / t->bx,
                               (long)(l % t->bx + j * t->bx) * ch + k);
            put += wavefronts(a);
        }
    for (int j = 0; j < g / (t->bx * t->vec); ++j)
        for (int k = 0; k < t->vec; ++k) {
            for (int l = 0; l < WARP; ++l)
                a[l] = unit_at(t, b,
                               (long)(l % t->bx + j * t->bx) * t->vec + k,
                               l / t->bx);
            col += wavefronts(a);
        }
    return warps * (put * (g / t->by) + col * (t->tx / t->by));
}

at_tp_banks at_tp_bank_layout(const at_tp_tile *t)
{
    /* Remembered a geometry at a time: the space asks for each point's
     * shared memory, and a few dozen geometries repeat across it. */
    static _Thread_local struct {
        at_tp_tile t;
        at_tp_banks b;
        int set;
    } memo[MEMO];
    const unsigned h = (unsigned)(t->tx * 31 + t->ty * 7 + t->bx * 3 +
                                  t->by * 5 + t->vec * 11 + t->pack) % MEMO;
    if (memo[h].set && !memcmp(&memo[h].t, t, sizeof *t))
        return memo[h].b;
    /* Fewest wavefronts, then the shortest row: where one unit a row is
     * already the fewest, {0, 1} (smem 3 is then no point). */
    at_tp_banks best = {0, 1};
    long best_wf = LONG_MAX, best_pad = LONG_MAX;
    for (int s = 0; s <= MAX_CSKEW; ++s)
        for (int e = 1; e <= MAX_EXTRA; ++e) {
            const at_tp_banks b = {s, e};
            const long wf = at_tp_bank_wavefronts(t, b);
            const long pad = row_units(t->tx, b);
            if (wf < best_wf || (wf == best_wf && pad < best_pad)) {
                best = b;
                best_wf = wf;
                best_pad = pad;
            }
        }
    memo[h].t = *t;
    memo[h].b = best;
    memo[h].set = 1;
    return best;
}

at_tp_banks at_tp_point_banks(const at_problem *p, const at_point *pt)
{
    const int e = p->type->bytes;
    const at_tp_banks plain = {0, 1};
    if (pt->v[SMEM] != 3 || !pt->v[PACK] || e >= 4)
        return plain;
    const at_tp_tile t = {pt->v[TILE_X], pt->v[TILE_Y], pt->v[BLOCK_X],
                          pt->v[BLOCK_Y], pt->v[VEC], 4 / e};
    return at_tp_bank_layout(&t);
}

#define REJECT(...) (why ? (void)snprintf(why, n, __VA_ARGS__) : (void)0, 0)

int at_tp_smem_valid(const at_problem *p, const at_point *pt, char *why,
                     size_t n)
{
    if (pt->v[SMEM] != 3)
        return 1;
    if (!pt->v[PACK] || p->type->bytes >= 4)
        return REJECT("smem 3 is for packed tiles");
    const at_tp_banks b = at_tp_point_banks(p, pt);
    if (!b.cskew && b.extra == 1)
        return REJECT("smem 3: a unit a row is the fewest bank conflicts "
                      "here (smem 1)");
    return 1;
}

/* Tiles keep rows more for skewed stores (AT_SKEW_ROWS in the template):
 * a 32-byte sector's elements but one for unpacked 2- to 16-byte
 * elements, a whole sector's for packed ones, none for unpacked bytes. */
int at_tp_skew_rows(const at_problem *p, const at_point *pt)
{
    const int e = p->type->bytes;
    if (pt->v[PACK] && e < 4)
        return 32 / e;
    return e == 1 ? 0 : 32 / e - 1;
}

/* The fast path's tile and the element path's ([row][col], a spare element
 * a row) share the buffer: the larger, with the skew's rows. */
unsigned at_tp_smem_bytes(const at_problem *p, const at_point *pt)
{
    /* {0, 1} (smem 1 and 2): tx + 1 units, the element path's row, which
     * a swizzled row (tx units) fits in. */
    const int row = row_units(pt->v[TILE_X], at_tp_point_banks(p, pt));
    return (unsigned)((pt->v[TILE_Y] + at_tp_skew_rows(p, pt)) * row *
                      p->type->bytes);
}
