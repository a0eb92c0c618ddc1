/* The spec's expression sections: restrictions, launch geometry and
 * metrics (spec/spec.h), and the expression helpers every section uses. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_internal.h"

static int names(void *ctx, const char *s, size_t n)
{
    return at_spec_slot(ctx, s, n);
}

int at_spec_reads(const at_expr *x, int lo, int hi)
{
    int used[AT_MAX_AXES + 3 + AT_SPEC_MAX_SCALARS + 3];
    size_t k = at_expr_slots(x, used, sizeof used / sizeof *used);
    for (size_t i = 0; i < k && i < sizeof used / sizeof *used; ++i)
        if (used[i] >= lo && used[i] < hi)
            return 1;
    return 0;
}

/* A real scalar in x: refused, naming it (it has no integer value). */
static int no_real_scalar(at_yaml *y, const at_spec *s, yaml_node_t *n,
                          const char *key, const at_expr *x)
{
    for (int i = 0; i < s->n_scalars; ++i) {
        int slot = s->n_params + 3 + i;
        if (s->scalar_real[i] && at_spec_reads(x, slot, slot + 1))
            return at_yaml_fail(y, n, key, "'%s' reads %s, a real scalar: "
                                "it can be an argument's value, not part of "
                                "an expression", at_expr_text(x),
                                s->scalar_names[i]);
    }
    return 0;
}

int at_spec_expr(at_yaml *y, at_spec *s, yaml_node_t *n, const char *key,
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
    return no_real_scalar(y, s, n, key, *out);
}

int at_spec_expr_text(at_yaml *y, at_spec *s, yaml_node_t *n,
                      const char *key, const char *text, at_expr **out)
{
    at_err why = {0};
    if (at_expr_parse(text, names, s, out, &why))
        return at_yaml_fail(y, n, key, "%s", why.msg);
    return no_real_scalar(y, s, n, key, *out);
}

int at_spec_real_text(const char *t, double *v)
{
    char *end;
    errno = 0;
    /* Integers are the expressions' (and an integer's exact value). */
    if (!*t || strcspn(t, ".eEnN") == strlen(t))
        return 0;
    *v = strtod(t, &end);
    return !*end && !errno && isfinite(*v) && strspn(t, "+-0123456789.eE") ==
                                                  strlen(t);
}

int at_spec_arg_index(const at_spec *s, const char *name)
{
    for (int i = 0; i < s->n_args; ++i)
        if (!strcmp(s->args[i].name, name))
            return i;
    return -1;
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
        int rc = at_spec_expr(y, s, at_yaml_item(y, r, i), "restrictions",
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
        int rc = at_spec_expr(y, s, n, key, &check); /* names each factor */
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
    return at_spec_expr_text(y, s, l, key, text, &s->grid[d]);
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
        rc = bd ? at_spec_expr(y, s, bd, "launch.block", &s->block[d])
                : at_spec_expr_text(y, s, b ? b : l, "launch.block",
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
            rc = at_spec_expr(y, s, gd, "launch.grid", &s->grid[d]);
        else if (g || d >= s->dims)
            rc = at_spec_expr_text(y, s, g ? g : l, "launch.grid", "1", &s->grid[d]);
        else if (dl)
            rc = grid_div(y, s, dl, d, div[d]);
        else {
            char text[128];
            snprintf(text, sizeof text, "(size_%c + %s - 1) / %s", "xyz"[d],
                     is_param ? bs[d] : "1", is_param ? bs[d] : "1");
            rc = at_spec_expr_text(y, s, l, div[d], text, &s->grid[d]);
        }
        if (rc)
            return rc;
    }
    yaml_node_t *m = at_yaml_get(y, l, "shared_memory");
    return m ? at_spec_expr(y, s, m, "launch.shared_memory", &s->smem)
             : at_spec_expr_text(y, s, l, "launch.shared_memory", "0", &s->smem);
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
    if ((b && (rc = at_spec_expr(y, s, b, "metrics.bytes", &s->bytes))) ||
        (f && (rc = at_spec_expr(y, s, f, "metrics.flops", &s->flops))))
        return rc;
    return 0;
}
