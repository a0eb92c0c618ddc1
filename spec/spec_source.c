/* The source of a spec's variant (spec/spec.h): its #defines (the point,
 * kernel.defines at the problem's sizes, the -D options), then the
 * kernel's source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec.h"

/* "#define NAME VALUE" of a -DNAME[=VALUE] option, or 0 if o is not one. */
static size_t option_define(const char *o, char *buf, size_t n)
{
    const char *d = !strncmp(o, "-D", 2) ? o + 2
                    : !strncmp(o, "--define-macro=", 15) ? o + 15 : NULL;
    if (!d || !*d)
        return 0;
    size_t k = strcspn(d, "=");
    return (size_t)snprintf(buf, n, "#define %.*s %s\n", (int)k, d,
                            d[k] ? d + k + 1 : "1");
}

int at_spec_option_is_define(const char *o)
{
    char b[8];
    return option_define(o, b, sizeof b) > 0;
}

/* A parameter as Kernel Tuner makes it: loop_unroll_factor_* as a
 * constexpr int (#pragma unroll does not expand macros), 0 meaning no
 * factor (the pragma then says nothing, its warning silenced). */
static size_t param_define(const char *name, int v, char *buf, size_t n)
{
    if (strncmp(name, "loop_unroll_factor", 18) != 0)
        return (size_t)snprintf(buf, n, "#define %s %d\n", name, v);
    return (size_t)snprintf(buf, n, "%sconstexpr int %s = %d;\n",
                            v ? "" : "#pragma nv_diag_suppress 20168\n",
                            name, v);
}

/* Appends text to buf (n bytes), counting in *k what it needed. */
static void cat(char *buf, size_t n, size_t *k, const char *text)
{
    size_t t = strlen(text);
    if (*k < n)
        snprintf(buf + *k, n - *k, "%s", text);
    *k += t;
}

size_t at_spec_defines(const at_spec *s, const int *pt, const int64_t *slots,
                       char *buf, size_t n)
{
    size_t k = 0;
    char one[1200];
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < s->n_params; ++i) {
        param_define(s->params[i].name, pt[i], one, sizeof one);
        cat(buf, n, &k, one);
    }
    for (int i = 0; i < s->n_defines; ++i) {
        const at_spec_define *d = &s->defines[i];
        int64_t v = 0;
        if (d->real)
            snprintf(one, sizeof one, "#define %s %s\n", d->name, d->real);
        else if (at_expr_eval(d->value, slots, &v, NULL) == 0)
            snprintf(one, sizeof one, "#define %s %lld\n", d->name,
                     (long long)v);
        else /* the problem's finish refuses such sizes */
            snprintf(one, sizeof one, "#error \"%s cannot be evaluated\"\n",
                     d->name);
        cat(buf, n, &k, one);
    }
    for (int i = 0; i < s->n_options; ++i)
        if (option_define(s->options[i], one, sizeof one))
            cat(buf, n, &k, one);
    return k;
}

char *at_spec_variant_source(const at_spec *s, const int *pt,
                             const int64_t *size, at_err *e)
{
    int64_t slots[AT_MAX_AXES + 3 + AT_SPEC_MAX_SCALARS + 3];
    at_limits none = {0};
    at_spec_slots(s, pt, size, &none, slots);
    size_t defs = at_spec_defines(s, pt, slots, NULL, 0);
    size_t cap = defs + strlen(s->source) + strlen(s->source_file) + 16;
    char *src = malloc(cap);
    if (!src) {
        at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory", s->file);
        return NULL;
    }
    size_t len = at_spec_defines(s, pt, slots, src, cap);
    /* The file's name in #line: quotes and backslashes would end it. */
    len += (size_t)snprintf(src + len, cap - len, "#line 1 \"");
    for (const char *c = s->source_file; *c && len + 2 < cap; ++c)
        src[len++] = *c == '"' || *c == '\\' || (unsigned char)*c < ' '
                         ? '_' : *c;
    snprintf(src + len, cap - len, "\"\n%s", s->source);
    return src;
}

