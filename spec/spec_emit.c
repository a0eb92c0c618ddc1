/* A spec's emitted host launchers (spec/spec.h): NAME, taking the
 * buffers (and each __constant__'s host contents) in the spec's order,
 * then the sizes and scalars, and computing the launch geometry and the
 * scalar arguments as the spec does; and NAME_argv, the same from an
 * array of pointers to those parameters, for a caller that holds a
 * kernel's arguments as data (a test harness, a binding). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/spec_family_impl.h"

static const char *const size_names[] = {"size_x", "size_y", "size_z"};

/* x as C into f, after text (NULL x: dflt). */
static void put_c(FILE *f, const char *text, const at_spec *s,
                  const at_expr *x, const char *dflt)
{
    char *c = x ? at_sf_expr_c(s, x) : NULL;
    fprintf(f, "%s%s", text, c ? c : dflt);
    free(c);
}

/* The launcher's parameter type for argument a ("const float *"), or ""
 * for a scalar the spec computes. */
static void param_type(const at_spec_arg *a, char *buf, size_t n)
{
    buf[0] = '\0';
    if (a->kind == AT_ARG_CONSTANT)
        snprintf(buf, n, "const %s *", a->type->ctype);
    else if (a->kind == AT_ARG_BUFFER)
        snprintf(buf, n, "%s%s *", a->dir == AT_DIR_IN ? "const " : "",
                 a->type->ctype);
}

/* The launcher's parameters, each as its type (and name, if named): the
 * buffers and constants in spec order, the sizes, the scalars. Calls
 * put(ctx, type, name) for each; returns how many. */
static int each_param(const at_spec *s,
                      void (*put)(void *, const char *, const char *,
                                  int),
                      void *ctx)
{
    int k = 0;
    char t[160], nm[96];
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        param_type(a, t, sizeof t);
        if (!t[0])
            continue;
        snprintf(nm, sizeof nm, "%s%s", a->name,
                 a->kind == AT_ARG_CONSTANT ? "_host" : "");
        put(ctx, t, nm, k++);
    }
    for (int d = 0; d < s->dims; ++d)
        put(ctx, "long long ", size_names[d], k++);
    for (int i = 0; i < s->n_scalars; ++i)
        put(ctx, s->scalar_real[i] ? "double " : "long long ",
            s->scalar_names[i], k++);
    return k;
}

typedef struct text {
    char *buf;
    size_t n, k;
} text;

static void put_decl(void *ctx, const char *type, const char *name, int i)
{
    text *t = ctx;
    (void)i;
    if (t->k < t->n)
        t->k += (size_t)snprintf(t->buf + t->k, t->n - t->k, "%s%s, ", type,
                                 name);
}

/* "float *c, const float *a, ..., long long size_x, cudaStream_t". */
static void signature(const at_spec *s, char *buf, size_t n)
{
    text t = {buf, n, 0};
    buf[0] = '\0';
    each_param(s, put_decl, &t);
    if (t.k < n)
        snprintf(buf + t.k, n - t.k, "cudaStream_t at_stream");
}

void at_sf_usage(const at_problem *p, const char *name, char *buf, size_t n)
{
    char sig[1024];
    signature(&at_sf_of(p)->s, sig, sizeof sig);
    snprintf(buf, n, "cudaError_t %s(%s); or %s_argv(void *const *args, "
             "cudaStream_t), args[i] pointing to the i-th of those", name,
             sig, name);
}

/* The headers of the arguments' types, once each. */
static void includes(FILE *f, const at_spec *s)
{
    for (int i = 0; i < s->n_args; ++i) {
        const char *h = s->args[i].type->header;
        int seen = 0;
        for (int k = 0; k < i && h; ++k)
            seen |= s->args[k].type->header == h;
        if (h && !seen)
            fprintf(f, "#include <%s>\n", h);
    }
}

/* Copies each constant's host contents to its symbol. */
static void constants(FILE *f, const at_spec *s)
{
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
}

/* Integer scalars computed from the sizes: refused (cudaErrorInvalidValue)
 * where they do not fit the kernel's parameter, not cut short. */
static void scalars_fit(FILE *f, const at_spec *s)
{
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        const at_type *t = a->type;
        if (a->kind != AT_ARG_SCALAR || a->real || t->fp || t->lane == 8)
            continue;
        int bits = 8 * t->lane - !t->is_unsigned;
        put_c(f, "    {\n        long long at_v = ", s, a->value, "0");
        fprintf(f, ";\n        if (at_v < %s || at_v > %lldLL)\n"
                "            return cudaErrorInvalidValue; /* %s does not "
                "fit %s */\n    }\n", t->is_unsigned ? "0" : t->lane == 4
                ? "-2147483647LL - 1" : t->lane == 2 ? "-32768LL" : "-128LL",
                (1LL << bits) - 1, a->name, t->ctype);
    }
}

static void launch(FILE *f, const at_spec *s, const char *name)
{
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
            "cudaFuncSetAttribute(\n"
            "            at_tuned_kernel((const void *)%s_kernel),\n"
            "            cudaFuncAttributeMaxDynamicSharedMemorySize, "
            "(int)at_smem);\n"
            "        if (at_r != cudaSuccess)\n            return at_r;\n"
            "    }\n", name);
    /* Each argument as the spec types it; launched by cudaLaunchKernel,
     * so a buffer the kernel takes as another pointer type (a float4 *
     * for a float buffer) passes as it is. */
    int n = 0;
    for (int i = 0; i < s->n_args; ++i) {
        const at_spec_arg *a = &s->args[i];
        if (a->kind == AT_ARG_CONSTANT)
            continue;
        if (a->kind == AT_ARG_BUFFER)
            fprintf(f, "    const void *at_a%d = %s;\n", n, a->name);
        else if (a->real && a->real_scalar >= 0)
            fprintf(f, "    %s at_a%d = (%s)%s;\n", a->type->ctype, n,
                    a->type->ctype, s->scalar_names[a->real_scalar]);
        else if (a->real)
            fprintf(f, "    %s at_a%d = (%s)%.17g;\n", a->type->ctype, n,
                    a->type->ctype, a->real_value);
        else {
            fprintf(f, "    %s at_a%d = (%s)", a->type->ctype, n,
                    a->type->ctype);
            put_c(f, "", s, a->value, "0");
            fprintf(f, ";\n");
        }
        ++n;
    }
    fprintf(f, "    void *at_args[] = {");
    for (int i = 0; i < n; ++i)
        fprintf(f, "%s(void *)&at_a%d", i ? ", " : "", i);
    fprintf(f, "%s};\n    at_r = cudaLaunchKernel(\n"
            "        at_tuned_kernel((const void *)%s_kernel), at_grid, "
            "at_block,\n        at_args, at_smem, at_stream);\n"
            "    return at_r != cudaSuccess ? at_r : cudaGetLastError();\n}\n",
            n ? "" : "NULL", name);
}

static void put_arg(void *ctx, const char *type, const char *name, int i)
{
    FILE *f = ctx;
    (void)name;
    fprintf(f, "%s*(%s*)at_args[%d]", i ? ",\n        " : "", type,
            i);
}

void at_sf_emit_launcher(FILE *f, const at_problem *p, const at_point *pt,
                      const char *name)
{
    const at_spec *s = &at_sf_of(p)->s;
    char sig[1024];
    (void)pt; /* the point is the #defines above */
    signature(s, sig, sizeof sig);
    /* Its own names start with at_, which no spec name may (gen/ident.c):
     * a parameter's #define cannot reach them. */
    fprintf(f, "\n/* Launcher (autotune): the spec's launch geometry at the "
            "point above. */\n");
    includes(f, s);
    fprintf(f, "#define at_min_(a, b) ((a) < (b) ? (a) : (b))\n"
            "#define at_max_(a, b) ((a) > (b) ? (a) : (b))\n\n"
            "extern \"C\" cudaError_t %s(%s)\n{\n    cudaError_t at_r;\n",
            name, sig);
    scalars_fit(f, s);
    constants(f, s);
    launch(f, s, name);
    fprintf(f, "\n/* The same, args[i] pointing to its i-th parameter. */\n"
            "extern \"C\" cudaError_t %s_argv(void *const *at_args, "
            "cudaStream_t at_stream)\n{\n    return %s(", name, name);
    if (each_param(s, put_arg, f))
        fprintf(f, ",\n        ");
    fprintf(f, "at_stream);\n}\n");
}
