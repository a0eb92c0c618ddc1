/* The spec's expression sections: restrictions, launch geometry,
 * arguments, verification and metrics (gen/spec.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/spec_internal.h"

static int names(void *ctx, const char *s, size_t n)
{
    return at_spec_slot(ctx, s, n);
}

/* Parses the scalar n (text, or an integer YAML read as text) as an
 * expression over s's names; errors carry the file, key and line. */
static int expr_at(at_yaml *y, at_spec *s, yaml_node_t *n, const char *key,
                   at_expr **out)
{
    char *text;
    int rc = at_yaml_string(y, n, key, &text);
    if (rc)
        return rc;
    at_err why = {0};
    rc = at_expr_parse(text, names, s, out, &why);
    free(text);
    if (rc)
        return at_yaml_fail(y, n, key, "%s", why.msg);
    return 0;
}

/* An expression from text we build (grid_div lists, defaults). */
static int expr_text(at_yaml *y, at_spec *s, yaml_node_t *n, const char *key,
                     const char *text, at_expr **out)
{
    at_err why = {0};
    if (at_expr_parse(text, names, s, out, &why))
        return at_yaml_fail(y, n, key, "%s", why.msg);
    return 0;
}

int at_spec_load_restrictions(at_yaml *y, at_spec *s, yaml_node_t *r)
{
    if (!r)
        return 0;
    if (!at_yaml_is(r, YAML_SEQUENCE_NODE))
        return at_yaml_fail(y, r, "restrictions", "expected a list of "
                            "expressions");
    if (at_yaml_count(r) > AT_SPEC_MAX_RESTRICTIONS)
        return at_yaml_fail(y, r, "restrictions", "more than %d",
                            AT_SPEC_MAX_RESTRICTIONS);
    for (int i = 0; i < at_yaml_count(r); ++i) {
        int rc = expr_at(y, s, at_yaml_item(y, r, i), "restrictions",
                         &s->restrictions[s->n_restrictions]);
        if (rc)
            return rc;
        ++s->n_restrictions;
    }
    return 0;
}

/* grid_div_D: "(size + P - 1) / P" with P the product of the list's
 * expressions, as Kernel Tuner's ceil(size / product). */
static int grid_div(at_yaml *y, at_spec *s, yaml_node_t *l, int d,
                    const char *key)
{
    static const char *const size[] = {"size_x", "size_y", "size_z"};
    char prod[2048] = "", text[4200];
    if (!at_yaml_is(l, YAML_SEQUENCE_NODE))
        return at_yaml_fail(y, l, key, "expected a list of expressions "
                            "(their product divides the size)");
    for (int i = 0; i < at_yaml_count(l); ++i) {
        char *t;
        at_expr *check;
        yaml_node_t *n = at_yaml_item(y, l, i);
        int rc = expr_at(y, s, n, key, &check); /* names each factor */
        if (rc)
            return rc;
        at_expr_free(check);
        if ((rc = at_yaml_string(y, n, key, &t)))
            return rc;
        size_t len = strlen(prod);
        snprintf(prod + len, sizeof prod - len, "%s(%s)", len ? " * " : "",
                 t);
        free(t);
    }
    if (!prod[0])
        snprintf(prod, sizeof prod, "1");
    snprintf(text, sizeof text, "(%s + (%s) - 1) / (%s)", size[d], prod,
             prod);
    return expr_text(y, s, l, key, text, &s->grid[d]);
}

int at_spec_load_launch(at_yaml *y, at_spec *s, yaml_node_t *l)
{
    static const char *const known[] = {"block", "grid", "grid_div_x",
                                        "grid_div_y", "grid_div_z",
                                        "shared_memory", NULL};
    static const char *const bs[] = {"block_size_x", "block_size_y",
                                     "block_size_z"};
    static const char *const div[] = {"grid_div_x", "grid_div_y",
                                      "grid_div_z"};
    int rc;
    if (l && !at_yaml_is(l, YAML_MAPPING_NODE))
        return at_yaml_fail(y, l, "launch", "expected a mapping");
    if (l && (rc = at_yaml_known_keys(y, l, "launch", known)))
        return rc;
    yaml_node_t *b = at_yaml_get(y, l, "block"), *g = at_yaml_get(y, l, "grid");
    if ((b && (!at_yaml_is(b, YAML_SEQUENCE_NODE) || at_yaml_count(b) > 3)) ||
        (g && (!at_yaml_is(g, YAML_SEQUENCE_NODE) || at_yaml_count(g) > 3)))
        return at_yaml_fail(y, b && !at_yaml_is(b, YAML_SEQUENCE_NODE) ? b : g,
                            b ? "launch.block" : "launch.grid",
                            "expected a list of 1 to 3 expressions");
    for (int d = 0; d < 3; ++d) {
        /* Block: the list, else block_size_D where it is a parameter. */
        yaml_node_t *bd = at_yaml_item(y, b, d);
        int is_param = at_spec_slot(s, bs[d], strlen(bs[d])) >= 0;
        rc = bd ? expr_at(y, s, bd, "launch.block", &s->block[d])
                : expr_text(y, s, b ? b : l, "launch.block",
                            !b && is_param ? bs[d] : "1", &s->block[d]);
        if (rc)
            return rc;
        /* Grid: the list, else grid_div_D (default [block_size_D] where
         * it is a parameter), inside the problem's dimensions. */
        yaml_node_t *gd = at_yaml_item(y, g, d), *dl = at_yaml_get(y, l,
                                                                  div[d]);
        if (g && dl)
            return at_yaml_fail(y, dl, div[d], "give grid or grid_div_*, "
                                "not both");
        if (gd)
            rc = expr_at(y, s, gd, "launch.grid", &s->grid[d]);
        else if (g || d >= s->dims)
            rc = expr_text(y, s, g ? g : l, "launch.grid", "1", &s->grid[d]);
        else if (dl)
            rc = grid_div(y, s, dl, d, div[d]);
        else {
            char text[128];
            snprintf(text, sizeof text, "(size_%c + %s - 1) / %s", "xyz"[d],
                     is_param ? bs[d] : "1", is_param ? bs[d] : "1");
            rc = expr_text(y, s, l, div[d], text, &s->grid[d]);
        }
        if (rc)
            return rc;
    }
    yaml_node_t *m = at_yaml_get(y, l, "shared_memory");
    return m ? expr_at(y, s, m, "launch.shared_memory", &s->smem)
             : expr_text(y, s, l, "launch.shared_memory", "0", &s->smem);
}

/* Index of name in the NULL-terminated list, or -1. */
static int choice(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; ++i)
        if (!strcmp(name, list[i]))
            return i;
    return -1;
}

/* A choice-valued key of mapping m: its index in list, def if absent. */
static int choice_key(at_yaml *y, yaml_node_t *m, const char *key,
                      const char *const *list, int def, int *out)
{
    yaml_node_t *n = at_yaml_get(y, m, key);
    char *t;
    *out = def;
    if (!n)
        return 0;
    int rc = at_yaml_string(y, n, key, &t);
    if (rc)
        return rc;
    *out = choice(t, list);
    free(t);
    if (*out < 0) {
        char all[128] = "";
        for (int i = 0; list[i]; ++i)
            snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
                     i ? ", " : "", list[i]);
        return at_yaml_fail(y, n, key, "expected one of %s", all);
    }
    return 0;
}

static int load_arg(at_yaml *y, at_spec *s, yaml_node_t *m, at_spec_arg *a)
{
    static const char *const known[] = {"name", "type", "count", "value",
                                        "dir", "init", "constant", "exact",
                                        "atol", "rtol", NULL};
    static const char *const dirs[] = {"in", "out", "inout", NULL};
    static const char *const inits[] = {"random", "zeros", "ones", "iota",
                                        NULL};
    static const char *const no_yes[] = {"false", "true", NULL};
    int rc, constant, exact, dir, init;
    char *type;
    a->line = at_yaml_line(m);
    if (!at_yaml_is(m, YAML_MAPPING_NODE))
        return at_yaml_fail(y, m, "arguments", "expected a mapping (name, "
                            "type, count or value, ...)");
    if ((rc = at_yaml_known_keys(y, m, "arguments", known)) ||
        (rc = at_yaml_string(y, at_yaml_get(y, m, "name"), "arguments.name",
                             &a->name)) ||
        (rc = at_yaml_string(y, at_yaml_get(y, m, "type"), a->name, &type)))
        return rc;
    a->type = at_type_find(type);
    free(type);
    if (!a->type)
        return at_yaml_fail(y, at_yaml_get(y, m, "type"), a->name,
                            "unknown type (the project's types: f16, bf16, "
                            "f32, f64, i32, ...)");
    for (int i = 0; i < s->n_args; ++i)
        if (!strcmp(s->args[i].name, a->name))
            return at_yaml_fail(y, m, a->name, "a second argument of this "
                                "name");
    if ((rc = choice_key(y, m, "constant", no_yes, 0, &constant)) ||
        (rc = choice_key(y, m, "dir", dirs, AT_DIR_IN, &dir)) ||
        (rc = choice_key(y, m, "init", inits, AT_INIT_RANDOM, &init)) ||
        (rc = choice_key(y, m, "exact", no_yes, 1, &exact)))
        return rc;
    a->dir = (enum at_arg_dir)dir;
    a->init = (enum at_arg_init)init;
    yaml_node_t *count = at_yaml_get(y, m, "count"),
                *value = at_yaml_get(y, m, "value");
    if (!count == !value)
        return at_yaml_fail(y, m, a->name, "give count (a buffer or "
                            "constant) or value (a scalar), one of them");
    a->kind = value ? AT_ARG_SCALAR
              : constant ? AT_ARG_CONSTANT : AT_ARG_BUFFER;
    if (a->kind != AT_ARG_BUFFER && dir != AT_DIR_IN)
        return at_yaml_fail(y, m, a->name, "only buffers are outputs");
    if ((rc = at_spec_check_ident(y, m, "arguments.name", a->name)))
        return rc;
    if ((rc = value ? expr_at(y, s, value, a->name, &a->value)
                    : expr_at(y, s, count, a->name, &a->count)))
        return rc;
    yaml_node_t *at = at_yaml_get(y, m, "atol"), *rt = at_yaml_get(y, m,
                                                                 "rtol");
    if ((at || rt) && at_yaml_get(y, m, "exact") && exact)
        return at_yaml_fail(y, m, a->name, "exact: true with a tolerance");
    a->exact = !(at || rt) && exact;
    if ((at && (rc = at_yaml_double(y, at, "atol", &a->atol))) ||
        (rt && (rc = at_yaml_double(y, rt, "rtol", &a->rtol))))
        return rc;
    return 0;
}

int at_spec_load_args(at_yaml *y, at_spec *s, yaml_node_t *a)
{
    if (!at_yaml_is(a, YAML_SEQUENCE_NODE) || !at_yaml_count(a))
        return at_yaml_fail(y, a, "arguments", "expected the kernel's "
                            "arguments, a list in order");
    if (at_yaml_count(a) > AT_SPEC_MAX_ARGS)
        return at_yaml_fail(y, a, "arguments", "more than %d",
                            AT_SPEC_MAX_ARGS);
    int outs = 0;
    for (int i = 0; i < at_yaml_count(a); ++i) {
        int rc = load_arg(y, s, at_yaml_item(y, a, i), &s->args[s->n_args]);
        ++s->n_args; /* owned either way */
        if (rc)
            return rc;
        outs += s->args[i].dir != AT_DIR_IN;
    }
    if (!outs)
        return at_yaml_fail(y, a, "arguments", "no output (dir: out or "
                            "inout) to verify or time");
    return 0;
}

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

/* The reference kernel's block and grid (default: 256 threads a block,
 * a thread an element of size_x), over sizes and scalars only. */
static int reference_geometry(at_yaml *y, at_spec *s, yaml_node_t *v)
{
    static const char *const key[2] = {"verify.block", "verify.grid"};
    static const char *const def[2][3] = {
        {"256", "1", "1"}, {"(size_x + 255) / 256", "1", "1"}};
    for (int w = 0; w < 2; ++w) {
        yaml_node_t *l = at_yaml_get(y, v, w ? "grid" : "block");
        at_expr **out = w ? s->ref_grid : s->ref_block;
        if (l && (!at_yaml_is(l, YAML_SEQUENCE_NODE) || !at_yaml_count(l) ||
                  at_yaml_count(l) > 3))
            return at_yaml_fail(y, l, key[w], "expected a list of 1 to 3 "
                                "expressions");
        for (int d = 0; d < 3; ++d) {
            yaml_node_t *n = at_yaml_item(y, l, d);
            int rc = n ? expr_at(y, s, n, key[w], &out[d])
                       : expr_text(y, s, l ? l : v, key[w],
                                   l ? "1" : def[w][d], &out[d]);
            if (rc)
                return rc;
            int used[AT_MAX_AXES + 16];
            size_t k = at_expr_slots(out[d], used, AT_MAX_AXES + 16);
            for (size_t i = 0; i < k && i < AT_MAX_AXES + 16; ++i)
                if (used[i] < s->n_params)
                    return at_yaml_fail(y, n ? n : v, key[w], "the "
                                        "reference's launch cannot use the "
                                        "parameter %s",
                                        s->params[used[i]].name);
        }
    }
    return 0;
}

int at_spec_load_verify(at_yaml *y, at_spec *s, yaml_node_t *v)
{
    static const char *const known[] = {"reference_kernel",
                                        "reference_point", "block", "grid",
                                        NULL};
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
    s->verify = 1;
    if (p)
        return load_reference_point(y, s, p);
    if ((rc = at_yaml_string(y, k, "verify.reference_kernel",
                             &s->reference_kernel)))
        return rc;
    if ((rc = at_spec_check_ident(y, k, "verify.reference_kernel",
                                  s->reference_kernel)))
        return rc;
    return reference_geometry(y, s, v);
}

int at_spec_load_metrics(at_yaml *y, at_spec *s, yaml_node_t *m)
{
    static const char *const known[] = {"bytes", "flops", NULL};
    int rc;
    if (!m)
        return 0;
    if (!at_yaml_is(m, YAML_MAPPING_NODE))
        return at_yaml_fail(y, m, "metrics", "expected a mapping (bytes, "
                            "flops)");
    if ((rc = at_yaml_known_keys(y, m, "metrics", known)))
        return rc;
    yaml_node_t *b = at_yaml_get(y, m, "bytes"), *f = at_yaml_get(y, m,
                                                                "flops");
    if ((b && (rc = expr_at(y, s, b, "metrics.bytes", &s->bytes))) ||
        (f && (rc = expr_at(y, s, f, "metrics.flops", &s->flops))))
        return rc;
    return 0;
}
