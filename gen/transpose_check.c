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
                     void *bound, int64_t first, int64_t end)
{
    (void)bound;
    switch (p->type->bytes) {
    case 1: reference_uint8_t(p, in, out, first, end); break;
    case 2: reference_uint16_t(p, in, out, first, end); break;
    case 4: reference_uint32_t(p, in, out, first, end); break;
    case 8: reference_uint64_t(p, in, out, first, end); break;
    default: reference_b16(p, in, out, first, end); break;
    }
}

/* The odd shapes every variant with the element path must also get
 * right (a variant without it, the whole shapes below): primes, a multiple of
 * no tile size, with wider leading dimensions: odd ones (the element path
 * everywhere) and multiples of 32 elements (vector path, packed words and
 * edge tiles together); and batches with strides wider than the matrices,
 * of edge tiles only and of whole tiles and edges. */
/* A check problem's fields (0: the field's default). */
typedef struct shape {
    int64_t rows, cols, ld_in, ld_out, batch, stride_in, stride_out;
} shape;

static const struct {
    shape u;
    const char *label;
} checks[AT_TP_ODD_CHECKS] = {
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

/* For kernels made for whole tiles on rows on their vectors (no element
 * path): sides every tile divides (tiles are at most 512), leading
 * dimensions and strides a multiple of 16 bytes (q elements) past the
 * rows, on every vector; output rows off the 32-byte sectors (skewed
 * stores, where compiled in) and on them (the same kernel unskewed), and
 * a batch. Sizes in elements, pads in units of q. */
static const struct {
    int64_t rows, cols, pad_in, pad_out, batch;
    const char *label;
} whole_checks[AT_TP_CHECKS - AT_TP_ODD_CHECKS] = {
    {512, 1024, 1, 3, 1, "whole shape 512x1024, lds 16 and 48 bytes past"},
    {1024, 512, 1, 2, 1, "whole shape 1024x512, lds 16 and 32 bytes past"},
    {512, 512, 1, 3, 2,
     "batch 2 of whole 512x512, strides 16 and 48 bytes past"},
};

static shape whole_check(const at_problem *p, int i)
{
    const int64_t q = 16 / p->type->bytes, n = i - AT_TP_ODD_CHECKS;
    const int64_t rows = whole_checks[n].rows, cols = whole_checks[n].cols;
    if (whole_checks[n].batch > 1)
        return (shape){.rows = rows, .cols = cols, .ld_in = cols,
                       .ld_out = rows, .batch = whole_checks[n].batch,
                       .stride_in = rows * cols + whole_checks[n].pad_in * q,
                       .stride_out =
                           rows * cols + whole_checks[n].pad_out * q};
    return (shape){.rows = rows, .cols = cols,
                   .ld_in = cols + whole_checks[n].pad_in * q,
                   .ld_out = rows + whole_checks[n].pad_out * q};
}

/* For a problem that strips serve, the same short side on the same side
 * (a strip variant is compiled for it): long sides no group width
 * divides, runs end to end and apart (odd, and aligned to 16 elements),
 * batches end to end (one vector, for a short side of 1) and apart. */
static const struct {
    int64_t len, ld_long, ld_run; /* ld_run: added to the short side */
    int64_t batch, pad_long, pad_run;
    const char *label;
} strip_checks[AT_TP_ODD_CHECKS] = {
    {4099, 4099, 0, 1, 0, 0, "strip 4099 long, dense"},
    {4103, 4106, 1, 1, 0, 0, "strip 4103 long, lds 4106/short+1"},
    {517, 517, 0, 3, 0, 0, "batch 3 of strips 517 long, end to end"},
    {1024, 1040, 16, 4, 32, 16,
     "batch 4 of strips 1024 long, lds 1040/short+16, strides padded"},
};

static shape strip_check(const at_problem *p, int i)
{
    int rows_short;
    const int64_t s = at_tp_strip_short(p, &rows_short);
    const int64_t n = strip_checks[i].len, ld_long = strip_checks[i].ld_long;
    const int64_t ld_run = s + strip_checks[i].ld_run;
    const int64_t batch = strip_checks[i].batch;
    /* Per buffer, rows, ld and stride: [0] the long rows (s of them),
     * [1] the runs (n); the input is [0] where rows are short. */
    const int64_t side[2] = {s, n}, ld[2] = {ld_long, ld_run};
    const int64_t stride[2] = {
        batch > 1 ? s * ld_long + strip_checks[i].pad_long : 0,
        batch > 1 ? n * ld_run + strip_checks[i].pad_run : 0};
    const int in = !rows_short;
    return (shape){.rows = side[in], .cols = side[!in], .ld_in = ld[in],
                   .ld_out = ld[!in], .batch = batch,
                   .stride_in = stride[in], .stride_out = stride[!in]};
}

int at_tp_check_problem(const at_problem *p, int i, at_problem *out,
                        const char **label, at_err *e)
{
    const int strip = at_tp_strip_short(p, NULL) > 0;
    const int whole = i >= AT_TP_ODD_CHECKS;
    const shape u = whole ? whole_check(p, i)
                    : strip ? strip_check(p, i) : checks[i].u;
    const int64_t v[TP_N_FIELDS] = {
        [TP_ROWS] = u.rows,       [TP_COLS] = u.cols,
        [TP_LD_IN] = u.ld_in,     [TP_LD_OUT] = u.ld_out,
        [TP_BATCH] = u.batch,     [TP_STRIDE_IN] = u.stride_in,
        [TP_STRIDE_OUT] = u.stride_out};
    *label = whole   ? whole_checks[i - AT_TP_ODD_CHECKS].label
             : strip ? strip_checks[i].label
                     : checks[i].label;
    int rc = at_problem_begin(out, p->family->name, p->type->name, e);
    for (int k = 0; !rc && k < TP_N_FIELDS; ++k)
        if (v[k])
            out->v[k] = v[k];
    return rc ? rc : at_problem_finish(out, e);
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

const char *at_tp_verify_kernel(const at_problem *p)
{
    (void)p;
    return "at_compare_bits"; /* bits are moved, never interpreted */
}
