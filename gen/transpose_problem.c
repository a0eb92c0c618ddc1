/* The transpose family's problem: its fields, their defaults and checks,
 * its buffer sizes and how it is printed. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "transpose.h"

const at_field at_tp_fields[TP_N_FIELDS] = {
    [TP_ROWS] = {"rows", "input rows (default 8192)", 8192, 1, INT_MAX,
                 NULL},
    [TP_COLS] = {"cols", "input columns (default 8192)", 8192, 1, INT_MAX,
                 NULL},
    [TP_LD_IN] = {"ld_in", "elements between input rows (default: cols)", 0,
                  1, INT64_MAX, NULL},
    [TP_LD_OUT] = {"ld_out", "elements between output rows (default: rows)",
                   0, 1, INT64_MAX, NULL},
    [TP_BATCH] = {"batch", "matrices (default 1)", 1, 1, AT_MAX_BATCH, NULL},
    [TP_STRIDE_IN] = {"stride_in", "elements between input matrices "
                      "(default: rows * ld_in)", 0, 1, INT64_MAX, NULL},
    [TP_STRIDE_OUT] = {"stride_out", "elements between output matrices "
                       "(default: cols * ld_out)", 0, 1, INT64_MAX, NULL},
};

/* Bytes of a batch of matrices of rows x ld elements, stride apart; 0 on
 * overflow. The last row needs only `used` elements, but the buffer is
 * sized to ld so a user's allocation of rows * ld always suffices. */
static size_t batch_bytes(int64_t batch, int64_t stride, int64_t rows,
                          int64_t ld, int elem)
{
    if (rows <= 0 || ld <= 0 || (uint64_t)rows > SIZE_MAX / (uint64_t)ld)
        return 0;
    size_t one = (size_t)rows * (size_t)ld;
    if (batch > 1 && (uint64_t)(batch - 1) > (SIZE_MAX - one) / (uint64_t)stride)
        return 0;
    size_t n = (size_t)(batch - 1) * (size_t)stride + one;
    if (n > SIZE_MAX / (size_t)elem)
        return 0;
    return n * (size_t)elem;
}

/* Sizes positive and within the kernel's int range, leading dimensions
 * and strides that keep rows and matrices apart, byte counts without
 * overflow. 0 (unset) leading dimensions and strides take the dense
 * defaults. */
static int check_sizes(const int64_t *v, at_err *e)
{
    if (v[TP_ROWS] <= 0 || v[TP_COLS] <= 0)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "rows and cols must be positive (got %lld x %lld)",
                       (long long)v[TP_ROWS], (long long)v[TP_COLS]);
    if (v[TP_ROWS] > INT_MAX || v[TP_COLS] > INT_MAX)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "rows and cols must be at most %d (got %lld x %lld)",
                       INT_MAX, (long long)v[TP_ROWS], (long long)v[TP_COLS]);
    if (v[TP_BATCH] < 1 || v[TP_BATCH] > AT_MAX_BATCH || v[TP_LD_IN] < 0 ||
        v[TP_LD_OUT] < 0 || v[TP_STRIDE_IN] < 0 || v[TP_STRIDE_OUT] < 0)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "batch must be 0 to %lld and leading dimensions and "
                       "strides >= 0 (0: the default)", AT_MAX_BATCH);
    return 0;
}

int at_tp_finish(at_problem *p, at_err *e)
{
    int64_t *v = p->v;
    int rc = check_sizes(v, e);
    if (rc)
        return rc;
    const int64_t rows = v[TP_ROWS], cols = v[TP_COLS], batch = v[TP_BATCH];
    int64_t ld_in = v[TP_LD_IN] ? v[TP_LD_IN] : cols;
    int64_t ld_out = v[TP_LD_OUT] ? v[TP_LD_OUT] : rows;
    if (ld_in < cols || ld_out < rows)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "leading dimensions too small: ld_in %lld < cols %lld "
                       "or ld_out %lld < rows %lld", (long long)ld_in,
                       (long long)cols, (long long)ld_out, (long long)rows);
    if (rows > INT64_MAX / ld_in || cols > INT64_MAX / ld_out)
        return at_fail(e, AUTOTUNE_ERANGE, "%lld x %lld with ld %lld/%lld: "
                       "element count overflows", (long long)rows,
                       (long long)cols, (long long)ld_in, (long long)ld_out);
    /* The last row of a matrix needs only cols (or rows) elements. One
     * matrix has no stride: the defaults, so the key does not split. */
    int64_t min_in = (rows - 1) * ld_in + cols;
    int64_t min_out = (cols - 1) * ld_out + rows;
    int64_t stride_in = v[TP_STRIDE_IN] && batch > 1 ? v[TP_STRIDE_IN]
                                                     : rows * ld_in;
    int64_t stride_out = v[TP_STRIDE_OUT] && batch > 1 ? v[TP_STRIDE_OUT]
                                                       : cols * ld_out;
    if (batch > 1 && (stride_in < min_in || stride_out < min_out))
        return at_fail(e, AUTOTUNE_ERANGE,
                       "batch strides overlap the matrices: stride_in %lld < "
                       "%lld or stride_out %lld < %lld", (long long)stride_in,
                       (long long)min_in, (long long)stride_out,
                       (long long)min_out);
    v[TP_LD_IN] = ld_in;
    v[TP_LD_OUT] = ld_out;
    v[TP_STRIDE_IN] = stride_in;
    v[TP_STRIDE_OUT] = stride_out;
    p->in_bytes = batch_bytes(batch, stride_in, rows, ld_in, p->type->bytes);
    p->out_bytes = batch_bytes(batch, stride_out, cols, ld_out,
                               p->type->bytes);
    if (!p->in_bytes || !p->out_bytes)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "%lld x %lld x %lld %s: byte count overflows",
                       (long long)batch, (long long)rows, (long long)cols,
                       p->type->name);
    return 0;
}

void at_tp_describe(const at_problem *p, char *buf, size_t n)
{
    const int64_t *v = p->v;
    int k = snprintf(buf, n, "%lldx%lld ld_in=%lld ld_out=%lld",
                     (long long)v[TP_ROWS], (long long)v[TP_COLS],
                     (long long)v[TP_LD_IN], (long long)v[TP_LD_OUT]);
    if (v[TP_BATCH] > 1 && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k,
                 " batch=%lld stride_in=%lld stride_out=%lld",
                 (long long)v[TP_BATCH], (long long)v[TP_STRIDE_IN],
                 (long long)v[TP_STRIDE_OUT]);
}

void at_tp_file_stem(const at_problem *p, char *buf, size_t n)
{
    const int64_t *v = p->v;
    if (v[TP_BATCH] > 1)
        snprintf(buf, n, "%lldx%lldx%lld", (long long)v[TP_BATCH],
                 (long long)v[TP_ROWS], (long long)v[TP_COLS]);
    else
        snprintf(buf, n, "%lldx%lld", (long long)v[TP_ROWS],
                 (long long)v[TP_COLS]);
}

static double elems(const at_problem *p)
{
    return (double)p->v[TP_ROWS] * (double)p->v[TP_COLS] *
           (double)p->v[TP_BATCH];
}

double at_tp_bytes_moved(const at_problem *p)
{
    return 2.0 * elems(p) * p->type->bytes;
}

/* The copy it is compared with moves the matrices' elements, not the
 * padding of wide leading dimensions. */
size_t at_tp_copy_bytes(const at_problem *p)
{
    return (size_t)elems(p) * (size_t)p->type->bytes;
}

/* One side's share of the bytes in the 64-byte blocks its runs touch
 * that is data: runs of len bytes, pitch bytes apart, n of them a matrix,
 * matrices stride bytes apart. Offsets modulo 64 repeat every 64 runs
 * and every 64 matrices, so the first 64 of each are a whole period. */
static double side_share(int64_t len, int64_t pitch, int64_t n,
                         int64_t batch, int64_t stride)
{
    const int64_t runs = n < 64 ? n : 64, mats = batch < 64 ? batch : 64;
    int64_t touched = 0;
    for (int64_t z = 0; z < mats; ++z)
        touched += at_blocks_touched(z * stride, pitch, len, runs);
    return (double)(mats * runs * len) / (double)(touched * 64);
}

/* Of the bytes in the 64-byte blocks the input's and the output's rows
 * touch, the share that is elements: DRAM moves whole 64-byte blocks on
 * the H100, so a transpose whose rows are padded apart, or short and off
 * the blocks, moves at about this share of the copy or less (the copy
 * moves the same elements end to end). 1 for rows end to end on the
 * blocks. */
double at_tp_layout_share(const at_problem *p)
{
    const int64_t *v = p->v, e = p->type->bytes;
    const double in = side_share(v[TP_COLS] * e, v[TP_LD_IN] * e, v[TP_ROWS],
                                 v[TP_BATCH], v[TP_STRIDE_IN] * e);
    const double out = side_share(v[TP_ROWS] * e, v[TP_LD_OUT] * e,
                                  v[TP_COLS], v[TP_BATCH],
                                  v[TP_STRIDE_OUT] * e);
    /* Each side moves the same elements: the blocks' bytes per element
     * add. */
    return 2.0 / (1.0 / in + 1.0 / out);
}
