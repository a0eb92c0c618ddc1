#include "space.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "family.h"

int at_limits_for_arch(int sm, at_limits *l)
{
    const at_arch *a = at_arch_of(sm);
    if (!a)
        return 0;
    l->sm = sm;
    l->max_threads = a->block_threads;
    l->max_smem = a->block_smem;
    return 1;
}

size_t at_space_size(const at_family *f)
{
    size_t n = 1;
    for (int a = 0; a < f->n_axes; ++a)
        n *= (size_t)f->axes[a].n;
    return n;
}

/* The reasons points were refused, counted by their label (a reason is
 * "LABEL: what"; one without ": " is its own label), with one example. */
typedef struct {
    struct {
        char label[64], example[192];
        size_t count;
    } c[32];
    int n;
} refusals;

static void tally(refusals *r, char *why, size_t size)
{
    if (!why[0])
        snprintf(why, size, "the family's constraint");
    const char *colon = strstr(why, ": ");
    int len = colon ? (int)(colon - why) : (int)strlen(why);
    if (len > 63)
        len = 63;
    int i = 0;
    while (i < r->n && (strncmp(r->c[i].label, why, (size_t)len) != 0 ||
                        r->c[i].label[len] != '\0'))
        ++i;
    if (i == r->n && r->n < (int)(sizeof r->c / sizeof *r->c)) {
        snprintf(r->c[i].label, sizeof r->c[i].label, "%.*s", len, why);
        snprintf(r->c[i].example, sizeof r->c[i].example, "%s", why);
        r->c[r->n++].count = 0;
    }
    if (i < r->n)
        ++r->c[i].count;
}

/* Where a walk keeps its points: a list that grows (the constraints keep
 * a few thousand of millions), or one slot. */
typedef struct kept_list {
    at_point *v;
    size_t cap;
    int grows;
} kept_list;

static int keep(kept_list *out, size_t kept, const at_point *pt)
{
    if (kept == out->cap) {
        if (!out->grows)
            return -1;
        size_t cap = out->cap ? 2 * out->cap : 1024;
        at_point *v = realloc(out->v, cap * sizeof *v);
        if (!v)
            return -1;
        out->v = v;
        out->cap = cap;
    }
    out->v[kept] = *pt;
    return 0;
}

/* The points the constraint keeps, in enumeration order, into out (if
 * given): at most max of them (the walk stops there); how many, or
 * (size_t)-1 if the list could not grow. With refused, every point is
 * tried and the reasons for the others are counted there; without, the
 * values the family's value_ok refuses are skipped, with every point
 * that has one. */
static size_t walk(const at_family *f, const at_problem *p,
                   const at_limits *l, kept_list *out, size_t max,
                   refusals *refused)
{
    /* The values of each axis the walk takes, as indices. */
    int vals[AT_MAX_AXES][AT_MAX_VALUES], nv[AT_MAX_AXES];
    for (int a = 0; a < f->n_axes; ++a) {
        nv[a] = 0;
        for (int i = 0; i < f->axes[a].n; ++i)
            if (refused || f->ops.value_ok(p, a, f->axes[a].values[i]))
                vals[a][nv[a]++] = i;
        if (nv[a] == 0)
            return 0;
    }
    size_t kept = 0;
    int idx[AT_MAX_AXES] = {0};
    for (;;) {
        at_point pt;
        char why[192];
        why[0] = '\0'; /* a byte, not the buffer: a million points walk */
        memset(&pt, 0, sizeof pt);
        for (int a = 0; a < f->n_axes; ++a)
            pt.v[a] = f->axes[a].values[vals[a][idx[a]]];
        if (f->ops.valid(p, &pt, l, refused ? why : NULL,
                         refused ? sizeof why : 0)) {
            if (out && keep(out, kept, &pt))
                return (size_t)-1;
            if (++kept == max)
                return kept;
        } else if (refused) {
            tally(refused, why, sizeof why);
        }
        /* Odometer: the last axis turns fastest. */
        int a = f->n_axes - 1;
        for (; a >= 0; --a) {
            if (++idx[a] < nv[a])
                break;
            idx[a] = 0;
        }
        if (a < 0)
            return kept;
    }
}

/* An empty space's error: which check removed the most points, with one
 * of its reasons, so the spec's or the problem's mistake is named. */
static int empty_space(const at_family *f, const at_problem *p,
                       const at_limits *l, size_t total, at_err *e)
{
    refusals r = {.n = 0};
    walk(f, p, l, NULL, total, &r);
    int most = 0;
    for (int i = 1; i < r.n; ++i)
        if (r.c[i].count > r.c[most].count)
            most = i;
    return at_fail(e, AUTOTUNE_ENO_VARIANT, "%s: no point of the %zu passes "
                   "the checks for sm_%d; %s removed the most (%zu), e.g. %s",
                   f->name, total, l->sm, r.n ? r.c[most].label : "?",
                   r.n ? r.c[most].count : (size_t)0,
                   r.n ? r.c[most].example : "?");
}

int at_space_points(const at_family *f, const at_problem *p,
                    const at_limits *l, at_point **pts, size_t *n, at_err *e)
{
    size_t total = at_space_size(f);
    kept_list out = {.v = NULL, .cap = 0, .grows = 1};
    *n = walk(f, p, l, &out, total, NULL);
    if (*n == (size_t)-1) {
        free(out.v);
        *pts = NULL;
        *n = 0;
        return at_fail(e, AUTOTUNE_ENOMEM, "the points kept of a space of "
                       "%zu", total);
    }
    if (*n == 0) {
        free(out.v);
        *pts = NULL;
        return empty_space(f, p, l, total, e);
    }
    *pts = out.v;
    return 0;
}

int at_space_first(const at_family *f, const at_problem *p,
                   const at_limits *l, at_point *pt)
{
    at_point first;
    kept_list one = {.v = &first, .cap = 1, .grows = 0};
    if (walk(f, p, l, &one, 1, NULL) != 1)
        return 0;
    *pt = first;
    return 1;
}

void at_point_params(const at_family *f, const at_point *pt, char *buf,
                     size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int a = 0; a < f->n_axes && used < n; ++a)
        used += (size_t)snprintf(buf + used, n - used, "%s%s=%d",
                                 a ? " " : "", f->axes[a].name, pt->v[a]);
}

int at_axis_index(const at_family *f, const char *name)
{
    for (int a = 0; a < f->n_axes; ++a)
        if (strcmp(f->axes[a].name, name) == 0)
            return a;
    return -1;
}

int at_point_parse(const at_family *f, const char *s, at_point *pt,
                   at_err *e)
{
    int seen[AT_MAX_AXES] = {0};
    memset(pt, 0, sizeof *pt);
    const char *q = s;
    while (*q) {
        while (*q == ' ')
            ++q;
        if (!*q)
            break;
        char name[64];
        int value, len;
        if (sscanf(q, "%63[a-z_]=%d%n", name, &value, &len) != 2)
            return at_fail(e, AUTOTUNE_EINVALID,
                           "bad point parameters '%s' at '%s'", s, q);
        int a = at_axis_index(f, name);
        if (a < 0)
            return at_fail(e, AUTOTUNE_EINVALID,
                           "point parameters '%s': no axis '%s' in %s", s,
                           name, f->name);
        pt->v[a] = value;
        seen[a] = 1;
        q += len;
    }
    for (int a = 0; a < f->n_axes; ++a)
        if (!seen[a])
            return at_fail(e, AUTOTUNE_EINVALID,
                           "point parameters '%s': axis '%s' missing", s,
                           f->axes[a].name);
    return 0;
}
