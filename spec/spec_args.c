/* A spec's arguments (spec/spec.h): each one's type (ours or CUDA's
 * name), a buffer's count, direction and first contents, a scalar's
 * value (an integer expression or a real number), and how an output is
 * checked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_internal.h"

/* A scalar's value: a real number, a real scalar's name, or an integer
 * expression. */
static int load_value(at_yaml *y, at_spec *s, yaml_node_t *n, at_spec_arg *a)
{
    char *t;
    int rc = at_yaml_string(y, n, a->name, &t);
    if (rc)
        return rc;
    int scalar = -1;
    for (int i = 0; i < s->n_scalars; ++i)
        if (s->scalar_real[i] && !strcmp(t, s->scalar_names[i]))
            scalar = i;
    a->real_scalar = scalar;
    a->real = scalar >= 0 || at_spec_real_text(t, &a->real_value);
    free(t);
    if (a->real && !a->type->fp)
        return at_yaml_fail(y, n, a->name, "a real value for a scalar of "
                            "type %s (an integer)", a->type->name);
    return a->real ? 0 : at_spec_expr(y, s, n, a->name, &a->value);
}

/* [a, b] of an init form; integers must fit the lanes of the type. */
static int init_pair(at_yaml *y, yaml_node_t *v, const char *key,
                     at_spec_arg *a)
{
    if (!at_yaml_is(v, YAML_SEQUENCE_NODE) || at_yaml_count(v) != 2)
        return at_yaml_fail(y, v, key, "expected a list of two numbers");
    int rc = at_yaml_real(y, at_yaml_item(y, v, 0), key, &a->init_a);
    if (!rc)
        rc = at_yaml_real(y, at_yaml_item(y, v, 1), key, &a->init_b);
    if (rc)
        return rc;
    if (a->init == AT_INIT_NORMAL)
        return a->init_b > 0 ? 0 : at_yaml_fail(y, v, key, "the standard "
                                                "deviation must be above 0");
    if (!(a->init_a < a->init_b) &&
        !(a->init == AT_INIT_INTEGERS && a->init_a == a->init_b))
        return at_yaml_fail(y, v, key, "expected [low, high] with low < "
                            "high");
    if (a->init != AT_INIT_INTEGERS)
        return 0;
    const at_type *t = a->type;
    double lo = t->fp ? -9007199254740992.0
                : t->is_unsigned ? 0 : -ldexp(1, 8 * t->lane - 1);
    double hi = t->fp ? 9007199254740992.0
                : ldexp(1, 8 * t->lane - !t->is_unsigned) - 1;
    if (a->init_a != floor(a->init_a) || a->init_b != floor(a->init_b) ||
        a->init_a < lo || a->init_b > hi)
        return at_yaml_fail(y, v, key, "expected whole numbers from %.17g "
                            "to %.17g (the lanes of %s)", lo, hi,
                            t->name);
    return 0;
}

/* init: a word (random, zeros, ones, iota, normal) or a mapping of one
 * form: normal: [mean, sd], uniform: [low, high], integers: [low, high],
 * file: PATH, copy: ARGUMENT. */
static int load_init(at_yaml *y, at_spec *s, yaml_node_t *n, at_spec_arg *a)
{
    static const char *const words[] = {"random", "zeros", "ones", "iota",
                                        "normal", NULL};
    static const char *const forms[] = {"normal", "uniform", "integers",
                                        "file", "copy", NULL};
    static const enum at_arg_init form_init[] = {
        AT_INIT_NORMAL, AT_INIT_UNIFORM, AT_INIT_INTEGERS, AT_INIT_FILE,
        AT_INIT_COPY};
    int k, rc;
    a->init_a = 0;
    a->init_b = 1;
    if (!n)
        return 0;
    if (!at_yaml_is(n, YAML_MAPPING_NODE)) {
        rc = at_yaml_choice(y, n, "init", words, &k);
        a->init = (enum at_arg_init)k;
        return rc;
    }
    if (at_yaml_count(n) != 1)
        return at_yaml_fail(y, n, "init", "expected one of random, zeros, "
                            "ones, iota, normal, or a mapping of one form "
                            "(normal, uniform, integers, file, copy)");
    if ((rc = at_yaml_choice(y, at_yaml_key(y, n, 0), "init", forms, &k)))
        return rc;
    a->init = form_init[k];
    yaml_node_t *v = at_yaml_item(y, n, 0);
    if (a->init == AT_INIT_FILE || a->init == AT_INIT_COPY) {
        if ((rc = at_yaml_string(y, v, forms[k], &a->file)))
            return rc;
        return a->init == AT_INIT_FILE ? at_spec_load_data(y, s, v, a) : 0;
    }
    return init_pair(y, v, forms[k], a);
}

/* How an output is checked: atol, rtol, exact, mismatches, compare. */
static int load_check(at_yaml *y, at_spec *s, yaml_node_t *m, at_spec_arg *a)
{
    static const char *const no_yes[] = {"false", "true", NULL};
    static const char *const compares[] = {"elements", "sum", NULL};
    int exact, cmp, rc;
    yaml_node_t *at = at_yaml_get(y, m, "atol"), *rt = at_yaml_get(y, m,
                                                                 "rtol");
    yaml_node_t *mm = at_yaml_get(y, m, "mismatches");
    if ((rc = at_yaml_choice_key(y, m, "exact", no_yes, 1, &exact)) ||
        (rc = at_yaml_choice_key(y, m, "compare", compares, 0, &cmp)))
        return rc;
    a->compare = (enum at_arg_compare)cmp;
    if ((at || rt || mm || at_yaml_get(y, m, "compare")) &&
        a->dir == AT_DIR_IN)
        return at_yaml_fail(y, m, a->name, "atol, rtol, mismatches and "
                            "compare are for outputs (dir: out or inout)");
    if ((at || rt) && at_yaml_get(y, m, "exact") && exact)
        return at_yaml_fail(y, m, a->name, "exact: true with a tolerance");
    a->exact = !(at || rt) && exact;
    if ((at && (rc = at_yaml_double(y, at, "atol", &a->atol))) ||
        (rt && (rc = at_yaml_double(y, rt, "rtol", &a->rtol))))
        return rc;
    if (a->compare == AT_COMPARE_SUM &&
        (a->dir != AT_DIR_INOUT || a->exact || mm))
        return at_yaml_fail(y, m, a->name, "compare: sum needs dir: inout "
                            "(what a run leaves alone counts in the sum), "
                            "atol or rtol, and no mismatches");
    if (!mm)
        return 0;
    if (a->type->bytes < 4)
        return at_yaml_fail(y, mm, "mismatches", "a budget counts elements "
                            "of 4 bytes or more (%s is %d)", a->type->name,
                            a->type->bytes);
    if ((rc = at_spec_expr(y, s, mm, "mismatches", &a->max_mismatches)))
        return rc;
    if (at_spec_reads(a->max_mismatches, 0, s->n_params) ||
        at_spec_reads(a->max_mismatches, at_spec_n_slots(s) - 3,
                      at_spec_n_slots(s)))
        return at_yaml_fail(y, mm, "mismatches", "'%s': reads the sizes and "
                            "scalars only",
                            at_expr_text(a->max_mismatches));
    return 0;
}

static int load_type(at_yaml *y, yaml_node_t *m, at_spec_arg *a)
{
    char *type;
    int rc = at_yaml_string(y, at_yaml_get(y, m, "type"), a->name, &type);
    if (rc)
        return rc;
    a->type = at_arg_type_find(type);
    free(type);
    if (!a->type)
        return at_yaml_fail(y, at_yaml_get(y, m, "type"), a->name,
                            "unknown type (the types: %s)",
                            at_arg_type_list());
    return 0;
}

static int load_arg(at_yaml *y, at_spec *s, yaml_node_t *m, at_spec_arg *a)
{
    static const char *const known[] = {
        "name", "type", "count", "value", "dir", "init", "constant", "exact",
        "atol", "rtol", "mismatches", "compare", NULL};
    static const char *const dirs[] = {"in", "out", "inout", NULL};
    static const char *const no_yes[] = {"false", "true", NULL};
    int rc, constant, dir;
    a->line = at_yaml_line(m);
    a->copy_of = -1;
    a->real_scalar = -1;
    if (!at_yaml_is(m, YAML_MAPPING_NODE))
        return at_yaml_fail(y, m, "arguments", "expected a mapping (name, "
                            "type, count or value, ...)");
    if ((rc = at_yaml_known_keys(y, m, "arguments", known)) ||
        (rc = at_yaml_string(y, at_yaml_get(y, m, "name"), "arguments.name",
                             &a->name)) ||
        (rc = load_type(y, m, a)))
        return rc;
    if (at_spec_arg_index(s, a->name) >= 0)
        return at_yaml_fail(y, m, a->name, "a second argument of this "
                            "name");
    if ((rc = at_yaml_choice_key(y, m, "constant", no_yes, 0, &constant)) ||
        (rc = at_yaml_choice_key(y, m, "dir", dirs, AT_DIR_IN, &dir)))
        return rc;
    a->dir = (enum at_arg_dir)dir;
    yaml_node_t *count = at_yaml_get(y, m, "count"),
                *value = at_yaml_get(y, m, "value");
    if (!count == !value)
        return at_yaml_fail(y, m, a->name, "give count (a buffer or "
                            "constant) or value (a scalar), one of them");
    a->kind = value ? AT_ARG_SCALAR
              : constant ? AT_ARG_CONSTANT : AT_ARG_BUFFER;
    if (a->kind != AT_ARG_BUFFER && dir != AT_DIR_IN)
        return at_yaml_fail(y, m, a->name, "only buffers are outputs");
    if ((a->kind == AT_ARG_SCALAR || a->dir == AT_DIR_OUT) &&
        at_yaml_get(y, m, "init"))
        return at_yaml_fail(y, m, a->name, "init is for inputs (in and "
                            "inout buffers, constants): an output is poison "
                            "before each run, a scalar has its value");
    if ((rc = at_spec_check_ident(y, m, "arguments.name", a->name)) ||
        (rc = value ? load_value(y, s, value, a)
                    : at_spec_expr(y, s, count, a->name, &a->count)) ||
        (rc = load_init(y, s, at_yaml_get(y, m, "init"), a)))
        return rc;
    return load_check(y, s, m, a);
}

/* copy: ARGUMENT, once every argument is known: an input of the same
 * type whose contents are not a copy themselves. */
static int resolve_copies(at_yaml *y, at_spec *s, yaml_node_t *list)
{
    for (int i = 0; i < s->n_args; ++i) {
        at_spec_arg *a = &s->args[i];
        if (a->init != AT_INIT_COPY)
            continue;
        int k = at_spec_arg_index(s, a->file);
        yaml_node_t *n = at_yaml_item(y, list, i);
        const at_spec_arg *src = k >= 0 ? &s->args[k] : NULL;
        if (!src || k == i || src->kind == AT_ARG_SCALAR ||
            src->dir == AT_DIR_OUT)
            return at_yaml_fail(y, n, a->name, "copy: '%.64s' is not "
                                "another buffer or constant that is an "
                                "input", a->file);
        if (src->init == AT_INIT_COPY || src->type != a->type)
            return at_yaml_fail(y, n, a->name, "copy: %s is %s, of type %s; "
                                "a copy takes an argument of its own type "
                                "(%s) whose contents are not a copy",
                                src->name,
                                src->init == AT_INIT_COPY ? "a copy" : "not",
                                src->type->name, a->type->name);
        a->copy_of = k;
    }
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
    return resolve_copies(y, s, a);
}
