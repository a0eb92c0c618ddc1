/* Loading a spec file into an at_spec (spec/spec.h): the top level, the
 * kernel, problem and parameter sections and the variants' #defines
 * here; the other sections in spec_launch.c, spec_args.c and
 * spec_verify.c, the files a spec names in spec_files.c. */
#include "spec/spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "gen/ident.h"
#include "spec/spec_internal.h"

static const char *const size_names[] = {"size_x", "size_y", "size_z"};
static const char *const limit_names[] = {"max_threads", "max_shared_memory",
                                          "sm"};

int at_spec_n_slots(const at_spec *s)
{
    return s->n_params + 3 + s->n_scalars + 3;
}

const char *at_spec_slot_name(const at_spec *s, int i)
{
    return i < s->n_params ? s->params[i].name
           : i < s->n_params + 3 ? size_names[i - s->n_params]
           : i < s->n_params + 3 + s->n_scalars
               ? s->scalar_names[i - s->n_params - 3]
               : limit_names[i - s->n_params - 3 - s->n_scalars];
}

int at_spec_slot(const at_spec *s, const char *name, size_t n)
{
    for (int i = 0; i < at_spec_n_slots(s); ++i) {
        const char *w = at_spec_slot_name(s, i);
        if (strlen(w) == n && !strncmp(w, name, n))
            return i;
    }
    return -1;
}

void at_spec_slots(const at_spec *s, const int *pt, const int64_t *size,
                   const at_limits *l, int64_t *slots)
{
    int k = 0;
    for (int i = 0; i < s->n_params; ++i)
        slots[k++] = pt ? pt[i] : 0;
    for (int d = 0; d < 3; ++d)
        slots[k++] = size[d];
    for (int i = 0; i < s->n_scalars; ++i)
        slots[k++] = s->scalars[i];
    slots[k++] = l->max_threads;
    slots[k++] = l->max_smem;
    slots[k++] = l->sm;
}

/* A name that goes into the variant's code (a #define, a kernel, a
 * launcher's parameter, a symbol): at_ident_check's rules, with the place
 * named. */
int at_spec_check_ident(at_yaml *y, yaml_node_t *n, const char *key,
                        const char *name)
{
    at_err why = {0};
    if (at_ident_check(name, &why))
        return at_yaml_fail(y, n, key, "%s", why.msg);
    return 0;
}

/* A new name for the expression slots: an identifier not yet taken. */
int at_spec_new_name(at_yaml *y, const at_spec *s, yaml_node_t *n,
                     const char *key, const char *name)
{
    int rc = at_spec_check_ident(y, n, key, name);
    if (rc)
        return rc;
    if (at_spec_slot(s, name, strlen(name)) >= 0)
        return at_yaml_fail(y, n, key, "'%.64s' is already a name (a "
                            "parameter, size, scalar or device limit)",
                            name);
    return 0;
}

/* The kernel's source: the caller's (given), else the file kernel.source
 * names, in the spec's folder. */
static int read_source(at_yaml *y, at_spec *s, yaml_node_t *n,
                       const char *given)
{
    size_t len;
    if (given)
        return (s->source = strdup(given))
                   ? 0
                   : at_yaml_fail(y, n, "kernel.source", "out of memory");
    return at_spec_read(y, s, n, "kernel.source", s->source_file, 1,
                        &s->source, &len);
}

static int load_kernel(at_yaml *y, at_spec *s, yaml_node_t *k,
                       const char *given)
{
    static const char *const known[] = {"name", "source", "options",
                                        "defines", NULL};
    int rc;
    if (!at_yaml_is(k, YAML_MAPPING_NODE))
        return at_yaml_fail(y, k, "kernel", "expected a mapping with name "
                            "and source");
    if ((rc = at_yaml_known_keys(y, k, "kernel", known)) ||
        (rc = at_yaml_string(y, at_yaml_get(y, k, "name"), "kernel.name",
                             &s->kernel)) ||
        (rc = at_yaml_string(y, at_yaml_get(y, k, "source"),
                             "kernel.source", &s->source_file)))
        return rc;
    if ((rc = at_spec_check_ident(y, at_yaml_get(y, k, "name"),
                                  "kernel.name", s->kernel)))
        return rc;
    if ((rc = read_source(y, s, at_yaml_get(y, k, "source"), given)))
        return rc;
    yaml_node_t *o = at_yaml_get(y, k, "options");
    if (o && !at_yaml_is(o, YAML_SEQUENCE_NODE))
        return at_yaml_fail(y, o, "kernel.options", "expected a list");
    for (int i = 0; i < at_yaml_count(o); ++i) {
        if (s->n_options == AT_SPEC_MAX_OPTIONS)
            return at_yaml_fail(y, o, "kernel.options", "more than %d",
                                AT_SPEC_MAX_OPTIONS);
        if ((rc = at_yaml_string(y, at_yaml_item(y, o, i), "kernel.options",
                                 &s->options[s->n_options++])))
            return rc;
    }
    return 0;
}

/* kernel.defines, once the names are known: an integer expression of
 * the sizes and scalars, or a real number, each. */
static int load_defines(at_yaml *y, at_spec *s, yaml_node_t *d)
{
    int rc;
    if (d && !at_yaml_is(d, YAML_MAPPING_NODE))
        return at_yaml_fail(y, d, "kernel.defines", "expected a mapping of "
                            "names to expressions of the sizes and scalars");
    for (int i = 0; i < at_yaml_count(d); ++i) {
        at_spec_define *df = &s->defines[s->n_defines];
        if (s->n_defines == AT_SPEC_MAX_DEFINES)
            return at_yaml_fail(y, d, "kernel.defines", "more than %d",
                                AT_SPEC_MAX_DEFINES);
        if ((rc = at_yaml_string(y, at_yaml_key(y, d, i), "kernel.defines",
                                 &df->name)))
            return rc;
        ++s->n_defines;
        yaml_node_t *v = at_yaml_item(y, d, i);
        char *text;
        double real;
        if ((rc = at_spec_check_ident(y, at_yaml_key(y, d, i),
                                      "kernel.defines", df->name)) ||
            (rc = at_yaml_string(y, v, df->name, &text)))
            return rc;
        if (at_spec_real_text(text, &real)) {
            df->real = text;
            continue;
        }
        free(text);
        if ((rc = at_spec_expr(y, s, v, df->name, &df->value)))
            return rc;
        if (at_spec_reads(df->value, 0, s->n_params) ||
            at_spec_reads(df->value, at_spec_n_slots(s) - 3,
                          at_spec_n_slots(s)))
            return at_yaml_fail(y, v, df->name, "'%s': a define reads the "
                                "sizes and scalars only (a parameter is a "
                                "#define of its own)",
                                at_expr_text(df->value));
    }
    return 0;
}

/* A scalar of problem.scalars: an integer, or a real number (then it
 * can be an argument's value, not part of an expression). */
static int load_scalar(at_yaml *y, at_spec *s, yaml_node_t *k,
                       yaml_node_t *v)
{
    char *name, *text;
    int rc = at_yaml_string(y, k, "problem.scalars", &name);
    if (rc)
        return rc;
    if ((rc = at_spec_new_name(y, s, k, "problem.scalars", name))) {
        free(name);
        return rc;
    }
    int i = s->n_scalars++;
    s->scalar_names[i] = name;
    if ((rc = at_yaml_string(y, v, name, &text)))
        return rc;
    double real;
    if (at_spec_real_text(text, &real)) {
        s->scalar_real[i] = 1;
        memcpy(&s->scalars[i], &real, sizeof real);
    }
    free(text);
    return s->scalar_real[i] ? 0
                             : at_yaml_int(y, v, name, INT64_MIN, INT64_MAX,
                                           &s->scalars[i]);
}

static int load_problem(at_yaml *y, at_spec *s, yaml_node_t *p)
{
    static const char *const known[] = {"size", "scalars", "type", NULL};
    int rc;
    if (!at_yaml_is(p, YAML_MAPPING_NODE))
        return at_yaml_fail(y, p, "problem", "expected a mapping with size");
    if ((rc = at_yaml_known_keys(y, p, "problem", known)))
        return rc;
    yaml_node_t *z = at_yaml_get(y, p, "size");
    if (!at_yaml_is(z, YAML_SEQUENCE_NODE) || at_yaml_count(z) < 1 ||
        at_yaml_count(z) > 3)
        return at_yaml_fail(y, z ? z : p, "problem.size", "expected a list "
                            "of 1 to 3 sizes");
    s->dims = at_yaml_count(z);
    for (int d = 0; d < 3; ++d)
        s->size[d] = 1;
    for (int d = 0; d < s->dims; ++d)
        if ((rc = at_yaml_int(y, at_yaml_item(y, z, d), size_names[d], 1,
                              INT64_C(1) << 40, &s->size[d])))
            return rc;
    yaml_node_t *t = at_yaml_get(y, p, "type");
    char *type;
    if (t) {
        if ((rc = at_yaml_string(y, t, "problem.type", &type)))
            return rc;
        s->type = at_type_find(type);
        free(type);
        if (!s->type)
            return at_yaml_fail(y, t, "problem.type", "unknown type (the "
                                "problem's types: %s)", at_type_list());
    }
    yaml_node_t *c = at_yaml_get(y, p, "scalars");
    if (c && !at_yaml_is(c, YAML_MAPPING_NODE))
        return at_yaml_fail(y, c, "problem.scalars", "expected a mapping of "
                            "names to numbers");
    for (int i = 0; i < at_yaml_count(c); ++i) {
        if (s->n_scalars == AT_SPEC_MAX_SCALARS)
            return at_yaml_fail(y, c, "problem.scalars", "more than %d",
                                AT_SPEC_MAX_SCALARS);
        if ((rc = load_scalar(y, s, at_yaml_key(y, c, i),
                              at_yaml_item(y, c, i))))
            return rc;
    }
    return 0;
}

static int load_params(at_yaml *y, at_spec *s, yaml_node_t *t)
{
    int rc;
    if (!at_yaml_is(t, YAML_MAPPING_NODE) || !at_yaml_count(t))
        return at_yaml_fail(y, t, "tune_params", "expected a mapping of "
                            "parameter names to lists of integers");
    if (at_yaml_count(t) > AT_SPEC_MAX_PARAMS)
        return at_yaml_fail(y, t, "tune_params", "%d parameters, at most %d",
                            at_yaml_count(t), AT_SPEC_MAX_PARAMS);
    for (int i = 0; i < at_yaml_count(t); ++i) {
        char *name;
        yaml_node_t *k = at_yaml_key(y, t, i), *v = at_yaml_item(y, t, i);
        if ((rc = at_yaml_string(y, k, "tune_params", &name)))
            return rc;
        if ((rc = at_spec_new_name(y, s, k, "tune_params", name))) {
            free(name);
            return rc;
        }
        at_axis *a = &s->params[s->n_params++];
        a->name = name;
        a->help = "";
        if (!at_yaml_is(v, YAML_SEQUENCE_NODE) || !at_yaml_count(v) ||
            at_yaml_count(v) > AT_MAX_VALUES)
            return at_yaml_fail(y, v ? v : k, name, "expected a list of 1 "
                                "to %d integers", AT_MAX_VALUES);
        a->n = at_yaml_count(v);
        for (int j = 0; j < a->n; ++j) {
            int64_t x;
            if ((rc = at_yaml_int(y, at_yaml_item(y, v, j), name, INT32_MIN,
                                  INT32_MAX, &x)))
                return rc;
            for (int m = 0; m < j; ++m)
                if (a->values[m] == x)
                    return at_yaml_fail(y, at_yaml_item(y, v, j), name,
                                        "%lld twice", (long long)x);
            a->values[j] = (int)x;
        }
    }
    return 0;
}

static int load(at_yaml *y, at_spec *s, const char *given)
{
    static const char *const known[] = {
        "autotune_spec", "kernel", "problem", "tune_params", "restrictions",
        "launch", "arguments", "verify", "init_kernel", "metrics", NULL};
    yaml_node_t *r = at_yaml_root(y);
    int64_t version;
    int rc;
    if (!at_yaml_is(r, YAML_MAPPING_NODE))
        return at_yaml_fail(y, r, "spec", "expected a mapping at the top");
    if ((rc = at_yaml_known_keys(y, r, "spec", known)))
        return rc;
    yaml_node_t *v = at_yaml_get(y, r, "autotune_spec");
    if (!v)
        return at_yaml_fail(y, r, "autotune_spec", "missing (the format's "
                            "version, %d)", AT_SPEC_VERSION);
    yaml_node_t *k = at_yaml_get(y, r, "kernel");
    /* Parameters before anything that names them (slots number them
     * first); defines after, as they read the sizes and scalars. */
    if ((rc = at_yaml_int(y, v, "autotune_spec", AT_SPEC_VERSION,
                          AT_SPEC_VERSION, &version)) ||
        (rc = load_kernel(y, s, k, given)) ||
        (rc = load_problem(y, s, at_yaml_get(y, r, "problem"))) ||
        (rc = load_params(y, s, at_yaml_get(y, r, "tune_params"))) ||
        (rc = load_defines(y, s, at_yaml_get(y, k, "defines"))) ||
        (rc = at_spec_load_restrictions(y, s,
                                        at_yaml_get(y, r, "restrictions"))) ||
        (rc = at_spec_load_launch(y, s, at_yaml_get(y, r, "launch"))) ||
        (rc = at_spec_load_args(y, s, at_yaml_get(y, r, "arguments"))) ||
        (rc = at_spec_load_verify(y, s, at_yaml_get(y, r, "verify"))) ||
        (rc = at_spec_load_init_kernel(y, s,
                                       at_yaml_get(y, r, "init_kernel"))) ||
        (rc = at_spec_load_metrics(y, s, at_yaml_get(y, r, "metrics"))))
        return rc;
    return 0;
}

static int load_text(const char *text, const char *file, const char *dir,
                     const char *given, at_spec *s, at_err *e)
{
    at_yaml y;
    memset(s, 0, sizeof *s);
    int rc = at_yaml_load(&y, text, file, e);
    if (rc)
        return rc;
    if (!(s->file = strdup(file)) || (dir && !(s->dir = strdup(dir))))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory", file);
    else
        rc = load(&y, s, given);
    at_yaml_free(&y);
    if (rc)
        at_spec_free(s);
    return rc;
}

int at_spec_load_text(const char *text, const char *file, const char *dir,
                      at_spec *s, at_err *e)
{
    return load_text(text, file, dir, NULL, s, e);
}

int at_spec_load_mem(const char *text, const char *file, const char *dir,
                     const char *source, at_spec *s, at_err *e)
{
    return load_text(text, file, dir, source, s, e);
}

int at_spec_load_file(const char *path, at_spec *s, at_err *e)
{
    char *text;
    size_t len;
    memset(s, 0, sizeof *s);
    int rc = at_read_file(path, &text, &len, e);
    if (rc)
        return rc;
    if (strlen(text) != len) {
        free(text);
        return at_fail(e, AUTOTUNE_EINVALID, "%s: a NUL byte in the spec",
                       path);
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1,
             slash ? (slash == path ? "/" : path) : ".");
    rc = at_spec_load_text(text, path, dir, s, e);
    free(text);
    return rc;
}

void at_spec_free(at_spec *s)
{
    free(s->file);
    free(s->kernel);
    free(s->source_file);
    free(s->source);
    for (int i = 0; i < s->n_options; ++i)
        free(s->options[i]);
    free(s->dir);
    for (int i = 0; i < s->n_defines; ++i) {
        free(s->defines[i].name);
        free(s->defines[i].real);
        at_expr_free(s->defines[i].value);
    }
    for (int i = 0; i < s->n_scalars; ++i)
        free(s->scalar_names[i]);
    for (int i = 0; i < s->n_params; ++i)
        free((char *)s->params[i].name);
    for (int i = 0; i < s->n_restrictions; ++i)
        at_expr_free(s->restrictions[i]);
    for (int d = 0; d < 3; ++d) {
        at_expr_free(s->block[d]);
        at_expr_free(s->grid[d]);
    }
    at_expr_free(s->smem);
    for (int i = 0; i < s->n_args; ++i) {
        free(s->args[i].name);
        free(s->args[i].file);
        free(s->args[i].data);
        at_expr_free(s->args[i].count);
        at_expr_free(s->args[i].value);
        at_expr_free(s->args[i].max_mismatches);
    }
    free(s->reference_kernel);
    free(s->ref_source_file);
    free(s->ref_source);
    free(s->init_kernel);
    free(s->init_source_file);
    free(s->init_source);
    for (int i = 0; i < s->n_init_args; ++i)
        at_expr_free(s->init_args[i].value);
    for (int d = 0; d < 3; ++d) {
        at_expr_free(s->ref_block[d]);
        at_expr_free(s->ref_grid[d]);
        at_expr_free(s->init_block[d]);
        at_expr_free(s->init_grid[d]);
    }
    at_expr_free(s->bytes);
    at_expr_free(s->flops);
    memset(s, 0, sizeof *s);
}
