/* A C description of a family as a spec's text (spec/spec.h): JSON, every
 * string escaped, so nothing a caller writes can change the structure;
 * what the fields mean is the loader's to check, with its messages. */
#include "spec/spec.h"

#include "base/expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
    char *s;
    size_t len, cap;
    int bad;
} out;

static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (o->bad || n < 0)
        return;
    if (o->len + (size_t)n + 1 > o->cap) {
        size_t cap = (o->cap + (size_t)n + 1) * 2;
        char *t = realloc(o->s, cap);
        if (!t) {
            o->bad = 1;
            return;
        }
        o->s = t;
        o->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

/* A JSON string (NULL: null). */
static void str(out *o, const char *s)
{
    if (!s) {
        put(o, "null");
        return;
    }
    put(o, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; ++c) {
        if (*c == '"' || *c == '\\')
            put(o, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f)
            put(o, "\\u%04x", *c);
        else
            put(o, "%c", *c);
    }
    put(o, "\"");
}

/* "key": [e0, e1, e2] for the first n non-NULL expressions. */
static void list3(out *o, const char *key, const char *const *x)
{
    int n = 0;
    while (n < 3 && x[n])
        ++n;
    if (!n)
        return;
    put(o, ", ");
    str(o, key);
    put(o, ": [");
    for (int d = 0; d < n; ++d) {
        put(o, d ? ", " : "");
        str(o, x[d]);
    }
    put(o, "]");
}

static void launch(out *o, const autotune_family_desc *d)
{
    static const char *const div[] = {"grid_div_x", "grid_div_y",
                                      "grid_div_z"};
    put(o, ", \"launch\": {\"shared_memory\": ");
    str(o, d->shared_memory ? d->shared_memory : "0");
    list3(o, "block", d->block);
    list3(o, "grid", d->grid);
    for (int k = 0; k < 3; ++k) {
        if (!d->grid_div[k])
            continue;
        /* "block_size_x, tile_size_x": the list's expressions. */
        put(o, ", ");
        str(o, div[k]);
        put(o, ": [");
        const char *c = d->grid_div[k];
        for (int i = 0; *c; ++i) {
            size_t n = strcspn(c, ",");
            char item[AT_EXPR_MAX_TEXT + 1];
            snprintf(item, sizeof item, "%.*s", (int)n, c);
            put(o, i ? ", " : "");
            str(o, item);
            c += n + (c[n] == ',');
        }
        put(o, "]");
    }
    put(o, "}");
}

static void arg(out *o, const autotune_arg *a)
{
    put(o, "{\"name\": ");
    str(o, a->name);
    put(o, ", \"type\": ");
    str(o, a->type);
    put(o, a->count ? ", \"count\": " : ", \"value\": ");
    str(o, a->count ? a->count : a->value);
    if (a->dir) {
        put(o, ", \"dir\": ");
        str(o, a->dir);
    }
    if (a->init) {
        put(o, ", \"init\": ");
        str(o, a->init);
    }
    if (a->constant)
        put(o, ", \"constant\": true");
    if (a->exact)
        put(o, ", \"exact\": true");
    if (a->atol > 0)
        put(o, ", \"atol\": %.17g", a->atol);
    if (a->rtol > 0)
        put(o, ", \"rtol\": %.17g", a->rtol);
    put(o, "}");
}

char *at_spec_text_of(const autotune_family_desc *d, at_err *e)
{
    out o = {0};
    if (!d || !d->kernel || d->dims < 1 || d->dims > 3 ||
        d->n_params < 0 || d->n_restrictions < 0 || d->n_args < 0) {
        at_fail(e, AUTOTUNE_EINVALID, "autotune_family_define: a kernel "
                "name and 1 to 3 dims are needed");
        return NULL;
    }
    put(&o, "{\"autotune_spec\": 1, \"kernel\": {\"name\": ");
    str(&o, d->kernel);
    put(&o, ", \"source\": \"(autotune_family_desc)\"}, \"problem\": "
        "{\"size\": [");
    for (int k = 0; k < d->dims; ++k)
        put(&o, "%s%lld", k ? ", " : "", d->size[k]);
    put(&o, "]}, \"tune_params\": {");
    for (int i = 0; i < d->n_params; ++i) {
        put(&o, i ? ", " : "");
        str(&o, d->params[i].name);
        put(&o, ": [");
        for (int k = 0; k < d->params[i].n; ++k)
            put(&o, "%s%d", k ? ", " : "", d->params[i].values[k]);
        put(&o, "]");
    }
    put(&o, "}, \"restrictions\": [");
    for (int i = 0; i < d->n_restrictions; ++i) {
        put(&o, i ? ", " : "");
        str(&o, d->restrictions[i]);
    }
    put(&o, "]");
    launch(&o, d);
    put(&o, ", \"arguments\": [");
    for (int i = 0; i < d->n_args; ++i) {
        put(&o, i ? ", " : "");
        arg(&o, &d->args[i]);
    }
    put(&o, "], \"verify\": ");
    if (d->reference_kernel) {
        put(&o, "{\"reference_kernel\": ");
        str(&o, d->reference_kernel);
        list3(&o, "block", d->ref_block);
        list3(&o, "grid", d->ref_grid);
        put(&o, "}");
    } else {
        put(&o, "\"none\"");
    }
    if (d->bytes || d->flops) {
        put(&o, ", \"metrics\": {");
        if (d->bytes) {
            put(&o, "\"bytes\": ");
            str(&o, d->bytes);
        }
        if (d->flops) {
            put(&o, d->bytes ? ", \"flops\": " : "\"flops\": ");
            str(&o, d->flops);
        }
        put(&o, "}");
    }
    put(&o, "}\n");
    if (o.bad) {
        free(o.s);
        at_fail(e, AUTOTUNE_ENOMEM, "autotune_family_define");
        return NULL;
    }
    return o.s;
}
