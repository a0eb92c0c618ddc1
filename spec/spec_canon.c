/* A spec's meaning as text (spec_family_impl.h), the cache key's part of
 * it: what it says, not how it is spelled (expressions re-printed as C),
 * and a hash of every file it names, so an edited spec, source or data
 * file is a miss, never a stale hit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "spec/spec_family_impl.h"

static const char *slot_name(void *ctx, int i)
{
    return at_spec_slot_name(ctx, i);
}

char *at_sf_expr_c(const at_spec *s, const at_expr *x)
{
    size_t n = at_expr_c(x, slot_name, (void *)s, NULL, 0) + 1;
    char *buf = malloc(n);
    if (buf)
        at_expr_c(x, slot_name, (void *)s, buf, n);
    return buf;
}

static const char *const dir_names[] = {"in", "out", "inout"};
static const char *const init_names[] = {"random", "zeros", "ones", "iota",
                                         "normal", "uniform", "integers",
                                         "file", "copy"};
static const char *const kind_names[] = {"buffer", "scalar", "constant"};

/* Appends to a growing string; 0, or -1 on no memory. */
typedef struct grow {
    char *s;
    size_t len, cap;
} grow;

static int add(grow *g, const char *fmt, const char *a, const char *b)
{
    int n = snprintf(NULL, 0, fmt, a, b);
    if (n < 0)
        return -1;
    if (g->len + (size_t)n + 1 > g->cap) {
        size_t cap = (g->cap + (size_t)n + 1) * 2;
        char *t = realloc(g->s, cap);
        if (!t)
            return -1;
        g->s = t;
        g->cap = cap;
    }
    snprintf(g->s + g->len, g->cap - g->len, fmt, a, b);
    g->len += (size_t)n;
    return 0;
}

static int add_expr(grow *g, const at_spec *s, const char *label,
                    const at_expr *x)
{
    if (!x)
        return 0;
    char *c = at_sf_expr_c(s, x);
    int bad = !c || add(g, "%s %s\n", label, c);
    free(c);
    return bad ? -1 : 0;
}

/* A file's bytes, by their hash and size. */
static int add_file(grow *g, const char *label, const char *name,
                    const void *bytes, size_t n)
{
    char v[64];
    snprintf(v, sizeof v, " %zu %016llx\n", n,
             (unsigned long long)at_hash(AT_HASH_INIT, bytes, n));
    return add(g, "%s %s", label, name) | add(g, "%s%s", v, "");
}

static int add_arg(grow *g, const at_spec *s, const at_spec_arg *a)
{
    char v[96];
    int bad = add(g, "arg %s %s", a->name, kind_names[a->kind]);
    bad |= add(g, " %s %s", a->type->name, dir_names[a->dir]);
    snprintf(v, sizeof v, " %d %.17g %.17g %d", a->exact, a->atol, a->rtol,
             (int)a->compare);
    bad |= add(g, " %s%s", init_names[a->init], v);
    snprintf(v, sizeof v, " %.17g %.17g", a->init_a, a->init_b);
    bad |= add(g, "%s%s", v, "");
    if (a->real) {
        snprintf(v, sizeof v, " real %.17g %d\n", a->real_value,
                 a->real_scalar);
        bad |= add(g, "%s%s", v, "");
    }
    bad |= add_expr(g, s, "", a->count ? a->count : a->value);
    bad |= add_expr(g, s, "mismatches", a->max_mismatches);
    if (a->init == AT_INIT_FILE)
        bad |= add_file(g, "data", a->file, a->data, a->data_bytes);
    if (a->init == AT_INIT_COPY)
        bad |= add(g, "copy %s%s\n", s->args[a->copy_of].name, "");
    return bad;
}

/* verify and init_kernel: the kernels, their files, points and launch. */
static int add_checking(grow *g, const at_spec *s)
{
    char v[64];
    snprintf(v, sizeof v, "%d %d", s->verify, s->has_reference_point);
    int bad = add(g, "verify %s %s", v,
                  s->reference_kernel ? s->reference_kernel : "-");
    for (int i = 0; s->has_reference_point && i < s->n_params; ++i) {
        snprintf(v, sizeof v, " %d", s->reference_point[i]);
        bad |= add(g, "%s%s", v, "");
    }
    bad |= add(g, "\n%s%s", "", "");
    for (int i = 0; i < s->n_params; ++i)
        if (s->ref_given[i]) {
            snprintf(v, sizeof v, " %d\n", s->ref_params[i]);
            bad |= add(g, "ref_param %s%s", s->params[i].name, v);
        }
    if (s->ref_source)
        bad |= add_file(g, "ref_source", s->ref_source_file, s->ref_source,
                        strlen(s->ref_source));
    if (!s->init_kernel)
        return bad;
    bad |= add(g, "init %s%s\n", s->init_kernel, "");
    if (s->init_source)
        bad |= add_file(g, "init_source", s->init_source_file,
                        s->init_source, strlen(s->init_source));
    for (int i = 0; i < s->n_init_args; ++i) {
        const at_init_arg *a = &s->init_args[i];
        bad |= add(g, "init_arg %s %s", a->arg >= 0 ? s->args[a->arg].name
                                                    : "-", a->type->name);
        bad |= a->value ? add_expr(g, s, "", a->value) : add(g, "\n%s%s",
                                                             "", "");
    }
    for (int d = 0; d < 3; ++d) {
        bad |= add_expr(g, s, "init_block", s->init_block[d]);
        bad |= add_expr(g, s, "init_grid", s->init_grid[d]);
    }
    return bad;
}

char *at_sf_canonical(const at_spec *s)
{
    grow g = {0};
    char v[64];
    int bad = add(&g, "kernel %s%s\n", s->kernel, "");
    for (int i = 0; i < s->n_options; ++i)
        bad |= add(&g, "option %s%s\n", s->options[i], "");
    for (int i = 0; i < s->n_defines; ++i) {
        if (s->defines[i].real)
            bad |= add(&g, "define %s %s\n", s->defines[i].name,
                       s->defines[i].real);
        else
            bad |= add_expr(&g, s, s->defines[i].name, s->defines[i].value);
    }
    snprintf(v, sizeof v, "%d", s->dims);
    bad |= add(&g, "dims %s%s\n", v, "");
    bad |= add(&g, "type %s%s\n", s->type ? s->type->name : "none", "");
    for (int i = 0; i < s->n_scalars; ++i)
        bad |= add(&g, "scalar %s%s\n", s->scalar_names[i],
                   s->scalar_real[i] ? " real" : "");
    for (int i = 0; i < s->n_params; ++i) {
        bad |= add(&g, "param %s%s", s->params[i].name, "");
        for (int k = 0; k < s->params[i].n; ++k) {
            snprintf(v, sizeof v, " %d", s->params[i].values[k]);
            bad |= add(&g, "%s%s", v, "");
        }
        bad |= add(&g, "\n%s%s", "", "");
    }
    for (int i = 0; i < s->n_restrictions; ++i)
        bad |= add_expr(&g, s, "restrict", s->restrictions[i]);
    for (int d = 0; d < 3; ++d) {
        bad |= add_expr(&g, s, "block", s->block[d]);
        bad |= add_expr(&g, s, "grid", s->grid[d]);
        bad |= add_expr(&g, s, "ref_block", s->ref_block[d]);
        bad |= add_expr(&g, s, "ref_grid", s->ref_grid[d]);
    }
    bad |= add_expr(&g, s, "smem", s->smem);
    bad |= add_expr(&g, s, "bytes", s->bytes);
    bad |= add_expr(&g, s, "flops", s->flops);
    for (int i = 0; i < s->n_args; ++i)
        bad |= add_arg(&g, s, &s->args[i]);
    bad |= add_checking(&g, s);
    if (bad) {
        free(g.s);
        return NULL;
    }
    return g.s;
}
