#include "problem.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"

int at_problem_begin(at_problem *p, const char *family, const char *type,
                     at_err *e)
{
    memset(p, 0, sizeof *p);
    p->family = at_family_find(family);
    if (!p->family) {
        char known[256];
        at_family_list(known, sizeof known);
        return at_fail(e, AUTOTUNE_ENOT_FOUND,
                       "unknown family '%s' (known: %s)",
                       family ? family : "(null)", known);
    }
    p->type = at_type_find(type);
    const char *known = p->family->types ? p->family->types : at_type_list();
    if (!type)
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "%s needs a type (one of: %s)",
                       p->family->name, known);
    if (!p->type || !at_family_takes(p->family, p->type))
        return at_fail(e, AUTOTUNE_ENOT_FOUND,
                       "unknown type '%s' for %s (known: %s)", type,
                       p->family->name, known);
    for (int i = 0; i < p->family->n_fields; ++i)
        p->v[i] = p->family->fields[i].def;
    return 0;
}

/* A choice's index, or -1. */
static int64_t choice_of(const at_field *f, const char *value)
{
    for (int64_t k = 0; f->choices[k]; ++k)
        if (strcmp(f->choices[k], value) == 0)
            return k;
    return -1;
}

int at_field_parse(const at_field *f, const char *value, int64_t *v,
                   at_err *e)
{
    if (f->choices) {
        int64_t k = choice_of(f, value);
        if (k < 0) {
            char known[256];
            size_t used = 0;
            known[0] = '\0';
            for (int i = 0; f->choices[i] && used < sizeof known; ++i)
                used += (size_t)snprintf(known + used, sizeof known - used,
                                         "%s%s", i ? ", " : "",
                                         f->choices[i]);
            return at_fail(e, AUTOTUNE_ERANGE, "needs one of %s, got '%s'",
                           known, value);
        }
        *v = k;
        return 0;
    }
    char *end;
    errno = 0;
    if (f->real) {
        double d = strtod(value, &end);
        if (!*value || *value == ' ' || *end || errno == ERANGE ||
            !isfinite(d))
            return at_fail(e, AUTOTUNE_ERANGE, "needs a finite number, got "
                           "'%s'", value);
        memcpy(v, &d, sizeof d);
        return 0;
    }
    long long x = strtoll(value, &end, 10);
    /* Digits only (a '-' first): strtoll would skip spaces and a '+'. */
    int digits = (value[0] >= '0' && value[0] <= '9') ||
                 (value[0] == '-' && value[1] >= '0' && value[1] <= '9');
    if (!digits || *end || errno == ERANGE || x < f->min || x > f->max)
        return at_fail(e, AUTOTUNE_ERANGE, "needs a whole number from "
                       "%" PRId64 " to %" PRId64 ", got '%s'", f->min,
                       f->max, value);
    *v = x;
    return 0;
}

int at_problem_set(at_problem *p, const char *field, const char *value,
                   at_err *e)
{
    const at_family *fam = p->family;
    int i = at_field_index(fam, field);
    if (i < 0)
        return at_fail(e, AUTOTUNE_ENOT_FOUND, "%s has no problem field "
                       "'%s'", fam->name, field);
    int rc = at_field_parse(&fam->fields[i], value, &p->v[i], e);
    if (rc)
        at_err_prefix(e, "%s ", field);
    return rc;
}

int at_problem_set_text(at_problem *p, const char *text, at_err *e)
{
    char buf[1024];
    if (strlen(text) >= sizeof buf)
        return at_fail(e, AUTOTUNE_EINVALID, "problem text too long (%zu "
                       "bytes)", strlen(text));
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok)
            return at_fail(e, AUTOTUNE_EINVALID, "problem text: '%s' is not "
                           "name=value", tok);
        *eq = '\0';
        int rc = at_problem_set(p, tok, eq + 1, e);
        if (rc)
            return rc;
    }
    return 0;
}

int at_problem_finish(at_problem *p, at_err *e)
{
    return p->family->ops.finish(p, e);
}

int at_problem_make(at_problem *p, const char *family, const char *type,
                    const char *text, at_err *e)
{
    int rc = at_problem_begin(p, family, type, e);
    if (!rc)
        rc = at_problem_set_text(p, text, e);
    return rc ? rc : at_problem_finish(p, e);
}

const char *at_real_text(int64_t bits, char *buf, size_t n)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    /* The shortest text that reads back as the same double. */
    for (int digits = 1; digits <= 17; ++digits) {
        snprintf(buf, n, "%.*g", digits, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return buf;
}

const char *at_problem_value_text(const at_problem *p, int i, char *buf,
                                  size_t n)
{
    const at_field *f = &p->family->fields[i];
    if (f->choices)
        snprintf(buf, n, "%s", f->choices[p->v[i]]);
    else if (f->real)
        at_real_text(p->v[i], buf, n);
    else
        snprintf(buf, n, "%" PRId64, p->v[i]);
    return buf;
}

void at_problem_key_text(const at_problem *p, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->family->n_fields && used < n; ++i) {
        char value[64];
        used += (size_t)snprintf(buf + used, n - used, "%s%s=%s",
                                 i ? " " : "", p->family->fields[i].name,
                                 at_problem_value_text(p, i, value,
                                                       sizeof value));
    }
}

void at_problem_kind(const at_problem *p, char *buf, size_t n)
{
    if (p->type == at_type_none())
        snprintf(buf, n, "%s", p->family->name);
    else
        snprintf(buf, n, "%s_%s", p->family->name, p->type->name);
}

void at_problem_name_kind(const at_problem *p, char *buf, size_t n)
{
    const at_family *f = p->family;
    size_t used = (size_t)snprintf(buf, n, "%s", f->name);
    int first = 1;
    for (int i = 0; i < f->n_fields && used < n; ++i) {
        const at_field *fd = &f->fields[i];
        if (!fd->choices)
            continue;
        if (first || p->v[i] != fd->def)
            used += (size_t)snprintf(buf + used, n - used, "_%s",
                                     fd->flag ? fd->name
                                              : fd->choices[p->v[i]]);
        first = 0;
    }
    if (p->type != at_type_none() && used < n)
        snprintf(buf + used, n - used, "_%s", p->type->name);
}

void at_problem_str(const at_problem *p, char *buf, size_t n)
{
    char body[512];
    p->family->ops.describe(p, body, sizeof body);
    if (p->type == at_type_none())
        snprintf(buf, n, "%s %s", p->family->name, body);
    else
        snprintf(buf, n, "%s %s %s", p->family->name, p->type->name, body);
}

int at_problem_equal(const at_problem *a, const at_problem *b)
{
    return a->family == b->family && a->type == b->type &&
           memcmp(a->v, b->v, sizeof a->v) == 0;
}

int64_t at_blocks_touched(int64_t start, int64_t pitch, int64_t len,
                          int64_t n)
{
    int64_t touched = 0, last = -1;
    for (int64_t r = 0; r < n; ++r) {
        int64_t a = (start + r * pitch) / 64;
        const int64_t b = (start + r * pitch + len - 1) / 64;
        if (a <= last) /* a block the run before touched too */
            a = last + 1;
        if (b >= a)
            touched += b - a + 1;
        if (b > last)
            last = b;
    }
    return touched;
}
