/* The benchmark's report for people: the table, a sweep's worst rows
 * against each kernel, and the summary of problems of 64 MiB or more
 * apart from the smaller ones. */
#include "bench_report.h"

#include <stdlib.h>
#include <string.h>

#include "bench_summary.h"

static void cell(FILE *f, const at_cmp_row *w)
{
    if (w->present)
        fprintf(f, " %7.0f %5.1f%%", w->gbps, 100 * w->frac_copy);
    else if (w->wrong)
        fprintf(f, " %7s %6s", "wrong", "");
    else
        fprintf(f, " %7s %6s", "-", "");
}

static void table(FILE *f, const at_bench_family *bf,
                  const at_bench_row *rows, int n)
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
static void worst(FILE *f, const at_bench_family *bf,
                  const at_bench_row *rows, int n)
{
    enum { SHOWN = 5 };
    ranked *r = n ? malloc((size_t)n * sizeof *r) : NULL;
    if (!r)
        return;
    for (int k = AT_CMP_MEMCPY; k < rows[0].c.n; ++k) {
        if (k == AT_CMP_TUNED)
            continue;
        int m = 0, behind = 0, wrong = 0, first_wrong = -1;
        for (int i = 0; i < n; ++i) {
            const at_cmp_row *o = &rows[i].c.row[k];
            if (o->wrong && !wrong++)
                first_wrong = i;
            if (o->present && o->gbps > 0) {
                r[m].ratio = rows[i].c.row[AT_CMP_TUNED].gbps / o->gbps;
                r[m].row = i;
                behind += r[m++].ratio < 1;
            }
        }
        const char *name = rows[0].c.row[k].kernel;
        if (wrong) {
            char shape[96];
            const at_bench_row *d = &rows[first_wrong];
            bf->shape(&d->p, shape, sizeof shape);
            fprintf(f, "\n%s answered wrong on %d problem%s (not timed), "
                    "first %s %s\n", name, wrong, wrong == 1 ? "" : "s",
                    d->p.type->name, shape);
        }
        if (!m)
            continue;
        qsort(r, (size_t)m, sizeof *r, by_ratio);
        fprintf(f, "\nagainst %s (%d problems): tuned / %s median %.3f, "
                "below 1 on %d; worst:\n", name, m, name,
                r[m / 2].ratio, behind);
        for (int j = 0; j < m && j < SHOWN; ++j) {
            const at_bench_row *d = &rows[r[j].row];
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
static void summary(FILE *f, const at_bench_family *bf,
                    const at_bench_row *rows, int n)
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

/* The table, a sweep's worst rows and the summary of rows[0..done). */
void at_bench_report(FILE *f, const at_bench_family *bf,
                     const at_bench_row *rows, int done, int sweep, int one)
{
    table(f, bf, rows, done);
    if (sweep)
        worst(f, bf, rows, done);
    if (!one)
        summary(f, bf, rows, done);
}
