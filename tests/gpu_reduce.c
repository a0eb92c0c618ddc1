/* GPU: every point of the reduce space, for every type, op and direction,
 * verified on an even and an odd shape (and, through the measurement,
 * on the family's check problems: 1 and 3 elements, primes, rows off
 * every alignment, NaNs) against the long-double reference within the
 * point's tolerance (min, max, amax and i32 bit for bit); and the
 * deterministic points run twice on one input give the same bits; a
 * point split in waves gives the same bits on whole numbers as on
 * devices of 1, 7 and 300 SMs (other_devices). Each
 * distinct source compiled once (chunk is a launch argument). A test per
 * type and op (reduce_f32_sum, ...); AT_GPU_ONLY takes a comma-separated
 * list of patterns (reduce_f16_*,reduce_f64_sum) and AT_GPU_SAMPLE=K
 * verifies every K-th point only (the sanitizer's runs); AT_GPU_DOWN=1
 * runs down columns alone, AT_GPU_FLAT=1 flat points alone and
 * AT_GPU_COMBINE=K the points of that combine alone (2: atomics). On an
 * H100 a type takes about 4 minutes. And reduce_any_input_TYPE: sampled
 * points compiled with every path (AT_ANY_BASE) on inputs off their
 * vectors, against the point's own kernel on an aligned one. Skips
 * without a GPU. */
#include "tap.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/pcg.h"
#include "gen/expand.h"
#include "gen/reduce.h"
#include "runtime/driver/driver.h"
#include "runtime/measure/measure.h"

#include "gpu_programs.h"

static at_device dev;

/* Each direction's points come from its first shape, and run on both
 * (the second where they are valid). Then narrow columns with an odd ld,
 * where every thread count has flat points, run on padded rows too (a
 * whole number of chunks of 8 rows: the last one's padding not read);
 * and wide columns with an odd ld, its shifted strips alone (the rest are
 * the first shapes' points; f64 has none), run on an ld 6 past the vector
 * too. Short rows off the vector: rows of 127 from every alignment,
 * many enough for flat points (a warp's rows as one run) of 32 and 128
 * rows a warp, and rows of 5 of ld 7, shorter than their way to the
 * first aligned element; flat points alone on rows of 301 and of 67 (as
 * short as a lane's run of 64 bf16), end to end (the check problems,
 * padded, take the flat kernel's lane a row). And flat points down
 * columns padded far apart (39 of 75, 100 of 121): one-element vectors,
 * a row's cols threads, the padding skipped. And flat points down
 * columns past the block alone (a thread several vectors of a chunk):
 * rows of 1430 (5720 bytes, off the lines), and of 700 of ld 703, both
 * with rows left past the last whole chunk. */
enum {
    NARROW_COLS = 3,
    WIDE_ODD,
    SHORT_ROWS,
    FLAT_ROWS,
    PADDED_COLS,
    FLAT_WIDE,
    N_SHAPES
};
static const char *const shapes[N_SHAPES][2] = {
    [AXIS_ALL] = {"axis=all n=4194304", "axis=all n=1000003"},
    [AXIS_COLS] = {"axis=cols rows=512 cols=2048",
                   "axis=cols rows=333 cols=4099 ld=4101"},
    [AXIS_ROWS] = {"axis=rows rows=2048 cols=512",
                   "axis=rows rows=4099 cols=333 ld=336"},
    [NARROW_COLS] = {"axis=rows rows=30011 cols=47",
                     "axis=rows rows=4096 cols=61 ld=64"},
    [WIDE_ODD] = {"axis=rows rows=1031 cols=1500 ld=1501",
                  "axis=rows rows=333 cols=4099 ld=4102"},
    [SHORT_ROWS] = {"axis=cols rows=131101 cols=127",
                    "axis=cols rows=4099 cols=5 ld=7"},
    [FLAT_ROWS] = {"axis=cols rows=65537 cols=301",
                   "axis=cols rows=40009 cols=67"},
    [PADDED_COLS] = {"axis=rows rows=40009 cols=39 ld=75",
                     "axis=rows rows=5003 cols=100 ld=121"},
    [FLAT_WIDE] = {"axis=rows rows=12007 cols=1430",
                   "axis=rows rows=2049 cols=700 ld=703"},
};

static at_problem make(const char *type, const char *op, const char *shape)
{
    char text[160];
    at_problem p;
    at_err e = {0};
    snprintf(text, sizeof text, "op=%s %s", op, shape);
    if (at_problem_make(&p, "reduce", type, text, &e))
        fail_msg("%s %s: %s", type, text, e.msg);
    return p;
}

/* Runs fn once on in (a zeroed workspace, a fresh output) and copies
 * the output into host (p->out_bytes). */
static int run_into(const at_problem *p, const at_point *pt, CUfunction fn,
                    CUdeviceptr in, void *host, const char *what, at_err *e)
{
    size_t ws_n = at_workspace_bytes(p, pt);
    CUdeviceptr out = 0, ws = 0;
    int rc =
        at_cu_fail(e, at_cu.cuMemAlloc(&out, p->out_bytes), "alloc", what) ||
        (ws_n && (at_cu_fail(e, at_cu.cuMemAlloc(&ws, ws_n), "alloc", what) ||
                  at_cu_fail(e, at_cu.cuMemsetD32(ws, 0, ws_n / 4), "memset",
                             what))) ||
        at_launch_variant(p, pt, fn, in, out, ws, NULL, what, e) ||
        at_cu_fail(e, at_cu.cuMemcpyDtoH(host, out, p->out_bytes),
                   "cuMemcpyDtoH", what);
    if (out)
        at_cu.cuMemFree(out);
    if (ws)
        at_cu.cuMemFree(ws);
    return rc ? (e->code ? e->code : AUTOTUNE_ECUDA) : 0;
}

/* Runs fn twice on one input into two outputs; 1 if the bits agree. */
static int same_twice(const at_problem *p, const at_point *pt, CUfunction fn,
                      CUdeviceptr in, at_err *e)
{
    unsigned char *host[2] = {malloc(p->out_bytes), malloc(p->out_bytes)};
    int same = host[0] && host[1] &&
               !run_into(p, pt, fn, in, host[0], "twice", e) &&
               !run_into(p, pt, fn, in, host[1], "twice", e) &&
               memcmp(host[0], host[1], p->out_bytes) == 0;
    free(host[0]);
    free(host[1]);
    return same;
}

/* A point split in waves as on devices of other SM counts (the tuner
 * and the API give a problem its device's; this GPU is one count): 1, 7
 * and 300 SMs (past AT_RD_MAX_SMS), on whole numbers (in), whose every
 * order of combining gives the bits of the nominal count's run. */
static int other_devices(const at_problem *p, const at_point *pt,
                         CUfunction fn, CUdeviceptr in, at_err *e)
{
    static const int sms[] = {1, 7, 300};
    unsigned char *want = malloc(p->out_bytes), *got = malloc(p->out_bytes);
    int rc = want && got ? run_into(p, pt, fn, in, want, "nominal SMs", e)
                         : at_fail(e, AUTOTUNE_ENOMEM, "outputs");
    for (size_t k = 0; !rc && k < sizeof sms / sizeof *sms; ++k) {
        at_problem on = *p;
        on.sms = sms[k];
        char what[32];
        snprintf(what, sizeof what, "%d SMs", sms[k]);
        rc = run_into(&on, pt, fn, in, got, what, e);
        if (!rc && memcmp(want, got, p->out_bytes) != 0)
            rc = at_fail(e, AUTOTUNE_EWRONG, "split in waves on %d SMs: "
                         "not the bits of %d SMs", sms[k],
                         AT_RD_NOMINAL_SMS);
    }
    free(want);
    free(got);
    return rc;
}

/* The family's random input for p, uploaded: stream 0 the problem's,
 * 1 a check problem's (whole numbers, every partial sum exact). */
static CUdeviceptr upload_input_stream(const at_problem *p, uint64_t stream)
{
    size_t words = (p->in_bytes + 3) / 4;
    uint32_t *w = malloc(words * 4);
    assert_non_null(w);
    at_pcg g;
    at_pcg_seed(&g, 77, 1);
    for (size_t i = 0; i < words; ++i)
        w[i] = at_pcg_next(&g);
    p->family->ops.input(p, 1, stream, w, 0, words);
    CUdeviceptr d = 0;
    at_err e = {0};
    if (at_cu_fail(&e, at_cu.cuMemAlloc(&d, words * 4), "alloc", "input") ||
        at_cu_fail(&e, at_cu.cuMemcpyHtoD(d, w, words * 4), "upload", ""))
        fail_msg("%s", e.msg);
    free(w);
    return d;
}

static CUdeviceptr upload_input(const at_problem *p)
{
    return upload_input_stream(p, 0);
}

static void verify(const char *type, const char *op, int axis, size_t every,
                   size_t *verified, size_t *twice)
{
    at_err e = {0};
    at_problem p[2] = {make(type, op, shapes[axis][0]),
                       make(type, op, shapes[axis][1])};
    at_limits l = at_device_limits(&dev);
    at_point *pts;
    size_t n;
    assert_int_equal(at_space_points(p[0].family, &p[0], &l, &pts, &n, &e), 0);
    /* AT_GPU_FLAT=1: flat points alone, while working on them; 2: those
     * past the block alone. */
    const char *flat = getenv("AT_GPU_FLAT");
    const int flat_only = flat && (*flat == '1' || *flat == '2');
    const int wide_only = flat && *flat == '2';
    /* AT_GPU_COMBINE=K: the points of that combine alone (2: atomics),
     * sampled among themselves. */
    const char *combine = getenv("AT_GPU_COMBINE");
    size_t kept = 0;
    if (combine && *combine) {
        for (size_t i = 0; i < n; ++i)
            if (pts[i].v[COMBINE] == atoi(combine))
                pts[kept++] = pts[i];
        n = kept;
        kept = 0;
    }
    for (size_t i = 0; i < n; i += every)
        if ((axis != WIDE_ODD || at_rd_shift(&p[0], &pts[i])) &&
            ((axis != FLAT_ROWS && axis != PADDED_COLS) ||
             at_rd_flat(&pts[i])) &&
            (!flat_only || at_rd_flat(&pts[i])) &&
            ((axis != FLAT_WIDE && !wide_only) ||
             at_rd_flat_k(&p[0], &pts[i]) > 1))
            pts[kept++] = pts[i];
    n = kept;
    if (n == 0) { /* (f64: no shifted strips) */
        printf("# reduce %s %s, %s: no points to run\n", type, op,
               shapes[axis][0]);
        free(pts);
        return;
    }
    size_t nprog = (n + BATCH - 1) / BATCH;
    CUmodule *mods = compile_points(&p[0], pts, n, dev.sm);
    at_measure *b[2];
    for (int s = 0; s < 2; ++s)
        if (at_measure_create(&b[s], &dev, &p[s], 900 + (uint64_t)s, 0, NULL,
                              &e))
            fail_msg("%s", e.msg);
    CUdeviceptr in = upload_input(&p[0]);
    CUdeviceptr whole = upload_input_stream(&p[0], 1);
    size_t failed = 0, waves = 0;
    for (size_t i = 0; i < n; ++i) {
        char kernel[AT_KERNEL_NAME], name[160];
        at_program_kernel((int)(i % BATCH), kernel, sizeof kernel);
        p[0].family->ops.point_name(p[0].family, &pts[i], name, sizeof name);
        CUfunction fn;
        int rc = at_cu_fail(&e, at_cu.cuModuleGetFunction(&fn, mods[i / BATCH],
                                                         kernel),
                            "cuModuleGetFunction", name);
        for (int s = 0; s < 2 && !rc; ++s) {
            if (s && !p[1].family->ops.valid(&p[1], &pts[i], &l, NULL, 0))
                continue; /* (down: ld not a multiple of its vector) */
            rc = at_measure_verify(b[s], &pts[i], fn, name, AT_CHECK_ALL, &e);
        }
        if (!rc && !(pts[i].v[COMBINE] == COMBINE_ATOMIC &&
                     !at_rd_atomics_exact(&p[0]))) {
            if (!same_twice(&p[0], &pts[i], fn, in, &e)) {
                rc = AUTOTUNE_EWRONG;
                if (!e.code)
                    at_fail(&e, rc, "%s: two runs differ", name);
            } else {
                ++*twice;
            }
        }
        if (!rc && pts[i].v[WAVES]) {
            rc = other_devices(&p[0], &pts[i], fn, whole, &e);
            waves += !rc;
        }
        if (rc) {
            if (failed++ < 10)
                printf("# FAILED %s %s %s: %s\n", type, op, shapes[axis][0],
                       e.msg);
            if (rc == AUTOTUNE_ECUDA || rc == AUTOTUNE_EFAULT)
                fail_msg("context lost: %s", e.msg);
        } else {
            ++*verified;
        }
    }
    printf("# reduce %s %s, %s and %s: %zu points%s, %zu failed; %zu split "
           "in waves also run as on 1, 7 and 300 SMs\n", type, op,
           shapes[axis][0], shapes[axis][1], n,
           every > 1 ? " (sampled)" : "", failed, waves);
    at_cu.cuMemFree(in);
    at_cu.cuMemFree(whole);
    for (int s = 0; s < 2; ++s)
        at_measure_destroy(b[s]);
    for (size_t g = 0; g < nprog; ++g)
        at_cu.cuModuleUnload(mods[g]);
    free(mods);
    free(pts);
    assert_int_equal(failed, 0);
}

/* Every direction of one type and op. */
static void every_axis(const char *type, const char *op)
{
    const char *sample = getenv("AT_GPU_SAMPLE");
    size_t every = sample ? strtoul(sample, NULL, 10) : 1;
    size_t verified = 0, twice = 0;
    /* AT_GPU_DOWN=1: down columns alone, AT_GPU_ALONG=1 along rows
     * alone, while working on them. */
    const char *down = getenv("AT_GPU_DOWN"), *along = getenv("AT_GPU_ALONG");
    for (int a = 0; a < N_SHAPES; ++a)
        if (!(down && *down == '1' && a != AXIS_ROWS && a != NARROW_COLS &&
              a != WIDE_ODD && a != PADDED_COLS && a != FLAT_WIDE) &&
            !(along && *along == '1' && a != AXIS_COLS && a != SHORT_ROWS &&
              a != FLAT_ROWS))
            verify(type, op, a, every ? every : 1, &verified, &twice);
    printf("# %s %s: %zu points verified, %zu of them run twice with the "
           "same bits\n", type, op, verified, twice);
}

/* Any input: each sampled point of a shape, compiled with every path
 * (AT_ANY_BASE: what the API runs for an input off the kernel's vectors),
 * run on the same input placed one element and a vector less one past
 * an aligned start, gives the bits the point compiled for the problem
 * gives on the aligned input (which every_axis checks against the
 * reference). Sums whose every partial sum is exact (floats: a check
 * problem's whole numbers; i32: any bits, wrapping), so any order of
 * combining gives the same bits and every element counts; the bytes
 * around the input are 0xFF (NaN, or -1 for i32), so one read into a
 * sum shows too. */
static const char *const any_shapes[] = {
    "axis=all n=1000003", "axis=cols rows=333 cols=4099 ld=4101",
    "axis=rows rows=4099 cols=333 ld=336",
    "axis=rows rows=1031 cols=1500 ld=1501", /* shifted strips */
    "axis=rows rows=30011 cols=47",          /* flat points */
    "axis=cols rows=40009 cols=127",         /* flat along rows */
    "axis=rows rows=40009 cols=39 ld=75",    /* flat, padding skipped */
    "axis=rows rows=12007 cols=1430",        /* flat past the block */
};

static size_t any_input_shape(const char *type, const char *op,
                              const char *shape, size_t every)
{
    at_err e = {0};
    at_problem p = make(type, op, shape);
    at_limits l = at_device_limits(&dev);
    at_point *pts;
    size_t n, kept = 0;
    assert_int_equal(at_space_points(p.family, &p, &l, &pts, &n, &e), 0);
    for (size_t i = 0; i < n; i += every)
        pts[kept++] = pts[i];
    n = kept;
    CUmodule *own = compile_points(&p, pts, n, dev.sm);
    CUmodule *any = compile_points_paths(&p, pts, n, dev.sm, AT_PATHS_ALL);
    const size_t size = (size_t)p.type->bytes;
    const size_t offs[2] = {size, 16 - size};
    const int n_offs = offs[1] == offs[0] ? 1 : 2; /* f64: one offset */
    CUdeviceptr in = upload_input_stream(&p, p.type->fp ? 1 : 0);
    CUdeviceptr big[2] = {0, 0};
    const size_t big_bytes = (p.in_bytes + 32 + 3) / 4 * 4;
    for (int o = 0; o < n_offs; ++o)
        if (at_cu_fail(&e, at_cu.cuMemAlloc(&big[o], big_bytes), "alloc",
                       "any input") ||
            at_cu_fail(&e, at_cu.cuMemsetD32(big[o], 0xFFFFFFFFu,
                                             big_bytes / 4),
                       "cuMemsetD32", "any input") ||
            at_cu_fail(&e, at_cu.cuMemcpyDtoD(big[o] + offs[o], in,
                                              p.in_bytes),
                       "cuMemcpyDtoD", "any input"))
            fail_msg("%s", e.msg);
    unsigned char *want = malloc(p.out_bytes), *got = malloc(p.out_bytes);
    assert_non_null(want);
    assert_non_null(got);
    size_t failed = 0;
    for (size_t i = 0; i < n; ++i) {
        char kernel[AT_KERNEL_NAME], name[160];
        at_program_kernel((int)(i % BATCH), kernel, sizeof kernel);
        p.family->ops.point_name(p.family, &pts[i], name, sizeof name);
        CUfunction f_own, f_any;
        /* The point's own kernel on the aligned input, once. */
        int rc =
            at_cu_fail(&e, at_cu.cuModuleGetFunction(&f_own, own[i / BATCH],
                                                     kernel),
                       "cuModuleGetFunction", name) ||
            at_cu_fail(&e, at_cu.cuModuleGetFunction(&f_any, any[i / BATCH],
                                                     kernel),
                       "cuModuleGetFunction", name) ||
            run_into(&p, &pts[i], f_own, in, want, name, &e);
        for (int o = 0; o < n_offs; ++o) {
            const int rc_o =
                rc || run_into(&p, &pts[i], f_any, big[o] + offs[o], got,
                               name, &e);
            if (rc_o &&
                (e.code == AUTOTUNE_ECUDA || e.code == AUTOTUNE_EFAULT))
                fail_msg("context lost: %s", e.msg);
            if (rc_o || memcmp(want, got, p.out_bytes) != 0) {
                if (failed++ < 10)
                    printf("# FAILED %s %s %s, input %zu bytes off: %s\n",
                           type, op, shape, offs[o], rc_o ? e.msg : name);
            }
        }
    }
    printf("# any input, %s %s %s: %zu points, inputs %zu and %zu bytes "
           "off, %zu failed\n", type, op, shape, n, offs[0], offs[1],
           failed);
    free(want);
    free(got);
    for (int o = 0; o < n_offs; ++o)
        at_cu.cuMemFree(big[o]);
    at_cu.cuMemFree(in);
    size_t nprog = (n + BATCH - 1) / BATCH;
    for (size_t g = 0; g < nprog; ++g) {
        at_cu.cuModuleUnload(own[g]);
        at_cu.cuModuleUnload(any[g]);
    }
    free(own);
    free(any);
    free(pts);
    return failed;
}

/* Every shape of one type (AT_GPU_SAMPLE: every K-th point; default 8). */
static void any_input(const char *type, const char *op)
{
    const char *sample = getenv("AT_GPU_SAMPLE");
    size_t every = sample ? strtoul(sample, NULL, 10) : 8, failed = 0;
    for (size_t s = 0; s < sizeof any_shapes / sizeof *any_shapes; ++s)
        failed += any_input_shape(type, op, any_shapes[s], every ? every : 1);
    assert_int_equal(failed, 0);
}

#define ANY_TEST(t, op)                                                     \
    static void reduce_any_input_##t(void **state)                          \
    {                                                                       \
        (void)state;                                                        \
        any_input(#t, #op);                                                 \
    }
ANY_TEST(f32, sum)
ANY_TEST(bf16, sum)
ANY_TEST(f16, sum)
ANY_TEST(f64, sum)
ANY_TEST(i32, sum)

#define OP_TEST(t, op)                                                      \
    static void reduce_##t##_##op(void **state)                             \
    {                                                                       \
        (void)state;                                                        \
        every_axis(#t, #op);                                                \
    }
#define OP_TESTS(t)                                                         \
    OP_TEST(t, sum) OP_TEST(t, max) OP_TEST(t, min) OP_TEST(t, sumsq)       \
    OP_TEST(t, amax)
OP_TESTS(f32)
OP_TESTS(bf16)
OP_TESTS(f16)
OP_TESTS(f64)
OP_TESTS(i32)
#define OP_ENTRIES(t)                                                       \
    cmocka_unit_test(reduce_##t##_sum), cmocka_unit_test(reduce_##t##_max), \
        cmocka_unit_test(reduce_##t##_min),                                 \
        cmocka_unit_test(reduce_##t##_sumsq),                               \
        cmocka_unit_test(reduce_##t##_amax)

/* Whether name matches one of the comma-separated patterns in list. */
static int selected(const char *name, const char *list)
{
    char pat[64];
    while (*list) {
        size_t n = strcspn(list, ",");
        if (n < sizeof pat) {
            memcpy(pat, list, n);
            pat[n] = 0;
            if (fnmatch(pat, name, 0) == 0)
                return 1;
        }
        list += n + (list[n] == ',');
    }
    return 0;
}

int main(void)
{
    at_err e = {0};
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress through prove */
    if (at_device_open(&dev, 0, &e))
        return at_skip_all(e.msg);
    if (at_device_push(&dev, &e))
        return at_skip_all(e.msg);
    static const struct CMUnitTest all[] = {
        OP_ENTRIES(f32), OP_ENTRIES(bf16), OP_ENTRIES(f16),
        OP_ENTRIES(f64), OP_ENTRIES(i32),
        cmocka_unit_test(reduce_any_input_f32),
        cmocka_unit_test(reduce_any_input_bf16),
        cmocka_unit_test(reduce_any_input_f16),
        cmocka_unit_test(reduce_any_input_f64),
        cmocka_unit_test(reduce_any_input_i32),
    };
    struct CMUnitTest tests[sizeof all / sizeof *all];
    size_t n = 0;
    const char *only = getenv("AT_GPU_ONLY");
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (!only || selected(all[i].name, only))
            tests[n++] = all[i];
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int rc = _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
    at_device_close(&dev);
    return rc;
}
