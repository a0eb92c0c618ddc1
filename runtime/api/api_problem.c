/* The public API's problem: a family, a type and the family's fields set
 * by name (gen/problem.h does the work through the family's field
 * table); finished, and so checked as a whole, by autotune_get. Errors
 * go to the problem's context (NULL: autotune_last_error(NULL)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/api.h"

int autotune_problem_create(autotune_ctx *ctx, const char *family,
                            const char *type, autotune_problem **out)
{
    at_err e = {0};
    if (!out || !family) {
        at_fail(&e, AUTOTUNE_EINVALID, "autotune_problem_create: %s is "
                "NULL", out ? "family" : "the result");
        return at_ctx_fail(ctx, &e);
    }
    *out = NULL;
    if (ctx)
        at_ctx_clear(ctx);
    /* No type: the family's, where it takes only one (a spec's). */
    const at_family *f = at_family_find(family);
    if (!type && f && f->types && !strchr(f->types, ' '))
        type = f->types;
    autotune_problem *p = calloc(1, sizeof *p);
    if (!p) {
        at_fail(&e, AUTOTUNE_ENOMEM, "a problem");
        return at_ctx_fail(ctx, &e);
    }
    p->ctx = ctx;
    if (at_problem_begin(&p->p, family, type, &e)) {
        free(p);
        return at_ctx_fail(ctx, &e);
    }
    *out = p;
    return 0;
}

int autotune_problem_set(autotune_problem *p, const char *field,
                         const char *value)
{
    at_err e = {0};
    if (!p)
        return AUTOTUNE_EINVALID;
    int rc = !field || !value
                 ? at_fail(&e, AUTOTUNE_EINVALID, "autotune_problem_set: %s "
                           "is NULL", field ? "value" : "field")
                 : at_problem_set(&p->p, field, value, &e);
    return rc ? at_ctx_fail(p->ctx, &e) : 0;
}

int autotune_problem_set_int(autotune_problem *p, const char *field,
                             int64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", (long long)value);
    return autotune_problem_set(p, field, text);
}

int autotune_problem_set_text(autotune_problem *p, const char *text)
{
    at_err e = {0};
    if (!p)
        return AUTOTUNE_EINVALID;
    int rc = !text ? at_fail(&e, AUTOTUNE_EINVALID, "autotune_problem_set_"
                             "text: text is NULL")
                   : at_problem_set_text(&p->p, text, &e);
    return rc ? at_ctx_fail(p->ctx, &e) : 0;
}

const char *autotune_problem_field(const autotune_problem *p, int i,
                                   char *buf, size_t n)
{
    if (!p || i < 0 || i >= p->p.family->n_fields)
        return NULL;
    if (buf && n)
        at_problem_value_text(&p->p, i, buf, n);
    return p->p.family->fields[i].name;
}

void autotune_problem_destroy(autotune_problem *p)
{
    free(p);
}
