/* Tests' shorthand for a problem: a family, a type and the fields a
 * transpose or reduction takes most often, positional as the 0.3 API's
 * struct was, made through the family's field table as the 1.0 API makes
 * it (a field set where not 0; options last, "name=value ..."). */
#ifndef AT_TEST_PROBLEM_H
#define AT_TEST_PROBLEM_H

#include <stdio.h>

#include "gen/family.h"
#include "gen/problem.h"

typedef struct test_problem {
    const char *family, *type;
    int64_t rows, cols, ld_in, ld_out, batch, stride_in, stride_out;
    const char *options;
} test_problem;

static inline int test_problem_make(at_problem *p, const test_problem *u,
                                    at_err *e)
{
    static const char *const names[] = {"rows", "cols", "ld_in", "ld_out",
                                        "batch", "stride_in", "stride_out"};
    const int64_t v[] = {u->rows, u->cols, u->ld_in, u->ld_out, u->batch,
                         u->stride_in, u->stride_out};
    int rc = at_problem_begin(p, u->family, u->type, e);
    for (int i = 0; !rc && i < 7; ++i) {
        char text[32];
        /* A reduction's leading dimension is "ld". */
        const char *name = i == 2 && at_field_index(p->family, "ld") >= 0
                               ? "ld" : names[i];
        snprintf(text, sizeof text, "%lld", (long long)v[i]);
        if (v[i])
            rc = at_problem_set(p, name, text, e);
    }
    if (!rc && u->options)
        rc = at_problem_set_text(p, u->options, e);
    return rc ? rc : at_problem_finish(p, e);
}

#endif
