#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../gen/templates.h"
#include "../search/pcg.h"
#include "bench.h"
#include "compile.h"

/* Rounds of the interleaved timing, and samples per kernel per round. */
enum { ROUNDS = 5, ROUND_SAMPLES = 10 };

static const char *const names[AT_CMP_N] = {"memcpy", "tuned", "cublas",
                                            "naive", "classic"};

const char *at_cmp_kernel_name(int k)
{
    return k >= 0 && k < AT_CMP_N ? names[k] : "?";
}

enum { SIZES = 5 }; /* element sizes 1, 2, 4, 8, 16 */

struct at_baselines {
    const at_device *d;
    CUmodule mod[SIZES];
    CUfunction naive[SIZES], classic[SIZES];
};

int at_baselines_create(at_baselines **out, const at_device *d, at_err *e)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return at_fail(e, AUTOTUNE_ENOMEM, "baselines");
    (*out)->d = d;
    return 0;
}

void at_baselines_destroy(at_baselines *b)
{
    if (!b)
        return;
    for (int i = 0; i < SIZES; ++i)
        if (b->mod[i])
            at_cu.cuModuleUnload(b->mod[i]);
    free(b);
}

static int size_index(int bytes)
{
    int i = 0;
    while ((1 << i) < bytes)
        ++i;
    return i;
}

/* The baselines for an element size, compiled on first use. */
static int baselines_get(at_baselines *b, int bytes, at_err *e)
{
    int i = size_index(bytes);
    if (b->mod[i])
        return 0;
    char head[64];
    snprintf(head, sizeof head, "#define AT_ELEM_BYTES %d\n", bytes);
    size_t n = strlen(head) + strlen(at_tmpl_baselines) + 1;
    char *src = malloc(n);
    if (!src)
        return at_fail(e, AUTOTUNE_ENOMEM, "baselines source");
    snprintf(src, n, "%s%s", head, at_tmpl_baselines);
    at_compile_opts co = {.sm = b->d->sm};
    void *cubin = NULL;
    size_t size = 0;
    char variant[64];
    snprintf(variant, sizeof variant, "baselines, %d-byte elements", bytes);
    int rc = at_compile(src, variant, &co, &cubin, &size, e);
    free(src);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(&b->mod[i], cubin);
    free(cubin);
    if (r != CUDA_SUCCESS) {
        b->mod[i] = NULL;
        return at_cu_fail(e, r, "cuModuleLoadData", variant);
    }
    AT_CU_TRY(e, variant, cuModuleGetFunction, &b->naive[i], b->mod[i],
              "at_naive");
    AT_CU_TRY(e, variant, cuModuleGetFunction, &b->classic[i], b->mod[i],
              "at_classic");
    return 0;
}

/* What an op launches: a baseline kernel or cuBLAS. */
typedef struct op_ctx {
    at_bench_op op;
    const at_problem *p;
    CUfunction fn;
    at_cublas *cb;
    const char *name;
} op_ctx;

static int op_baseline(void *ctx, CUdeviceptr in, CUdeviceptr out,
                       CUstream s, at_err *e)
{
    const op_ctx *c = ctx;
    const at_problem *p = c->p;
    at_args a;
    p->family->args(p, in, out, &a);
    int64_t gy = (p->rows + 31) / 32;
    unsigned gx = (unsigned)((p->cols + 31) / 32);
    unsigned gyu = (unsigned)(gy > 65535 ? 65535 : gy);
    unsigned gz = (unsigned)(p->batch > 65535 ? 65535 : p->batch);
    AT_CU_TRY(e, c->name, cuLaunchKernel, c->fn, gx, gyu, gz, 32, 8, 1, 0, s,
              a.ptr, NULL);
    return 0;
}

static int op_cublas(void *ctx, CUdeviceptr in, CUdeviceptr out, CUstream s,
                     at_err *e)
{
    const op_ctx *c = ctx;
    return at_cublas_transpose(c->cb, c->p, in, out, s, e);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The kernels of one comparison, ready to check and time. */
typedef struct run {
    at_bench *b;
    autotune_kernel *k;
    op_ctx ops[AT_CMP_N];
} run;

static int time_one(run *r, int i, at_timing *t, at_err *e)
{
    if (i == AT_CMP_MEMCPY)
        return at_bench_time_copy(r->b, ROUND_SAMPLES, t, e);
    if (i == AT_CMP_TUNED)
        return at_bench_time(r->b, &r->k->pt, r->k->fn, r->k->name,
                             ROUND_SAMPLES, 0, 0, t, e);
    return at_bench_time_op(r->b, r->ops[i].op, &r->ops[i], r->ops[i].name,
                            ROUND_SAMPLES, t, e);
}

static int check_one(run *r, int i, at_err *e)
{
    if (i == AT_CMP_MEMCPY)
        return 0; /* a copy is not a transpose: nothing to check */
    if (i == AT_CMP_TUNED)
        return at_bench_verify(r->b, &r->k->pt, r->k->fn, r->k->name, e);
    return at_bench_verify_op(r->b, r->ops[i].op, &r->ops[i],
                              r->ops[i].name, e);
}

int at_compare(autotune_ctx *ctx, const autotune_problem *u,
               const at_tune_opts *o, at_baselines *bl, at_cublas *cb,
               const char *cublas_why, at_cmp *out, at_err *e)
{
    memset(out, 0, sizeof *out);
    at_tuned t;
    run r = {0};
    double t0 = now_s();
    int rc = at_ctx_get(ctx, u, o, &r.k, &t);
    at_tuned_free(&t);
    if (rc) {
        *e = ctx->err;
        return rc;
    }
    const at_problem prob = r.k->p, *p = &prob;
    out->from_cache = r.k->fig.from_cache;
    out->tune_s = out->from_cache ? 0 : now_s() - t0;
    snprintf(out->point, sizeof out->point, "%s", r.k->name);
    for (int i = 0; i < AT_CMP_N; ++i) {
        out->row[i].present = 1;
        r.ops[i] = (op_ctx){i == AT_CMP_CUBLAS ? op_cublas : op_baseline, p,
                            NULL, cb, names[i]};
    }
    const char *why_not = cb ? at_cublas_cannot(p) : cublas_why;
    if (why_not) {
        out->row[AT_CMP_CUBLAS].present = 0;
        snprintf(out->row[AT_CMP_CUBLAS].why,
                 sizeof out->row[AT_CMP_CUBLAS].why, "%s", why_not);
    }
    if ((rc = at_device_push(&ctx->dev, e))) {
        autotune_kernel_destroy(r.k);
        return rc;
    }
    rc = baselines_get(bl, p->type->bytes, e);
    if (!rc) {
        int i = size_index(p->type->bytes);
        r.ops[AT_CMP_NAIVE].fn = bl->naive[i];
        r.ops[AT_CMP_CLASSIC].fn = bl->classic[i];
        out->seed = o->seed ? o->seed : at_pcg_fresh_seed();
        rc = at_bench_create(&r.b, &ctx->dev, p, out->seed, AT_BENCH_FINITE,
                             ctx->cubins, e);
    }
    for (int i = 0; !rc && i < AT_CMP_N; ++i)
        if (out->row[i].present)
            rc = check_one(&r, i, e);
    double ms[AT_CMP_N][ROUNDS] = {{0}};
    for (int k = 0; !rc && k < ROUNDS; ++k)
        for (int i = 0; !rc && i < AT_CMP_N; ++i) {
            at_timing tm;
            if (!out->row[i].present)
                continue;
            rc = time_one(&r, i, &tm, e);
            ms[i][k] = tm.median_ms;
        }
    if (!rc) {
        out->sets = at_bench_sets(r.b);
        out->past_l2 = at_bench_past_l2(r.b);
        double bytes = p->family->bytes_moved(p);
        for (int i = 0; i < AT_CMP_N; ++i) {
            at_cmp_row *w = &out->row[i];
            if (!w->present)
                continue;
            qsort(ms[i], ROUNDS, sizeof ms[i][0], cmp_double);
            w->ms = ms[i][ROUNDS / 2];
            w->min_ms = ms[i][0];
            w->max_ms = ms[i][ROUNDS - 1];
            w->gbps = bytes / w->ms / 1e6;
        }
        for (int i = 0; i < AT_CMP_N; ++i)
            if (out->row[i].present)
                out->row[i].frac_copy =
                    out->row[i].gbps / out->row[AT_CMP_MEMCPY].gbps;
    }
    at_bench_destroy(r.b);
    at_device_pop();
    autotune_kernel_destroy(r.k);
    if (rc) {
        char text[256];
        at_problem_str(p, text, sizeof text);
        at_err_prefix(e, "benchmark of %s (input seed %llu): ", text,
                      (unsigned long long)out->seed);
    }
    return rc;
}
