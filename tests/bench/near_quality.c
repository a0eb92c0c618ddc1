/* How good AUTOTUNE_ESTIMATE's reuse is, offline (issue 12): given
 * exhaustive records of one family and type at many sizes (`autotune ...
 * --record`), for each size the point the estimate would choose from the
 * other sizes (runtime/plan/near_pick.h, over profiles made from the records
 * as the tuner makes them: each size's AT_PROFILE fastest points) is
 * looked up in this size's record and its time compared with this size's
 * optimum: leave one out, over every size; next to it the nearest size's
 * best point alone (autotune 0.3.0's rule). Record times of points that
 * did not lead are single raced samples and the optimum is the least of
 * many: build/bench/near_retime times both as a user would. No GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/distance.h"
#include "gen/family.h"
#include "runtime/plan/near_pick.h"
#include "runtime/store/store.h"
#include "search/record.h"

typedef struct size_rec {
    at_record r;
    at_problem p;
    char params[256];  /* the best point's */
    char profile[AT_PROFILE * 280];
} size_rec;

static double time_of(const at_record *r, const char *point)
{
    for (size_t i = 0; i < r->view.n; ++i)
        if (strcmp(r->point[i], point) == 0)
            return r->ms[i];
    return -1;
}

/* A point's params from the record's axes and coordinates. */
static void params_of(const at_record *r, size_t i, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int a = 0; a < r->view.n_axes && at < n; ++a)
        at += (size_t)snprintf(buf + at, n - at, "%s%s=%d", a ? " " : "",
                               r->axis[a],
                               r->values[a][r->coord[i * r->view.n_axes + a]]);
}

static int by_ms(const void *a, const void *b, void *r_)
{
    const at_record *r = r_;
    double x = r->ms[*(const size_t *)a], y = r->ms[*(const size_t *)b];
    return (x > y) - (x < y);
}

/* The profile the tuner would keep: the AT_PROFILE fastest ok points. */
static void make_profile(size_rec *s)
{
    const at_record *r = &s->r;
    size_t *idx = malloc(r->view.n * sizeof *idx), k = 0;
    if (!idx)
        exit(1);
    for (size_t i = 0; i < r->view.n; ++i)
        if (r->ms[i] > 0)
            idx[k++] = i;
    qsort_r(idx, k, sizeof *idx, by_ms, (void *)r);
    size_t at = 0;
    s->profile[0] = '\0';
    for (size_t i = 0; i < k && i < AT_PROFILE; ++i) {
        char params[256];
        params_of(r, idx[i], params, sizeof params);
        at += (size_t)snprintf(s->profile + at, sizeof s->profile - at,
                               "%.6g %s\n", r->ms[idx[i]], params);
    }
    params_of(r, r->best, s->params, sizeof s->params);
    free(idx);
}

static int load(const char *path, size_rec *s)
{
    at_err e = {0};
    if (at_record_load(path, &s->r, &e) ||
        at_problem_make(&s->p, s->r.family, s->r.type, s->r.problem, &e)) {
        fprintf(stderr, "near_quality: %s: %s\n", path, e.msg);
        return 1;
    }
    make_profile(s);
    return 0;
}

/* The others by distance from s[i], nearest first, at most AT_NEAR_K. */
static int neighbours(const size_rec *s, int n, int i, at_near_cand *c,
                      int *who)
{
    int k = 0;
    for (int j = 0; j < n; ++j) {
        if (j == i)
            continue;
        double d = at_problem_distance(&s[i].p, &s[j].p);
        int at = k < AT_NEAR_K ? k++ : AT_NEAR_K;
        if (at == AT_NEAR_K && d >= c[AT_NEAR_K - 1].distance)
            continue;
        if (at == AT_NEAR_K)
            at = AT_NEAR_K - 1;
        for (; at > 0 && c[at - 1].distance > d; --at) {
            c[at] = c[at - 1];
            who[at] = who[at - 1];
        }
        c[at] = (at_near_cand){&s[j].p, d, s[j].params, s[j].profile};
        who[at] = j;
    }
    return k;
}

int main(int argc, char **argv)
{
    int n = argc - 1;
    if (n < 2) {
        fprintf(stderr, "usage: near_quality RECORD.csv RECORD.csv ...\n");
        return 2;
    }
    size_rec *s = calloc((size_t)n, sizeof *s);
    if (!s)
        return 1;
    for (int i = 0; i < n; ++i)
        if (load(argv[i + 1], &s[i]))
            return 1;
    at_limits l;
    if (!at_limits_for_arch(90, &l)) /* the records' checks passed there */
        return 1;
    double sum = 0, worst = 0, sum1 = 0;
    int counted = 0, within5 = 0, within5_1 = 0;
    printf("%-24s %-24s %9s %9s %7s %7s\n", "problem", "chosen from",
           "opt_ms", "reuse_ms", "ratio", "nearest");
    for (int i = 0; i < n; ++i) {
        at_near_cand c[AT_NEAR_K];
        int who[AT_NEAR_K];
        int k = neighbours(s, n, i, c, who);
        at_point pt;
        double score;
        int from = at_near_pick(&s[i].p, &l, c, k, &pt, &score);
        const at_record *r = &s[i].r;
        double opt = r->ms[r->best];
        char name[128], a[64], b[64];
        if (from < 0)
            continue;
        s[i].p.family->ops.point_name(s[i].p.family, &pt, name, sizeof name);
        double ms = time_of(r, name);
        double ms1 = time_of(r, s[who[0]].r.point[s[who[0]].r.best]);
        snprintf(a, sizeof a, "%.23s", r->problem);
        snprintf(b, sizeof b, "%.23s", s[who[from]].r.problem);
        if (ms <= 0 || ms1 <= 0) {
            printf("%-24s %-24s %9.4f %9s\n", a, b, opt, "-");
            continue;
        }
        printf("%-24s %-24s %9.4f %9.4f %7.3f %7.3f\n", a, b, opt, ms,
               ms / opt, ms1 / opt);
        sum += ms / opt;
        sum1 += ms1 / opt;
        worst = ms / opt > worst ? ms / opt : worst;
        within5 += ms / opt <= 1.05;
        within5_1 += ms1 / opt <= 1.05;
        ++counted;
    }
    printf("sizes %d, reused %d; chosen point's time / optimum: mean %.3f, "
           "worst %.3f, %d within 5%%; the nearest's best alone: mean %.3f, "
           "%d within 5%%\n", n, counted, counted ? sum / counted : 0, worst,
           within5, counted ? sum1 / counted : 0, within5_1);
    for (int i = 0; i < n; ++i)
        at_record_free(&s[i].r);
    free(s);
    return 0;
}
