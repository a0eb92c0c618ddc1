#include "problem.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "family.h"

/* Bytes of a rows x ld matrix of elem-byte elements; 0 on overflow. The
 * last row needs only `used` elements, but the buffer is sized to ld so a
 * user's allocation of rows * ld always suffices. */
static size_t matrix_bytes(int64_t rows, int64_t ld, int elem)
{
    if (rows <= 0 || ld <= 0 || (uint64_t)rows > SIZE_MAX / (uint64_t)ld)
        return 0;
    size_t n = (size_t)rows * (size_t)ld;
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
    p->rows = u->rows;
    p->cols = u->cols;
    p->ld_in = u->ld_in ? u->ld_in : u->cols;
    p->ld_out = u->ld_out ? u->ld_out : u->rows;
    if (p->ld_in < p->cols || p->ld_out < p->rows)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "leading dimensions too small: ld_in %lld < cols %lld "
                       "or ld_out %lld < rows %lld",
                       (long long)p->ld_in, (long long)p->cols,
                       (long long)p->ld_out, (long long)p->rows);
    p->in_bytes = matrix_bytes(p->rows, p->ld_in, p->type->bytes);
    p->out_bytes = matrix_bytes(p->cols, p->ld_out, p->type->bytes);
    if (!p->in_bytes || !p->out_bytes)
        return at_fail(e, AUTOTUNE_ERANGE,
                       "%lld x %lld %s: byte count overflows",
                       (long long)p->rows, (long long)p->cols, p->type->name);
    return 0;
}

void at_problem_str(const at_problem *p, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s %lldx%lld ld_in=%lld ld_out=%lld",
             p->family->name, p->type->name, (long long)p->rows,
             (long long)p->cols, (long long)p->ld_in, (long long)p->ld_out);
}

int at_problem_equal(const at_problem *a, const at_problem *b)
{
    return a->family == b->family && a->type == b->type &&
           a->rows == b->rows && a->cols == b->cols &&
           a->ld_in == b->ld_in && a->ld_out == b->ld_out;
}
