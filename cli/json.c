#include "json.h"

#include <string.h>

#include <math.h>
#include <stdio.h>

#include "gen/family.h"

json_t *at_json_object(const char *schema)
{
    json_t *o = json_object();
    if (o && schema)
        at_json_str(o, "schema", schema);
    return o;
}

void at_json_put(json_t *o, const char *k, json_t *v)
{
    if (o && v)
        json_object_set_new(o, k, v);
}

/* jansson takes UTF-8 only: a text that is not (a path, a GPU name from
 * a cache file) keeps its ASCII and shows each other byte as '?'. */
static json_t *string_of(const char *v)
{
    json_t *s = json_string(v);
    if (s)
        return s;
    char buf[2048];
    size_t i = 0;
    for (; v[i] && i + 1 < sizeof buf; ++i)
        buf[i] = (unsigned char)v[i] < 0x80 ? v[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

void at_json_str(json_t *o, const char *k, const char *v)
{
    at_json_put(o, k, v ? string_of(v) : json_null());
}

void at_json_int(json_t *o, const char *k, int64_t v)
{
    at_json_put(o, k, json_integer((json_int_t)v));
}

void at_json_bool(json_t *o, const char *k, int v)
{
    at_json_put(o, k, json_boolean(v));
}

void at_json_real(json_t *o, const char *k, double v)
{
    if (isfinite(v)) {
        at_json_put(o, k, json_real(v));
        return;
    }
    char note[128];
    snprintf(note, sizeof note, "%s_note", k);
    at_json_put(o, k, json_null());
    at_json_str(o, note, isnan(v) ? "not a number (nothing measured)"
                                  : "infinite (a time of zero)");
}

int at_json_print(json_t *o)
{
    int rc = -1;
    if (o)
        rc = json_dumpf(o, stdout,
                        JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                            JSON_REAL_PRECISION(17));
    if (rc == 0)
        rc = fputc('\n', stdout) == EOF || fflush(stdout) ? -1 : 0;
    json_decref(o);
    return rc;
}

json_t *at_json_problem(json_t *o, const at_problem *p)
{
    char prob[256];
    at_problem_str(p, prob, sizeof prob);
    at_json_str(o, "problem", prob);
    at_json_str(o, "family", p->family->name);
    at_json_str(o, "type", p->type->name);
    json_t *fields = at_json_object(NULL);
    for (int i = 0; i < p->family->n_fields; ++i) {
        const at_field *f = &p->family->fields[i];
        double d;
        memcpy(&d, &p->v[i], sizeof d); /* a real field's value */
        if (f->choices)
            at_json_str(fields, f->name, f->choices[p->v[i]]);
        else if (f->real)
            at_json_real(fields, f->name, d);
        else
            at_json_int(fields, f->name, p->v[i]);
    }
    at_json_put(o, "fields", fields);
    return o;
}
