#include "bench_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../runtime/compare.h"

#define T(type, r, c) {"transpose", type, r, c, 0, 0, 0, 0, 0}
#define TLD(type, r, c, li, lo) {"transpose", type, r, c, li, lo, 0, 0, 0}
#define TB(type, b, r, c) {"transpose", type, r, c, 0, 0, b, 0, 0}

/* Every element size, large matrices (256 MiB and more, far past the L2
 * cache) square and not, sizes no tile divides, thin matrices, rows
 * wider than the matrix, and batches of small matrices. */
static const autotune_problem suite[] = {
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
};
enum { SUITE = sizeof suite / sizeof suite[0] };

int at_bench_suite_size(void) { return SUITE; }

const autotune_problem *at_bench_suite_at(int i)
{
    return i >= 0 && i < SUITE ? &suite[i] : NULL;
}

/* The targets, by the problem's kind; NULL where none applies.
 * Sets *min_frac (of the copy) and *vs_cublas (must match cuBLAS). */
static const char *target_of(const at_problem *p, double *min_frac,
                             int *vs_cublas)
{
    double bytes = (double)p->rows * (double)p->cols * p->type->bytes;
    int big = p->batch == 1 && bytes >= 256.0 * 1024 * 1024;
    int odd = p->batch == 1 && (p->rows % 32 || p->cols % 32);
    *min_frac = 0;
    *vs_cublas = 0;
    if (big && (p->type->bytes == 4 || p->type->bytes == 8) &&
        p->type->fp == p->type->bytes) {
        *min_frac = 0.97;
        *vs_cublas = 1;
        return ">= 97% of copy and >= cuBLAS";
    }
    if (big && p->type->bytes <= 2) {
        *min_frac = 0.95;
        return ">= 95% of copy";
    }
    if (odd) {
        *vs_cublas = 1;
        return ">= cuBLAS";
    }
    if (p->batch == 4096 && p->rows == 64 && p->cols == 64 &&
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
    const at_cmp_row *tu = &c->row[AT_CMP_TUNED], *cb = &c->row[AT_CMP_CUBLAS];
    char why[160] = "";
    size_t used = 0;
    if (tu->frac_copy < min_frac)
        used += (size_t)snprintf(why + used, sizeof why - used,
                                 "%.1f%% of copy < %.0f%%",
                                 100 * tu->frac_copy, 100 * min_frac);
    if (vs && cb->present && tu->gbps < cb->gbps)
        snprintf(why + used, sizeof why - used, "%s%.0f GB/s < cuBLAS %.0f",
                 used ? "; " : "", tu->gbps, cb->gbps);
    if (vs && !cb->present && min_frac == 0)
        snprintf(buf, n, "%s: no cuBLAS to compare", t);
    else if (why[0])
        snprintf(buf, n, "MISSED %s: %s", t, why);
    else
        snprintf(buf, n, "met (%s)", t);
}

static void shape_text(const at_problem *p, char *buf, size_t n)
{
    int k = p->batch > 1
                ? snprintf(buf, n, "%lldx%lldx%lld", (long long)p->batch,
                           (long long)p->rows, (long long)p->cols)
                : snprintf(buf, n, "%lldx%lld", (long long)p->rows,
                           (long long)p->cols);
    if (k > 0 && (size_t)k < n &&
        (p->ld_in != p->cols || p->ld_out != p->rows))
        snprintf(buf + k, n - (size_t)k, " ld %lld/%lld",
                 (long long)p->ld_in, (long long)p->ld_out);
}

static void csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        fputc('"', f);
        for (; *s; ++s) {
            if (*s == '"')
                fputc('"', f);
            fputc(*s, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
}

static void csv_rows(FILE *f, const char *gpu, const at_problem *p,
                     const at_cmp *c)
{
    for (int i = 0; i < AT_CMP_N; ++i) {
        const at_cmp_row *w = &c->row[i];
        if (!w->present)
            continue;
        csv_field(f, gpu);
        fprintf(f, ",%s,%lld,%lld,%lld,%s,%.6f,%.1f,%.4f\n", p->type->name,
                (long long)p->rows, (long long)p->cols, (long long)p->batch,
                at_cmp_kernel_name(i), w->ms, w->gbps, w->frac_copy);
    }
    fflush(f);
}

static void cell(FILE *f, const at_cmp_row *w)
{
    if (w->present)
        fprintf(f, " %7.0f %5.1f%%", w->gbps, 100 * w->frac_copy);
    else
        fprintf(f, " %7s %6s", "-", "");
}

typedef struct done_row {
    at_problem p;
    at_cmp c;
} done_row;

static void table(FILE *f, const done_row *rows, int n)
{
    fprintf(f, "\n%-22s %-5s %8s | %-14s| %-14s| %-14s| %-14s| %s\n",
            "shape", "type", "memcpy", "tuned", "cublas", "naive", "classic",
            "target");
    fprintf(f, "%-22s %-5s %8s | %-14s| %-14s| %-14s| %-14s|\n", "", "",
            "GB/s", "GB/s  of copy", "GB/s  of copy", "GB/s  of copy",
            "GB/s  of copy");
    for (int i = 0; i < n; ++i) {
        char shape[96], v[256];
        shape_text(&rows[i].p, shape, sizeof shape);
        verdict(&rows[i].p, &rows[i].c, v, sizeof v);
        const at_cmp *c = &rows[i].c;
        fprintf(f, "%-22s %-5s %8.0f |", shape, rows[i].p.type->name,
                c->row[AT_CMP_MEMCPY].gbps);
        for (int k = AT_CMP_TUNED; k < AT_CMP_N; ++k) {
            cell(f, &c->row[k]);
            fputs(" |", f);
        }
        fprintf(f, " %s\n", v);
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int at_cmd_bench(const at_bench_args *a)
{
    at_err e = {0};
    int n = a->one ? 1 : SUITE;
    const autotune_problem *probs = a->one ? &a->problem : suite;
    done_row *rows = calloc((size_t)n, sizeof *rows);
    if (!rows) {
        fprintf(stderr, "autotune: no memory for %d benchmark rows\n", n);
        return 1;
    }
    /* Every problem checked before any GPU time is spent. */
    for (int i = 0; i < n; ++i)
        if (at_problem_init(&rows[i].p, &probs[i], &e)) {
            fprintf(stderr, "autotune: %s\n", e.msg);
            free(rows);
            return 2;
        }
    autotune_ctx *ctx = NULL;
    int rc = at_ctx_create(&ctx, a->device, NULL,
                           a->quiet ? NULL : stderr, &e);
    if (rc) {
        fprintf(stderr, "autotune: %s%s\n", e.msg,
                rc == AUTOTUNE_ENO_DRIVER || rc == AUTOTUNE_ENO_DEVICE
                    ? " (the benchmark needs a CUDA GPU)"
                    : "");
        free(rows);
        return 1;
    }
    const at_device *d = &ctx->dev;
    at_cublas *cb = NULL;
    at_baselines *bl = NULL;
    char cublas_why[1100] = "";
    if (at_device_push(d, &e) == 0) {
        at_err ce = {0};
        if (at_cublas_open(&cb, &ce))
            snprintf(cublas_why, sizeof cublas_why, "%s", ce.msg);
        at_device_pop();
    }
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.partial", a->csv);
    FILE *csv = NULL;
    int bad = 1, done = 0;
    if ((rc = at_baselines_create(&bl, d, &e))) {
        fprintf(stderr, "autotune: %s\n", e.msg);
        goto out;
    }
    if (!(csv = fopen(tmp, "w"))) {
        fprintf(stderr, "autotune: cannot write %s: %s\n", tmp,
                strerror(errno));
        goto out;
    }
    fprintf(csv, "gpu,type,rows,cols,batch,kernel,ms,gbps,frac_copy\n");
    printf("autotune bench %s on %s (sm_%d, %d SMs, %d MB L2, driver %s, "
           "NVRTC %s); %s\n",
           a->family, d->name, d->sm, d->sms, d->l2_bytes >> 20,
           d->driver_build, d->nvrtc,
           cb ? at_cublas_version(cb) : cublas_why);
    fflush(stdout);
    double t0 = now_s();
    for (int i = 0; i < n; ++i) {
        const at_problem *p = &rows[i].p;
        char shape[96];
        shape_text(p, shape, sizeof shape);
        fprintf(stderr, "[%d/%d %.0f s] %s %s: tuning, checking, timing\n",
                i + 1, n, now_s() - t0, p->type->name, shape);
        at_cmp *c = &rows[i].c;
        rc = at_compare(ctx, &probs[i], &a->tune, bl, cb, cublas_why, c, &e);
        if (rc)
            break;
        const at_cmp_row *tu = &c->row[AT_CMP_TUNED];
        char how[64];
        if (c->from_cache)
            snprintf(how, sizeof how, "from the cache");
        else
            snprintf(how, sizeof how, "tuned in %.1f s", c->tune_s);
        fprintf(stderr, "[%d/%d] %s %s: %s (%s), %.0f GB/s, %.1f%% of copy "
                "(%.0f GB/s, %d buffer set%s, input seed %llu)%s\n", i + 1,
                n, p->type->name, shape, c->point, how, tu->gbps,
                100 * tu->frac_copy, c->row[AT_CMP_MEMCPY].gbps, c->sets,
                c->sets > 1 ? "s" : "", (unsigned long long)c->seed,
                c->past_l2 ? "" : "; small enough to be served from L2");
        csv_rows(csv, d->name, p, c);
        ++done;
    }
    bad = ferror(csv);
    if (fclose(csv) != 0)
        bad = 1;
    if (rc || bad) {
        if (rc)
            fprintf(stderr, "autotune: %s\n", e.msg);
        else
            fprintf(stderr, "autotune: writing %s failed\n", tmp);
        fprintf(stderr, "autotune: the %d problems finished are in %s\n",
                done, tmp);
    } else if (rename(tmp, a->csv) != 0) {
        fprintf(stderr, "autotune: rename %s to %s: %s\n", tmp, a->csv,
                strerror(errno));
        bad = 1;
    }
    table(stdout, rows, done);
    if (!rc && !bad)
        printf("\n%d problems in %.0f s; CSV in %s\n", done, now_s() - t0,
               a->csv);
out:
    free(rows);
    at_baselines_destroy(bl);
    if (cb && at_device_push(d, NULL) == 0) {
        at_cublas_close(cb);
        at_device_pop();
    }
    autotune_destroy(ctx);
    return rc || bad ? 1 : 0;
}
