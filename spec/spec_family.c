/* A spec as a family (spec/spec.h): the table, the problem's fields, the
 * constraint and the launch. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "spec/spec_family_impl.h"
#include "spec/spec_space.h"

int at_sf_is_input(const at_spec_arg *a)
{
    return a->kind == AT_ARG_CONSTANT ||
           (a->kind == AT_ARG_BUFFER && a->dir != AT_DIR_OUT);
}

int at_sf_is_output(const at_spec_arg *a)
{
    return a->kind == AT_ARG_BUFFER && a->dir != AT_DIR_IN;
}

int64_t at_sf_eval(const at_expr *x, const int64_t *slots)
{
    int64_t v = 0;
    return at_expr_eval(x, slots, &v, NULL) ? 0 : v;
}

void at_sf_slots(const spec_family *sf, const at_problem *p, const int *pt,
              const at_limits *l, int64_t *slots)
{
    const at_spec *s = &sf->s;
    int64_t size[3] = {1, 1, 1};
    for (int d = 0; d < s->dims; ++d)
        size[d] = p->v[d];
    at_limits none = {0};
    at_spec_slots(s, pt, size, l ? l : &none, slots);
    for (int k = 0; k < s->n_scalars; ++k)
        slots[s->n_params + 3 + k] = p->v[s->dims + k];
}

static int valid(const at_problem *p, const at_point *pt, const at_limits *l,
                 char *why, size_t n)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    char buf[256];
    if (!why) {
        why = buf;
        n = sizeof buf;
    }
    at_sf_slots(at_sf_of(p), p, pt->v, l, slots);
    for (int i = 0; i < s->n_restrictions; ++i) {
        int64_t v = 0;
        at_err e = {0};
        if (at_expr_eval(s->restrictions[i], slots, &v, &e)) {
            snprintf(why, n, "restriction %d: %s", i + 1, e.msg);
            return 0;
        }
        if (!v) {
            snprintf(why, n, "restriction %d: '%s' is false", i + 1,
                     at_expr_text(s->restrictions[i]));
            return 0;
        }
    }
    at_launch g;
    if (at_sf_geometry(s, slots, &g, why, n))
        return 0;
    int64_t threads = (int64_t)g.block[0] * g.block[1] * g.block[2];
    if (threads > l->max_threads) {
        snprintf(why, n, "threads a block: %" PRId64 ", more than %d",
                 threads, l->max_threads);
        return 0;
    }
    if (g.smem > (unsigned)l->max_smem) {
        snprintf(why, n, "shared memory: %u bytes, more than sm_%d's %d",
                 g.smem, l->sm, l->max_smem);
        return 0;
    }
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        int64_t v;
        at_err e = {0};
        if (a->kind != AT_ARG_SCALAR || a->real)
            continue;
        if (at_expr_eval(a->value, slots, &v, &e)) {
            snprintf(why, n, "argument %s: %s", a->name, e.msg);
            return 0;
        }
        if (!at_sf_scalar_fits(a->type, v)) {
            snprintf(why, n, "argument %s: %" PRId64 " does not fit %s",
                     a->name, v, a->type->name);
            return 0;
        }
    }
    return 1;
}

static void point_name(const at_family *f, const at_point *pt, char *buf,
                       size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < f->n_axes && k < n; ++i)
        k += (size_t)snprintf(buf + k, n - k, "%s%s%d", i ? "_" : "",
                              f->axes[i].name, pt->v[i]);
}

static void default_point(const at_problem *p, int sm, at_point *pt)
{
    /* The first point the constraint keeps for sm (the first values if
     * none: the caller then says it is refused). */
    at_limits l;
    memset(pt, 0, sizeof *pt);
    for (int i = 0; i < p->family->n_axes; ++i)
        pt->v[i] = p->family->axes[i].values[0];
    if (at_limits_for_arch(sm, &l))
        at_space_first(p->family, p, &l, pt);
}

static unsigned paths(const at_problem *p, const at_point *pt)
{
    (void)p;
    (void)pt;
    return 0;
}

static void paths_text(unsigned paths_, char *buf, size_t n)
{
    (void)paths_;
    snprintf(buf, n, "none (a user's kernel)");
}

static void defines(const at_problem *p, const at_point *pt, unsigned paths_,
                    char *buf, size_t n)
{
    const at_spec *s = &at_sf_of(p)->s;
    int64_t slots[SF_MAX_SLOTS];
    (void)paths_;
    at_sf_slots(at_sf_of(p), p, pt->v, NULL, slots);
    size_t k = at_spec_defines(s, pt->v, slots, buf, n);
    if (k < n)
        snprintf(buf + k, n - k, "#define %s AT_KERNEL\n", s->kernel);
}

int at_sf_scalar_fits(const at_type *t, int64_t v)
{
    if (t->fp || t->lane == 8)
        return 1; /* floats round, as C's conversion would */
    int bits = 8 * t->lane;
    return t->is_unsigned ? v >= 0 && v < (INT64_C(1) << bits)
                          : v >= -(INT64_C(1) << (bits - 1)) &&
                                v < (INT64_C(1) << (bits - 1));
}

static int user_arg_count(const at_problem *p)
{
    return at_sf_of(p)->s.n_args;
}

static double tolerance(const at_problem *p, const at_point *pt)
{
    (void)p;
    (void)pt;
    return 1.0; /* the bounds are atol + rtol * |ref| already */
}

static const char *verify_kernel(const at_problem *p)
{
    int fp = at_sf_of(p)->cmp_fp;
    return fp == 8 ? "at_compare_f64" : fp == 4 ? "at_compare_f32"
                                                : "at_compare_bits";
}

/* The spec families alive, so at_spec_of knows its own from any other
 * family without asking the family what it is. */
static pthread_mutex_t made_mu = PTHREAD_MUTEX_INITIALIZER;
static spec_family *made;

static void made_add(spec_family *sf)
{
    pthread_mutex_lock(&made_mu);
    sf->next = made;
    made = sf;
    pthread_mutex_unlock(&made_mu);
}

static void made_remove(const spec_family *sf)
{
    pthread_mutex_lock(&made_mu);
    for (spec_family **at = &made; *at; at = &(*at)->next)
        if (*at == sf) {
            *at = sf->next;
            break;
        }
    pthread_mutex_unlock(&made_mu);
}

int at_spec_family_make(at_spec *s, const at_family **out, at_err *e)
{
    spec_family *sf = calloc(1, sizeof *sf);
    if (!sf)
        return at_fail(e, AUTOTUNE_ENOMEM, "a spec's family");
    sf->s = *s;
    memset(s, 0, sizeof *s);
    int rc = at_sf_check(sf, e);
    if (!rc && !(sf->meaning = at_sf_canonical(&sf->s)))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "a spec's family");
    if (rc) {
        at_spec_family_free(&sf->f);
        return rc;
    }
    const at_spec *sp = &sf->s;
    /* No element type unless the spec names one (problem.type). */
    snprintf(sf->types, sizeof sf->types, "%s",
             sp->type ? sp->type->name : at_type_none()->name);
    at_family *f = &sf->f;
    at_sf_fill_fields(sf);
    f->name = sp->kernel;
    f->abi = 1;
    f->template_path = sp->source_file;
    f->template_src = sp->source;
    f->types = sf->types;
    f->ops.finish = at_sf_finish;
    f->ops.describe = at_sf_describe;
    f->ops.file_stem = at_sf_file_stem;
    f->axes = sp->params;
    f->n_axes = sp->n_params;
    f->derived = "";
    f->ops.valid = valid;
    f->ops.point_name = point_name;
    f->ops.default_point = default_point;
    f->ops.paths = paths;
    f->ops.paths_text = paths_text;
    f->ops.defines = defines;
    f->ops.launch = at_sf_launch;
    f->ops.args = at_sf_args;
    f->ops.input = at_sf_input;
    f->ops.where = at_sf_where;
    f->ops.verify_kernel = verify_kernel;
    f->ops.tolerance = sf->cmp_fp ? tolerance : NULL;
    if (sp->verify) {
        f->ops.ref_source = at_sf_ref_source;
        f->ops.ref_launch = at_sf_ref_launch;
        f->ops.ref_bounds = at_sf_ref_bounds;
        f->ops.check_segments = at_sf_check_segments;
    }
    if (sp->init_kernel) {
        f->ops.init_source = at_sf_init_source;
        f->ops.init_launch = at_sf_init_launch;
        f->ops.init_args = at_sf_init_args;
    }
    f->ops.copies = at_sf_copies;
    f->ops.user_arg_count = user_arg_count;
    f->ops.user_args = at_sf_user_args;
    f->ops.bytes_moved = at_sf_bytes_moved;
    f->ops.copy_bytes = at_sf_copy_bytes;
    f->ops.flops = sp->flops ? at_sf_flops : NULL;
    f->program_points = 1;
    f->meaning = sf->meaning;
    f->nvrtc_options = sf->options;
    f->caps = AT_CAP_TOOLKIT_HEADERS;
    for (int i = 0; i < sp->n_args; ++i)
        if (sp->args[i].kind == AT_ARG_CONSTANT)
            f->caps |= AT_CAP_MODULE_STATE;
    f->origin.path = sf->origin = sp->dir ? realpath(sp->file, NULL) : NULL;
    f->origin.dir = sp->dir;
    f->ops.emit_launcher = at_sf_emit_launcher;
    f->ops.usage = at_sf_usage;
    f->ops.scope = at_family_scope_none;
    at_family_fill(f);
    made_add(sf);
    *out = f;
    return 0;
}

void at_spec_family_free(const at_family *f)
{
    spec_family *sf = (spec_family *)f;
    if (!sf)
        return;
    made_remove(sf);
    at_spec_free(&sf->s);
    free(sf->meaning);
    free(sf->origin);
    free(sf->text);
    free(sf);
}

const at_spec *at_spec_of(const at_family *f)
{
    const spec_family *found = NULL;
    pthread_mutex_lock(&made_mu);
    for (const spec_family *sf = made; sf && !found; sf = sf->next)
        if (&sf->f == f)
            found = sf;
    pthread_mutex_unlock(&made_mu);
    return found ? &found->s : NULL;
}

/* Makes the family of s (loaded from text), keeps text as its
 * definition, and registers it; the same spec again gives the family
 * registered first. */
static int make_registered(at_spec *s, const char *text,
                           const at_family **out, at_err *e)
{
    int rc = at_spec_family_make(s, out, e);
    if (rc)
        return rc;
    spec_family *sf = (spec_family *)*out;
    if (!(sf->text = strdup(text))) {
        at_spec_family_free(*out);
        return at_fail(e, AUTOTUNE_ENOMEM, "a spec's family");
    }
    sf->f.origin.text = sf->text;
    sf->f.origin.source = sf->s.source;
    const at_family *old = at_family_find((*out)->name);
    if (old && at_spec_of(old) &&
        at_family_hash(old) == at_family_hash(*out)) {
        at_spec_family_free(*out);
        *out = old;
        return 0;
    }
    if ((rc = at_family_register(*out, e))) {
        at_spec_family_free(*out);
        *out = NULL;
    }
    return rc;
}

int at_spec_family_load(const char *path, const at_family **out, at_err *e)
{
    char *text = NULL;
    size_t len;
    at_spec s;
    int rc = at_read_file(path, &text, &len, e);
    if (!rc)
        rc = at_spec_load_file(path, &s, e);
    if (!rc)
        rc = make_registered(&s, text, out, e);
    free(text);
    return rc;
}

int at_spec_family_load_mem(const char *text, const char *file,
                            const char *dir, const char *source,
                            const at_family **out, at_err *e)
{
    at_spec s;
    int rc = at_spec_load_mem(text, file, dir, source, &s, e);
    return rc ? rc : make_registered(&s, text, out, e);
}
