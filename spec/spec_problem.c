/* A spec's problem (spec/spec.h): its fields from the API, its sizes
 * and buffers checked, the reference's launch and a non-empty space
 * checked before anything runs, its words for people and file names. */
#include <inttypes.h>
#include <stdio.h>

#include "spec/spec_family_impl.h"
#include "spec/spec_space.h"

/* An empty space is the spec's mistake, not the tuner's: said here,
 * with the restriction that removed the most, for the limits of sm_90
 * (the restrictions on limits then rarely bite). */
static int space_not_empty(const spec_family *sf, const at_problem *p,
                           at_err *e)
{
    at_spec s = sf->s; /* a shallow copy: the problem's scalars */
    int64_t size[3] = {1, 1, 1};
    for (int d = 0; d < s.dims; ++d)
        size[d] = p->v[d];
    for (int k = 0; k < s.n_scalars; ++k)
        s.scalars[k] = p->v[s.dims + k];
    at_limits l;
    at_spec_space sp;
    at_limits_for_arch(90, &l);
    int rc = at_spec_space_make(&s, size, &l, &sp, e);
    if (!rc)
        at_spec_space_free(&sp);
    return rc;
}

/* The reference kernel's launch at this problem: a launch (its geometry
 * reads sizes and scalars only, so it is the problem's to check). */
static int reference_launch(const spec_family *sf, const at_problem *p,
                            at_err *e)
{
    const at_spec *s = &sf->s;
    int64_t slots[SF_MAX_SLOTS], b[3], g[3];
    int pt[AT_MAX_AXES] = {0}; /* the launch reads verify.params alone */
    if (!s->reference_kernel)
        return 0;
    for (int i = 0; i < s->n_params; ++i)
        pt[i] = s->ref_given[i] ? s->ref_params[i] : 0;
    at_sf_slots(sf, p, pt, NULL, slots);
    for (int d = 0; d < 3; ++d) {
        at_err why = {0};
        if (at_expr_eval(s->ref_block[d], slots, &b[d], &why) ||
            at_expr_eval(s->ref_grid[d], slots, &g[d], &why))
            return at_fail(e, AUTOTUNE_ERANGE, "%s: verify: %s", s->file,
                           why.msg);
        if (b[d] < 1 || g[d] < 1 || g[d] > (d ? 65535 : INT32_MAX))
            return at_fail(e, AUTOTUNE_ERANGE, "%s: verify: the reference's "
                           "block %" PRId64 "x%" PRId64 "x%" PRId64 " and grid "
                           "%" PRId64 "x%" PRId64 "x%" PRId64 " are not a "
                           "launch", s->file, b[0], d > 0 ? b[1] : 1,
                           d > 1 ? b[2] : 1, g[0], d > 0 ? g[1] : 1,
                           d > 1 ? g[2] : 1);
    }
    if (b[0] * b[1] * b[2] > 1024)
        return at_fail(e, AUTOTUNE_ERANGE, "%s: verify: the reference's block "
                       "has %" PRId64 " threads, more than 1024", s->file,
                       b[0] * b[1] * b[2]);
    return 0;
}

int at_sf_finish(at_problem *p, at_err *e)
{
    at_sf_layout lay;
    int rc = at_sf_layout_make(at_sf_of(p), p, &lay, e);
    if (!rc)
        rc = reference_launch(at_sf_of(p), p, e);
    if (!rc)
        rc = space_not_empty(at_sf_of(p), p, e);
    if (rc)
        return rc;
    p->in_bytes = lay.in_bytes;
    p->out_bytes = lay.out_bytes;
    return 0;
}

/* "4096x4096": the sizes; returns the length written. */
static size_t sizes_text(const at_problem *p, char *buf, size_t n)
{
    const at_spec *s = &at_sf_of(p)->s;
    size_t k = 0;
    buf[0] = '\0';
    for (int d = 0; d < s->dims && k < n; ++d)
        k += (size_t)snprintf(buf + k, n - k, "%s%" PRId64, d ? "x" : "",
                              p->v[d]);
    return k;
}

void at_sf_describe(const at_problem *p, char *buf, size_t n)
{
    const at_spec *s = &at_sf_of(p)->s;
    size_t k = sizes_text(p, buf, n);
    for (int i = 0; i < s->n_scalars && k < n; ++i)
        k += (size_t)snprintf(buf + k, n - k, " %s=%" PRId64,
                              s->scalar_names[i], p->v[s->dims + i]);
}

void at_sf_file_stem(const at_problem *p, char *buf, size_t n)
{
    sizes_text(p, buf, n);
}

