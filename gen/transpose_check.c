/* How a transpose is checked: the CPU reference, the odd shapes every
 * variant must also get right, and where in the output an element is. */
#include <stdio.h>
#include <string.h>

#include "transpose.h"

int64_t at_tp_reference_parts(const at_problem *p)
{
    return p->v[TP_ROWS] * p->v[TP_BATCH];
}

/* Blocked so the CPU reference of a large matrix takes a fraction of a
 * second rather than striding through memory. Rows are numbered across
 * the batch: row fr is row fr % rows of matrix fr / rows. */
typedef struct b16 {
    uint64_t lo, hi;
} b16;

#define REFERENCE(T)                                                        \
    static void reference_##T(const at_problem *p, const T *in, T *out,     \
                              int64_t first, int64_t end)                   \
    {                                                                       \
        enum { B = 32 };                                                    \
        const int64_t rows = p->v[TP_ROWS], cols = p->v[TP_COLS];           \
        const int64_t ld_in = p->v[TP_LD_IN], ld_out = p->v[TP_LD_OUT];     \
        const int64_t s_in = p->v[TP_STRIDE_IN], s_out = p->v[TP_STRIDE_OUT];\
        for (int64_t r0 = first; r0 < end; r0 += B)                         \
            for (int64_t c0 = 0; c0 < cols; c0 += B)                        \
                for (int64_t fr = r0; fr < r0 + B && fr < end; ++fr) {      \
                    int64_t z = fr / rows, r = fr % rows;                   \
                    const T *src = in + z * s_in + r * ld_in;               \
                    T *dst = out + z * s_out + r;                           \
                    for (int64_t c = c0; c < c0 + B && c < cols; ++c)       \
                        dst[c * ld_out] = src[c];                           \
                }                                                           \
    }
REFERENCE(uint8_t)
REFERENCE(uint16_t)
REFERENCE(uint32_t)
REFERENCE(uint64_t)
REFERENCE(b16)

void at_tp_reference(const at_problem *p, const void *in, void *out,
                     int64_t first, int64_t end)
{
    switch (p->type->bytes) {
    case 1: reference_uint8_t(p, in, out, first, end); break;
    case 2: reference_uint16_t(p, in, out, first, end); break;
    case 4: reference_uint32_t(p, in, out, first, end); break;
    case 8: reference_uint64_t(p, in, out, first, end); break;
    default: reference_b16(p, in, out, first, end); break;
    }
}

/* The odd shapes every variant must also get right: primes, a multiple of
 * no tile size, with wider leading dimensions: odd ones (the element path
 * everywhere) and multiples of 32 elements (vector path, packed words and
 * edge tiles together); and batches with strides wider than the matrices,
 * of edge tiles only and of whole tiles and edges. */
static const struct {
    autotune_problem u;
    const char *label;
} checks[AT_TP_CHECKS] = {
    {{.rows = 211, .cols = 379, .ld_in = 383, .ld_out = 223},
     "odd shape 211x379 ld 383/223"},
    {{.rows = 211, .cols = 379, .ld_in = 384, .ld_out = 224},
     "odd shape 211x379 ld 384/224"},
    {{.rows = 37, .cols = 53, .ld_in = 64, .ld_out = 48, .batch = 3,
      .stride_in = 37 * 64 + 16, .stride_out = 53 * 48 + 32},
     "batch 3 of 37x53 ld 64/48 strides 2384/2576"},
    {{.rows = 96, .cols = 160, .ld_in = 176, .ld_out = 112, .batch = 4,
      .stride_in = 96 * 176 + 32, .stride_out = 160 * 112 + 16},
     "batch 4 of 96x160 ld 176/112 strides 16928/17936"},
};

int at_tp_check_problem(const at_problem *p, int i, at_problem *out,
                        const char **label, at_err *e)
{
    autotune_problem u = checks[i].u;
    u.family = p->family->name;
    u.type = p->type->name;
    *label = checks[i].label;
    return at_problem_from_api(out, &u, e);
}

/* "out[3][7]", or "out[z][3][7]" in a batch. */
void at_tp_where(const at_problem *p, size_t elem, char *buf, size_t n)
{
    size_t s = (size_t)p->v[TP_STRIDE_OUT], ld = (size_t)p->v[TP_LD_OUT];
    size_t z = elem / s, rem = elem % s;
    if (p->v[TP_BATCH] > 1)
        snprintf(buf, n, "out[%zu][%zu][%zu]", z, rem / ld, rem % ld);
    else
        snprintf(buf, n, "out[%zu][%zu]", rem / ld, rem % ld);
}
