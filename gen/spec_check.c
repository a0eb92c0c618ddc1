/* What a spec's family cannot do, found when it is made, and its
 * problem's fields (spec_family.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "gen/spec_family_impl.h"


/* Whether x reads a slot in [lo, hi). */
static int reads(const at_expr *x, int lo, int hi)
{
    int used[SF_MAX_SLOTS];
    size_t k = at_expr_slots(x, used, SF_MAX_SLOTS);
    for (size_t i = 0; i < k && i < SF_MAX_SLOTS; ++i)
        if (used[i] >= lo && used[i] < hi)
            return 1;
    return 0;
}

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
        k += (size_t)snprintf(sf->options + k, sizeof sf->options - k,
                              "%s%s", k ? " " : "", o);
        if (k >= sizeof sf->options)
            return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.options: more "
                           "than %zu bytes", s->file,
                           sizeof sf->options - 1);
    }
    return 0;
}

/* What the family cannot do with a spec that loaded. */
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

int sf_check(spec_family *sf, at_err *e)
{
    const at_spec *s = &sf->s;
    int rc = options(sf, e);
    if (rc)
        return rc;
    /* The kernel's name is the family's, which caches and records keep
     * in 32 bytes. */
    const char *named[] = {s->kernel, s->reference_kernel};
    for (int i = 0; i < 2; ++i)
        if (named[i] && !mentions(s->source, named[i]))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: %s: the source %s "
                           "never names '%s'", s->file,
                           i ? "verify.reference_kernel" : "kernel.name",
                           s->source_file, named[i]);
    if (strlen(s->kernel) > 31)
        return at_fail(e, AUTOTUNE_EINVALID, "%s: kernel.name: '%s' is %zu "
                       "characters; a family's name has at most 31", s->file,
                       s->kernel, strlen(s->kernel));
    const int lim = s->n_params + 3 + s->n_scalars, end = lim + 3;
    const at_expr *launch[] = {s->block[0], s->block[1], s->block[2],
                               s->grid[0], s->grid[1], s->grid[2], s->smem,
                               s->bytes, s->flops};
    for (size_t i = 0; i < sizeof launch / sizeof *launch; ++i)
        if (launch[i] && reads(launch[i], lim, end))
            return at_fail(e, AUTOTUNE_EINVALID, "%s: '%s': the launch "
                           "and metrics cannot read a device limit (a "
                           "restriction can)", s->file,
                           at_expr_text(launch[i]));
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        const at_expr *x = a->count ? a->count : a->value;
        if (reads(x, lim, end) || (a->count && reads(x, 0, s->n_params)))
            return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: '%s': %s",
                           s->file, a->line, a->name, at_expr_text(x),
                           a->count ? "a count reads sizes and scalars only"
                                    : "a value cannot read a device limit");
        if (a->kind == AT_ARG_SCALAR && a->type->fp == 2)
            return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: a scalar of "
                           "type %s is not supported (f32, f64 or an "
                           "integer type)", s->file, a->line, a->name,
                           a->type->name);
        if (!sf_is_output(a) || a->exact)
            continue;
        int fp = a->type->fp;
        if ((fp != 4 && fp != 8) || (sf->cmp_fp && sf->cmp_fp != fp))
            return at_fail(e, AUTOTUNE_EINVALID, "%s:%d: %s: atol/rtol need "
                           "f32 or f64 lanes, one of them for every output "
                           "with a tolerance (%s here); make it exact",
                           s->file, a->line, a->name, a->type->name);
        sf->cmp_fp = fp;
    }
    return 0;
}

void sf_fill_fields(spec_family *sf)
{
    static const char *const size_names[] = {"size_x", "size_y", "size_z"};
    const at_spec *s = &sf->s;
    int k = 0;
    for (int d = 0; d < s->dims; ++d)
        sf->fields[k++] = (at_field){size_names[d], "the problem's size",
                                     s->size[d], 1, (int64_t)1 << 40,
                                     NULL, 0};
    for (int i = 0; i < s->n_scalars; ++i)
        sf->fields[k++] = (at_field){s->scalar_names[i], "a scalar of the "
                                     "spec", s->scalars[i], INT64_MIN,
                                     INT64_MAX, NULL, 0};
    sf->f.fields = sf->fields;
    sf->f.n_fields = k;
}

