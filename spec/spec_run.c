/* How a spec's kernels run (spec/spec.h): the variant's launch and
 * arguments, the reference (its own source or the kernel's, at the point
 * verify.params gives) and the init kernel that makes inputs from
 * others. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "spec/spec_family_impl.h"

int at_sf_geometry(const at_spec *s, const int64_t *slots, at_launch *g,
                char *why, size_t n)
{
    static const char *const dim = "xyz";
    memset(g, 0, sizeof *g);
    g->passes = 1;
    for (int d = 0; d < 3; ++d) {
        int64_t b, gr, bmax = d == 2 ? 64 : 1024;
        int64_t gmax = d ? 65535 : INT32_MAX;
        at_err e = {0};
        if (at_expr_eval(s->block[d], slots, &b, &e)) {
            snprintf(why, n, "block.%c: %s", dim[d], e.msg);
            return -1;
        }
        if (b < 1 || b > bmax) { /* before the grid, which may divide by it */
            snprintf(why, n, "block.%c: %" PRId64 ", not in 1..%" PRId64,
                     dim[d], b, bmax);
            return -1;
        }
        if (at_expr_eval(s->grid[d], slots, &gr, &e)) {
            snprintf(why, n, "grid.%c: %s", dim[d], e.msg);
            return -1;
        }
        if (gr < 1 || gr > gmax) {
            snprintf(why, n, "grid.%c: %" PRId64 ", not in 1..%" PRId64,
                     dim[d], gr, gmax);
            return -1;
        }
        g->block[d] = (unsigned)b;
        g->grid[d] = (unsigned)gr;
    }
    int64_t sm = 0;
    at_err e = {0};
    if (s->smem && at_expr_eval(s->smem, slots, &sm, &e)) {
        snprintf(why, n, "shared memory: %s", e.msg);
        return -1;
    }
    if (sm < 0 || sm > INT32_MAX) {
        snprintf(why, n, "shared memory: %" PRId64 " bytes", sm);
        return -1;
    }
    g->smem = (unsigned)sm;
    return 0;
}

void at_sf_launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    int64_t slots[SF_MAX_SLOTS];
    char why[8];
    at_sf_slots(at_sf_of(p), p, pt ? pt->v : NULL, NULL, slots);
    if (at_sf_geometry(&at_sf_of(p)->s, slots, g, why, sizeof why))
        memset(g, 0, sizeof *g); /* valid() refuses such points */
}

double at_sf_real_value(const at_problem *p, const at_spec_arg *a)
{
    const at_spec *s = &at_sf_of(p)->s;
    double v = a->real_value;
    if (a->real_scalar >= 0)
        memcpy(&v, &p->v[s->dims + a->real_scalar], sizeof v);
    return v;
}

/* A scalar's bytes in its type: an integer's (v), or a real's (r). */
static void put_scalar(at_args *a, const at_type *t, int64_t v, double r,
                       int real)
{
    if (t->fp == 4) {
        float x = real ? (float)r : (float)v;
        at_args_put(a, &x, 4);
    } else if (t->fp == 8) {
        double x = real ? r : (double)v;
        at_args_put(a, &x, 8);
    } else {
        uint64_t u = (uint64_t)v; /* little-endian: the low bytes */
        at_args_put(a, &u, (size_t)t->bytes);
    }
}

static void put_arg_value(const at_problem *p, const at_spec_arg *x,
                          const int64_t *slots, at_args *a)
{
    if (x->real)
        put_scalar(a, x->type, 0, at_sf_real_value(p, x), 1);
    else
        put_scalar(a, x->type, at_sf_eval(x->value, slots), 0, 0);
}

void at_sf_user_args(const at_problem *p, const at_point *pt,
                     const uint64_t *ptr, uint64_t ws, int pass, at_args *a)
{
    (void)ws;
    (void)pass;
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    a->n = 0;
    at_sf_slots(at_sf_of(p), p, pt ? pt->v : NULL, NULL, slots);
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *x = &s->args[i];
        if (x->kind == AT_ARG_SCALAR)
            put_arg_value(p, x, slots, a);
        else if (x->kind == AT_ARG_BUFFER)
            at_args_put(a, &ptr[i], sizeof ptr[i]);
    }
}

void at_sf_args(const at_problem *p, const at_point *pt, uint64_t in,
             uint64_t out, uint64_t ws, int pass, at_args *a)
{
    const at_spec *s = &at_sf_of(p)->s;
    uint64_t ptr[AT_SPEC_MAX_ARGS] = {0};
    at_sf_layout lay;
    (void)ws;
    (void)pass;
    a->n = 0;
    if (at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        return; /* finish() refused such problems */
    for (int i = 0; i < s->n_args; ++i)
        ptr[i] = at_sf_is_output(&s->args[i]) ? out + lay.out_off[i]
                                           : in + lay.in_off[i];
    at_sf_user_args(p, pt, ptr, 0, 0, a);
}

/* The point the reference and the init kernel are compiled at: the first
 * the constraint keeps for l, with verify.params' values. */
static void ref_point(const at_problem *p, const at_limits *l, at_point *pt)
{
    const at_spec *s = &at_sf_of(p)->s;
    memset(pt, 0, sizeof *pt);
    at_space_first(p->family, p, l, pt);
    for (int i = 0; i < s->n_params; ++i)
        if (s->ref_given[i])
            pt->v[i] = s->ref_params[i];
}

/* A program of another source file at point pt: the variant's #defines,
 * then that source under its own name. */
static char *other_source(const at_problem *p, const at_point *pt,
                          const char *file, const char *text, at_err *e)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    at_sf_slots(at_sf_of(p), p, pt->v, NULL, slots);
    size_t defs = at_spec_defines(s, pt->v, slots, NULL, 0);
    size_t cap = defs + strlen(file) + strlen(text) + 32;
    char *src = malloc(cap);
    if (!src) {
        at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory", s->file);
        return NULL;
    }
    size_t k = at_spec_defines(s, pt->v, slots, src, cap);
    k += (size_t)snprintf(src + k, cap - k, "#line 1 \"");
    for (const char *c = file; *c && k + 2 < cap; ++c)
        src[k++] = *c == '"' || *c == '\\' || (unsigned char)*c < ' ' ? '_'
                                                                      : *c;
    snprintf(src + k, cap - k, "\"\n%s", text);
    return src;
}

char *at_sf_ref_source(const at_problem *p, const at_limits *l, at_point *pt,
                    char *kernel, size_t n, at_err *e)
{
    const at_spec *s = &at_sf_of(p)->s;
    memset(pt, 0, sizeof *pt);
    if (s->has_reference_point) {
        memcpy(pt->v, s->reference_point, sizeof(int) * (size_t)s->n_params);
        snprintf(kernel, n, "at_reference");
        char why[256];
        if (!p->family->ops.valid(p, pt, l, why, sizeof why)) {
            at_fail(e, AUTOTUNE_EINVALID, "%s: verify.reference_point is "
                    "not a valid point of this problem: %s", s->file, why);
            return NULL;
        }
        return at_expand(p, pt, "at_reference", NULL, e);
    }
    /* The tuned kernel may be in the same source and need its
     * parameters. */
    ref_point(p, l, pt);
    snprintf(kernel, n, "%s", s->reference_kernel);
    return s->ref_source
               ? other_source(p, pt, s->ref_source_file, s->ref_source, e)
               : at_expand(p, pt, "at_reference", NULL, e);
}

/* A launch from block and grid expressions over the sizes, scalars and
 * the point's parameters (those the spec lets them read). */
static void launch_of(const at_problem *p, const at_point *pt,
                      at_expr *const *block, at_expr *const *grid,
                      at_launch *g)
{
    int64_t slots[SF_MAX_SLOTS];
    at_sf_slots(at_sf_of(p), p, pt ? pt->v : NULL, NULL, slots);
    memset(g, 0, sizeof *g);
    g->passes = 1;
    for (int d = 0; d < 3; ++d) {
        g->block[d] = (unsigned)at_sf_eval(block[d], slots);
        g->grid[d] = (unsigned)at_sf_eval(grid[d], slots);
    }
}

void at_sf_ref_launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    const at_spec *s = &at_sf_of(p)->s;
    if (s->has_reference_point)
        at_sf_launch(p, pt, g);
    else
        launch_of(p, pt, s->ref_block, s->ref_grid, g);
}

void at_sf_ref_bounds(const at_problem *p, const void *ref, void *bound)
{
    const spec_family *sf = at_sf_of(p);
    const at_spec *s = &sf->s;
    at_sf_layout lay;
    if (!sf->cmp_fp || at_sf_layout_make(sf, p, &lay, NULL))
        return;
    const unsigned char *r = ref;
    unsigned char *b = bound;
    const size_t w = (size_t)sf->cmp_fp;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (!at_sf_is_output(a))
            continue;
        size_t off = lay.out_off[i];
        size_t stop = off + (lay.bytes[i] + w - 1) / w * w;
        for (size_t x = off; x < stop; x += w) {
            double v, u = -1; /* exact */
            if (!a->exact) {
                if (w == 4) {
                    float f;
                    memcpy(&f, r + x, 4);
                    v = f;
                } else {
                    memcpy(&v, r + x, 8);
                }
                u = a->atol + a->rtol * fabs(v);
            }
            if (w == 4) {
                float f = (float)u;
                memcpy(b + x, &f, 4);
            } else {
                memcpy(b + x, &u, 8);
            }
        }
    }
}

char *at_sf_init_source(const at_problem *p, const at_limits *l, at_point *pt,
                     char *kernel, size_t n, at_err *e)
{
    const at_spec *s = &at_sf_of(p)->s;
    ref_point(p, l, pt);
    snprintf(kernel, n, "%s", s->init_kernel);
    return s->init_source
               ? other_source(p, pt, s->init_source_file, s->init_source, e)
               : at_expand(p, pt, "at_init", NULL, e);
}

void at_sf_init_launch(const at_problem *p, const at_point *pt, at_launch *g)
{
    const at_spec *s = &at_sf_of(p)->s;
    launch_of(p, pt, s->init_block, s->init_grid, g);
}

void at_sf_init_args(const at_problem *p, uint64_t in, at_args *a)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    at_sf_layout lay;
    a->n = 0;
    if (at_sf_layout_make(at_sf_of(p), p, &lay, NULL))
        return;
    at_sf_slots(at_sf_of(p), p, NULL, NULL, slots);
    for (int i = 0; i < s->n_init_args; ++i) {
        const at_init_arg *x = &s->init_args[i];
        const at_spec_arg *arg = x->arg >= 0 ? &s->args[x->arg] : NULL;
        if (arg && arg->kind != AT_ARG_SCALAR) {
            uint64_t ptr = in + lay.in_off[x->arg];
            at_args_put(a, &ptr, sizeof ptr);
        } else if (arg) {
            put_arg_value(p, arg, slots, a);
        } else {
            put_scalar(a, x->type, at_sf_eval(x->value, slots), 0, 0);
        }
    }
}
