/* GPU: the public API end to end. A context tunes a problem on a cache
 * miss; the kernel it returns is checked against the CPU reference on
 * fresh random data in the caller's own buffers and stream, also off its
 * vectors (a transpose's, a reduction's); a second
 * process answers from the cache without compiling or timing; errors carry
 * the variant; a spec's family loads, tunes and launches on the caller's
 * buffers. Skips without a GPU. */
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gen/family.h"
#include "gen/reduce.h"
#include "autotune.h"
#include "base/clock.h"
#include "runtime/driver/driver.h"
#include "base/pcg.h"

static char cache_path[256];
static char self[1024];
/* Odd on purpose: a multiple of no tile size. */
enum { ROWS = 2053, COLS = 4099 };
#define PROB_TEXT "rows=2053 cols=4099"

/* The test's problem through the public API (a problem is a family, a
 * type and fields by name); NULL after a failure said by fail_msg. */
static autotune_problem *problem(autotune_ctx *ctx, const char *family,
                                 const char *type, const char *text)
{
    autotune_problem *p = NULL;
    if (autotune_problem_create(ctx, family, type, &p) ||
        (text && autotune_problem_set_text(p, text)))
        fail_msg("problem %s %s: %s", family, text ? text : "",
                 autotune_last_error(ctx));
    return p;
}

/* autotune_get of family type text, the problem destroyed after. */
static int get(autotune_ctx *ctx, const char *family, const char *type,
               const char *text, autotune_kernel **k)
{
    autotune_problem *p = problem(ctx, family, type, text);
    int rc = autotune_get(ctx, p, k);
    autotune_problem_destroy(p);
    return rc;
}

/* The caller's own use of the device: the primary context, current. */
static void push_primary(CUdevice *d, CUcontext *c)
{
    assert_int_equal(at_cu.cuDeviceGet(d, 0) ||
                     at_cu.cuDevicePrimaryCtxRetain(c, *d) ||
                     at_cu.cuCtxPushCurrent(*c), 0);
}

static void pop_primary(CUdevice d, CUcontext c)
{
    at_cu.cuCtxPopCurrent(&c);
    at_cu.cuDevicePrimaryCtxRelease(d);
}

/* Runs k (f32, the problem text) on random input in cuMemAlloc'd buffers
 * on a user stream, both off elements past their start, and compares
 * every element with the CPU reference. */
static int check_kernel_at(autotune_kernel *k, autotune_ctx *ctx,
                           const char *text, size_t off)
{
    at_problem p;
    at_err e = {0};
    if (at_problem_make(&p, "transpose", "f32", text, &e))
        return -1;
    size_t n = (size_t)p.in_bytes / 4, all = (n + off) * 4;
    uint32_t *in = malloc(n * 4), *out = malloc(n * 4), *ref = malloc(n * 4);
    if (!in || !out || !ref)
        return -1;
    at_pcg g;
    at_pcg_seed(&g, at_pcg_fresh_seed(), 3);
    for (size_t i = 0; i < n; ++i)
        in[i] = at_pcg_next(&g);
    p.family->ops.reference(&p, in, ref, NULL, 0, p.family->ops.reference_parts(&p));
    CUdeviceptr din, dout;
    CUstream s;
    int bad = -1;
    CUcontext c;
    /* The caller's own use of the device: the primary context. */
    CUdevice d;
    if (at_cu.cuDeviceGet(&d, 0) || at_cu.cuDevicePrimaryCtxRetain(&c, d) ||
        at_cu.cuCtxPushCurrent(c))
        return -1;
    if (!at_cu.cuMemAlloc(&din, all) && !at_cu.cuMemAlloc(&dout, all) &&
        !at_cu.cuStreamCreate(&s, 0) &&
        !at_cu.cuMemcpyHtoD(din + off * 4, in, n * 4) &&
        !at_cu.cuMemsetD32(dout, 0xDEADBEEF, n + off)) {
        const void *args[] = {(const void *)(din + off * 4),
                              (const void *)(dout + off * 4)};
        int rc = autotune_launch(k, args, 2, (struct CUstream_st *)s);
        if (rc)
            printf("# launch: %s\n", autotune_last_error(ctx));
        else if (!at_cu.cuStreamSynchronize(s) &&
                 !at_cu.cuMemcpyDtoH(out, dout + off * 4, n * 4))
            bad = memcmp(out, ref, n * 4) != 0;
        at_cu.cuStreamDestroy(s);
        at_cu.cuMemFree(din);
        at_cu.cuMemFree(dout);
    }
    at_cu.cuCtxPopCurrent(&c);
    at_cu.cuDevicePrimaryCtxRelease(d);
    free(in);
    free(out);
    free(ref);
    return bad;
}

static int check_kernel(autotune_kernel *k, autotune_ctx *ctx)
{
    return check_kernel_at(k, ctx, PROB_TEXT, 0);
}

/* A problem of whole tiles: its kernel has no element path and takes
 * buffers on its vectors alone; a buffer off them (one f32 past a
 * cuMemAlloc'd start) takes the point compiled with every path, as
 * right. */
static void whole_tiles_take_any_buffer(void **state)
{
    (void)state;
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 1};
    assert_int_equal(autotune_create(&ctx, &o), 0);
    const char *text = "rows=1024 cols=2048";
    autotune_problem *p = problem(ctx, "transpose", "f32", text);
    autotune_kernel *k;
    if (autotune_get_with(ctx, p, AUTOTUNE_MEASURE, &k))
        fail_msg("%s", autotune_last_error(ctx));
    autotune_problem_destroy(p);
    const char *pt = autotune_kernel_point(k);
    printf("# %s: %s (%s)\n", text, pt,
           strstr(pt, "_vec1_") ? "takes any buffer: nothing to show"
                                : "a buffer off its vectors takes the "
                                  "point with every path");
    assert_int_equal(check_kernel_at(k, ctx, text, 0), 0);
    assert_int_equal(check_kernel_at(k, ctx, text, 1), 0);
    assert_int_equal(check_kernel_at(k, ctx, text, 0), 0); /* and back */
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
}

/* Input values that sum exactly (small integers) in a reduce type's bits:
 * bf16, f32 or f64 at in[i]. */
static void small_int(const char *type, void *in, size_t i, int v)
{
    if (strcmp(type, "f64") == 0) {
        ((double *)in)[i] = v;
    } else {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        if (strcmp(type, "bf16") == 0)
            ((uint16_t *)in)[i] = (uint16_t)(b >> 16);
        else
            ((uint32_t *)in)[i] = b;
    }
}

/* Runs reduce kernel k (a sum of type, problem text) on small integers at
 * off elements past a cuMemAlloc'd start, and compares every output with
 * the exact sums. 0 right, 1 wrong, -1 failed. */
static int check_sum_at(autotune_kernel *k, autotune_ctx *ctx,
                        const char *type, const char *text, size_t off)
{
    at_problem p;
    at_err e = {0};
    if (at_problem_make(&p, "reduce", type, text, &e))
        return -1;
    const size_t es = p.type->bytes, acc = strcmp(type, "f64") ? 4 : 8;
    const int64_t rows = p.v[RD_ROWS], cols = p.v[RD_COLS], ld = p.v[RD_LD];
    const int down = at_rd_down(&p);
    const size_t n = (size_t)p.in_bytes / es, outs = down ? cols : rows;
    void *in = calloc(n, es), *out = malloc(outs * acc);
    double *ref = calloc(outs, sizeof *ref);
    if (!in || !out || !ref)
        return -1;
    at_pcg g;
    at_pcg_seed(&g, at_pcg_fresh_seed(), 5);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            int v = (int)(at_pcg_next(&g) % 7) - 3;
            small_int(type, in, (size_t)(r * ld + c), v);
            ref[down ? c : r] += v;
        }
    int bad = -1;
    CUdeviceptr din, dout;
    CUcontext c;
    CUdevice d;
    push_primary(&d, &c);
    if (!at_cu.cuMemAlloc(&din, (n + off) * es) &&
        !at_cu.cuMemAlloc(&dout, outs * acc) &&
        !at_cu.cuMemcpyHtoD(din + off * es, in, n * es)) {
        int rc = autotune_launch_io(k, (const void *)(din + off * es),
                                    (void *)dout, NULL);
        if (rc)
            printf("# launch: %s\n", autotune_last_error(ctx));
        else if (!at_cu.cuCtxSynchronize() &&
                 !at_cu.cuMemcpyDtoH(out, dout, outs * acc)) {
            bad = 0;
            for (size_t i = 0; i < outs; ++i) {
                double got = acc == 8 ? ((double *)out)[i]
                                      : ((float *)out)[i];
                if (got != ref[i] && bad++ < 3)
                    printf("# %s off %zu: out[%zu] %g, want %g\n", text,
                           off, i, got, ref[i]);
            }
            bad = bad != 0;
        }
        at_cu.cuMemFree(din);
        at_cu.cuMemFree(dout);
    }
    pop_primary(d, c);
    free(in);
    free(out);
    free(ref);
    return bad;
}

/* A reduction's input off its kernel's vectors (a view into a larger
 * matrix: one element past a cuMemAlloc'd start) runs the point with
 * every path (AT_ANY_BASE) and sums right, where a vector load would
 * have faulted; an aligned launch after is right too. Down columns of
 * bf16 (a 16-byte strip shifts) and f64 (split loads), along rows of
 * f32. */
static void reduce_takes_any_input(void **state)
{
    (void)state;
    static const struct {
        const char *type, *text;
    } cases[] = {
        {"bf16", "op=sum axis=rows rows=3001 cols=2050 ld=2056"},
        {"f64", "op=sum axis=rows rows=3001 cols=1030"},
        {"f32", "op=sum axis=cols rows=1025 cols=3001"},
    };
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 1};
    assert_int_equal(autotune_create(&ctx, &o), 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        autotune_problem *p = problem(ctx, "reduce", cases[i].type,
                                      cases[i].text);
        autotune_kernel *k;
        if (autotune_get_with(ctx, p, AUTOTUNE_MEASURE, &k))
            fail_msg("%s", autotune_last_error(ctx));
        autotune_problem_destroy(p);
        const char *pt = autotune_kernel_point(k);
        printf("# %s %s: %s%s\n", cases[i].type, cases[i].text, pt,
               strstr(pt, "_vec1_") ? " (takes any input: nothing to show)"
                                    : "");
        assert_int_equal(check_sum_at(k, ctx, cases[i].type, cases[i].text,
                                      0), 0);
        assert_int_equal(check_sum_at(k, ctx, cases[i].type, cases[i].text,
                                      1), 0);
        assert_int_equal(check_sum_at(k, ctx, cases[i].type, cases[i].text,
                                      0), 0);
        autotune_kernel_destroy(k);
    }
    autotune_destroy(ctx);
}

static void tunes_then_runs_right(void **state)
{
    (void)state;
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 1};
    assert_int_equal(autotune_create(&ctx, &o), 0);
    autotune_kernel *k;
    double t0 = at_now_s();
    if (get(ctx, "transpose", "f32", PROB_TEXT, &k))
        fail_msg("%s", autotune_last_error(ctx));
    autotune_figures f;
    assert_int_equal(autotune_kernel_figures(k, &f), 0);
    printf("# tuned in %.1f s: %s, %.4f ms, %.0f GB/s, %.1f%% of copy\n",
           at_now_s() - t0, autotune_kernel_point(k), f.median_ms, f.gbps,
           100 * f.frac_copy);
    assert_int_equal(f.from_cache, 0);
    assert_int_equal(f.how, AUTOTUNE_HOW_TUNED); /* the planner's word */
    assert_true(f.median_ms > 0 && f.gbps > 0 && f.copy_gbps > 0);
    assert_true(f.frac_copy > 0.1 && f.frac_copy < 1.5);
    assert_int_equal(check_kernel(k, ctx), 0);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
}

static void second_process_hits_the_cache(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(self, self, "--child", (char *)NULL);
        _exit(127);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The second process: a hit, fast, no compile, and a right answer. */
static int child(void)
{
    double t0 = at_now_s();
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 1};
    if (autotune_create(&ctx, &o)) {
        printf("# child: %s\n", autotune_last_error(NULL));
        return 1;
    }
    autotune_kernel *k;
    if (get(ctx, "transpose", "f32", PROB_TEXT, &k)) {
        printf("# child: %s\n", autotune_last_error(ctx));
        return 1;
    }
    double dt = at_now_s() - t0;
    autotune_figures f;
    autotune_kernel_figures(k, &f);
    printf("# child: from_cache=%d in %.3f s (create + get), %s\n",
           f.from_cache, dt, autotune_kernel_point(k));
    int rc = !f.from_cache || f.how != AUTOTUNE_HOW_CACHED || dt >= 1.0 ||
             check_kernel(k, ctx) != 0;
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
    return rc;
}

static void launch_errors_name_the_variant(void **state)
{
    (void)state;
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 0};
    assert_int_equal(autotune_create(&ctx, &o), 0);
    autotune_kernel *k;
    assert_int_equal(get(ctx, "transpose", "f32", PROB_TEXT, &k), 0);
    assert_int_equal(autotune_launch_io(k, NULL, NULL, NULL),
                     AUTOTUNE_EINVALID);
    assert_non_null(strstr(autotune_last_error(ctx),
                           autotune_kernel_point(k)));
    autotune_problem *bad = NULL;
    assert_int_equal(autotune_problem_create(ctx, "transpose", "f128", &bad),
                     AUTOTUNE_ENOT_FOUND);
    assert_null(bad);
    assert_non_null(strstr(autotune_last_error(ctx), "f128"));
    /* A field the family does not have, and a value out of range. */
    autotune_problem *p = problem(ctx, "transpose", "f32", NULL);
    assert_int_equal(autotune_problem_set(p, "op", "max"),
                     AUTOTUNE_ENOT_FOUND);
    assert_non_null(strstr(autotune_last_error(ctx), "op"));
    assert_int_equal(autotune_problem_set_int(p, "rows", -1),
                     AUTOTUNE_ERANGE);
    autotune_problem_destroy(p);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
}

/* The caller's own use of the device, as an application's: the primary
 * context, current on this thread. */
/* A user's kernel from a spec (issue 15) through the API: the example
 * convolution, tuned at an odd size, launched on the caller's buffers
 * with its filter in constant memory, checked against loops here. */
enum { CW = 301, CH = 203, IW = CW + 6, IH = CH + 6 };

static double conv_error(const float *in, const float *filt,
                         const float *out)
{
    double worst = 0;
    for (int y = 0; y < CH; ++y)
        for (int x = 0; x < CW; ++x) {
            double sum = 0;
            for (int i = 0; i < 7; ++i)
                for (int j = 0; j < 7; ++j)
                    sum += (double)in[(y + i) * IW + x + j] * filt[i * 7 + j];
            double d = out[y * CW + x] - sum;
            worst = d < 0 ? (-d > worst ? -d : worst) : (d > worst ? d : worst);
        }
    return worst;
}

static void spec_kernel_through_the_api(void **state)
{
    (void)state;
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 0};
    assert_int_equal(autotune_create(&ctx, &o), 0);
    const char *fam = NULL;
    assert_int_equal(autotune_family_load(ctx, AT_EXAMPLES
                         "/kernels/convolution/convolution.yaml", &fam), 0);
    char size[64];
    snprintf(size, sizeof size, "size_x=%d size_y=%d", CW, CH);
    autotune_kernel *k = NULL;
    if (get(ctx, fam, NULL, size, &k))
        fail_msg("autotune_get: %s", autotune_last_error(ctx));
    static float in[IW * IH], out[CW * CH], filt[49];
    at_pcg g;
    at_pcg_seed(&g, at_pcg_fresh_seed(), 5);
    for (int i = 0; i < IW * IH; ++i)
        in[i] = (float)(at_pcg_next(&g) % 2001) / 1000.0f - 1.0f;
    for (int i = 0; i < 49; ++i)
        filt[i] = (float)(at_pcg_next(&g) % 2001) / 1000.0f - 1.0f;
    CUdevice d;
    CUcontext c;
    CUdeviceptr din, dout;
    push_primary(&d, &c);
    assert_int_equal(at_cu.cuMemAlloc(&din, sizeof in) ||
                     at_cu.cuMemAlloc(&dout, sizeof out) ||
                     at_cu.cuMemcpyHtoD(din, in, sizeof in) ||
                     at_cu.cuMemsetD32(dout, 0xDEADBEEF, CW * CH), 0);
    /* out, in, w, h (computed: NULL), the filter's contents. */
    const void *args[] = {(void *)dout, (void *)din, NULL, NULL, filt};
    assert_int_equal(autotune_kernel_arg_count(k), 5);
    assert_int_equal(autotune_launch(k, args, 4, NULL), AUTOTUNE_EINVALID);
    assert_non_null(strstr(autotune_last_error(ctx), "takes 5 arguments"));
    assert_int_equal(autotune_launch_io(k, (void *)din, (void *)dout, NULL),
                     AUTOTUNE_EINVALID);
    assert_non_null(strstr(autotune_last_error(ctx), "got 2"));
    if (autotune_launch(k, args, 5, NULL))
        fail_msg("launch: %s", autotune_last_error(ctx));
    assert_int_equal(at_cu.cuCtxSynchronize() ||
                     at_cu.cuMemcpyDtoH(out, dout, sizeof out), 0);
    double err = conv_error(in, filt, out);
    printf("# %s at %dx%d: %s, largest error %.3g\n", fam, CW, CH,
           autotune_kernel_point(k), err);
    assert_true(err < 1e-3);
    at_cu.cuMemFree(din);
    at_cu.cuMemFree(dout);
    pop_primary(d, c);
    autotune_kernel_destroy(k);
    /* Loading the spec again and answering from the cache: the time is
     * printed (docs/PERFORMANCE.md), not asserted. */
    double t0 = at_now_s();
    const char *fam2 = NULL;
    assert_int_equal(autotune_family_load(ctx, AT_EXAMPLES
                         "/kernels/convolution/convolution.yaml", &fam2), 0);
    if (get(ctx, fam2, NULL, size, &k))
        fail_msg("autotune_get again: %s", autotune_last_error(ctx));
    double ms = (at_now_s() - t0) * 1e3;
    autotune_figures fig;
    assert_int_equal(autotune_kernel_figures(k, &fig), 0);
    assert_int_equal(fig.how, AUTOTUNE_HOW_CACHED);
    printf("# spec loaded again and answered from the cache: %.2f ms\n", ms);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
}

/* A family described in C, its source a string (C++ linkage): no file
 * anywhere, so the GPU worker makes it from the definition the tuner
 * sends; tuned, launched on the caller's buffers, checked exactly. */
static const char twice_src[] =
    "__global__ void twice(float *y, const float *x, int n)\n"
    "{ int i = blockIdx.x * block_size_x + threadIdx.x;\n"
    "  if (i < n) y[i] = 2 * x[i]; }\n"
    "__global__ void twice_ref(float *y, const float *x, int n)\n"
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = x[i] + x[i]; }\n";

static void family_described_in_c(void **state)
{
    (void)state;
    enum { N = 100003 };
    static const int bs[] = {64, 128, 256};
    static const autotune_param params[] = {{"block_size_x", bs, 3}};
    static const autotune_arg args[] = {
        {"y", "f32", "size_x", NULL, "out", NULL, 0, 1, 0, 0},
        {"x", "f32", "size_x", NULL, NULL, NULL, 0, 0, 0, 0},
        {"n", "i32", NULL, "size_x", NULL, NULL, 0, 0, 0, 0}};
    autotune_family_desc d = {
        .kernel = "twice", .source = twice_src, .dims = 1, .size = {N},
        .params = params, .n_params = 1, .grid_div = {"block_size_x"},
        .args = args, .n_args = 3, .reference_kernel = "twice_ref"};
    autotune_ctx *ctx;
    autotune_options o = {0, cache_path, 0};
    assert_int_equal(autotune_create(&ctx, &o), 0);
    const char *fam;
    if (autotune_family_define(ctx, &d, &fam))
        fail_msg("define: %s", autotune_last_error(ctx));
    autotune_kernel *k;
    if (get(ctx, fam, NULL, NULL, &k))
        fail_msg("autotune_get: %s", autotune_last_error(ctx));
    static float x[N], y[N];
    for (int i = 0; i < N; ++i)
        x[i] = (float)(i % 1000) / 7.0f;
    CUdevice dev;
    CUcontext c;
    CUdeviceptr dx, dy;
    push_primary(&dev, &c);
    assert_int_equal(at_cu.cuMemAlloc(&dx, sizeof x) ||
                     at_cu.cuMemAlloc(&dy, sizeof y) ||
                     at_cu.cuMemcpyHtoD(dx, x, sizeof x), 0);
    const void *a[] = {(void *)dy, (void *)dx, NULL};
    if (autotune_launch(k, a, 3, NULL))
        fail_msg("launch: %s", autotune_last_error(ctx));
    assert_int_equal(at_cu.cuCtxSynchronize() ||
                     at_cu.cuMemcpyDtoH(y, dy, sizeof y), 0);
    int bad = 0;
    for (int i = 0; i < N; ++i)
        bad += y[i] != 2 * x[i];
    printf("# twice (described in C) at %d: %s, %d wrong\n", N,
           autotune_kernel_point(k), bad);
    assert_int_equal(bad, 0);
    at_cu.cuMemFree(dx);
    at_cu.cuMemFree(dy);
    pop_primary(dev, c);
    autotune_kernel_destroy(k);
    autotune_destroy(ctx);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress through prove */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return at_skip_all("cannot find own executable");
    self[n] = '\0';
    at_gpu_tmp_path(cache_path, sizeof cache_path, "gpu_api_cache.db");
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    at_err e = {0};
    if (at_cu_load(&e))
        return at_skip_all(e.msg);
    at_remove_cache(cache_path); /* a fresh cache */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tunes_then_runs_right),
        cmocka_unit_test(whole_tiles_take_any_buffer),
        cmocka_unit_test(reduce_takes_any_input),
        cmocka_unit_test(second_process_hits_the_cache),
        cmocka_unit_test(launch_errors_name_the_variant),
        cmocka_unit_test(spec_kernel_through_the_api),
        cmocka_unit_test(family_described_in_c),
    };
    return AT_RUN_TESTS(tests);
}
