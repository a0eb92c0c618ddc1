/* A spec's verification (the reference kernel or point, its source, the
 * point it is compiled at and its launch) and its init kernel, which
 * makes inputs that depend on others (spec/spec.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_internal.h"

static int load_reference_point(at_yaml *y, at_spec *s, yaml_node_t *p)
{
    if (!at_yaml_is(p, YAML_MAPPING_NODE))
        return at_yaml_fail(y, p, "verify.reference_point", "expected a "
                            "mapping of every parameter to a value");
    for (int i = 0; i < s->n_params; ++i) {
        const at_axis *ax = &s->params[i];
        yaml_node_t *v = at_yaml_get(y, p, ax->name);
        int64_t x;
        int rc, in = 0;
        if (!v)
            return at_yaml_fail(y, p, "verify.reference_point", "no value "
                                "for %s", ax->name);
        if ((rc = at_yaml_int(y, v, ax->name, INT32_MIN, INT32_MAX, &x)))
            return rc;
        for (int j = 0; j < ax->n; ++j)
            in |= ax->values[j] == x;
        if (!in)
            return at_yaml_fail(y, v, ax->name, "%lld is not one of the "
                                "parameter's values", (long long)x);
        s->reference_point[i] = (int)x;
    }
    if (at_yaml_count(p) != s->n_params) {
        for (int i = 0; i < at_yaml_count(p); ++i) {
            yaml_node_t *k = at_yaml_key(y, p, i);
            if (!at_yaml_is(k, YAML_SCALAR_NODE) ||
                at_spec_slot(s, (const char *)k->data.scalar.value,
                             k->data.scalar.length) >= s->n_params)
                return at_yaml_fail(y, k, "verify.reference_point",
                                    "not a parameter");
        }
        return at_yaml_fail(y, p, "verify.reference_point", "a parameter "
                            "given twice");
    }
    s->has_reference_point = 1;
    return 0;
}

/* A list of 1 to 3 expressions for a launch (defaults where absent),
 * reading the sizes and scalars and, given ok, the parameters ok[i] says. */
static int geometry(at_yaml *y, at_spec *s, yaml_node_t *v,
                    const char *section, const char *what,
                    const char *const *def, const int *ok, at_expr **out)
{
    yaml_node_t *l = at_yaml_get(y, v, what);
    char key[64];
    snprintf(key, sizeof key, "%s.%s", section, what);
    if (l && (!at_yaml_is(l, YAML_SEQUENCE_NODE) || !at_yaml_count(l) ||
              at_yaml_count(l) > 3))
        return at_yaml_fail(y, l, key, "expected a list of 1 to 3 "
                            "expressions");
    for (int d = 0; d < 3; ++d) {
        yaml_node_t *n = at_yaml_item(y, l, d);
        int rc = n ? at_spec_expr(y, s, n, key, &out[d])
                   : at_spec_expr_text(y, s, l ? l : v, key,
                                       l ? "1" : def[d], &out[d]);
        if (rc)
            return rc;
        for (int i = 0; i < s->n_params; ++i)
            if (!(ok && ok[i]) && at_spec_reads(out[d], i, i + 1))
                return at_yaml_fail(y, n ? n : v, key, "the %s's launch "
                                    "cannot use the parameter %s%s",
                                    strstr(key, "init") ? "init kernel"
                                                        : "reference",
                                    s->params[i].name,
                                    strstr(key, "init") ? ""
                                    : " (unless verify.params gives it)");
        if (at_spec_reads(out[d], at_spec_n_slots(s) - 3, at_spec_n_slots(s)))
            return at_yaml_fail(y, n ? n : v, key, "'%s': a launch cannot "
                                "read a device limit",
                                at_expr_text(out[d]));
    }
    return 0;
}

/* verify.params: the point the reference's source is compiled at (the
 * first valid point, with these values). */
static int load_params(at_yaml *y, at_spec *s, yaml_node_t *p)
{
    if (!at_yaml_is(p, YAML_MAPPING_NODE))
        return at_yaml_fail(y, p, "verify.params", "expected a mapping of "
                            "parameters to values");
    for (int i = 0; i < at_yaml_count(p); ++i) {
        yaml_node_t *k = at_yaml_key(y, p, i);
        int slot = at_yaml_is(k, YAML_SCALAR_NODE)
                       ? at_spec_slot(s, (const char *)k->data.scalar.value,
                                      k->data.scalar.length)
                       : -1;
        int64_t x;
        if (slot < 0 || slot >= s->n_params || s->ref_given[slot])
            return at_yaml_fail(y, k, "verify.params", "not a parameter, or "
                                "one given twice");
        int rc = at_yaml_int(y, at_yaml_item(y, p, i),
                             s->params[slot].name, INT32_MIN, INT32_MAX, &x);
        if (rc)
            return rc;
        s->ref_params[slot] = (int)x;
        s->ref_given[slot] = 1;
    }
    return 0;
}

/* The reference's source file (verify.source), its point and launch. */
static int load_reference_kernel(at_yaml *y, at_spec *s, yaml_node_t *v)
{
    static const char *const def[2][3] = {
        {"256", "1", "1"}, {"(size_x + 255) / 256", "1", "1"}};
    yaml_node_t *k = at_yaml_get(y, v, "reference_kernel"),
                *src = at_yaml_get(y, v, "source"),
                *p = at_yaml_get(y, v, "params");
    int rc;
    if ((rc = at_yaml_string(y, k, "verify.reference_kernel",
                             &s->reference_kernel)) ||
        (rc = at_spec_check_ident(y, k, "verify.reference_kernel",
                                  s->reference_kernel)))
        return rc;
    if (src && (rc = at_spec_read_source(y, s, src, "verify.source",
                                         &s->ref_source_file,
                                         &s->ref_source)))
        return rc;
    if (p && (rc = load_params(y, s, p)))
        return rc;
    if ((rc = geometry(y, s, v, "verify", "block", def[0], s->ref_given,
                       s->ref_block)))
        return rc;
    return geometry(y, s, v, "verify", "grid", def[1], s->ref_given,
                    s->ref_grid);
}

int at_spec_load_verify(at_yaml *y, at_spec *s, yaml_node_t *v)
{
    static const char *const known[] = {"reference_kernel",
                                        "reference_point", "block", "grid",
                                        "source", "params", NULL};
    int rc;
    if (at_yaml_is(v, YAML_SCALAR_NODE) && v->data.scalar.length == 4 &&
        !memcmp(v->data.scalar.value, "none", 4)) {
        s->verify = 0; /* asked for by name; reports say so */
        return 0;
    }
    if (!at_yaml_is(v, YAML_MAPPING_NODE))
        return at_yaml_fail(y, v, "verify", "%s: give reference_kernel (a "
                            "kernel in the source) or reference_point, or "
                            "verify: none", v ? "expected a mapping"
                                              : "missing");
    if ((rc = at_yaml_known_keys(y, v, "verify", known)))
        return rc;
    yaml_node_t *k = at_yaml_get(y, v, "reference_kernel"),
                *p = at_yaml_get(y, v, "reference_point");
    if (!k == !p)
        return at_yaml_fail(y, v, "verify", "give reference_kernel or "
                            "reference_point, one of them");
    if (p && (at_yaml_get(y, v, "source") || at_yaml_get(y, v, "params") ||
              at_yaml_get(y, v, "block") || at_yaml_get(y, v, "grid")))
        return at_yaml_fail(y, v, "verify", "source, params, block and grid "
                            "are a reference_kernel's; a reference_point "
                            "runs as the point it names");
    s->verify = 1;
    return p ? load_reference_point(y, s, p)
             : load_reference_kernel(y, s, v);
}

/* One argument of the init kernel: a spec argument's name (an input's
 * buffer, or a scalar's value) or {value: EXPRESSION, type: TYPE}. */
static int init_arg(at_yaml *y, at_spec *s, yaml_node_t *n, at_init_arg *a)
{
    static const char *const known[] = {"value", "type", NULL};
    char *t;
    int rc;
    a->arg = -1;
    if (at_yaml_is(n, YAML_MAPPING_NODE)) {
        if ((rc = at_yaml_known_keys(y, n, "init_kernel.arguments",
                                     known)) ||
            (rc = at_yaml_string(y, at_yaml_get(y, n, "type"),
                                 "init_kernel.arguments", &t)))
            return rc;
        a->type = at_arg_type_find(t);
        free(t);
        if (!a->type || a->type->bytes > 8 || a->type->bytes != a->type->lane)
            return at_yaml_fail(y, n, "init_kernel.arguments", "a value's "
                                "type is a scalar one (i32, f32, ...)");
        rc = at_spec_expr(y, s, at_yaml_get(y, n, "value"),
                          "init_kernel.arguments", &a->value);
        if (!rc && (at_spec_reads(a->value, 0, s->n_params) ||
                    at_spec_reads(a->value, at_spec_n_slots(s) - 3,
                                  at_spec_n_slots(s))))
            return at_yaml_fail(y, n, "init_kernel.arguments", "'%s': a "
                                "value reads the sizes and scalars only",
                                at_expr_text(a->value));
        return rc;
    }
    if ((rc = at_yaml_string(y, n, "init_kernel.arguments", &t)))
        return rc;
    a->arg = at_spec_arg_index(s, t);
    free(t);
    const at_spec_arg *x = a->arg >= 0 ? &s->args[a->arg] : NULL;
    if (!x || (x->kind == AT_ARG_BUFFER && x->dir == AT_DIR_OUT) ||
        (x->kind == AT_ARG_SCALAR && x->real))
        return at_yaml_fail(y, n, "init_kernel.arguments", "expected an "
                            "input's name (a buffer in or inout, a "
                            "constant, an integer scalar) or {value, type}");
    a->type = x->type;
    return 0;
}

int at_spec_load_init_kernel(at_yaml *y, at_spec *s, yaml_node_t *k)
{
    static const char *const known[] = {"name", "source", "arguments",
                                        "block", "grid", NULL};
    static const char *const def[3] = {"256", "1", "1"};
    int rc;
    if (!k)
        return 0;
    if (!at_yaml_is(k, YAML_MAPPING_NODE))
        return at_yaml_fail(y, k, "init_kernel", "expected a mapping (name, "
                            "arguments, grid, ...)");
    yaml_node_t *src = at_yaml_get(y, k, "source"),
                *a = at_yaml_get(y, k, "arguments");
    if ((rc = at_yaml_known_keys(y, k, "init_kernel", known)) ||
        (rc = at_yaml_string(y, at_yaml_get(y, k, "name"),
                             "init_kernel.name", &s->init_kernel)) ||
        (rc = at_spec_check_ident(y, k, "init_kernel.name", s->init_kernel)))
        return rc;
    if (src && (rc = at_spec_read_source(y, s, src, "init_kernel.source",
                                         &s->init_source_file,
                                         &s->init_source)))
        return rc;
    if (!at_yaml_is(a, YAML_SEQUENCE_NODE) || !at_yaml_count(a) ||
        at_yaml_count(a) > AT_SPEC_MAX_ARGS)
        return at_yaml_fail(y, a ? a : k, "init_kernel.arguments", "expected "
                            "a list of 1 to %d arguments", AT_SPEC_MAX_ARGS);
    for (int i = 0; i < at_yaml_count(a); ++i) {
        rc = init_arg(y, s, at_yaml_item(y, a, i), &s->init_args[i]);
        s->n_init_args = i + 1; /* owned either way */
        if (rc)
            return rc;
    }
    if (!at_yaml_get(y, k, "grid"))
        return at_yaml_fail(y, k, "init_kernel", "missing grid (its launch "
                            "covers the data it makes)");
    if ((rc = geometry(y, s, k, "init_kernel", "block", def, NULL,
                       s->init_block)))
        return rc;
    return geometry(y, s, k, "init_kernel", "grid", def, NULL,
                    s->init_grid);
}
