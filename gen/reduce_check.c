/* The reduce family's verification: its random input, the CPU reference
 * in long double (exact for i32) with each output's error unit, the
 * tolerance of a point, and the check problems every variant also runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"

/* The check problem whose input has NaNs (floating types; i32: the
 * extremes, each once in EXTREME_EVERY words). */
enum { NAN_STREAM = 3, EXTREME_EVERY = 509 };

/* f32 bits as f16 or bf16 bits, for the values at_rd_input makes: normal,
 * at most 8 significant bits, 2^-4 to 2^11 in magnitude, so exact. */
static uint16_t f16_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    if (f != f)
        return 0x7E00;
    if ((b & 0x7FFFFFFF) == 0)
        return (uint16_t)(b >> 16);
    int ex = (int)((b >> 23) & 0xFF) - 127 + 15;
    return (uint16_t)((b >> 31) << 15 | (uint32_t)ex << 10 |
                      ((b >> 13) & 0x3FF));
}

static uint16_t bf16_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return f != f ? 0x7FC0 : (uint16_t)(b >> 16);
}

/* A value from 16 random bits s: for the problem, k * 2^e with k in
 * [-128, 127] and e in [-4, 4] (sums round: the tolerance is tested);
 * for the check problems integers in [-8, 8] without 0 (every partial
 * sum of a check problem is exact, so those are exact whatever the
 * order); NaN about once in 1021 in the NaN check. */
static float value_of(uint32_t s, uint64_t stream)
{
    if (stream == NAN_STREAM && ((s * 2654435761u) >> 16) % 1021 == 0)
        return NAN;
    if (stream == 0)
        return ldexpf((float)((int)(s & 0xFF) - 128),
                      (int)((s >> 8) % 9) - 4);
    int k = (int)(s % 16) - 8;
    return (float)(k >= 0 ? k + 1 : k);
}

void at_rd_input(const at_problem *p, uint64_t seed, uint64_t stream,
                 uint32_t *w, size_t first, size_t end)
{
    (void)seed; /* the words are the seed's already */
    const int t = at_rd_type(p->type);
    uint16_t (*to)(float) = t == RD_T_F16 ? f16_of : bf16_of;
    for (size_t i = first; i < end; ++i) {
        if (t == RD_T_F32) {
            float f = value_of(w[i] >> 16, stream);
            memcpy(&w[i], &f, 4);
        } else if (t == RD_T_F16 || t == RD_T_BF16) {
            w[i] = (uint32_t)to(value_of(w[i] >> 16, stream)) << 16 |
                   to(value_of(w[i] & 0xFFFF, stream));
        } else if (t == RD_T_F64 && (i & 1) == 0 && i + 1 < end) {
            double d = value_of(w[i] >> 16, stream);
            memcpy(&w[i], &d, 8);
            ++i;
        } else if (t == RD_T_I32 && stream == NAN_STREAM) {
            /* i32 takes every bit pattern (sums are exact: 64-bit,
             * wrapping); its NaN check plants the extremes, INT_MIN
             * (whose |x| needs amax's unsigned accumulator) and INT_MAX,
             * once in 509 words each, at fixed places: about half the
             * outputs of a check shape meet one, and the other half
             * still show an element dropped. */
            if (i % EXTREME_EVERY == 17)
                w[i] = 0x80000000u;
            else if (i % EXTREME_EVERY == 271)
                w[i] = 0x7FFFFFFFu;
        }
    }
}

/* Element j of the input, of type t (RD_T_*), as long double (i32 handled
 * apart). */
static long double elem(int t, const void *in, int64_t j)
{
    static const int bytes[] = {[RD_T_F32] = 4, [RD_T_F64] = 8,
                                [RD_T_F16] = 2, [RD_T_BF16] = 2};
    const unsigned char *b = (const unsigned char *)in + j * bytes[t];
    if (t == RD_T_F32) {
        float f;
        memcpy(&f, b, 4);
        return f;
    }
    if (t == RD_T_F64) {
        double d;
        memcpy(&d, b, 8);
        return d;
    }
    uint16_t h;
    memcpy(&h, b, 2);
    if (t == RD_T_BF16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    /* f16 */
    int ex = (h >> 10) & 0x1F, m = h & 0x3FF;
    long double v = ex == 0 ? ldexpl(m, -24)
                   : ex == 31 ? (m ? NAN : INFINITY)
                              : ldexpl(m | 0x400, ex - 25);
    return h >> 15 ? -v : v;
}

typedef struct walk {
    int64_t start, step, len; /* elements of one output */
} walk;

static walk walk_of(const at_problem *p, int64_t o)
{
    const int64_t ld = p->v[RD_LD];
    if (at_rd_down(p))
        return (walk){o, ld, p->v[RD_ROWS]};
    return (walk){o * ld, 1, p->v[RD_COLS]};
}

static void ref_float(const at_problem *p, const void *in, int64_t o,
                      long double *val, long double *unit)
{
    const int op = (int)p->v[RD_OP];
    const int t = at_rd_type(p->type);
    walk w = walk_of(p, o);
    long double acc = op == OP_MIN ? INFINITY : op == OP_MAX ? -INFINITY : 0;
    long double mag = 0;
    for (int64_t k = 0; k < w.len; ++k) {
        long double x = elem(t, in, w.start + k * w.step);
        long double m = op == OP_SUMSQ ? x * x : op == OP_AMAX ? fabsl(x) : x;
        if (op == OP_SUM || op == OP_SUMSQ)
            acc += m;
        else if (m != m || acc != acc)
            acc = NAN;
        else if (op == OP_MIN ? m < acc : m > acc)
            acc = m;
        mag += fabsl(m);
    }
    *val = acc;
    *unit = op == OP_SUM || op == OP_SUMSQ ? mag : 0;
}

static int64_t ref_int(const at_problem *p, const void *in, int64_t o)
{
    const int op = (int)p->v[RD_OP];
    walk w = walk_of(p, o);
    uint64_t sum = 0;
    int64_t best = op == OP_MIN ? INT64_MAX : op == OP_MAX ? INT64_MIN : 0;
    for (int64_t k = 0; k < w.len; ++k) {
        int32_t x;
        memcpy(&x, (const char *)in + (w.start + k * w.step) * 4, 4);
        int64_t m = op == OP_SUMSQ ? (int64_t)x * x
                  : op == OP_AMAX ? (x < 0 ? -(int64_t)x : x) : x;
        if (op == OP_SUM || op == OP_SUMSQ)
            sum += (uint64_t)m;
        else if (op == OP_MIN ? m < best : m > best)
            best = m;
    }
    return op == OP_SUM || op == OP_SUMSQ ? (int64_t)sum : best;
}

int64_t at_rd_reference_parts(const at_problem *p) { return at_rd_outputs(p); }

/* Outputs [first, end): the value rounded to the accumulator type, and
 * its error unit u * sum |x| (u: the accumulator's unit roundoff; 0 for
 * min, max and amax, which are exact). */
void at_rd_reference(const at_problem *p, const void *in, void *out,
                     void *bound, int64_t first, int64_t end)
{
    const int acc = at_rd_acc_bytes(p->type);
    for (int64_t o = first; o < end; ++o) {
        if (!p->type->fp) {
            int64_t v = ref_int(p, in, o);
            memcpy((char *)out + o * 8, &v, 8);
            if (bound)
                memset((char *)bound + o * 8, 0, 8);
            continue;
        }
        long double v, unit;
        ref_float(p, in, o, &v, &unit);
        if (acc == 8) {
            double d = (double)v, u = (double)(unit * 0x1p-53L);
            memcpy((char *)out + o * 8, &d, 8);
            if (bound)
                memcpy((char *)bound + o * 8, &u, 8);
        } else {
            float f = (float)v, u = (float)(unit * 0x1p-24L);
            memcpy((char *)out + o * 4, &f, 4);
            if (bound)
                memcpy((char *)bound + o * 4, &u, 4);
        }
    }
}

const char *at_rd_verify_kernel(const at_problem *p)
{
    if (!p->type->fp)
        return "at_compare_bits"; /* integers: exact */
    return at_rd_acc_bytes(p->type) == 8 ? "at_compare_f64"
                                         : "at_compare_f32";
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* The depth of the point's sums, in roundings: an output's error is at
 * most depth * u * sum |x| (to first order; the 2% covers the rest). A
 * thread's walk (its share of the elements, one accumulator after
 * another in the worst case), the lanes' tree, then the split's partials
 * (atomics: any order of them). A contender (pt NULL): any order of all
 * the elements. */
double at_rd_tolerance(const at_problem *p, const at_point *pt)
{
    const int64_t len = at_rd_len(p);
    if (!pt)
        return 1.02 * (double)(len + 2);
    at_rd_geom g;
    at_rd_geom_of(p, pt, &g);
    const int *x = pt->v;
    const int64_t seg = g.split > 1 ? g.seg : len;
    int64_t steps, lanes;
    if (!at_rd_down(p) && at_rd_flat(pt))
        /* A lane's run in sequence, the warp's scan (32 lanes at worst
         * in sequence), then the row carried over every 32 runs it
         * spans. */
        return 1.02 * (double)(x[ITEMS] * x[VEC] + 32 +
                               ceil_div(len, 32 * (int64_t)x[VEC]) + 3);
    if (at_rd_down(p) && at_rd_flat(pt)) {
        /* Each slot (a group's thread and element) walks every
         * groups x vec rows, the rows past the last whole chunk one
         * more; a column's slots in sequence, then its partials by one
         * thread. */
        lanes = at_rd_flat_lanes(p, pt);
        steps = ceil_div(seg, lanes) + 1;
        int64_t depth = steps + lanes + 2;
        if (g.split > 1)
            depth += g.split + 1;
        return 1.02 * (double)depth;
    }
    if (at_rd_down(p)) {
        lanes = x[THREADS] / x[GROUP];
        steps = ceil_div(seg, lanes);
    } else {
        lanes = x[GROUP];
        steps = ceil_div(seg, (int64_t)lanes * x[VEC]) * x[VEC] + 2 * x[VEC];
    }
    /* Lanes combined in sequence (the worst of the trees), then the
     * split's partials the same way, plus the accumulators'. */
    int64_t depth = steps + lanes + x[ACCS] + 2;
    if (g.split > 1)
        depth += x[COMBINE] == COMBINE_ATOMIC ? g.split
                                              : ceil_div(g.split, lanes) +
                                                    x[THREADS];
    return 1.02 * (double)depth;
}

/* Check problems: shapes no vector, group or step divides, one and three
 * elements, rows off every alignment (along), and NaNs in the third.
 * Down columns, ld is the table's (a multiple of 8) plus the problem's ld
 * mod 8: every vector that divides the problem's ld divides it (the
 * vector's constraint), and a shifted strip meets rows off its vector. */
static const struct {
    int64_t rows, cols, ld;
    const char *label;
} checks[3][AT_RD_CHECKS] = {
    [AXIS_ALL] = {{1, 1, 1, "n = 1"},
                  {1, 3, 3, "n = 3"},
                  {1, 100003, 100003, "n = 100003 with NaNs"},
                  {1, 65521, 65521, "n = 65521"}},
    [AXIS_COLS] = {{37, 1031, 1033, "37x1031 ld 1033"},
                   {1, 3, 3, "1x3"},
                   {61, 257, 263, "61x257 ld 263 with NaNs"},
                   {5, 4099, 4099, "5x4099"}},
    [AXIS_ROWS] = {{1031, 37, 40, "1031x37 ld 40 + the problem's ld mod 8"},
                   {3, 1, 8, "3x1 ld 8 + the problem's ld mod 8"},
                   {257, 61, 64,
                    "257x61 ld 64 + the problem's ld mod 8, with NaNs"},
                   {4099, 5, 8, "4099x5 ld 8 + the problem's ld mod 8"}},
};

int at_rd_check_problem(const at_problem *p, int i, at_problem *out,
                        const char **label, at_err *e)
{
    const int axis = (int)p->v[RD_AXIS];
    *out = *p;
    out->v[RD_N] = axis == AXIS_ALL ? checks[axis][i].cols : 0;
    out->v[RD_ROWS] = checks[axis][i].rows;
    out->v[RD_COLS] = checks[axis][i].cols;
    out->v[RD_LD] = checks[axis][i].ld;
    if (axis == AXIS_ROWS)
        out->v[RD_LD] += p->v[RD_LD] % 8;
    *label = checks[axis][i].label;
    return at_problem_finish(out, e);
}

/* "out[7] (row 7)": elem counts the input type's elements (the generic
 * comparison's unit), turned into the output's. */
void at_rd_where(const at_problem *p, size_t elem, char *buf, size_t n)
{
    size_t o = elem * (size_t)p->type->bytes /
               (size_t)at_rd_acc_bytes(p->type);
    snprintf(buf, n, "out[%zu] (%s %zu)", o,
             p->v[RD_AXIS] == AXIS_ALL ? "the whole array, element"
             : at_rd_down(p)           ? "column"
                                       : "row",
             o);
}
