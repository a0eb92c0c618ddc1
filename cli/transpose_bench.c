/* The transpose benchmark: its suite, its targets (issue 3's), its CSV
 * columns, and its contenders: cuBLAS geam, cuTENSOR's permute and the
 * classic kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_families.h"
#include "gen/transpose.h"
#include "transpose_baselines.h"
#include "transpose_cublas.h"
#include "transpose_cutensor.h"

#define T(type, r, c) {type, "rows=" #r " cols=" #c}
#define TLD(type, r, c, li, lo) \
    {type, "rows=" #r " cols=" #c " ld_in=" #li " ld_out=" #lo}
#define TB(type, b, r, c) {type, "rows=" #r " cols=" #c " batch=" #b}

/* Every element size, large matrices (256 MiB and more, far past the L2
 * cache) square and not, sizes no tile divides, thin matrices, rows
 * wider than the matrix, and batches of small matrices. */
static const at_text_problem suite[] = {
    T("f32", 8192, 8192),      T("f32", 16384, 4096),
    T("f32", 4096, 16384),     T("f32", 65536, 1024),
    T("f64", 8192, 4096),      T("f64", 4096, 8192),
    T("f64", 8192, 8192),      T("c64", 8192, 4096),
    T("c128", 4096, 4096),     T("i8", 16384, 16384),
    T("u8", 8192, 32768),      T("f16", 16384, 8192),
    T("bf16", 8192, 16384),
    T("f32", 4099, 2053),      T("f32", 8191, 8209),
    T("f64", 4099, 2053),      T("c64", 4099, 2053),
    T("c128", 4099, 2053),     T("i8", 4099, 2053),
    T("f16", 4099, 2053),
    T("f32", 3, 1000000),      T("f32", 1000000, 3),
    T("f32", 1, 4194304),      T("f32", 4194304, 1),
    TLD("f32", 8000, 8000, 8192, 8192),
    TLD("f64", 5000, 3000, 5120, 5120),
    TB("f32", 4096, 64, 64),   TB("f16", 4096, 64, 64),
    TB("i8", 4096, 128, 128),  TB("f64", 16384, 32, 32),
    /* Thin (issue 16): AoS <-> SoA, pairs interleaved, and their analogues
     * in every size, batched, and medium-thin sides tiles serve. */
    T("f32", 4, 4194304),      T("f32", 4194304, 4),
    T("f16", 2, 16777216),     T("f16", 16777216, 2),
    T("bf16", 4, 8388608),     T("i8", 3, 22369623),
    T("f64", 4, 2097152),      T("f64", 2796203, 3),
    T("c64", 3, 2796203),      T("c128", 2, 2097152),
    T("c128", 2097152, 2),     T("f32", 29, 578525),
    TB("f32", 64, 4, 65536),   TB("f16", 64, 262144, 2),
    T("f16", 164, 304536),     T("f32", 186, 303727),
};
enum { SUITE = sizeof suite / sizeof suite[0] };


/* cuBLAS's row and cuTENSOR's: the first contenders. */
enum { ROW_CUBLAS = AT_CMP_FIRST_CONTENDER, ROW_CUTENSOR };

/* The targets, by the problem's kind; NULL where none applies.
 * Sets *min_frac (of the copy) and *vs_libs (must match cuBLAS and
 * cuTENSOR where they run). Issue 16's for every problem of 64 MiB or
 * more: copies 98%; 4- to 16-byte elements 97%, thin (a side of at most
 * 32) 95%; 1- and 2-byte 95%, thin 90%. */
static const char *target_of(const at_problem *p, double *min_frac,
                             int *vs_libs)
{
    const int64_t *v = p->v;
    const double bytes = (double)v[TP_ROWS] * (double)v[TP_COLS] *
                         (double)v[TP_BATCH] * p->type->bytes;
    const int64_t side = v[TP_ROWS] < v[TP_COLS] ? v[TP_ROWS] : v[TP_COLS];
    const int wide = p->type->bytes >= 4;
    int odd = v[TP_BATCH] == 1 && (v[TP_ROWS] % 32 || v[TP_COLS] % 32);
    *min_frac = 0;
    *vs_libs = 0;
    if (bytes >= 64.0 * 1024 * 1024) {
        *vs_libs = 1;
        if (side == 1) {
            *min_frac = 0.98;
            return ">= 98% of copy (a copy) and >= cuBLAS, cuTENSOR";
        }
        if (side <= 32) {
            *min_frac = wide ? 0.95 : 0.90;
            return wide ? ">= 95% of copy (thin) and >= cuBLAS, cuTENSOR"
                        : ">= 90% of copy (thin) and >= cuBLAS, cuTENSOR";
        }
        *min_frac = wide ? 0.97 : 0.95;
        return wide ? ">= 97% of copy and >= cuBLAS, cuTENSOR"
                    : ">= 95% of copy and >= cuBLAS, cuTENSOR";
    }
    if (odd) {
        *vs_libs = 1;
        return ">= cuBLAS, cuTENSOR";
    }
    if (v[TP_BATCH] == 4096 && v[TP_ROWS] == 64 && v[TP_COLS] == 64 &&
        strcmp(p->type->name, "f32") == 0) {
        *min_frac = 0.85;
        return ">= 85% of copy";
    }
    return NULL;
}

/* "met", "MISSED: ..." or "" (no target). */
static void verdict(const at_problem *p, const at_cmp *c, char *buf,
                    size_t n)
{
    double min_frac;
    int vs;
    const char *t = target_of(p, &min_frac, &vs);
    buf[0] = '\0';
    if (!t)
        return;
    const at_cmp_row *tu = &c->row[AT_CMP_TUNED], *cb = &c->row[ROW_CUBLAS];
    const at_cmp_row *ct = &c->row[ROW_CUTENSOR];
    char why[320] = "";
    size_t used = 0;
    if (tu->frac_copy < min_frac) {
        used += (size_t)snprintf(why + used, sizeof why - used,
                                 "%.1f%% of copy < %.0f%%",
                                 100 * tu->frac_copy, 100 * min_frac);
        /* Where the layout itself is below the target, say so: the copy
         * is no ceiling there. */
        const double share = at_tp_layout_share(p);
        if (share < min_frac && used < sizeof why)
            used += (size_t)snprintf(why + used, sizeof why - used,
                                     " (the rows: %.1f%% of the 64-byte "
                                     "blocks they touch is data)",
                                     100 * share);
    }
    if (vs && cb->present && tu->gbps < cb->gbps && used < sizeof why)
        used += (size_t)snprintf(why + used, sizeof why - used,
                                 "%s%.0f GB/s < cuBLAS %.0f",
                                 used ? "; " : "", tu->gbps, cb->gbps);
    if (vs && ct->present && tu->gbps < ct->gbps && used < sizeof why)
        snprintf(why + used, sizeof why - used, "%s%.0f GB/s < cuTENSOR %.0f",
                 used ? "; " : "", tu->gbps, ct->gbps);
    if (vs && !cb->present && !ct->present && min_frac == 0)
        snprintf(buf, n, "%s: no library to compare", t);
    else if (why[0])
        snprintf(buf, n, "MISSED %s: %s", t, why);
    else
        snprintf(buf, n, "met (%s)", t);
}

static void shape_text(const at_problem *p, char *buf, size_t n)
{
    const int64_t *v = p->v;
    at_tp_file_stem(p, buf, n);
    size_t k = strlen(buf);
    if (k < n && (v[TP_LD_IN] != v[TP_COLS] || v[TP_LD_OUT] != v[TP_ROWS]))
        snprintf(buf + k, n - k, " ld %lld/%lld", (long long)v[TP_LD_IN],
                 (long long)v[TP_LD_OUT]);
}

/* Uniform in [0, 1). */
static double unit(at_pcg *g) { return at_pcg_next(g) / 4294967296.0; }

/* A sweep's problem (issue 16): every type alike; the bytes of a problem
 * log-uniform from 1 MiB to 1 GiB; a tenth of them batches of 2 to 1024
 * matrices; a fifth thin, one side 1 to 32, the others an aspect ratio
 * log-uniform up to 2^14:1, either way round; sides as they fall (odd
 * half the time); a quarter with leading dimensions padded by 1 to 64
 * elements. */
static void draw(at_pcg *g, const char **type, char *fields, size_t n)
{
    const at_family *f = at_family_find("transpose");
    const at_type *taken[16];
    uint32_t types = 0;
    for (int i = 0; at_type_at(i) && types < 16; ++i)
        if (at_family_takes(f, at_type_at(i)))
            taken[types++] = at_type_at(i);
    const at_type *t = taken[at_pcg_bounded(g, types)];
    double bytes = exp(log(1 << 20) + unit(g) * log(1024.0));
    long long batch = at_pcg_bounded(g, 10) == 0
                          ? 2LL << at_pcg_bounded(g, 10) : 1;
    double elems = bytes / t->bytes / (double)batch;
    if (elems < 1)
        elems = 1;
    double shorter, longer;
    if (at_pcg_bounded(g, 5) == 0) {
        shorter = 1 + at_pcg_bounded(g, 32);
        longer = elems / shorter;
    } else {
        double aspect = exp(unit(g) * log(16384.0));
        shorter = sqrt(elems / aspect);
        longer = shorter * aspect;
        if (shorter < 1) { /* an aspect past the elements: a vector */
            shorter = 1;
            longer = elems;
        }
    }
    long long a = (long long)shorter; /* at least 1 */
    long long b = longer < 1 ? 1 : (long long)longer;
    int wide = at_pcg_bounded(g, 2);
    const long long rows = wide ? a : b, cols = wide ? b : a;
    int k = snprintf(fields, n, "rows=%lld cols=%lld batch=%lld", rows, cols,
                     batch);
    *type = t->name;
    if (at_pcg_bounded(g, 4) == 0 && k > 0 && (size_t)k < n) {
        long long ld_in = cols + 1 + at_pcg_bounded(g, 64);
        long long ld_out = rows + 1 + at_pcg_bounded(g, 64);
        snprintf(fields + k, n - (size_t)k, " ld_in=%lld ld_out=%lld", ld_in,
                 ld_out);
    }
}

typedef struct state {
    at_cublas *cb;          /* NULL: none (why in cublas_why) */
    char cublas_why[512];
    at_cutensor *ct;        /* NULL: none (why in cutensor_why) */
    char cutensor_why[512];
    at_baselines *bl;
} state;

static void *open_state(const at_device *d, char *note, size_t n)
{
    state *s = calloc(1, sizeof *s);
    if (!s || !(s->bl = at_baselines_create(d))) {
        free(s);
        return NULL;
    }
    at_err ce = {0}, te = {0};
    if (at_cublas_open(&s->cb, &ce))
        snprintf(s->cublas_why, sizeof s->cublas_why, "%s", ce.msg);
    if (at_cutensor_open(&s->ct, &te))
        snprintf(s->cutensor_why, sizeof s->cutensor_why, "%s", te.msg);
    snprintf(note, n, "%s; %s",
             s->cb ? at_cublas_version(s->cb) : s->cublas_why,
             s->ct ? at_cutensor_version(s->ct) : s->cutensor_why);
    return s;
}

static void close_state(void *st)
{
    state *s = st;
    if (!s)
        return;
    at_cublas_close(s->cb);
    at_cutensor_close(s->ct);
    at_baselines_destroy(s->bl);
    free(s);
}

static int cublas_ready(void *st, const at_problem *p, char *why, size_t n,
                        at_err *e)
{
    (void)e;
    state *s = st;
    const char *no = s->cb ? at_cublas_cannot(p) : s->cublas_why;
    if (no)
        snprintf(why, n, "%s", no);
    return !no;
}

static int cublas_run(void *st, const at_problem *p, CUdeviceptr in,
                      CUdeviceptr out, CUstream s, at_err *e)
{
    return at_cublas_transpose(((state *)st)->cb, p, in, out, s, e);
}

static int cutensor_ready(void *st, const at_problem *p, char *why,
                          size_t n, at_err *e)
{
    state *s = st;
    const char *no = s->ct ? at_cutensor_cannot(p) : s->cutensor_why;
    if (no) {
        snprintf(why, n, "%s", no);
        return 0;
    }
    int rc = at_cutensor_plan(s->ct, p, e);
    return rc ? rc : 1;
}

static int cutensor_run(void *st, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, at_err *e)
{
    return at_cutensor_transpose(((state *)st)->ct, p, in, out, s, e);
}

static int baseline_ready(void *st, const at_problem *p, char *why,
                          size_t n, at_err *e)
{
    (void)why;
    (void)n;
    CUfunction fn;
    int rc = at_baselines_get(((state *)st)->bl, p->type->bytes, 0, &fn, e);
    return rc ? rc : 1;
}

static int baseline_run(void *st, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, int classic,
                        const char *name, at_err *e)
{
    CUfunction fn;
    int rc = at_baselines_get(((state *)st)->bl, p->type->bytes, classic,
                              &fn, e);
    return rc ? rc : at_baselines_launch(fn, p, in, out, s, name, e);
}

static int naive_run(void *st, const at_problem *p, CUdeviceptr in,
                     CUdeviceptr out, CUstream s, at_err *e)
{
    return baseline_run(st, p, in, out, s, 0, "naive", e);
}

static int classic_run(void *st, const at_problem *p, CUdeviceptr in,
                       CUdeviceptr out, CUstream s, at_err *e)
{
    return baseline_run(st, p, in, out, s, 1, "classic", e);
}

static const at_contender contenders[] = {
    {"cublas", cublas_ready, cublas_run},
    {"cutensor", cutensor_ready, cutensor_run},
    {"naive", baseline_ready, naive_run},
    {"classic", baseline_ready, classic_run},
};

const at_bench_family at_bench_transpose = {
    .family = "transpose",
    .suite = suite,
    .suite_n = SUITE,
    .contenders = contenders,
    .n_contenders = sizeof contenders / sizeof contenders[0],
    .open = open_state,
    .close = close_state,
    .shape = shape_text,
    .verdict = verdict,
    .draw = draw,
};
