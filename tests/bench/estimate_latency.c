/* Latency of an answer (issue 12), in a release build: a cache hit
 * (target under 1 ms) and AUTOTUNE_ESTIMATE on a miss (target under
 * 50 ms with a warm compiled-variant cache), after one AUTOTUNE_MEASURE
 * tune of transpose f32 4096x4096 gave the cache something to reuse.
 * Each miss is a size not asked before. Usage: estimate_latency CACHE */
#include <stdio.h>
#include <stdlib.h>

#include "autotune.h"
#include "base/clock.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double get(autotune_ctx *ctx, int64_t rows, int64_t cols, int effort,
                  int want_how)
{
    autotune_problem *u = NULL;
    autotune_kernel *k;
    double t0 = at_now_s();
    if (autotune_problem_create(ctx, "transpose", "f32", &u) ||
        autotune_problem_set_int(u, "rows", rows) ||
        autotune_problem_set_int(u, "cols", cols) ||
        autotune_get_with(ctx, u, effort, &k)) {
        fprintf(stderr, "estimate_latency: %s\n", autotune_last_error(ctx));
        exit(1);
    }
    autotune_problem_destroy(u);
    double ms = (at_now_s() - t0) * 1e3;
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    if (want_how >= 0 && f.how != want_how) {
        fprintf(stderr, "estimate_latency: %lldx%lld answered how %d, not "
                "%d\n", (long long)rows, (long long)cols, f.how, want_how);
        exit(1);
    }
    autotune_kernel_destroy(k);
    return ms;
}

static void line(const char *what, double *ms, int n)
{
    double first = ms[0];
    qsort(ms, (size_t)n, sizeof *ms, cmp);
    printf("%-34s %3d %9.3f %9.3f %9.3f\n", what, n, first, ms[n / 2],
           ms[n - 1]);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: estimate_latency CACHE.db\n");
        return 2;
    }
    autotune_ctx *ctx;
    autotune_options o = {0, argv[1], 0, AUTOTUNE_MEASURE};
    if (autotune_create(&ctx, &o)) {
        fprintf(stderr, "estimate_latency: %s\n", autotune_last_error(NULL));
        return 77;
    }
    double t = get(ctx, 4096, 4096, AUTOTUNE_MEASURE, -1);
    printf("measure tune of 4096x4096: %.2f s\n", t / 1e3);
    enum { N = 20 };
    double hit[N], miss[N], again[N];
    for (int i = 0; i < N; ++i)
        hit[i] = get(ctx, 4096, 4096, AUTOTUNE_EFFORT_DEFAULT,
                     AUTOTUNE_HOW_CACHED);
    for (int i = 0; i < N; ++i)
        miss[i] = get(ctx, 3800 + 16 * i, 4400 - 24 * i, AUTOTUNE_ESTIMATE,
                      AUTOTUNE_HOW_REUSED);
    for (int i = 0; i < N; ++i) /* the same sizes again: still misses */
        again[i] = get(ctx, 3800 + 16 * i, 4400 - 24 * i,
                       AUTOTUNE_ESTIMATE, AUTOTUNE_HOW_REUSED);
    printf("%-34s %3s %9s %9s %9s\n", "ms per autotune_get_with", "n",
           "first", "median", "max");
    line("hit (cached 4096x4096)", hit, N);
    line("estimate, miss (new sizes)", miss, N);
    line("estimate, miss (sizes seen)", again, N);
    autotune_destroy(ctx);
    return 0;
}
