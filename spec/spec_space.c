/* Enumerating a spec's space (spec/spec_space.h). */
#include "spec/spec_space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void at_spec_point_text(const at_spec *s, const int *pt, char *buf,
                        size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->n_params && len < n; ++i)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%d", i ? " " : "",
                                s->params[i].name, pt[i]);
}

/* 1 if pt passes every restriction; 0 with the first rejecting one in
 * *which; negative: an evaluation error. */
static int passes(const at_spec *s, const int *pt, int64_t *slots,
                  const int64_t *size, const at_limits *l, int *which,
                  at_err *e)
{
    at_spec_slots(s, pt, size, l, slots);
    for (int r = 0; r < s->n_restrictions; ++r) {
        int64_t v;
        int rc = at_expr_eval(s->restrictions[r], slots, &v, e);
        if (rc) { /* the spec's mistake, whatever the evaluator's code */
            char p[512];
            at_spec_point_text(s, pt, p, sizeof p);
            at_err_prefix(e, "%s: restriction %d at %s: ", s->file, r + 1,
                          p);
            if (e)
                e->code = AUTOTUNE_EINVALID;
            return AUTOTUNE_EINVALID;
        }
        if (!v) {
            *which = r;
            return 0;
        }
    }
    return 1;
}

int at_spec_space_make(const at_spec *s, const int64_t *size,
                       const at_limits *l, at_spec_space *sp, at_err *e)
{
    memset(sp, 0, sizeof *sp);
    sp->total = 1;
    for (int i = 0; i < s->n_params; ++i)
        sp->total *= (size_t)s->params[i].n; /* at most 8^12 */
    if (sp->total > AT_SPEC_MAX_POINTS)
        return at_fail(e, AUTOTUNE_ERANGE, "%s: a space of %zu points "
                       "before the restrictions (at most %u)", s->file,
                       sp->total, AT_SPEC_MAX_POINTS);
    size_t cap = 64;
    int np = s->n_params, idx[AT_MAX_AXES] = {0}, pt[AT_MAX_AXES];
    int64_t *slots = malloc((size_t)at_spec_n_slots(s) * sizeof *slots);
    sp->points = malloc(cap * (size_t)np * sizeof *sp->points);
    if (!slots || !sp->points) {
        free(slots);
        at_spec_space_free(sp);
        return at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory", s->file);
    }
    for (size_t k = 0; k < sp->total; ++k) {
        for (int i = 0; i < np; ++i)
            pt[i] = s->params[i].values[idx[i]];
        int which = -1, rc = passes(s, pt, slots, size, l, &which, e);
        if (rc < 0) {
            free(slots);
            at_spec_space_free(sp);
            return rc;
        }
        if (!rc) {
            ++sp->removed[which];
        } else {
            if (sp->n == cap) {
                int *more = realloc(sp->points,
                                    2 * cap * (size_t)np * sizeof *more);
                if (!more) {
                    free(slots);
                    at_spec_space_free(sp);
                    return at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory",
                                   s->file);
                }
                sp->points = more;
                cap *= 2;
            }
            memcpy(sp->points + sp->n++ * (size_t)np, pt,
                   (size_t)np * sizeof *pt);
        }
        for (int i = np - 1; i >= 0 && ++idx[i] == s->params[i].n; --i)
            idx[i] = 0; /* the last parameter fastest */
    }
    free(slots);
    if (sp->n == 0) {
        int most = 0;
        for (int r = 1; r < s->n_restrictions; ++r)
            if (sp->removed[r] > sp->removed[most])
                most = r;
        int rc = at_fail(e, AUTOTUNE_ENO_VARIANT, "%s: no point of the %zu "
                         "passes the restrictions; restriction %d, '%s', "
                         "removed the most (%zu)", s->file, sp->total,
                         most + 1, at_expr_text(s->restrictions[most]),
                         sp->removed[most]);
        at_spec_space_free(sp);
        return rc;
    }
    return 0;
}

void at_spec_space_free(at_spec_space *sp)
{
    free(sp->points);
    sp->points = NULL;
}
