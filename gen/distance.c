#include "distance.h"

#include <math.h>

#include "family.h"

int at_align_class(int64_t value, int type_bytes)
{
    uint64_t bytes = (uint64_t)value * (uint64_t)type_bytes;
    int c = 1;
    while (c < 16 && bytes && bytes % (uint64_t)(2 * c) == 0)
        c *= 2;
    return bytes ? c : 16;
}

double at_problem_distance(const at_problem *a, const at_problem *b)
{
    if (a->family != b->family || a->type != b->type)
        return INFINITY;
    const at_family *f = a->family;
    double d = 0;
    for (int i = 0; i < f->n_fields; ++i) {
        int64_t x = a->v[i], y = b->v[i];
        if (f->fields[i].choices) {
            if (x != y)
                return INFINITY;
            continue;
        }
        /* Fields at 0 (unused, derived as none) count as 1. */
        d += fabs(log2((double)(x > 1 ? x : 1)) -
                  log2((double)(y > 1 ? y : 1)));
        if (at_align_class(x, a->type->bytes) !=
            at_align_class(y, b->type->bytes))
            d += AT_ALIGN_PENALTY;
    }
    return d;
}
