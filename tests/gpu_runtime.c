/* GPU: the runtime API's effort levels, nearest-size reuse, background
 * tuning and threads, on one fresh cache, in order:
 *   wisdom-only misses on an empty cache; estimate gives the default
 *   point, verified; measure tunes a share of the space and stores it;
 *   estimate on a miss reuses that point for a nearby size (timed: the
 *   target is 50 ms), on a hit answers from the cache (target 1 ms);
 *   a background tune replaces an estimate's kernel in its handle;
 *   threads asking for one new problem tune it once and launch on their
 *   own streams.
 * Every kernel handed back is run on random input and compared with the
 * CPU reference. Skips without a GPU. */
#include "tap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autotune.h"
#include "base/clock.h"
#include "base/pcg.h"
#include "gen/problem.h"
#include "gen/family.h"
#include "runtime/api/api.h"
#include "runtime/driver/driver.h"

static char cache_path[256];

/* A transpose problem through the public API; freed at exit. */
enum { MAX_PROBLEMS = 64 };
static autotune_problem *made[MAX_PROBLEMS];
static int n_made;

static void free_problems(void)
{
    for (int i = 0; i < n_made; ++i)
        autotune_problem_destroy(made[i]);
}

static autotune_problem *tp(int64_t rows, int64_t cols)
{
    autotune_problem *p = NULL;
    if (n_made == MAX_PROBLEMS ||
        autotune_problem_create(NULL, "transpose", "f32", &p) ||
        autotune_problem_set_int(p, "rows", rows) ||
        autotune_problem_set_int(p, "cols", cols))
        fail_msg("problem %lldx%lld: %s", (long long)rows, (long long)cols,
                 autotune_last_error(NULL));
    if (!n_made)
        atexit(free_problems);
    made[n_made++] = p;
    return p;
}

/* Runs k for u on random input on the caller's stream (NULL: a new one)
 * and compares with the CPU reference: 0 right, 1 wrong, -1 no run. */
static int check(autotune_kernel *k, const autotune_problem *u)
{
    at_problem p = u->p; /* runtime/api/api.h: the problem inside */
    at_err e = {0};
    if (at_problem_finish(&p, &e))
        return -1;
    size_t n = p.in_bytes / 4, m = p.out_bytes / 4;
    uint32_t *in = malloc(n * 4), *out = malloc(m * 4), *ref = malloc(m * 4);
    int bad = -1;
    CUdevice d;
    CUcontext c;
    CUdeviceptr din = 0, dout = 0;
    CUstream s = NULL;
    if (!in || !out || !ref || at_cu.cuDeviceGet(&d, 0) ||
        at_cu.cuDevicePrimaryCtxRetain(&c, d) || at_cu.cuCtxPushCurrent(c))
        goto done;
    at_pcg g;
    at_pcg_seed(&g, at_pcg_fresh_seed(), 5);
    for (size_t i = 0; i < n; ++i)
        in[i] = at_pcg_next(&g);
    memset(ref, 0xAB, m * 4);
    memcpy(out, ref, m * 4);
    p.family->ops.reference(&p, in, ref, NULL, 0, p.family->ops.reference_parts(&p));
    if (!at_cu.cuMemAlloc(&din, n * 4) && !at_cu.cuMemAlloc(&dout, m * 4) &&
        !at_cu.cuStreamCreate(&s, 0) && !at_cu.cuMemcpyHtoD(din, in, n * 4) &&
        !at_cu.cuMemcpyHtoD(dout, out, m * 4) &&
        !autotune_launch_io(k, (const void *)din, (void *)dout,
                            (struct CUstream_st *)s) &&
        !at_cu.cuStreamSynchronize(s) &&
        !at_cu.cuMemcpyDtoH(out, dout, m * 4))
        bad = memcmp(out, ref, m * 4) != 0;
    if (s)
        at_cu.cuStreamDestroy(s);
    at_cu.cuMemFree(din);
    at_cu.cuMemFree(dout);
    at_cu.cuCtxPopCurrent(&c);
    at_cu.cuDevicePrimaryCtxRelease(d);
done:
    free(in);
    free(out);
    free(ref);
    return bad;
}

static autotune_ctx *ctx_at(int effort)
{
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 0, effort};
    if (autotune_create(&ctx, &o)) {
        printf("# %s\n", autotune_last_error(NULL));
        fail();
    }
    return ctx;
}

static void wisdom_only_misses(void **state)
{
    (void)state;
    autotune_ctx *ctx = ctx_at(AUTOTUNE_WISDOM_ONLY);
    autotune_problem *u = tp(4096, 4096);
    autotune_kernel *k = NULL;
    assert_int_equal(autotune_get(ctx, u, &k), AUTOTUNE_ENOT_FOUND);
    assert_null(k);
    printf("# %s\n", autotune_last_error(ctx));
    assert_non_null(strstr(autotune_last_error(ctx), "4096x4096"));
    autotune_destroy(ctx);
}

static void estimate_default_point(void **state)
{
    (void)state;
    autotune_ctx *ctx = ctx_at(0);
    autotune_problem *u = tp(1000, 3000);
    autotune_kernel *k;
    double t0 = at_now_s();
    assert_int_equal(autotune_get_with(ctx, u, AUTOTUNE_ESTIMATE, &k), 0);
    printf("# estimate, empty cache: %s (default point) in %.1f ms\n",
           autotune_kernel_point(k), (at_now_s() - t0) * 1e3);
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    assert_int_equal(f.how, AUTOTUNE_HOW_DEFAULT);
    assert_int_equal(check(k, u), 0);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
}

static char measured_point[128];

static void measure_then_estimate_reuses(void **state)
{
    (void)state;
    autotune_ctx *ctx = ctx_at(AUTOTUNE_MEASURE);
    autotune_problem *u = tp(4096, 4096);
    autotune_kernel *k;
    double t0 = at_now_s();
    assert_int_equal(autotune_get(ctx, u, &k), 0);
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    printf("# measure 4096x4096: %s, %.0f GB/s (%.1f%% of copy) in %.2f s\n",
           autotune_kernel_point(k), f.gbps, 100 * f.frac_copy,
           at_now_s() - t0);
    assert_int_equal(f.how, AUTOTUNE_HOW_TUNED);
    assert_int_equal(f.effort, AUTOTUNE_MEASURE);
    snprintf(measured_point, sizeof measured_point, "%s",
             autotune_kernel_point(k));
    assert_int_equal(check(k, u), 0);
    autotune_kernel_destroy(k);
    /* A hit, at every effort that a measured entry serves. */
    int efforts[] = {AUTOTUNE_ESTIMATE, AUTOTUNE_WISDOM_ONLY,
                     AUTOTUNE_MEASURE};
    for (int i = 0; i < 3; ++i) {
        t0 = at_now_s();
        assert_int_equal(autotune_get_with(ctx, u, efforts[i], &k), 0);
        double ms = (at_now_s() - t0) * 1e3;
        autotune_kernel_figures(k, &f);
        printf("# effort %d on a hit: %.3f ms\n", efforts[i], ms);
        assert_int_equal(f.how, AUTOTUNE_HOW_CACHED);
        autotune_kernel_destroy(k);
    }
    /* Misses near it: the measured point, reused and verified. */
    const int64_t sizes[][2] = {{4000, 4100}, {3900, 4200}, {4608, 4096}};
    for (int i = 0; i < 3; ++i) {
        autotune_problem *v = tp(sizes[i][0], sizes[i][1]);
        t0 = at_now_s();
        assert_int_equal(autotune_get_with(ctx, v, AUTOTUNE_ESTIMATE, &k),
                         0);
        double ms = (at_now_s() - t0) * 1e3;
        autotune_kernel_figures(k, &f);
        printf("# estimate on a miss, %lldx%lld: %.1f ms, %s from %s\n",
               (long long)sizes[i][0], (long long)sizes[i][1], ms,
               autotune_kernel_point(k), f.from);
        assert_int_equal(f.how, AUTOTUNE_HOW_REUSED);
        assert_non_null(strstr(f.from, "rows=4096 cols=4096"));
        assert_string_equal(autotune_kernel_point(k), measured_point);
        assert_int_equal(check(k, v), 0);
        autotune_kernel_destroy(k);
    }
    autotune_destroy(ctx);
}

static void background_tune_replaces(void **state)
{
    (void)state;
    autotune_ctx *ctx = ctx_at(AUTOTUNE_MEASURE);
    autotune_problem *u = tp(3000, 2000);
    autotune_kernel *k;
    double t0 = at_now_s();
    assert_int_equal(autotune_get_with(ctx, u, AUTOTUNE_ESTIMATE |
                                       AUTOTUNE_BACKGROUND, &k), 0);
    double ms = (at_now_s() - t0) * 1e3;
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    printf("# background: answered in %.1f ms with %s (how %d)\n", ms,
           autotune_kernel_point(k), f.how);
    assert_int_equal(f.how, AUTOTUNE_HOW_REUSED);
    /* The handle works while the tune runs. */
    assert_int_equal(check(k, u), 0);
    int r;
    while ((r = autotune_kernel_refresh(k)) == 0)
        usleep(20000);
    printf("# refreshed after %.2f s: %s\n", at_now_s() - t0,
           autotune_kernel_point(k));
    assert_int_equal(r, 1);
    autotune_kernel_figures(k, &f);
    assert_int_equal(f.how, AUTOTUNE_HOW_CACHED);
    assert_int_equal(f.effort, AUTOTUNE_MEASURE);
    assert_true(f.gbps > 0);
    assert_int_equal(check(k, u), 0);
    assert_int_equal(autotune_kernel_refresh(k), 0); /* once */
    /* A later ask gets the tuned answer from the cache. */
    autotune_kernel *k2;
    assert_int_equal(autotune_get(ctx, u, &k2), 0);
    assert_string_equal(autotune_kernel_point(k2), autotune_kernel_point(k));
    autotune_kernel_destroy(k2);
    autotune_kernel_destroy(k);
    assert_int_equal(autotune_wait(ctx), 0);
    autotune_destroy(ctx);
}

enum { THREADS = 4 };
typedef struct job {
    autotune_ctx *ctx;
    autotune_problem *u;
    autotune_kernel *k;
    int rc, right;
    autotune_figures f;
    pthread_barrier_t *start;
} job;

static void *ask(void *arg)
{
    job *j = arg;
    pthread_barrier_wait(j->start);
    j->rc = autotune_get(j->ctx, j->u, &j->k);
    if (!j->rc) {
        autotune_kernel_figures(j->k, &j->f);
        pthread_barrier_wait(j->start); /* all launch at once */
        j->right = check(j->k, j->u);
    } else {
        printf("# thread: %s\n", autotune_last_error(j->ctx));
        pthread_barrier_wait(j->start);
    }
    return NULL;
}

static void threads_tune_once(void **state)
{
    (void)state;
    autotune_ctx *ctx = ctx_at(AUTOTUNE_MEASURE);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    job jobs[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        jobs[i] = (job){ctx, tp(2500, 3500), NULL, 0, -1, {0}, &start};
        assert_int_equal(pthread_create(&th[i], NULL, ask, &jobs[i]), 0);
    }
    int tuned = 0;
    for (int i = 0; i < THREADS; ++i) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].rc, 0);
        assert_int_equal(jobs[i].right, 0);
        tuned += jobs[i].f.how == AUTOTUNE_HOW_TUNED;
        assert_string_equal(autotune_kernel_point(jobs[i].k),
                            autotune_kernel_point(jobs[0].k));
    }
    printf("# %d threads, one problem: tuned %d time(s), %s\n", THREADS,
           tuned, autotune_kernel_point(jobs[0].k));
    assert_int_equal(tuned, 1);
    for (int i = 0; i < THREADS; ++i)
        autotune_kernel_destroy(jobs[i].k);
    pthread_barrier_destroy(&start);
    autotune_destroy(ctx);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    at_gpu_tmp_path(cache_path, sizeof cache_path, "gpu_runtime_cache.db");
    at_err e = {0};
    if (at_cu_load(&e))
        return at_skip_all(e.msg);
    /* A fresh tuning cache (the compiled-variant cache beside it may be
     * warm: estimate's target is for a warm one). */
    at_remove_cache(cache_path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wisdom_only_misses),
        cmocka_unit_test(estimate_default_point),
        cmocka_unit_test(measure_then_estimate_reuses),
        cmocka_unit_test(background_tune_replaces),
        cmocka_unit_test(threads_tune_once),
    };
    return AT_RUN_TESTS(tests);
}
