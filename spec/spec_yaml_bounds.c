/* What a spec's YAML may hold before the loader builds its tree
 * (spec/spec_yaml.h): bounded nesting, no aliases, no key twice in one
 * mapping. libyaml's loader is quadratic in nesting depth, so the depth
 * is checked first, from the parser's events, stopping at the first one
 * too deep: a 400 KB file of '[' ends in microseconds, not minutes. */
#include "spec/spec_yaml.h"

#include <stdlib.h>
#include <string.h>

int at_yaml_bounded(const char *text, size_t len, const char *file,
                    at_err *e)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return at_fail(e, AUTOTUNE_ENOMEM, "%s: yaml_parser_initialize "
                       "failed", file);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    int depth = 0, rc = 0, done = 0;
    while (!rc && !done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev))
            break; /* malformed: the loader says where and why */
        size_t line = ev.start_mark.line + 1;
        switch (ev.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > AT_YAML_MAX_DEPTH)
                rc = at_fail(e, AUTOTUNE_EINVALID, "%s:%zu: nested more "
                             "than %d deep (a spec needs a few levels)",
                             file, line, AT_YAML_MAX_DEPTH);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            --depth;
            break;
        case YAML_ALIAS_EVENT:
            rc = at_fail(e, AUTOTUNE_EINVALID, "%s:%zu: an alias (*name): "
                         "a spec writes each value where it is used",
                         file, line);
            break;
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return rc;
}

typedef struct {
    const yaml_node_t *key;
} key_ref;

/* Orders scalar keys by their bytes, then by line (the first one first). */
static int by_text(const void *a, const void *b)
{
    const yaml_node_t *x = ((const key_ref *)a)->key;
    const yaml_node_t *y = ((const key_ref *)b)->key;
    size_t n = x->data.scalar.length < y->data.scalar.length
                   ? x->data.scalar.length : y->data.scalar.length;
    int c = memcmp(x->data.scalar.value, y->data.scalar.value, n);
    if (!c && x->data.scalar.length != y->data.scalar.length)
        c = x->data.scalar.length < y->data.scalar.length ? -1 : 1;
    if (!c)
        c = x->start_mark.line < y->start_mark.line ? -1
            : x->start_mark.line > y->start_mark.line;
    return c;
}

/* One mapping: sorted, so a duplicate is a neighbour (n log n however
 * many keys a hostile file has). */
static int mapping_unique(at_yaml *y, yaml_node_t *m, key_ref *refs)
{
    int n = 0;
    for (yaml_node_pair_t *pr = m->data.mapping.pairs.start;
         pr < m->data.mapping.pairs.top; ++pr) {
        yaml_node_t *k = yaml_document_get_node(&y->doc, pr->key);
        if (at_yaml_is(k, YAML_SCALAR_NODE))
            refs[n++].key = k;
    }
    qsort(refs, (size_t)n, sizeof *refs, by_text);
    for (int i = 1; i < n; ++i) {
        const yaml_node_t *a = refs[i - 1].key, *b = refs[i].key;
        if (a->data.scalar.length == b->data.scalar.length &&
            !memcmp(a->data.scalar.value, b->data.scalar.value,
                    a->data.scalar.length))
            return at_fail(y->e, AUTOTUNE_EINVALID, "%s:%d: the key '%.*s' "
                           "given twice (also on line %d)",
                           y->file, at_yaml_line(b),
                           (int)(b->data.scalar.length > 64
                                     ? 64 : b->data.scalar.length),
                           (const char *)b->data.scalar.value,
                           at_yaml_line(a));
    }
    return 0;
}

int at_yaml_unique_keys(at_yaml *y)
{
    size_t most = 0;
    for (yaml_node_t *n = y->doc.nodes.start; n < y->doc.nodes.top; ++n)
        if (n->type == YAML_MAPPING_NODE && (size_t)at_yaml_count(n) > most)
            most = (size_t)at_yaml_count(n);
    key_ref *refs = malloc((most ? most : 1) * sizeof *refs);
    if (!refs)
        return at_fail(y->e, AUTOTUNE_ENOMEM, "%s: out of memory", y->file);
    int rc = 0;
    for (yaml_node_t *n = y->doc.nodes.start; !rc && n < y->doc.nodes.top;
         ++n)
        if (n->type == YAML_MAPPING_NODE)
            rc = mapping_unique(y, n, refs);
    free(refs);
    return rc;
}
