/* A spec's expressions written as C: the emitted host launcher (the
 * launch geometry and scalar arguments the spec gives, computed from the
 * sizes and scalars it takes) and the spec's canonical text for the
 * cache key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/spec_family_impl.h"

static const char *slot_name(void *ctx, int i)
{
    return at_spec_slot_name(ctx, i);
}

/* x as C, whole: malloc'd (NULL on no memory). */
static char *c_dup(const at_spec *s, const at_expr *x)
{
    size_t n = at_expr_c(x, slot_name, (void *)s, NULL, 0) + 1;
    char *buf = malloc(n);
    if (buf)
        at_expr_c(x, slot_name, (void *)s, buf, n);
    return buf;
}

/* x as C into f, after text (NULL x: dflt). */
static void put_c(FILE *f, const char *text, const at_spec *s,
                  const at_expr *x, const char *dflt)
{
    char *c = x ? c_dup(s, x) : NULL;
    fprintf(f, "%s%s", text, c ? c : dflt);
    free(c);
}

static const char *const dir_names[] = {"in", "out", "inout"};
static const char *const init_names[] = {"random", "zeros", "ones", "iota"};
static const char *const kind_names[] = {"buffer", "scalar", "constant"};

/* Appends to a growing string; 0, or -1 on no memory. */
typedef struct grow {
    char *s;
    size_t len, cap;
} grow;

static int add(grow *g, const char *fmt, const char *a, const char *b)
{
    int n = snprintf(NULL, 0, fmt, a, b);
    if (n < 0)
        return -1;
    if (g->len + (size_t)n + 1 > g->cap) {
        size_t cap = (g->cap + (size_t)n + 1) * 2;
        char *t = realloc(g->s, cap);
        if (!t)
            return -1;
        g->s = t;
        g->cap = cap;
    }
    snprintf(g->s + g->len, g->cap - g->len, fmt, a, b);
    g->len += (size_t)n;
    return 0;
}

static int add_expr(grow *g, const at_spec *s, const char *label,
                    const at_expr *x)
{
    if (!x)
        return 0;
    char *c = c_dup(s, x);
    int bad = !c || add(g, "%s %s\n", label, c);
    free(c);
    return bad ? -1 : 0;
}

char *sf_canonical(const at_spec *s)
{
    grow g = {0};
    char v[64];
    int bad = add(&g, "kernel %s%s\n", s->kernel, "");
    for (int i = 0; i < s->n_options; ++i)
        bad |= add(&g, "option %s%s\n", s->options[i], "");
    for (int i = 0; i < s->n_defines; ++i) {
        snprintf(v, sizeof v, "%lld", (long long)s->defines[i].value);
        bad |= add(&g, "define %s %s\n", s->defines[i].name, v);
    }
    snprintf(v, sizeof v, "%d", s->dims);
    bad |= add(&g, "dims %s%s\n", v, "");
    for (int i = 0; i < s->n_scalars; ++i)
        bad |= add(&g, "scalar %s%s\n", s->scalar_names[i], "");
    for (int i = 0; i < s->n_params; ++i) {
        bad |= add(&g, "param %s%s", s->params[i].name, "");
        for (int k = 0; k < s->params[i].n; ++k) {
            snprintf(v, sizeof v, " %d", s->params[i].values[k]);
            bad |= add(&g, "%s%s", v, "");
        }
        bad |= add(&g, "\n%s%s", "", "");
    }
    for (int i = 0; i < s->n_restrictions; ++i)
        bad |= add_expr(&g, s, "restrict", s->restrictions[i]);
    for (int d = 0; d < 3; ++d) {
        bad |= add_expr(&g, s, "block", s->block[d]);
        bad |= add_expr(&g, s, "grid", s->grid[d]);
        bad |= add_expr(&g, s, "ref_block", s->ref_block[d]);
        bad |= add_expr(&g, s, "ref_grid", s->ref_grid[d]);
    }
    bad |= add_expr(&g, s, "smem", s->smem);
    bad |= add_expr(&g, s, "bytes", s->bytes);
    bad |= add_expr(&g, s, "flops", s->flops);
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        bad |= add(&g, "arg %s %s", a->name, kind_names[a->kind]);
        bad |= add(&g, " %s %s", a->type->name, dir_names[a->dir]);
        snprintf(v, sizeof v, " %d %.17g %.17g", a->exact, a->atol, a->rtol);
        bad |= add(&g, " %s%s", init_names[a->init], v);
        bad |= add_expr(&g, s, "", a->count ? a->count : a->value);
    }
    snprintf(v, sizeof v, "%d %d", s->verify, s->has_reference_point);
    bad |= add(&g, "verify %s %s", v,
               s->reference_kernel ? s->reference_kernel : "-");
    for (int i = 0; s->has_reference_point && i < s->n_params; ++i) {
        snprintf(v, sizeof v, " %d", s->reference_point[i]);
        bad |= add(&g, "%s%s", v, "");
    }
    bad |= add(&g, "\n%s%s", "", "");
    if (bad) {
        free(g.s);
        return NULL;
    }
    return g.s;
}

/* The launcher's parameter for argument a ("const float *a"), or "" for
 * a scalar the spec computes. */
static void param(const at_spec_arg *a, char *buf, size_t n)
{
    buf[0] = '\0';
    if (a->kind == AT_ARG_CONSTANT)
        snprintf(buf, n, "const %s *%s_host", a->type->ctype, a->name);
    else if (a->kind == AT_ARG_BUFFER)
        snprintf(buf, n, "%s%s *%s", a->dir == AT_DIR_IN ? "const " : "",
                 a->type->ctype, a->name);
}

/* "float *c, const float *a, ..., long long size_x, cudaStream_t". */
static void signature(const at_spec *s, char *buf, size_t n)
{
    static const char *const size_names[] = {"size_x", "size_y", "size_z"};
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->n_args && k < n; ++i) {
        char p[160];
        param(&s->args[i], p, sizeof p);
        if (p[0])
            k += (size_t)snprintf(buf + k, n - k, "%s, ", p);
    }
    for (int d = 0; d < s->dims && k < n; ++d)
        k += (size_t)snprintf(buf + k, n - k, "long long %s, ",
                              size_names[d]);
    for (int i = 0; i < s->n_scalars && k < n; ++i)
        k += (size_t)snprintf(buf + k, n - k, "long long %s, ",
                              s->scalar_names[i]);
    if (k < n)
        snprintf(buf + k, n - k, "cudaStream_t at_stream");
}

void sf_usage(const at_problem *p, const char *name, char *buf, size_t n)
{
    char sig[1024];
    signature(&sf_of(p)->s, sig, sizeof sig);
    snprintf(buf, n, "cudaError_t %s(%s);", name, sig);
}

void sf_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                      const char *name)
{
    const at_spec *s = &sf_of(p)->s;
    char sig[1024];
    (void)pt; /* the point is the #defines above */
    signature(s, sig, sizeof sig);
    /* Its own names start with at_, which no spec name may (gen/ident.c):
     * a parameter's #define cannot reach them. */
    fprintf(f, "\n/* Launcher (autotune): the spec's launch geometry at the "
            "point above. */\n"
            "#define at_min_(a, b) ((a) < (b) ? (a) : (b))\n"
            "#define at_max_(a, b) ((a) > (b) ? (a) : (b))\n\n"
            "extern \"C\" cudaError_t %s(%s)\n{\n    cudaError_t at_r;\n",
            name, sig);
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->kind != AT_ARG_CONSTANT)
            continue;
        fprintf(f, "    at_r = cudaMemcpyToSymbolAsync(%s, %s_host, "
                "sizeof(%s) * (size_t)(", a->name, a->name, a->type->ctype);
        put_c(f, "", s, a->count, "0");
        fprintf(f, "), 0, cudaMemcpyHostToDevice, at_stream);\n"
                "    if (at_r != cudaSuccess)\n        return at_r;\n");
    }
    static const char *const what[2] = {"at_block", "at_grid"};
    for (int w = 0; w < 2; ++w) {
        at_expr *const *x = w ? s->grid : s->block;
        fprintf(f, "    dim3 %s(", what[w]);
        for (int d = 0; d < 3; ++d)
            put_c(f, d ? ", (unsigned)" : "(unsigned)", s, x[d], "1");
        fprintf(f, ");\n");
    }
    put_c(f, "    size_t at_smem = (size_t)", s, s->smem, "0");
    fprintf(f, ";\n    if (at_smem > 48 * 1024) {\n        at_r = "
            "cudaFuncSetAttribute(%s_kernel, "
            "cudaFuncAttributeMaxDynamicSharedMemorySize, (int)at_smem);\n"
            "        if (at_r != cudaSuccess)\n            return at_r;\n"
            "    }\n    %s_kernel<<<at_grid, at_block, at_smem, "
            "at_stream>>>(", name, name);
    int first = 1;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->kind == AT_ARG_CONSTANT)
            continue;
        fprintf(f, "%s", first ? "" : ", ");
        first = 0;
        if (a->kind == AT_ARG_BUFFER) {
            fprintf(f, "(%s *)%s", a->type->ctype, a->name);
        } else {
            fprintf(f, "(%s)", a->type->ctype);
            put_c(f, "", s, a->value, "0");
        }
    }
    fprintf(f, ");\n    return cudaGetLastError();\n}\n");
}
