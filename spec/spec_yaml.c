/* YAML reading for spec files (spec/spec_yaml.h). */
#include "spec/spec_yaml.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int at_yaml_load(at_yaml *y, const char *text, const char *file, at_err *e)
{
    yaml_parser_t parser;
    memset(y, 0, sizeof *y);
    y->file = file;
    y->e = e;
    if (!yaml_parser_initialize(&parser))
        return at_fail(e, AUTOTUNE_ENOMEM, "%s: yaml_parser_initialize "
                       "failed", file);
    int rc = at_yaml_bounded(text, strlen(text), file, e);
    if (rc) {
        yaml_parser_delete(&parser);
        return rc;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text,
                                 strlen(text));
    int ok = yaml_parser_load(&parser, &y->doc);
    if (!ok) {
        at_fail(e, AUTOTUNE_EINVALID, "%s:%zu: malformed YAML: %s%s%s", file,
                parser.problem_mark.line + 1,
                parser.problem ? parser.problem : "unknown error",
                parser.context ? " " : "",
                parser.context ? parser.context : "");
        yaml_parser_delete(&parser);
        return AUTOTUNE_EINVALID;
    }
    yaml_parser_delete(&parser);
    if (!yaml_document_get_root_node(&y->doc)) {
        yaml_document_delete(&y->doc);
        return at_fail(e, AUTOTUNE_EINVALID, "%s: empty document", file);
    }
    if ((rc = at_yaml_unique_keys(y)) != 0)
        yaml_document_delete(&y->doc);
    return rc;
}

void at_yaml_free(at_yaml *y)
{
    yaml_document_delete(&y->doc);
}

yaml_node_t *at_yaml_root(at_yaml *y)
{
    return yaml_document_get_root_node(&y->doc);
}

int at_yaml_line(const yaml_node_t *n)
{
    return n ? (int)n->start_mark.line + 1 : 0;
}

int at_yaml_fail(at_yaml *y, const yaml_node_t *n, const char *key,
                 const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (n)
        return at_fail(y->e, AUTOTUNE_EINVALID, "%s:%d: %s: %s", y->file,
                       at_yaml_line(n), key, what);
    return at_fail(y->e, AUTOTUNE_EINVALID, "%s: %s: %s", y->file, key,
                   what);
}

int at_yaml_is(const yaml_node_t *n, yaml_node_type_t t)
{
    return n && n->type == t;
}

int at_yaml_count(const yaml_node_t *n)
{
    if (at_yaml_is(n, YAML_MAPPING_NODE))
        return (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    if (at_yaml_is(n, YAML_SEQUENCE_NODE))
        return (int)(n->data.sequence.items.top -
                     n->data.sequence.items.start);
    return 0;
}

yaml_node_t *at_yaml_key(at_yaml *y, yaml_node_t *m, int i)
{
    if (!at_yaml_is(m, YAML_MAPPING_NODE) || i >= at_yaml_count(m))
        return NULL;
    return yaml_document_get_node(&y->doc, m->data.mapping.pairs.start[i].key);
}

static yaml_node_t *value_at(at_yaml *y, yaml_node_t *m, int i)
{
    return yaml_document_get_node(&y->doc,
                                  m->data.mapping.pairs.start[i].value);
}

yaml_node_t *at_yaml_item(at_yaml *y, yaml_node_t *n, int i)
{
    if (at_yaml_is(n, YAML_MAPPING_NODE))
        return i < at_yaml_count(n) ? value_at(y, n, i) : NULL;
    if (!at_yaml_is(n, YAML_SEQUENCE_NODE) || i >= at_yaml_count(n))
        return NULL;
    return yaml_document_get_node(&y->doc, n->data.sequence.items.start[i]);
}

static int key_is(const yaml_node_t *k, const char *key)
{
    return at_yaml_is(k, YAML_SCALAR_NODE) &&
           k->data.scalar.length == strlen(key) &&
           !memcmp(k->data.scalar.value, key, k->data.scalar.length);
}

yaml_node_t *at_yaml_get(at_yaml *y, yaml_node_t *m, const char *key)
{
    for (int i = 0; i < at_yaml_count(m) && at_yaml_is(m, YAML_MAPPING_NODE);
         ++i)
        if (key_is(at_yaml_key(y, m, i), key))
            return value_at(y, m, i);
    return NULL;
}

int at_yaml_known_keys(at_yaml *y, yaml_node_t *m, const char *where,
                       const char *const *known)
{
    for (int i = 0; i < at_yaml_count(m); ++i) {
        yaml_node_t *k = at_yaml_key(y, m, i);
        int found = 0;
        for (const char *const *w = known; *w && !found; ++w)
            found = key_is(k, *w);
        if (!found)
            return at_yaml_fail(
                y, k, where, "unknown key '%.*s'",
                at_yaml_is(k, YAML_SCALAR_NODE)
                    ? (int)(k->data.scalar.length > 64
                                ? 64 : k->data.scalar.length) : 0,
                at_yaml_is(k, YAML_SCALAR_NODE)
                    ? (const char *)k->data.scalar.value : "");
    }
    return 0;
}

int at_yaml_string(at_yaml *y, yaml_node_t *n, const char *key, char **out)
{
    *out = NULL;
    if (!at_yaml_is(n, YAML_SCALAR_NODE))
        return at_yaml_fail(y, n, key, "expected a scalar (text or a "
                            "number)%s", n ? "" : ", found nothing");
    const char *s = (const char *)n->data.scalar.value;
    if (memchr(s, '\0', n->data.scalar.length))
        return at_yaml_fail(y, n, key, "a NUL byte in the text");
    if (!(*out = strndup(s, n->data.scalar.length)))
        return at_fail(y->e, AUTOTUNE_ENOMEM, "%s: out of memory", y->file);
    return 0;
}

/* "FILE:LINE: KEY: expected WHAT, got 'TEXT'", the text cut at 40. */
static int expected(at_yaml *y, yaml_node_t *n, const char *key,
                    const char *what)
{
    return at_yaml_fail(y, n, key, "expected %s, got '%.*s'", what,
                        (int)(n->data.scalar.length > 40
                                  ? 40 : n->data.scalar.length),
                        (const char *)n->data.scalar.value);
}

int at_yaml_int(at_yaml *y, yaml_node_t *n, const char *key, int64_t min,
                int64_t max, int64_t *out)
{
    char *s;
    int rc = at_yaml_string(y, n, key, &s);
    if (rc)
        return rc;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    int bad = !*s || *end || errno;
    free(s);
    if (bad || v < min || v > max) {
        char what[80];
        snprintf(what, sizeof what, "an integer from %" PRId64 " to %" PRId64,
                 min, max);
        return expected(y, n, key, what);
    }
    *out = v;
    return 0;
}

/* n's text as one whole finite number (strtod): 0 with *v, and *range
 * if strtod said it is out of range; 1 if it is not one (nothing said);
 * else at_yaml_string's error. */
static int finite_number(at_yaml *y, yaml_node_t *n, const char *key,
                         double *v, int *range)
{
    char *s;
    int rc = at_yaml_string(y, n, key, &s);
    if (rc)
        return rc;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    *range = errno != 0;
    int bad = !*s || *end || !isfinite(*v);
    free(s);
    return bad;
}

int at_yaml_double(at_yaml *y, yaml_node_t *n, const char *key,
                   double *out)
{
    double v;
    int range, rc = finite_number(y, n, key, &v, &range);
    if (rc < 0)
        return rc;
    if (rc || v < 0)
        return expected(y, n, key, "a number of 0 or more");
    *out = v;
    return 0;
}

int at_yaml_real(at_yaml *y, yaml_node_t *n, const char *key, double *out)
{
    double v;
    int range, rc = finite_number(y, n, key, &v, &range);
    if (rc < 0)
        return rc;
    if (rc || range)
        return expected(y, n, key, "a finite number");
    *out = v;
    return 0;
}

int at_yaml_choice(at_yaml *y, yaml_node_t *n, const char *key,
                   const char *const *list, int *out)
{
    char *t;
    int rc = at_yaml_string(y, n, key, &t);
    if (rc)
        return rc;
    *out = -1;
    for (int i = 0; list[i] && *out < 0; ++i)
        if (!strcmp(t, list[i]))
            *out = i;
    free(t);
    if (*out >= 0)
        return 0;
    char all[256] = "";
    for (int i = 0; list[i]; ++i)
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
                 i ? ", " : "", list[i]);
    return at_yaml_fail(y, n, key, "expected one of %s", all);
}

int at_yaml_choice_key(at_yaml *y, yaml_node_t *m, const char *key,
                       const char *const *list, int def, int *out)
{
    yaml_node_t *n = at_yaml_get(y, m, key);
    *out = def;
    return n ? at_yaml_choice(y, n, key, list, out) : 0;
}
