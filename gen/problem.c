#include "problem.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "family.h"

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

int at_problem_init(at_problem *p, const autotune_problem *u, at_err *e)
{
    memset(p, 0, sizeof *p);
    if (!u)
        return at_fail(e, AUTOTUNE_EINVALID, "problem is NULL");
    p->family = at_family_find(u->family);
    if (!p->family)
        return at_fail(e, AUTOTUNE_ENOT_FOUND,
                       "unknown family '%s' (known: %s)",
                       u->family ? u->family : "(null)", at_family_list());
    p->type = at_type_find(u->type);
    if (!p->type)
        return at_fail(e, AUTOTUNE_ENOT_FOUND,
                       "unknown type '%s' for %s (known: %s)",
                       u->type ? u->type : "(null)", p->family->name,
                       at_type_list());
    if (u->rows <= 0 || u->cols <= 0)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "rows and cols must be positive (got %lld x %lld)",
                       (long long)u->rows, (long long)u->cols);
    if (u->rows > INT_MAX || u->cols > INT_MAX)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "rows and cols must be at most %d (got %lld x %lld)",
                       INT_MAX, (long long)u->rows, (long long)u->cols);
    if (u->batch < 0 || u->batch > AT_MAX_BATCH || u->ld_in < 0 ||
        u->ld_out < 0 || u->stride_in < 0 || u->stride_out < 0)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "batch must be 0 to %lld and leading dimensions and "
                       "strides >= 0 (0: the default)", AT_MAX_BATCH);
    p->rows = u->rows;
    p->cols = u->cols;
    p->ld_in = u->ld_in ? u->ld_in : u->cols;
    p->ld_out = u->ld_out ? u->ld_out : u->rows;
    p->batch = u->batch ? u->batch : 1;
    if (p->ld_in < p->cols || p->ld_out < p->rows)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "leading dimensions too small: ld_in %lld < cols %lld "
                       "or ld_out %lld < rows %lld",
                       (long long)p->ld_in, (long long)p->cols,
                       (long long)p->ld_out, (long long)p->rows);
    /* Defaults: matrices back to back. Given: they must not overlap (the
     * last row of a matrix needs only cols, or rows, elements). */
    if (p->rows > INT64_MAX / p->ld_in || p->cols > INT64_MAX / p->ld_out)
        return at_fail(e, AUTOTUNE_ERANGE, "%lld x %lld with ld %lld/%lld: "
                       "element count overflows", (long long)p->rows,
                       (long long)p->cols, (long long)p->ld_in,
                       (long long)p->ld_out);
    int64_t min_in = (p->rows - 1) * p->ld_in + p->cols;
    int64_t min_out = (p->cols - 1) * p->ld_out + p->rows;
    /* One matrix has no stride: the defaults, so the key does not split. */
    p->stride_in = u->stride_in && p->batch > 1 ? u->stride_in
                                                : p->rows * p->ld_in;
    p->stride_out = u->stride_out && p->batch > 1 ? u->stride_out
                                                  : p->cols * p->ld_out;
    if (p->batch > 1 && (p->stride_in < min_in || p->stride_out < min_out))
        return at_fail(e, AUTOTUNE_ERANGE,
                       "batch strides overlap the matrices: stride_in %lld < "
                       "%lld or stride_out %lld < %lld",
                       (long long)p->stride_in, (long long)min_in,
                       (long long)p->stride_out, (long long)min_out);
    p->in_bytes = batch_bytes(p->batch, p->stride_in, p->rows, p->ld_in,
                              p->type->bytes);
    p->out_bytes = batch_bytes(p->batch, p->stride_out, p->cols, p->ld_out,
                               p->type->bytes);
    if (!p->in_bytes || !p->out_bytes)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "%lld x %lld x %lld %s: byte count overflows",
                       (long long)p->batch, (long long)p->rows,
                       (long long)p->cols, p->type->name);
    return 0;
}

void at_problem_str(const at_problem *p, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%s %s %lldx%lld ld_in=%lld ld_out=%lld",
                     p->family->name, p->type->name, (long long)p->rows,
                     (long long)p->cols, (long long)p->ld_in,
                     (long long)p->ld_out);
    if (p->batch > 1 && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k,
                 " batch=%lld stride_in=%lld stride_out=%lld",
                 (long long)p->batch, (long long)p->stride_in,
                 (long long)p->stride_out);
}

int at_problem_equal(const at_problem *a, const at_problem *b)
{
    return a->family == b->family && a->type == b->type &&
           a->rows == b->rows && a->cols == b->cols &&
           a->ld_in == b->ld_in && a->ld_out == b->ld_out &&
           a->batch == b->batch && a->stride_in == b->stride_in &&
           a->stride_out == b->stride_out;
}

double at_problem_elems(const at_problem *p)
{
    return (double)p->rows * (double)p->cols * (double)p->batch;
}
