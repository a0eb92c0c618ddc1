#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "bench_summary.h"
#include "compare.h"
#include "errors.h"
#include "json.h"

typedef struct done_row {
    at_problem p;
    at_cmp c;
} done_row;

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

static void csv_rows(FILE *f, const char *gpu,
                     const done_row *d)
{
    /* The problem's columns: the family's fields, in its table's order
     * (the header names them). */
    char cols[512] = "";
    size_t used = 0;
    for (int i = 0; i < d->p.family->n_fields && used < sizeof cols; ++i) {
        char v[64];
        used += (size_t)snprintf(cols + used, sizeof cols - used, "%s%s",
                                 i ? "," : "",
                                 at_problem_value_text(&d->p, i, v,
                                                       sizeof v));
    }
    for (int i = 0; i < d->c.n; ++i) {
        const at_cmp_row *w = &d->c.row[i];
        if (!w->present)
            continue;
        csv_field(f, gpu);
        /* %.17g: every figure reads back to the same double. */
        fprintf(f, ",%s,%s,%s,%s,%.17g,%.17g,%.17g\n", d->p.family->name,
                d->p.type->name, cols, w->kernel, w->ms, w->gbps,
                w->frac_copy);
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

static void table(FILE *f, const at_bench_family *bf, const done_row *rows,
                  int n)
{
    if (n == 0)
        return;
    const at_cmp *c0 = &rows[0].c;
    int w = 22; /* the widest shape's (a padded one names its ld) */
    for (int i = 0; i < n; ++i) {
        char shape[96];
        bf->shape(&rows[i].p, shape, sizeof shape);
        if ((int)strlen(shape) > w)
            w = (int)strlen(shape);
    }
    fprintf(f, "\n%-*s %-5s %8s |", w, "shape", "type", "memcpy");
    for (int k = AT_CMP_TUNED; k < c0->n; ++k)
        fprintf(f, " %-14s|", c0->row[k].kernel);
    fprintf(f, " target\n%-*s %-5s %8s |", w, "", "", "GB/s");
    for (int k = AT_CMP_TUNED; k < c0->n; ++k)
        fprintf(f, " %-14s|", "GB/s  of copy");
    fputc('\n', f);
    for (int i = 0; i < n; ++i) {
        char shape[96], v[256];
        bf->shape(&rows[i].p, shape, sizeof shape);
        bf->verdict(&rows[i].p, &rows[i].c, v, sizeof v);
        const at_cmp *c = &rows[i].c;
        fprintf(f, "%-*s %-5s %8.0f |", w, shape, rows[i].p.type->name,
                c->row[AT_CMP_MEMCPY].gbps);
        for (int k = AT_CMP_TUNED; k < c->n; ++k) {
            cell(f, &c->row[k]);
            fputs(" |", f);
        }
        fprintf(f, " %s\n", v);
    }
}

/* One problem's figures: its kernels in order, absent ones with why. */
static json_t *json_row(const at_bench_family *bf, const done_row *d)
{
    char shape[96], target[256];
    bf->shape(&d->p, shape, sizeof shape);
    bf->verdict(&d->p, &d->c, target, sizeof target);
    json_t *o = at_json_problem(at_json_object(NULL), &d->p);
    at_json_str(o, "shape", shape);
    at_json_str(o, "point", d->c.point);
    at_json_bool(o, "from_cache", d->c.from_cache);
    at_json_real(o, "tune_s", d->c.tune_s);
    at_json_int(o, "seed", (int64_t)d->c.seed);
    at_json_int(o, "buffer_sets", d->c.sets);
    at_json_bool(o, "past_l2", d->c.past_l2);
    at_json_str(o, "target", target[0] ? target : NULL);
    json_t *ks = json_array();
    for (int i = 0; i < d->c.n; ++i) {
        const at_cmp_row *w = &d->c.row[i];
        json_t *k = at_json_object(NULL);
        at_json_str(k, "kernel", w->kernel);
        at_json_bool(k, "present", w->present);
        if (w->present) {
            at_json_real(k, "ms", w->ms);
            at_json_real(k, "min_ms", w->min_ms);
            at_json_real(k, "max_ms", w->max_ms);
            at_json_real(k, "gbps", w->gbps);
            at_json_real(k, "frac_copy", w->frac_copy);
        } else {
            at_json_str(k, "why", w->why);
        }
        json_array_append_new(ks, k);
    }
    at_json_put(o, "kernels", ks);
    return o;
}

/* autotune.bench/1: the device, then a row per problem finished. */
static int json_bench(const at_bench_args *a, const at_bench_family *bf,
                      const at_device *d, const char *note,
                      const done_row *rows, int n, double seconds)
{
    json_t *o = at_json_object("autotune.bench/1");
    at_json_str(o, "family", a->family);
    at_json_str(o, "gpu", d->name);
    at_json_int(o, "sm", d->sm);
    at_json_int(o, "sms", d->sms);
    at_json_int(o, "l2_bytes", d->l2_bytes);
    at_json_str(o, "driver", d->driver_build);
    at_json_str(o, "nvrtc", d->nvrtc);
    at_json_str(o, "contenders_note", note);
    at_json_str(o, "csv", a->csv);
    at_json_real(o, "seconds", seconds);
    json_t *list = json_array();
    for (int i = 0; i < n; ++i)
        json_array_append_new(list, json_row(bf, &rows[i]));
    at_json_put(o, "problems", list);
    return at_json_print(o);
}

/* A sweep's problems, drawn from the seed given or a fresh one (said on
 * stderr, so that --seed draws them again). */
static int draw_all(const at_bench_args *a, const at_bench_family *bf,
                    done_row *rows, int n)
{
    if (!bf->draw) {
        at_cli_say("%s has no sweep\n", a->family);
        return 2;
    }
    uint64_t seed = a->tune.seed ? a->tune.seed : at_pcg_fresh_seed();
    fprintf(stderr, "sweep: %d %s problems drawn with seed %llu\n", n,
            a->family, (unsigned long long)seed);
    at_pcg g;
    at_pcg_seed(&g, seed, 0x5eedULL);
    for (int i = 0; i < n; ++i) {
        const char *type;
        char fields[512];
        at_err e = {0};
        bf->draw(&g, &type, fields, sizeof fields);
        if (at_problem_make(&rows[i].p, bf->family, type, fields, &e)) {
            at_cli_fail_hint(&e, " (a problem the sweep drew)");
            return 1;
        }
    }
    return 0;
}

/* The problems: the one given, a sweep's or the suite, each checked
 * before any GPU time is spent. 2 (said) if one is not a problem. */
static int problems(const at_bench_args *a, const at_bench_family *bf,
                    done_row **rows, int *n)
{
    at_err e = {0};
    *n = a->one ? 1 : a->sweep ? a->sweep : bf->suite_n;
    *rows = calloc((size_t)*n, sizeof **rows);
    if (!*rows) {
        at_cli_say("no memory for %d benchmark rows\n", *n);
        return 1;
    }
    if (a->one) {
        (*rows)[0].p = *a->one;
        return 0;
    }
    if (a->sweep)
        return draw_all(a, bf, *rows, *n);
    for (int i = 0; i < *n; ++i)
        if (at_problem_make(&(*rows)[i].p, bf->family, bf->suite[i].type,
                            bf->suite[i].fields, &e)) {
            at_cli_fail(&e);
            return 2;
        }
    return 0;
}

/* --list: the problems, one a line (--json: autotune.bench-list/1), and
 * nothing run. */
static int list(const at_bench_args *a, const done_row *rows, int n)
{
    if (a->json) {
        json_t *o = at_json_object("autotune.bench-list/1");
        json_t *probs = json_array();
        at_json_str(o, "family", a->family);
        for (int i = 0; i < n; ++i)
            json_array_append_new(probs, at_json_problem(
                                             at_json_object(NULL),
                                             &rows[i].p));
        at_json_put(o, "problems", probs);
        return at_json_print(o) ? 1 : 0;
    }
    for (int i = 0; i < n; ++i) {
        char text[512];
        at_problem_str(&rows[i].p, text, sizeof text);
        printf("%s\n", text);
    }
    return 0;
}

typedef struct ranked {
    double ratio; /* tuned GB/s over the other kernel's */
    int row;
} ranked;

static int by_ratio(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    return (a->ratio > b->ratio) - (a->ratio < b->ratio);
}

/* A sweep's summary: for the copy and each contender, the rows where the
 * tuned kernel does worst against it, and how it does over all. */
static void worst(FILE *f, const at_bench_family *bf, const done_row *rows,
                  int n)
{
    enum { SHOWN = 5 };
    ranked *r = n ? malloc((size_t)n * sizeof *r) : NULL;
    if (!r)
        return;
    for (int k = AT_CMP_MEMCPY; k < rows[0].c.n; ++k) {
        if (k == AT_CMP_TUNED)
            continue;
        int m = 0, behind = 0;
        for (int i = 0; i < n; ++i) {
            const at_cmp_row *o = &rows[i].c.row[k];
            if (o->present && o->gbps > 0) {
                r[m].ratio = rows[i].c.row[AT_CMP_TUNED].gbps / o->gbps;
                r[m].row = i;
                behind += r[m++].ratio < 1;
            }
        }
        if (!m)
            continue;
        qsort(r, (size_t)m, sizeof *r, by_ratio);
        const char *name = rows[0].c.row[k].kernel;
        fprintf(f, "\nagainst %s (%d problems): tuned / %s median %.3f, "
                "below 1 on %d; worst:\n", name, m, name,
                r[m / 2].ratio, behind);
        for (int j = 0; j < m && j < SHOWN; ++j) {
            const done_row *d = &rows[r[j].row];
            char shape[96];
            bf->shape(&d->p, shape, sizeof shape);
            fprintf(f, "  %-5s %-26s tuned %6.0f GB/s, %s %6.0f GB/s: "
                    "%.3f\n", d->p.type->name, shape,
                    d->c.row[AT_CMP_TUNED].gbps, name, d->c.row[k].gbps,
                    r[j].ratio);
        }
    }
    free(r);
}

/* The problems of 64 MiB or more apart from the smaller ones
 * (bench_summary.h). */
static void summary(FILE *f, const at_bench_family *bf, const done_row *rows,
                    int n)
{
    at_bench_point *pts = n ? calloc((size_t)n, sizeof *pts) : NULL;
    char(*names)[128] = n ? calloc((size_t)n, sizeof *names) : NULL;
    for (int i = 0; pts && names && i < n; ++i) {
        const at_problem *p = &rows[i].p;
        char shape[96], v[512];
        bf->shape(p, shape, sizeof shape);
        bf->verdict(p, &rows[i].c, v, sizeof v);
        snprintf(names[i], sizeof names[i], "%s %s", p->type->name, shape);
        pts[i] = (at_bench_point){
            .bytes = (double)p->family->ops.copy_bytes(p),
            .elem_bytes = p->type->bytes,
            .frac_copy = rows[i].c.row[AT_CMP_TUNED].frac_copy,
            .missed = strncmp(v, "MISSED", 6) == 0, .name = names[i]};
    }
    if (pts && names)
        at_bench_summary(f, pts, n);
    free(pts);
    free(names);
}

static void progress_line(int i, int n, const done_row *d, const char *shape)
{
    const at_cmp *c = &d->c;
    const at_cmp_row *tu = &c->row[AT_CMP_TUNED];
    char how[64];
    if (c->from_cache)
        snprintf(how, sizeof how, "from the cache");
    else
        snprintf(how, sizeof how, "tuned in %.1f s", c->tune_s);
    fprintf(stderr, "[%d/%d] %s %s: %s (%s), %.0f GB/s, %.1f%% of copy "
            "(%.0f GB/s, %d buffer set%s, input seed %llu)%s\n", i + 1, n,
            d->p.type->name, shape, c->point, how, tu->gbps,
            100 * tu->frac_copy, c->row[AT_CMP_MEMCPY].gbps, c->sets,
            c->sets > 1 ? "s" : "", (unsigned long long)c->seed,
            c->past_l2 ? "" : "; small enough to be served from L2");
}

/* Every problem compared; rows written to the CSV as they finish. */
static int run_all(autotune_ctx *ctx, const at_bench_args *a,
                   const at_bench_family *bf, void *state, done_row *rows,
                   int n, FILE *csv, int *done, at_err *e)
{
    double t0 = at_now_s();
    for (int i = 0; i < n; ++i) {
        char shape[96];
        bf->shape(&rows[i].p, shape, sizeof shape);
        fprintf(stderr, "[%d/%d %.0f s] %s %s: tuning, checking, timing\n",
                i + 1, n, at_now_s() - t0, rows[i].p.type->name, shape);
        int rc = at_compare(ctx, &rows[i].p, &a->tune, bf, state,
                            &rows[i].c, e);
        if (rc)
            return rc;
        progress_line(i, n, &rows[i], shape);
        csv_rows(csv, ctx->dev.name, &rows[i]);
        ++*done;
    }
    return 0;
}

int at_cmd_bench(const at_bench_args *a)
{
    const at_bench_family *bf = at_bench_family_find(a->family);
    if (!bf) {
        at_cli_say("%s has no benchmark\n", a->family);
        return 2;
    }
    done_row *rows = NULL;
    int n, rc = problems(a, bf, &rows, &n);
    if (rc || a->list) {
        if (!rc)
            rc = list(a, rows, n);
        free(rows);
        return rc;
    }
    at_err e = {0};
    autotune_ctx *ctx = NULL;
    if ((rc = at_ctx_create(&ctx, a->device, NULL, NULL,
                            a->quiet ? NULL : stderr, &e))) {
        at_cli_fail_hint(&e, rc == AUTOTUNE_ENO_DRIVER ||
                                     rc == AUTOTUNE_ENO_DEVICE
                                 ? " (the benchmark needs a CUDA GPU)"
                                 : "");
        free(rows);
        return 1;
    }
    const at_device *d = &ctx->dev;
    char note[1100] = "";
    void *state = NULL;
    at_safefile csv = {0};
    int done = 0;
    if ((rc = at_device_push(d, &e)) == 0) {
        state = bf->open(d, note, sizeof note);
        at_device_pop();
        if (!state)
            rc = at_fail(&e, AUTOTUNE_ENOMEM, "benchmark state");
    }
    if (!rc)
        rc = at_safefile_open(&csv, a->csv, &e);
    if (!rc) {
        /* The problem's columns are the family's fields, by name. */
        const at_family *fam = at_family_find(a->family);
        fprintf(csv.f, "gpu,family,type");
        for (int i = 0; fam && i < fam->n_fields; ++i)
            fprintf(csv.f, ",%s", fam->fields[i].name);
        fprintf(csv.f, ",kernel,ms,gbps,frac_copy\n");
        fprintf(a->json ? stderr : stdout, "autotune bench %s on %s (sm_%d, "
                "%d SMs, %d MB L2, driver %s, NVRTC %s); %s\n", a->family,
                d->name, d->sm, d->sms, d->l2_bytes >> 20, d->driver_build,
                d->nvrtc, note);
        fflush(stdout);
        double t0 = at_now_s();
        rc = run_all(ctx, a, bf, state, rows, n, csv.f, &done, &e);
        if (rc) {
            at_safefile_keep(&csv);
            char hint[1200];
            snprintf(hint, sizeof hint, "\nautotune: the %d problems "
                     "finished are in %s", done, csv.tmp);
            at_cli_fail_hint(&e, hint);
        } else if ((rc = at_safefile_commit(&csv, &e))) {
            at_cli_fail(&e);
        }
        FILE *human = a->json ? stderr : stdout;
        table(human, bf, rows, done);
        if (a->sweep)
            worst(human, bf, rows, done);
        if (!a->one)
            summary(human, bf, rows, done);
        if (!rc)
            fprintf(human, "\n%d problems in %.0f s; CSV in %s\n", done,
                    at_now_s() - t0, a->csv);
        if (!rc && a->json &&
            json_bench(a, bf, d, note, rows, done, at_now_s() - t0)) {
            at_cli_say("writing the JSON summary to stdout failed\n");
            rc = 1;
        }
    } else {
        at_cli_fail(&e);
    }
    free(rows);
    if (state && at_device_push(d, NULL) == 0) {
        bf->close(state);
        at_device_pop();
    }
    autotune_destroy(ctx);
    return rc ? 1 : 0;
}
