/* Loading a spec file into an at_spec (gen/spec.h): the kernel, problem
 * and parameter sections here, expressions and arguments in
 * spec_parts.c. */
#include "gen/spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "gen/ident.h"
#include "gen/spec_internal.h"

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
 * names, relative to dir. */
static int read_source(at_yaml *y, at_spec *s, yaml_node_t *n,
                       const char *dir, const char *given)
{
    if (given)
        return (s->source = strdup(given))
                   ? 0
                   : at_yaml_fail(y, n, "kernel.source", "out of memory");
    char path[4096];
    if (s->source_file[0] == '/' || !dir)
        snprintf(path, sizeof path, "%s", s->source_file);
    else
        snprintf(path, sizeof path, "%s/%s", dir, s->source_file);
    size_t len;
    at_err why = {0};
    if (at_read_file(path, &s->source, &len, &why))
        return at_yaml_fail(y, n, "kernel.source", "%s", why.msg);
    if (strlen(s->source) != len)
        return at_yaml_fail(y, n, "kernel.source", "%s holds a NUL byte",
                            path);
    return 0;
}

static int load_kernel(at_yaml *y, at_spec *s, yaml_node_t *k,
                       const char *dir, const char *given)
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
    if ((rc = read_source(y, s, at_yaml_get(y, k, "source"), dir, given)))
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
    yaml_node_t *d = at_yaml_get(y, k, "defines");
    if (d && !at_yaml_is(d, YAML_MAPPING_NODE))
        return at_yaml_fail(y, d, "kernel.defines", "expected a mapping of "
                            "names to integers");
    for (int i = 0; i < at_yaml_count(d); ++i) {
        at_spec_define *df = &s->defines[s->n_defines];
        if (s->n_defines == AT_SPEC_MAX_DEFINES)
            return at_yaml_fail(y, d, "kernel.defines", "more than %d",
                                AT_SPEC_MAX_DEFINES);
        if ((rc = at_yaml_string(y, at_yaml_key(y, d, i), "kernel.defines",
                                 &df->name)))
            return rc;
        ++s->n_defines;
        if ((rc = at_spec_check_ident(y, at_yaml_key(y, d, i),
                                      "kernel.defines", df->name)) ||
            (rc = at_yaml_int(y, at_yaml_item(y, d, i), df->name, INT64_MIN,
                              INT64_MAX, &df->value)))
            return rc;
    }
    return 0;
}

static int load_problem(at_yaml *y, at_spec *s, yaml_node_t *p)
{
    static const char *const known[] = {"size", "scalars", NULL};
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
    yaml_node_t *c = at_yaml_get(y, p, "scalars");
    if (c && !at_yaml_is(c, YAML_MAPPING_NODE))
        return at_yaml_fail(y, c, "problem.scalars", "expected a mapping of "
                            "names to integers");
    for (int i = 0; i < at_yaml_count(c); ++i) {
        char *name;
        if (s->n_scalars == AT_SPEC_MAX_SCALARS)
            return at_yaml_fail(y, c, "problem.scalars", "more than %d",
                                AT_SPEC_MAX_SCALARS);
        if ((rc = at_yaml_string(y, at_yaml_key(y, c, i), "problem.scalars",
                                 &name)))
            return rc;
        if ((rc = at_spec_new_name(y, s, at_yaml_key(y, c, i),
                                   "problem.scalars", name))) {
            free(name);
            return rc;
        }
        s->scalar_names[s->n_scalars++] = name;
        if ((rc = at_yaml_int(y, at_yaml_item(y, c, i), name, INT64_MIN,
                              INT64_MAX, &s->scalars[s->n_scalars - 1])))
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
    if (at_yaml_count(t) > AT_MAX_AXES)
        return at_yaml_fail(y, t, "tune_params", "%d parameters, at most %d",
                            at_yaml_count(t), AT_MAX_AXES);
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

static int load(at_yaml *y, at_spec *s, const char *dir, const char *given)
{
    static const char *const known[] = {
        "autotune_spec", "kernel", "problem", "tune_params", "restrictions",
        "launch", "arguments", "verify", "metrics", NULL};
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
    if ((rc = at_yaml_int(y, v, "autotune_spec", AT_SPEC_VERSION,
                          AT_SPEC_VERSION, &version)) ||
        (rc = load_kernel(y, s, at_yaml_get(y, r, "kernel"), dir, given)) ||
        (rc = load_problem(y, s, at_yaml_get(y, r, "problem"))) ||
        (rc = load_params(y, s, at_yaml_get(y, r, "tune_params"))) ||
        (rc = at_spec_load_restrictions(y, s,
                                        at_yaml_get(y, r, "restrictions"))) ||
        (rc = at_spec_load_launch(y, s, at_yaml_get(y, r, "launch"))) ||
        (rc = at_spec_load_args(y, s, at_yaml_get(y, r, "arguments"))) ||
        (rc = at_spec_load_verify(y, s, at_yaml_get(y, r, "verify"))) ||
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
    if (!(s->file = strdup(file)))
        rc = at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory", file);
    else
        rc = load(&y, s, dir, given);
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

int at_spec_load_mem(const char *text, const char *file, const char *source,
                     at_spec *s, at_err *e)
{
    return load_text(text, file, NULL, source, s, e);
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
             slash ? path : ".");
    rc = at_spec_load_text(text, path, dir, s, e);
    free(text);
    return rc;
}

char *at_spec_variant_source(const at_spec *s, const int *pt, at_err *e)
{
    /* "#define NAME VALUE\n": the name and at most 30 more bytes. */
    size_t cap = strlen(s->source) + strlen(s->source_file) + 16;
    for (int i = 0; i < s->n_params; ++i)
        cap += strlen(s->params[i].name) + 30;
    for (int i = 0; i < s->n_defines; ++i)
        cap += strlen(s->defines[i].name) + 30;
    char *src = malloc(cap);
    if (!src) {
        at_fail(e, AUTOTUNE_ENOMEM, "%s: out of memory", s->file);
        return NULL;
    }
    size_t len = 0;
    for (int i = 0; i < s->n_params; ++i)
        len += (size_t)snprintf(src + len, cap - len, "#define %s %d\n",
                                s->params[i].name, pt[i]);
    for (int i = 0; i < s->n_defines; ++i)
        len += (size_t)snprintf(src + len, cap - len, "#define %s %lld\n",
                                s->defines[i].name,
                                (long long)s->defines[i].value);
    /* The file's name in #line: quotes and backslashes would end it. */
    len += (size_t)snprintf(src + len, cap - len, "#line 1 \"");
    for (const char *c = s->source_file; *c && len + 2 < cap; ++c)
        src[len++] = *c == '"' || *c == '\\' || (unsigned char)*c < ' '
                         ? '_' : *c;
    snprintf(src + len, cap - len, "\"\n%s", s->source);
    return src;
}

void at_spec_free(at_spec *s)
{
    free(s->file);
    free(s->kernel);
    free(s->source_file);
    free(s->source);
    for (int i = 0; i < s->n_options; ++i)
        free(s->options[i]);
    for (int i = 0; i < s->n_defines; ++i)
        free(s->defines[i].name);
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
        at_expr_free(s->args[i].count);
        at_expr_free(s->args[i].value);
    }
    free(s->reference_kernel);
    for (int d = 0; d < 3; ++d) {
        at_expr_free(s->ref_block[d]);
        at_expr_free(s->ref_grid[d]);
    }
    at_expr_free(s->bytes);
    at_expr_free(s->flops);
    memset(s, 0, sizeof *s);
}
