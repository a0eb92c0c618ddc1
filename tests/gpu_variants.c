/* GPU: every point of the transpose space, f32 and f64, verified bit for
 * bit on three shapes, two of them multiples of no tile size (each check
 * also covers the bench's own odd shape with wide leading dimensions); and
 * the verifier itself rejects kernels that are wrong. Skips without a GPU. */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "../gen/expand.h"
#include "../runtime/bench.h"
#include "../runtime/compile.h"

static at_device dev;
static const int64_t shapes[3][2] = {{1024, 2048}, {1000, 1537}, {4099, 2053}};

static void verify_space(const char *type)
{
    at_err e = {0};
    at_bench *b[3] = {0};
    at_problem p[3];
    for (int s = 0; s < 3; ++s) {
        autotune_problem u = {"transpose", type, shapes[s][0], shapes[s][1],
                              0, 0};
        assert_int_equal(at_problem_init(&p[s], &u, &e), 0);
        if (at_bench_create(&b[s], &dev, &p[s], 1000 + (uint64_t)s, 0, NULL, &e))
            fail_msg("%s", e.msg);
    }
    at_limits l = at_device_limits(&dev);
    at_point *pts;
    size_t n;
    assert_int_equal(at_space_points(p[0].family, &p[0], &l, &pts, &n, &e), 0);
    at_job *jobs = calloc(n, sizeof *jobs);
    at_pool *pool;
    assert_non_null(jobs);
    assert_int_equal(at_pool_create(&pool, 0, 1, &e), 0);
    for (size_t i = 0; i < n; ++i) {
        jobs[i].opts.sm = dev.sm;
        p[0].family->point_name(&pts[i], jobs[i].variant,
                                sizeof jobs[i].variant);
        jobs[i].src = at_expand(&p[0], &pts[i], AT_KERNEL_SYMBOL, &e);
        assert_non_null(jobs[i].src);
        at_pool_submit(pool, &jobs[i]);
    }
    size_t verified = 0, failed = 0;
    for (size_t i = 0; i < n; ++i) {
        at_job *j = &jobs[i];
        at_pool_wait(pool, j);
        CUmodule mod = NULL;
        CUfunction fn;
        int rc = j->rc;
        if (rc) {
            e = j->err;
        } else {
            rc = at_cu_fail(&e, at_cu.cuModuleLoadData(&mod, j->cubin),
                            "cuModuleLoadData", j->variant);
            if (!rc)
                rc = at_cu_fail(&e, at_cu.cuModuleGetFunction(
                                        &fn, mod, AT_KERNEL_SYMBOL),
                                "cuModuleGetFunction", j->variant);
            for (int s = 0; s < 3 && !rc; ++s) {
                rc = at_bench_prepare(&p[s], &pts[i], fn, j->variant, &e);
                if (!rc)
                    rc = at_bench_verify(b[s], &pts[i], fn, j->variant, &e);
            }
        }
        if (rc) {
            if (failed++ < 10)
                printf("# FAILED %s\n", e.msg);
            if (rc == AUTOTUNE_ECUDA)
                fail_msg("context lost: %s", e.msg);
        } else {
            ++verified;
        }
        if (mod)
            at_cu.cuModuleUnload(mod);
        at_job_release(j);
    }
    at_pool_destroy(pool);
    printf("# %s: %zu of %zu points verified on %lldx%lld, %lldx%lld, "
           "%lldx%lld and 211x379 (ld 383/223 and 384/212)\n",
           type, verified, n, (long long)shapes[0][0], (long long)shapes[0][1],
           (long long)shapes[1][0], (long long)shapes[1][1],
           (long long)shapes[2][0], (long long)shapes[2][1]);
    assert_int_equal(failed, 0);
    assert_int_equal(verified, n);
    for (int s = 0; s < 3; ++s)
        at_bench_destroy(b[s]);
    free(jobs);
    free(pts);
}

static void every_point_f32(void **state)
{
    (void)state;
    verify_space("f32");
}

static void every_point_f64(void **state)
{
    (void)state;
    verify_space("f64");
}

/* Kernels with the family's signature and a planted bug each. */
static const char *wrong_kernels[] = {
    /* skips the last input row */
    "extern \"C\" __global__ void at_kernel(const unsigned *in, unsigned *out,"
    " int rows, int cols, long long ld_in, long long ld_out) {"
    " int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;"
    " if (r < rows - 1 && c < cols) out[(long long)c * ld_out + r] ="
    " in[(long long)r * ld_in + c]; }",
    /* right, and also writes into the output's padding */
    "extern \"C\" __global__ void at_kernel(const unsigned *in, unsigned *out,"
    " int rows, int cols, long long ld_in, long long ld_out) {"
    " int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;"
    " if (r < rows && c < cols) out[(long long)c * ld_out + r] ="
    " in[(long long)r * ld_in + c];"
    " if (r == 0 && c < cols && ld_out > rows) out[(long long)c * ld_out +"
    " rows] = 0; }",
    /* copies instead of transposing */
    "extern \"C\" __global__ void at_kernel(const unsigned *in, unsigned *out,"
    " int rows, int cols, long long ld_in, long long ld_out) {"
    " int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;"
    " if (r < rows && c < cols && c < rows && r < cols)"
    " out[(long long)r * ld_out + c] = in[(long long)r * ld_in + c]; }",
};

static void verifier_rejects_wrong_kernels(void **state)
{
    (void)state;
    at_err e = {0};
    autotune_problem u = {"transpose", "f32", 1000, 1537, 0, 0};
    at_problem p;
    at_bench *b;
    assert_int_equal(at_problem_init(&p, &u, &e), 0);
    if (at_bench_create(&b, &dev, &p, 7, 0, NULL, &e))
        fail_msg("%s", e.msg);
    /* Launched as the 32x32 tile, 32x32 threads point. */
    at_point pt;
    memset(&pt, 0, sizeof pt);
    int v[] = {32, 32, 32, 32, 1, 0, 0, 0};
    memcpy(pt.v, v, sizeof v);
    for (size_t i = 0; i < sizeof wrong_kernels / sizeof *wrong_kernels; ++i) {
        void *cubin;
        size_t size;
        char name[32];
        snprintf(name, sizeof name, "wrong%zu", i);
        at_compile_opts co = {.sm = dev.sm};
        if (at_compile(wrong_kernels[i], name, &co, &cubin, &size, &e))
            fail_msg("%s", e.msg);
        CUmodule mod;
        CUfunction fn;
        assert_int_equal(at_cu.cuModuleLoadData(&mod, cubin), CUDA_SUCCESS);
        assert_int_equal(at_cu.cuModuleGetFunction(&fn, mod, "at_kernel"),
                         CUDA_SUCCESS);
        assert_int_equal(at_bench_prepare(&p, &pt, fn, name, &e), 0);
        int rc = at_bench_verify(b, &pt, fn, name, &e);
        printf("# %s: %s\n", name, e.msg);
        assert_int_equal(rc, AUTOTUNE_EWRONG);
        assert_non_null(strstr(e.msg, name));
        if (i == 1)
            assert_non_null(strstr(e.msg, "outside the matrix"));
        at_cu.cuModuleUnload(mod);
        free(cubin);
    }
    at_bench_destroy(b);
}

int main(void)
{
    at_err e = {0};
    if (at_device_open(&dev, 0, &e))
        return at_skip_all(e.msg);
    if (at_device_push(&dev, &e))
        return at_skip_all(e.msg);
    printf("# device: %s, sm_%d, %d SMs\n", dev.name, dev.sm, dev.sms);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verifier_rejects_wrong_kernels),
        cmocka_unit_test(every_point_f32),
        cmocka_unit_test(every_point_f64),
    };
    int rc = AT_RUN_TESTS(tests);
    at_device_pop();
    at_device_close(&dev);
    return rc;
}
