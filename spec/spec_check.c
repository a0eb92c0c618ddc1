/* What a spec's family cannot do, found when it is made, and its
 * problem's fields (spec/spec.h). */
#include <inttypes.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "spec/spec_family_impl.h"
#include "spec/spec_internal.h"

/* The spec's NVRTC options as one string (each a word). */
static int options(spec_family *sf, at_err *e)
{
    const at_spec *s = &sf->s;
    size_t k = 0;
    for (int i = 0; i < s->n_options; ++i) {
        const char *o = s->options[i];
        if (!*o || strpbrk(o, " \t\n"))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.options: '%s': "
                           "one option a list item, without spaces",
                           s->file, o);
        /* Headers from elsewhere: the cache key would not cover them. */
        if (!strncmp(o, "-I", 2) || !strncmp(o, "--include-path", 14) ||
            !strncmp(o, "-include", 8) || !strncmp(o, "--pre-include", 13))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.options: '%s': "
                           "include paths and headers are not supported "
                           "(the cache key would not cover the headers)",
                           s->file, o);
        if (!strcmp(o, "-D") || !strcmp(o, "--define-macro") ||
            !strcmp(o, "--define-macro="))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.options: '%s': "
                           "give -DNAME or -DNAME=VALUE as one option",
                           s->file, o);
        /* A -D is a #define of the variant's source, as emitted. */
        if (at_spec_option_is_define(o))
            continue;
        k += (size_t)snprintf(sf->options + k, sizeof sf->options - k,
                              "%s%s", k ? " " : "", o);
        if (k >= sizeof sf->options)
            return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.options: more "
                           "than %zu bytes", s->file,
                           sizeof sf->options - 1);
    }
    return 0;
}

/* Whether name stands in src as an identifier of its own. */
static int mentions(const char *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *c = src; (c = strstr(c, name)); c += n) {
        int before = c > src && (isalnum((unsigned char)c[-1]) || c[-1] == '_');
        int after = isalnum((unsigned char)c[n]) || c[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Decimal digits of v (with its sign), for the values of parameters. */
static size_t digits(int64_t v)
{
    char b[24];
    return (size_t)snprintf(b, sizeof b, "%lld", (long long)v);
}

/* What the project keeps in fixed-size text must fit: point names (128
 * bytes), parameter text (256), a variant's #defines (1024), the
 * problem's key text (512). Said here rather than cut later. */
static int fits(const at_spec *s, at_err *e)
{
    size_t name = 0, params = 0, defs = 40 + 2 * strlen(s->kernel), key = 0;
    for (int i = 0; i < s->n_params; ++i) {
        size_t w = 0;
        for (int k = 0; k < s->params[i].n; ++k)
            w = digits(s->params[i].values[k]) > w
                    ? digits(s->params[i].values[k]) : w;
        size_t n = strlen(s->params[i].name);
        name += n + w + 1;
        params += n + w + 2;
        defs += n + w + 10 + 48; /* a loop_unroll_factor's constexpr */
    }
    for (int i = 0; i < s->n_defines; ++i)
        defs += strlen(s->defines[i].name) + 32 +
                (s->defines[i].real ? strlen(s->defines[i].real) : 0);
    for (int i = 0; i < s->n_options; ++i)
        defs += strlen(s->options[i]) + 12;
    for (int i = 0; i < s->n_scalars; ++i)
        key += strlen(s->scalar_names[i]) + 22;
    key += 3 * 30;
    if (name > 127 || params > 255 || defs > 1023 || key > 511)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: the %s too long: a point's "
                       "name needs %zu of 127 characters, its #defines %zu "
                       "of 1023, the problem's key %zu of 511", s->file,
                       key > 511 ? "scalars' names are" : "parameters' and "
                       "defines' names are", name, defs, key);
    return 0;
}

/* Expressions that must not read device limits (only restrictions may)
 * or, for counts and metrics, parameters. */
static int reads_ok(const at_spec *s, at_err *e)
{
    const int lim = s->n_params + 3 + s->n_scalars, end = lim + 3;
    const at_expr *launch[] = {s->block[0], s->block[1], s->block[2],
                               s->grid[0], s->grid[1], s->grid[2], s->smem,
                               s->ref_block[0], s->ref_block[1],
                               s->ref_block[2], s->ref_grid[0],
                               s->ref_grid[1], s->ref_grid[2], s->bytes,
                               s->flops};
    const size_t n = sizeof launch / sizeof *launch;
    for (size_t i = 0; i < n; ++i)
        if (launch[i] &&
            (at_spec_reads(launch[i], lim, end) ||
             (i >= n - 2 && at_spec_reads(launch[i], 0, s->n_params))))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: '%s': the launch and "
                           "metrics cannot read a device limit (a "
                           "restriction can), metrics no parameter",
                           s->file, at_expr_text(launch[i]));
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        const at_expr *x = a->count ? a->count : a->value;
        if (x && (at_spec_reads(x, lim, end) ||
                  (a->count && at_spec_reads(x, 0, s->n_params))))
            return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: '%s': %s",
                           s->file, a->line, a->name, at_expr_text(x),
                           a->count ? "a count reads sizes and scalars only"
                                    : "a value cannot read a device limit");
    }
    return 0;
}

/* Scalars of the types a launch can pass, and tolerances the comparison
 * can apply (one float width for every output with one). */
static int types_ok(spec_family *sf, at_err *e)
{
    const at_spec *s = &sf->s;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        const at_type *t = a->type;
        if (a->kind == AT_ARG_SCALAR && (t->bytes != t->lane || t->fp == 2))
            return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: a scalar of "
                           "type %s is not supported (f32, f64 or an "
                           "integer type: i8, u8, i16, u16, i32, u32, i64, "
                           "u64)", s->file, a->line, a->name, t->name);
        if (!at_sf_is_output(a) || a->exact)
            continue;
        if (a->compare == AT_COMPARE_SUM) { /* summed on the host */
            if (t->fp != 4 && t->fp != 8)
                return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: compare: "
                               "sum needs f32 or f64 lanes (%s here)",
                               s->file, a->line, a->name, t->name);
            continue;
        }
        if ((t->fp != 4 && t->fp != 8) || (sf->cmp_fp && sf->cmp_fp != t->fp))
            return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: atol/rtol need "
                           "f32 or f64 lanes, one of them for every output "
                           "with a tolerance (%s here); make it exact",
                           s->file, a->line, a->name, t->name);
        sf->cmp_fp = t->fp;
    }
    return 0;
}

/* A parameter neither the source nor the launch reads makes every one
 * of its values the same kernel: the spec's mistake, said by name. */
static int params_used(const at_spec *s, at_err *e)
{
    const at_expr *launch[] = {s->block[0], s->block[1], s->block[2],
                               s->grid[0],  s->grid[1],  s->grid[2],
                               s->smem};
    for (int i = 0; i < s->n_params; ++i) {
        int used = mentions(s->source, s->params[i].name);
        for (size_t k = 0; !used && k < sizeof launch / sizeof *launch; ++k)
            used = launch[k] && at_spec_reads(launch[k], i, i + 1);
        for (int k = 0; !used && k < s->n_args; ++k)
            used = s->args[k].value &&
                   at_spec_reads(s->args[k].value, i, i + 1);
        if (!used)
            return at_fail(e, AUTOTUNE_EINVALID, "%s: tune_params: '%s' is "
                           "named neither in %s nor in the launch or the "
                           "arguments: each of its values would be the same "
                           "kernel", s->file, s->params[i].name,
                           s->source_file ? s->source_file
                                          : "the kernel's source");
    }
    return 0;
}

int at_sf_check(spec_family *sf, at_err *e)
{
    const at_spec *s = &sf->s;
    int rc = options(sf, e);
    if (rc)
        return rc;
    const char *named[] = {s->kernel, s->reference_kernel, s->init_kernel};
    const char *key[] = {"kernel.name", "verify.reference_kernel",
                         "init_kernel.name"};
    const char *src[] = {s->source, s->ref_source, s->init_source};
    const char *file[] = {s->source_file, s->ref_source_file,
                          s->init_source_file};
    for (int i = 0; i < 3; ++i)
        if (named[i] && !mentions(src[i] ? src[i] : s->source, named[i]))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: %s: the source %s "
                           "never names '%s'", s->file, key[i],
                           file[i] ? file[i] : s->source_file, named[i]);
    /* The kernel's name is the family's, which caches and records keep
     * in 32 bytes. */
    if (strlen(s->kernel) > 31)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.name: '%s' is %zu "
                       "characters; a family's name has at most 31", s->file,
                       s->kernel, strlen(s->kernel));
    if ((rc = fits(s, e)) || (rc = reads_ok(s, e)) ||
        (rc = params_used(s, e)))
        return rc;
    return types_ok(sf, e);
}

void at_sf_fill_fields(spec_family *sf)
{
    static const char *const size_names[] = {"size_x", "size_y", "size_z"};
    const at_spec *s = &sf->s;
    int k = 0;
    for (int d = 0; d < s->dims; ++d) {
        snprintf(sf->field_help[k], sizeof sf->field_help[k], "the "
                 "problem's %s (default %" PRId64 ")", size_names[d],
                 s->size[d]);
        sf->fields[k] = (at_field){size_names[d], sf->field_help[k],
                                   s->size[d], 1, (int64_t)1 << 40, NULL, 0};
        ++k;
    }
    for (int i = 0; i < s->n_scalars; ++i) {
        char def[40];
        if (s->scalar_real[i])
            at_real_text(s->scalars[i], def, sizeof def);
        else
            snprintf(def, sizeof def, "%" PRId64, s->scalars[i]);
        snprintf(sf->field_help[k], sizeof sf->field_help[k], "the spec's "
                 "%s scalar %s (default %s)", s->scalar_real[i] ? "real"
                 : "integer", s->scalar_names[i], def);
        sf->fields[k] = (at_field){s->scalar_names[i], sf->field_help[k],
                                   s->scalars[i], INT64_MIN, INT64_MAX, NULL,
                                   0, s->scalar_real[i]};
        ++k;
    }
    sf->f.fields = sf->fields;
    sf->f.n_fields = k;
}
