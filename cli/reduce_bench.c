/* The reduction benchmark: its suite, its targets (issue 9's), its CSV
 * columns, and its contenders: CUB (DeviceReduce, DeviceSegmentedReduce;
 * built by nvcc at run time), cuTENSOR (cutensorReduce, loaded at run
 * time) and a naive kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_families.h"
#include "gen/reduce.h"
#include "gen/templates.h"
#include "reduce_cub.h"
#include "reduce_cutensor.h"
#include "runtime/driver/driver.h"

#define R(type, r, c, axis) {type, "rows=" #r " cols=" #c " " axis}
#define ALL(type, opts) {type, opts}

/* The shapes, f32 and bf16: the whole array of 2^28, rows and
 * columns of square, short (64 and 256) and long matrices; odd sizes
 * (1, 3, primes); other ops and types. */
static const at_text_problem suite[] = {
    ALL("f32", "axis=all n=268435456"),
    ALL("bf16", "axis=all n=268435456"),
    R("f32", 16384, 16384, "axis=cols"),   R("bf16", 16384, 16384, "axis=cols"),
    R("f32", 16384, 16384, "axis=rows"),   R("bf16", 16384, 16384, "axis=rows"),
    R("f32", 1048576, 256, "axis=cols"),   R("bf16", 1048576, 256, "axis=cols"),
    R("f32", 1048576, 256, "axis=rows"),   R("bf16", 1048576, 256, "axis=rows"),
    R("f32", 256, 1048576, "axis=cols"),   R("bf16", 256, 1048576, "axis=cols"),
    R("f32", 256, 1048576, "axis=rows"),   R("bf16", 256, 1048576, "axis=rows"),
    R("f32", 4194304, 64, "axis=cols"),    R("bf16", 4194304, 64, "axis=cols"),
    R("f32", 4194304, 64, "axis=rows"),    R("bf16", 4194304, 64, "axis=rows"),
    R("f32", 64, 4194304, "axis=cols"),    R("bf16", 64, 4194304, "axis=cols"),
    R("f32", 64, 4194304, "axis=rows"),    R("bf16", 64, 4194304, "axis=rows"),
    ALL("f32", "axis=all n=1"),            ALL("f32", "axis=all n=3"),
    ALL("f32", "axis=all n=1000003"),      ALL("f32", "axis=all n=268435399"),
    R("f32", 9973, 10007, "axis=cols"),    R("f32", 9973, 10007, "axis=rows"),
    ALL("f32", "op=max axis=all n=268435456"),
    ALL("f16", "op=sumsq axis=all n=268435456"),
    ALL("f64", "axis=all n=134217728"),
    ALL("i32", "axis=all n=268435456"),
    ALL("f32", "axis=all n=268435456 deterministic=yes"),
};
enum { SUITE = sizeof suite / sizeof suite[0] };

enum { ROW_CUB = AT_CMP_FIRST_CONTENDER, ROW_CUTENSOR, ROW_NAIVE };

/* The targets, for inputs of 64 MiB or more: 97% of the copy
 * (95% for rows and columns 64 to 256 long) and CUB's and cuTENSOR's
 * figures where they run. Below that size, only theirs. */
static const char *target_of(const at_problem *p, double *min_frac)
{
    const double bytes = (double)p->v[RD_ROWS] * (double)p->v[RD_COLS] *
                         p->type->bytes;
    const int64_t len = at_rd_len(p);
    *min_frac = 0;
    if (bytes < 64.0 * 1024 * 1024)
        return ">= CUB, cuTENSOR";
    if (len >= 64 && len <= 256 && p->v[RD_AXIS] != AXIS_ALL) {
        *min_frac = 0.95;
        return ">= 95% of copy (short) and >= CUB, cuTENSOR";
    }
    *min_frac = 0.97;
    return ">= 97% of copy and >= CUB, cuTENSOR";
}

static void verdict(const at_problem *p, const at_cmp *c, char *buf,
                    size_t n)
{
    double min_frac;
    const char *t = target_of(p, &min_frac);
    const at_cmp_row *tu = &c->row[AT_CMP_TUNED];
    char why[320] = "";
    size_t used = 0;
    if (tu->frac_copy < min_frac) {
        used += (size_t)snprintf(why, sizeof why, "%.1f%% of copy < %.0f%%",
                                 100 * tu->frac_copy, 100 * min_frac);
        const double share = at_rd_layout_share(p);
        if (share < min_frac)
            used += (size_t)snprintf(why + used, sizeof why - used,
                                     " (the padded rows: %.1f%% of the "
                                     "64-byte blocks they touch is data)",
                                     100 * share);
    }
    static const struct {
        int row;
        const char *name;
    } libs[] = {{ROW_CUB, "CUB"}, {ROW_CUTENSOR, "cuTENSOR"}};
    for (int i = 0; i < 2; ++i) {
        const at_cmp_row *lib = &c->row[libs[i].row];
        if (lib->present && tu->gbps < lib->gbps && used < sizeof why)
            used += (size_t)snprintf(why + used, sizeof why - used,
                                     "%s%.0f GB/s < %s %.0f",
                                     used ? "; " : "", tu->gbps,
                                     libs[i].name, lib->gbps);
    }
    if (why[0])
        snprintf(buf, n, "MISSED %s: %s", t, why);
    else
        snprintf(buf, n, "met (%s)", t);
}

static void shape_text(const at_problem *p, char *buf, size_t n)
{
    const int64_t *v = p->v;
    const char *op = at_rd_fields[RD_OP].choices[v[RD_OP]];
    if (v[RD_AXIS] == AXIS_ALL)
        snprintf(buf, n, "%s n=%lld%s", op, (long long)v[RD_N],
                 v[RD_DET] ? " det" : "");
    else {
        char ld[32] = ""; /* a padded problem names its ld */
        if (v[RD_LD] != v[RD_COLS])
            snprintf(ld, sizeof ld, " ld %lld", (long long)v[RD_LD]);
        snprintf(buf, n, "%s %s %lldx%lld%s%s", op,
                 v[RD_AXIS] == AXIS_COLS ? "rows of" : "cols of",
                 (long long)v[RD_ROWS], (long long)v[RD_COLS], ld,
                 v[RD_DET] ? " det" : "");
    }
}

static double unit(at_pcg *g) { return at_pcg_next(g) / 4294967296.0; }

/* A sweep's problem: an op and type of the family's; 1 MiB to 1 GiB of
 * input, log-uniform; a third whole arrays, the rest rows or columns of
 * an aspect log-uniform up to 2^16:1 either way; sides as they fall; a
 * quarter with ld padded by 1 to 64. */
static void draw(at_pcg *g, const char **type, char *fields, size_t n)
{
    static const char *const types[] = {"f32", "bf16", "f16", "f64", "i32"};
    static const char *const ops[] = {"sum", "max", "min", "sumsq", "amax"};
    const int t = (int)at_pcg_bounded(g, 5), o = (int)at_pcg_bounded(g, 5);
    const int axis = (int)at_pcg_bounded(g, 3);
    const int bytes_of[] = {4, 2, 2, 8, 4};
    double elems = exp(log(1 << 20) + unit(g) * log(1024.0)) / bytes_of[t];
    *type = types[t];
    if (axis == AXIS_ALL) {
        snprintf(fields, n, "op=%s axis=all n=%lld", ops[o],
                 (long long)elems);
    } else {
        double aspect = exp((unit(g) * 2 - 1) * log(65536.0));
        long long rows = (long long)sqrt(elems / aspect);
        rows = rows < 1 ? 1 : rows;
        long long cols = (long long)(elems / (double)rows) + 1;
        int k = snprintf(fields, n, "op=%s axis=%s rows=%lld cols=%lld",
                         ops[o], axis == AXIS_COLS ? "cols" : "rows", rows,
                         cols);
        if (at_pcg_bounded(g, 4) == 0 && k > 0 && (size_t)k < n)
            snprintf(fields + k, n - (size_t)k, " ld=%lld",
                     cols + 1 + at_pcg_bounded(g, 64));
    }
}

typedef struct state {
    const at_device *d;
    at_cub *cub; /* NULL: none (why in cub_why) */
    char cub_why[512];
    at_ct_reduce *ct; /* NULL: none (why in ct_why) */
    char ct_why[512];
    CUmodule naive_mod;
    CUfunction naive;
    char naive_key[512]; /* the defines it was compiled with (all of them) */
} state;

static void *open_state(const at_device *d, char *note, size_t n)
{
    state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->d = d;
    at_err e = {0};
    if (at_cub_open(&s->cub, d, &e))
        snprintf(s->cub_why, sizeof s->cub_why, "%s", e.msg);
    at_err te = {0};
    if (at_ct_reduce_open(&s->ct, d, &te))
        snprintf(s->ct_why, sizeof s->ct_why, "%s", te.msg);
    snprintf(note, n, "%s; %s",
             s->cub ? at_cub_version(s->cub) : s->cub_why,
             s->ct ? at_ct_reduce_version(s->ct) : s->ct_why);
    return s;
}

static void close_state(void *st)
{
    state *s = st;
    if (!s)
        return;
    at_cub_close(s->cub);
    at_ct_reduce_close(s->ct);
    if (s->naive_mod)
        at_cu.cuModuleUnload(s->naive_mod);
    free(s);
}

static void ahead(void *st, const at_problem *const *ps, int n, FILE *log)
{
    state *s = st;
    if (s->cub)
        at_cub_build_ahead(s->cub, ps, n, 0, log);
}

static int cub_ready(void *st, const at_problem *p, char *why, size_t n,
                     at_err *e)
{
    state *s = st;
    const char *no = s->cub ? at_cub_cannot(p) : s->cub_why;
    if (no) {
        snprintf(why, n, "%s", no);
        return 0;
    }
    int rc = at_cub_prepare(s->cub, p, e);
    return rc ? rc : 1;
}

static int cub_run(void *st, const at_problem *p, CUdeviceptr in,
                   CUdeviceptr out, CUstream s, at_err *e)
{
    return at_cub_run(((state *)st)->cub, p, in, out, s, e);
}

static int cutensor_ready(void *st, const at_problem *p, char *why,
                          size_t n, at_err *e)
{
    state *s = st;
    const char *no = s->ct ? at_ct_reduce_cannot(p) : s->ct_why;
    if (no) {
        snprintf(why, n, "%s", no);
        return 0;
    }
    int rc = at_ct_reduce_plan(s->ct, p, e);
    return rc ? rc : 1;
}

static int cutensor_run(void *st, const at_problem *p, CUdeviceptr in,
                        CUdeviceptr out, CUstream s, at_err *e)
{
    return at_ct_reduce_run(((state *)st)->ct, p, in, out, s, e);
}

static int cutensor_check(void *st, const at_problem *p, CUdeviceptr in,
                          CUdeviceptr out, CUstream s, at_err *e)
{
    return at_ct_reduce_check(((state *)st)->ct, p, in, out, s, e);
}

/* The template's naive kernel for p's type, op and direction. */
static int naive_ready(void *st, const at_problem *p, char *why, size_t n,
                       at_err *e)
{
    (void)why;
    (void)n;
    state *s = st;
    at_point pt = {{0}};
    pt.v[THREADS] = pt.v[GROUP] = 256;
    pt.v[VEC] = pt.v[ITEMS] = pt.v[ACCS] = 1;
    char defs[sizeof s->naive_key];
    p->family->ops.defines(p, &pt, 0, defs, sizeof defs);
    if (s->naive && strcmp(s->naive_key, defs) == 0)
        return 1;
    if (s->naive_mod)
        at_cu.cuModuleUnload(s->naive_mod);
    s->naive_mod = NULL;
    s->naive = NULL;
    size_t len = strlen(defs) + strlen(at_tmpl_reduce) + 64;
    char *src = malloc(len);
    if (!src)
        return at_fail(e, AUTOTUNE_ENOMEM, "naive reduction source");
    snprintf(src, len, "%s#define AT_NAIVE 1\n#define AT_KERNEL at_unused\n%s",
             defs, at_tmpl_reduce);
    at_compile_opts co = {.sm = s->d->sm};
    void *cubin = NULL;
    size_t size = 0;
    int rc = at_compile(src, "naive reduction", &co, &cubin, &size, e);
    free(src);
    if (rc)
        return rc;
    CUresult r = at_cu.cuModuleLoadData(&s->naive_mod, cubin);
    free(cubin);
    if (r != CUDA_SUCCESS) {
        s->naive_mod = NULL;
        return at_cu_fail(e, r, "cuModuleLoadData", "naive reduction");
    }
    AT_CU_TRY(e, "naive reduction", cuModuleGetFunction, &s->naive,
              s->naive_mod, "at_naive");
    snprintf(s->naive_key, sizeof s->naive_key, "%s", defs);
    return 1;
}

static int naive_run(void *st, const at_problem *p, CUdeviceptr in,
                     CUdeviceptr out, CUstream str, at_err *e)
{
#ifdef AT_TEST
    /* tests/gpu/faults.sh: a contender that answers wrong (writes
     * nothing), for the benchmark to mark and go on. */
    if (getenv("AUTOTUNE_PLANT_WRONG_NAIVE"))
        return 0;
#endif
    state *s = st;
    long long rows = p->v[RD_ROWS], cols = p->v[RD_COLS], ld = p->v[RD_LD];
    void *args[] = {&in, &out, &rows, &cols, &ld};
    const int64_t outs = at_rd_outputs(p);
    unsigned grid = p->v[RD_AXIS] == AXIS_ALL ? 1u
                                              : (unsigned)((outs + 255) / 256);
    AT_CU_TRY(e, "naive", cuLaunchKernel, s->naive, grid, 1, 1, 256, 1, 1, 0,
              str, args, NULL);
    return 0;
}

static const at_contender contenders[] = {
    {"cub", cub_ready, cub_run, NULL},
    {"cutensor", cutensor_ready, cutensor_run, cutensor_check},
    {"naive", naive_ready, naive_run, NULL},
};

const at_bench_family at_bench_reduce = {
    .family = "reduce",
    .suite = suite,
    .suite_n = SUITE,
    .contenders = contenders,
    .n_contenders = sizeof contenders / sizeof contenders[0],
    .open = open_state,
    .close = close_state,
    .ahead = ahead,
    .shape = shape_text,
    .verdict = verdict,
    .draw = draw,
};
