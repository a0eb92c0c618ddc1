/* How good nearest-size reuse is (issue 12): given exhaustive records of
 * one family and type at many sizes (`autotune ... --record`), for each
 * size the point AUTOTUNE_ESTIMATE would reuse (the best point of the
 * nearest other size by gen/distance.h whose point is valid here, i.e.
 * in this size's record and passing its checks) is looked up in this
 * size's record, and its time compared with this size's optimum: leave
 * one out, over every size. Prints a table and the mean. No GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/distance.h"
#include "gen/family.h"
#include "search/record.h"

static double time_of(const at_record *r, const char *point)
{
    for (size_t i = 0; i < r->view.n; ++i)
        if (strcmp(r->point[i], point) == 0)
            return r->ms[i];
    return -1;
}

int main(int argc, char **argv)
{
    int n = argc - 1;
    if (n < 2) {
        fprintf(stderr, "usage: near_quality RECORD.csv RECORD.csv ...\n");
        return 2;
    }
    at_record *r = calloc((size_t)n, sizeof *r);
    at_problem *p = calloc((size_t)n, sizeof *p);
    if (!r || !p)
        return 1;
    for (int i = 0; i < n; ++i) {
        at_err e = {0};
        if (at_record_load(argv[i + 1], &r[i], &e) ||
            at_problem_begin(&p[i], r[i].family, r[i].type, &e) ||
            at_problem_set_text(&p[i], r[i].problem, &e) ||
            at_problem_finish(&p[i], &e)) {
            fprintf(stderr, "near_quality: %s: %s\n", argv[i + 1], e.msg);
            return 1;
        }
    }
    double sum = 0, worst = 0;
    int counted = 0, within5 = 0;
    printf("%-28s %-28s %9s %9s %7s\n", "problem", "reused from", "opt_ms",
           "reuse_ms", "ratio");
    for (int i = 0; i < n; ++i) {
        /* Nearest first, as at_near_find walks them. */
        int best = -1;
        double best_d = INFINITY, ms = -1;
        int *tried = calloc((size_t)n, sizeof *tried);
        for (;;) {
            best = -1;
            best_d = INFINITY;
            for (int j = 0; j < n; ++j) {
                double d = j == i || tried[j] ? INFINITY
                                              : at_problem_distance(&p[i],
                                                                    &p[j]);
                if (d < best_d) {
                    best_d = d;
                    best = j;
                }
            }
            if (best < 0)
                break;
            tried[best] = 1;
            ms = time_of(&r[i], r[best].point[r[best].best]);
            if (ms > 0)
                break;
        }
        free(tried);
        double opt = r[i].ms[r[i].best];
        char a[64], b[64];
        snprintf(a, sizeof a, "%.27s", r[i].problem);
        snprintf(b, sizeof b, "%.27s", best >= 0 ? r[best].problem : "-");
        if (best < 0 || ms <= 0) {
            printf("%-28s %-28s %9.4f %9s %7s\n", a, b, opt, "-", "-");
            continue;
        }
        double ratio = ms / opt;
        printf("%-28s %-28s %9.4f %9.4f %7.3f\n", a, b, opt, ms, ratio);
        sum += ratio;
        worst = ratio > worst ? ratio : worst;
        within5 += ratio <= 1.05;
        ++counted;
    }
    printf("sizes %d, reused %d; reused point's time / optimum: mean %.3f, "
           "worst %.3f, %d within 5%%\n", n, counted,
           counted ? sum / counted : 0, worst, within5);
    for (int i = 0; i < n; ++i)
        at_record_free(&r[i]);
    free(r);
    free(p);
    return 0;
}
