#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/safefile.h"
#include "bench_report.h"
#include "bench_resume.h"
#include "compare.h"
#include "errors.h"
#include "json.h"


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
                     const at_bench_row *d)
{
    /* The problem's columns: the family's fields, in its table's order
     * (the header names them); --resume matches rows by them. */
    char key[1024];
    at_bench_csv_key(&d->p, key, sizeof key);
    for (int i = 0; i < d->c.n; ++i) {
        const at_cmp_row *w = &d->c.row[i];
        if (!w->present)
            continue;
        csv_field(f, gpu);
        /* %.17g: every figure reads back to the same double. */
        fprintf(f, ",%s,%s,%.17g,%.17g,%.17g\n", key, w->kernel, w->ms,
                w->gbps, w->frac_copy);
    }
    fflush(f);
}

/* One problem's figures: its kernels in order, absent ones with why. */
static json_t *json_row(const at_bench_family *bf, const at_bench_row *d)
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
            if (w->wrong)
                at_json_bool(k, "wrong", 1);
        }
        json_array_append_new(ks, k);
    }
    at_json_put(o, "kernels", ks);
    return o;
}

/* autotune.bench/1: the device, then a row per problem finished. */
static int json_bench(const at_bench_args *a, const at_bench_family *bf,
                      const at_device *d, const char *note,
                      const at_bench_row *rows, int n, double seconds)
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
                    at_bench_row *rows, int n)
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
                    at_bench_row **rows, int *n)
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
static int list(const at_bench_args *a, const at_bench_row *rows, int n)
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

/* What the contenders can build for every problem at once, before the
 * first runs (the family's ahead hook). */
static void ahead(const at_bench_args *a, const at_bench_family *bf,
                  void *state, const at_bench_row *rows, int n)
{
    const at_problem **ps = bf->ahead ? malloc((size_t)n * sizeof *ps)
                                      : NULL;
    if (!ps)
        return; /* each problem builds its own as it comes */
    int m = 0;
    for (int i = 0; i < n; ++i)
        if (!rows[i].resumed)
            ps[m++] = &rows[i].p;
    bf->ahead(state, ps, m, a->quiet ? NULL : stderr);
    free(ps);
}

static void progress_line(int i, int n, const at_bench_row *d,
                          const char *shape)
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
                   const at_bench_family *bf, void *state, at_bench_row *rows,
                   int n, FILE *csv, int *done, at_err *e)
{
    double t0 = at_now_s();
    for (int i = 0; i < n; ++i) {
        char shape[96];
        bf->shape(&rows[i].p, shape, sizeof shape);
        if (rows[i].resumed) {
            fprintf(stderr, "[%d/%d] %s %s: from %s\n", i + 1, n,
                    rows[i].p.type->name, shape, a->resume);
            csv_rows(csv, ctx->dev.name, &rows[i]);
            ++*done;
            continue;
        }
        fprintf(stderr, "[%d/%d %.0f s] %s %s: tuning, checking, timing\n",
                i + 1, n, at_now_s() - t0, rows[i].p.type->name, shape);
        int rc = at_compare(ctx, &rows[i].p, &a->tune, bf, state,
                            &rows[i].c, e);
        if (rc)
            return rc;
        for (int k = AT_CMP_FIRST_CONTENDER; k < rows[i].c.n; ++k)
            if (rows[i].c.row[k].wrong)
                fprintf(stderr, "[%d/%d] %s not timed: %s\n", i + 1, n,
                        rows[i].c.row[k].kernel, rows[i].c.row[k].why);
        progress_line(i, n, &rows[i], shape);
        csv_rows(csv, ctx->dev.name, &rows[i]);
        ++*done;
    }
    return 0;
}

/* The CSV's header: the problem's columns are the family's fields, by
 * name. */
static void csv_header(FILE *f, const char *family)
{
    const at_family *fam = at_family_find(family);
    fprintf(f, "gpu,family,type");
    for (int i = 0; fam && i < fam->n_fields; ++i)
        fprintf(f, ",%s", fam->fields[i].name);
    fprintf(f, ",kernel,ms,gbps,frac_copy\n");
}

/* --resume: the problems its CSV holds, marked; *gpu the GPU they ran
 * on. 1 (said) if the file cannot be used. */
static int resume(const at_bench_args *a, const at_bench_family *bf,
                  at_bench_row *rows, int n, char *gpu, size_t gpu_n, int *got)
{
    const at_problem **ps = malloc((size_t)n * sizeof *ps);
    at_cmp **cs = malloc((size_t)n * sizeof *cs);
    int *ok = calloc((size_t)n, sizeof *ok);
    at_err e = {0};
    int rc = ps && cs && ok ? 0 : at_fail(&e, AUTOTUNE_ENOMEM, "--resume");
    for (int i = 0; !rc && i < n; ++i) {
        ps[i] = &rows[i].p;
        cs[i] = &rows[i].c;
    }
    if (!rc)
        rc = at_bench_resume(a->resume, bf, ps, cs, n, ok, gpu, gpu_n, &e);
    *got = 0;
    for (int i = 0; !rc && i < n; ++i)
        *got += rows[i].resumed = ok[i];
    free(ps);
    free(cs);
    free(ok);
    if (rc) {
        at_cli_fail(&e);
        return 1;
    }
    fprintf(stderr, "%d of the %d problems from %s%s%s%s\n", *got, n,
            a->resume, *got ? " (" : ": none of its rows are this run's "
            "(another seed, family or suite?)", *got ? gpu : "",
            *got ? ")" : "");
    return 0;
}

/* Every problem from --resume: the CSV, the table and the summary again,
 * no GPU needed. */
static int all_resumed(const at_bench_args *a, const at_bench_family *bf,
                       at_bench_row *rows, int n, const char *gpu)
{
    at_err e = {0};
    at_safefile csv = {0};
    if (at_safefile_open(&csv, a->csv, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    csv_header(csv.f, a->family);
    for (int i = 0; i < n; ++i)
        csv_rows(csv.f, gpu, &rows[i]);
    if (at_safefile_commit(&csv, &e)) {
        at_cli_fail(&e);
        return 1;
    }
    printf("autotune bench %s on %s: every problem from %s\n", a->family,
           gpu, a->resume);
    at_bench_report(stdout, bf, rows, n, a->sweep, a->one != NULL);
    printf("\n%d problems; CSV in %s\n", n, a->csv);
    return 0;
}

/* The run on ctx's device: the contenders' state, the CSV (the rows
 * resumed from gpu's run, the rest run here), the report. 0 or 1 (said). */
static int on_device(autotune_ctx *ctx, const at_bench_args *a,
                     const at_bench_family *bf, at_bench_row *rows, int n,
                     const char *gpu, int n_resumed)
{
    const at_device *d = &ctx->dev;
    char note[1100] = "";
    void *state = NULL;
    at_safefile csv = {0};
    at_err e = {0};
    int done = 0, rc = 0;
    if (n_resumed && strcmp(gpu, d->name) != 0)
        rc = at_fail(&e, AUTOTUNE_EINVALID, "--resume %s: its rows ran on "
                     "%s, this is %s (figures of two GPUs do not mix)",
                     a->resume, gpu, d->name);
    if (!rc && (rc = at_device_push(d, &e)) == 0) {
        state = bf->open(d, note, sizeof note);
        at_device_pop();
        if (!state)
            rc = at_fail(&e, AUTOTUNE_ENOMEM, "benchmark state");
    }
    if (!rc)
        rc = at_safefile_open(&csv, a->csv, &e);
    if (!rc) {
        csv_header(csv.f, a->family);
        fprintf(a->json ? stderr : stdout, "autotune bench %s on %s (sm_%d, "
                "%d SMs, %d MB L2, driver %s, NVRTC %s); %s\n", a->family,
                d->name, d->sm, d->sms, d->l2_bytes >> 20, d->driver_build,
                d->nvrtc, note);
        fflush(stdout);
        if (!a->quiet && n > 1) /* so a run killed part way can go on */
            fprintf(stderr, "rows go to %s until the end (a run stopped "
                    "before it leaves them there: --resume %s)\n", csv.tmp,
                    csv.tmp);
        double t0 = at_now_s();
        ahead(a, bf, state, rows, n);
        rc = run_all(ctx, a, bf, state, rows, n, csv.f, &done, &e);
        if (rc) {
            at_safefile_keep(&csv);
            char hint[1200];
            snprintf(hint, sizeof hint, "\nautotune: the %d problems "
                     "finished are in %s (--resume %s runs the rest)", done,
                     csv.tmp, csv.tmp);
            at_cli_fail_hint(&e, hint);
        } else if ((rc = at_safefile_commit(&csv, &e))) {
            at_cli_fail(&e);
        }
        FILE *human = a->json ? stderr : stdout;
        at_bench_report(human, bf, rows, done, a->sweep, a->one != NULL);
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
    if (state && at_device_push(d, NULL) == 0) {
        bf->close(state);
        at_device_pop();
    }
    return rc ? 1 : 0;
}

int at_cmd_bench(const at_bench_args *a)
{
    const at_bench_family *bf = at_bench_family_find(a->family);
    if (!bf) {
        at_cli_say("%s has no benchmark\n", a->family);
        return 2;
    }
    at_bench_row *rows = NULL;
    int n, rc = problems(a, bf, &rows, &n);
    if (rc || a->list) {
        if (!rc)
            rc = list(a, rows, n);
        free(rows);
        return rc;
    }
    char gpu[256] = "";
    int n_resumed = 0;
    if (a->resume) {
        if (resume(a, bf, rows, n, gpu, sizeof gpu, &n_resumed)) {
            free(rows);
            return 1;
        }
        if (n_resumed == n) { /* nothing to run: no GPU needed */
            rc = all_resumed(a, bf, rows, n, gpu);
            free(rows);
            return rc;
        }
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
    rc = on_device(ctx, a, bf, rows, n, gpu, n_resumed);
    free(rows);
    autotune_destroy(ctx);
    return rc;
}
