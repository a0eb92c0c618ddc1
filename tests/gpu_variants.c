/* GPU: every point of the transpose space, for every type, verified bit for
 * bit on square, rectangular, odd, leading-dimension, thin and batched
 * shapes (and every strip point on the thin shapes strips serve) (each check also covers the bench's own odd shapes: odd and
 * aligned wide leading dimensions, and two batches with wide strides),
 * each point compiled twice: with every optional code path of the template
 * (so each path runs where a shape needs it) and with the first shape's
 * own, none (so each shape that needs no element path at the point also
 * runs where its paths were left out: a kernel without that path takes
 * no other); for 1- and 2-byte elements again with the first shape's
 * output rows on the word and off the 32-byte sector (packed kernels
 * without the element path that skew their stores); every fitted tile
 * (a side of the short side rounded up to 32) and every tile with flat
 * runs on medium-thin shapes; and
 * the verifier itself rejects kernels that are wrong. Types of one size
 * share their compiled variants (the same source), each type is checked on
 * data of its own. Skips without a GPU. */
#include "test_problem.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "gen/transpose.h"
#include "runtime/measure/measure.h"
#include "runtime/driver/driver.h"
#include "gpu_programs.h"

static at_device dev;

/* The shapes every point is checked on (type filled in). */
static const test_problem shapes[] = {
    {"transpose", NULL, 1024, 2048, 0, 0, 0, 0, 0},
    {"transpose", NULL, 1000, 1537, 0, 0, 0, 0, 0},
    {"transpose", NULL, 4099, 2053, 0, 0, 0, 0, 0},
    {"transpose", NULL, 2000, 1024, 2112, 2080, 0, 0, 0},
    {"transpose", NULL, 3, 5000, 0, 0, 0, 0, 0},
    {"transpose", NULL, 4999, 1, 0, 0, 0, 0, 0},
    {"transpose", NULL, 1, 3001, 0, 5, 0, 0, 0},
    {"transpose", NULL, 777, 1, 3, 0, 7, 777 * 3 + 2, 778},
    {"transpose", NULL, 128, 96, 0, 0, 50, 0, 0},
};
enum { N_SHAPES = sizeof shapes / sizeof shapes[0] };

typedef struct prog {
    at_job job;
    size_t first; /* index of its first point */
    int n;
    CUmodule mod;
} prog;

/* The element types of this size that transpose takes (i32 is a
 * reduction's), at most 8; how many. */
static int types_of_size(int bytes, const at_type **types)
{
    const at_family *f = at_family_find("transpose");
    int nt = 0;
    for (int i = 0; at_type_at(i); ++i)
        if (at_type_at(i)->bytes == bytes && nt < 8 &&
            at_family_takes(f, at_type_at(i)))
            types[nt++] = at_type_at(i);
    return nt;
}

/* Whether p's kernel at pt has the element path (without it, it takes
 * whole tiles on rows on its vectors alone). */
static int has_edge(const at_problem *p, const at_point *pt)
{
    char defs[1024];
    p->family->ops.defines(p, pt, p->family->ops.paths(p, pt), defs,
                           sizeof defs);
    return strstr(defs, "#define AT_EDGE 1\n") != NULL;
}

/* AT_GPU_SAMPLE=K: every K-th of pts[0..n) only, kept in place (the
 * compute-sanitizer runs, tests/gpu/sanitize.sh); returns how many. */
static size_t sample_points(at_point *pts, size_t n)
{
    const char *sample = getenv("AT_GPU_SAMPLE");
    const size_t every = sample ? strtoul(sample, NULL, 10) : 1;
    if (every <= 1)
        return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i += every)
        pts[kept++] = pts[i];
    return kept;
}

/* Every point of the element size, compiled with every path and with
 * shape 0's (whose output rows are ld_out0 apart: 0 for its columns). */
static void verify_size(int bytes, int64_t ld_out0)
{
    at_err e = {0};
    const at_type *types[8];
    int nt = types_of_size(bytes, types);
    assert_true(nt > 0);
    /* The space depends on the element size alone. */
    test_problem u0 = shapes[0];
    u0.type = types[0]->name;
    u0.ld_out = ld_out0;
    at_problem p0;
    assert_int_equal(test_problem_make(&p0, &u0, &e), 0);
    at_limits l = at_device_limits(&dev);
    at_point *pts;
    size_t n;
    assert_int_equal(at_space_points(p0.family, &p0, &l, &pts, &n, &e), 0);
    n = sample_points(pts, n);
    /* Programs [0, per) with every path, [per, 2 per) with shape 0's. */
    size_t per = (n + BATCH - 1) / BATCH, nprog = 2 * per;
    prog *progs = calloc(nprog, sizeof *progs);
    at_pool *pool;
    assert_non_null(progs);
    assert_int_equal(at_pool_create(&pool, 0, &e), 0);
    for (size_t g = 0; g < nprog; ++g) {
        prog *pr = &progs[g];
        const at_point *sel[BATCH];
        pr->first = g % per * BATCH;
        pr->n = (int)(n - pr->first < BATCH ? n - pr->first : BATCH);
        for (int k = 0; k < pr->n; ++k)
            sel[k] = &pts[pr->first + (size_t)k];
        pr->job.opts.sm = dev.sm;
        p0.family->ops.point_name(p0.family, sel[0], pr->job.variant,
                              sizeof pr->job.variant);
        pr->job.src =
            g < per ? at_expand_program_paths(&p0, sel, pr->n, AT_PATHS_ALL,
                                              &e)
                    : at_expand_program(&p0, sel, NULL, pr->n, &e);
        assert_non_null(pr->job.src);
        at_pool_submit(pool, &pr->job);
    }
    size_t failed = 0;
    for (size_t g = 0; g < nprog; ++g) {
        prog *pr = &progs[g];
        at_pool_wait(pool, &pr->job);
        if (pr->job.rc)
            fail_msg("compiling %s: %s", pr->job.variant, pr->job.err.msg);
        if (at_cu_fail(&e, at_cu.cuModuleLoadData(&pr->mod, pr->job.cubin),
                       "cuModuleLoadData", pr->job.variant))
            fail_msg("%s", e.msg);
    }
    at_pool_destroy(pool);
    for (int t = 0; t < nt; ++t) {
        at_measure *b[N_SHAPES] = {0};
        at_problem p[N_SHAPES];
        for (int s = 0; s < N_SHAPES; ++s) {
            test_problem u = s == 0 ? u0 : shapes[s];
            u.type = types[t]->name;
            assert_int_equal(test_problem_make(&p[s], &u, &e), 0);
            if (at_measure_create(&b[s], &dev, &p[s], 1000 + (uint64_t)s, 0,
                                NULL, &e))
                fail_msg("%s", e.msg);
        }
        size_t verified = 0;
        for (size_t q = 0; q < 2 * n; ++q) {
            size_t i = q % n;
            prog *pr = &progs[q / n * per + i / BATCH];
            char kernel[AT_KERNEL_NAME], name[160];
            at_program_kernel((int)(i - pr->first), kernel, sizeof kernel);
            p0.family->ops.point_name(p0.family, &pts[i], name, sizeof name);
            strcat(name, q < n ? " (every path)" : " (shape 0's paths)");
            CUfunction fn;
            int rc = at_cu_fail(&e, at_cu.cuModuleGetFunction(&fn, pr->mod,
                                                             kernel),
                                "cuModuleGetFunction", name);
            /* Shape 0's kernel without the element path takes the shapes
             * that need none at this point (its launcher sends the rest
             * elsewhere). */
            const int whole0 = q >= n && !has_edge(&p[0], &pts[i]);
            for (int s = 0; s < N_SHAPES && !rc; ++s) {
                if (whole0 && has_edge(&p[s], &pts[i]))
                    continue;
                rc = at_measure_prepare(&p[s], &pts[i], fn, name, &e);
                if (!rc)
                    rc = at_measure_verify(b[s], &pts[i], fn, name,
                                           AT_CHECK_ALL, &e);
            }
            if (rc) {
                if (failed++ < 10)
                    printf("# FAILED %s: %s\n", types[t]->name, e.msg);
                if (rc == AUTOTUNE_ECUDA)
                    fail_msg("context lost: %s", e.msg);
            } else {
                ++verified;
            }
        }
        printf("# %s: %zu of %zu kernels (%zu points, each with every "
               "path and with shape 0's, the latter on the shapes it takes) "
               "verified on %d shapes (",
               types[t]->name, verified, 2 * n, n, N_SHAPES);
        for (int s = 0; s < N_SHAPES; ++s) {
            char text[256];
            at_problem_str(&p[s], text, sizeof text);
            printf("%s%s", s ? "; " : "", text + strlen("transpose "));
        }
        printf(") and the check shapes each fits (4 odd or 3 whole)\n");
        for (int s = 0; s < N_SHAPES; ++s)
            at_measure_destroy(b[s]);
    }
    assert_int_equal(failed, 0);
    for (size_t g = 0; g < nprog; ++g) {
        at_cu.cuModuleUnload(progs[g].mod);
        at_job_release(&progs[g].job);
    }
    free(progs);
    free(pts);
}

static void every_point_1_byte(void **state)
{
    (void)state;
    verify_size(1, 0);
}

static void every_point_2_bytes(void **state)
{
    (void)state;
    verify_size(2, 0);
}

static void every_point_4_bytes(void **state)
{
    (void)state;
    verify_size(4, 0);
}

static void every_point_8_bytes(void **state)
{
    (void)state;
    verify_size(8, 0);
}

static void every_point_16_bytes(void **state)
{
    (void)state;
    verify_size(16, 0);
}

/* Shape 0 with output rows on the word and off the 32-byte sector: the
 * packed points whose vector divides them have no element path and skew
 * their stores, verified on it and on the whole check shapes. */
static void every_point_1_byte_rows_off_sectors(void **state)
{
    (void)state;
    verify_size(1, 1028);
}

static void every_point_2_bytes_rows_off_sectors(void **state)
{
    (void)state;
    verify_size(2, 1026);
}

/* Shapes strips serve, every strip point of each verified on it and on
 * its check shapes (gen/transpose_check.c: the same short side, long sides
 * no vector divides, odd and aligned lds, batches end to end and apart):
 * short sides of 1 to 64 on either side, long sides prime, leading
 * dimensions off every vector, batches end to end (one vector, for a
 * short side of 1) and apart; 8 to 64 input rows of 1- and 2-byte
 * elements with runs end to end take gathered points too. */
static const test_problem strip_shapes[] = {
    /* Gathered strips first (smem 3): an odd count of rows; a
     * batch whose output is end to end (16-byte strides) and whose
     * input rows and matrices are off it; batches whose matrices' output
     * is off 16 bytes, end to end and apart. (Their check shapes take
     * runs apart.) */
    {"transpose", NULL, 31, 100003, 0, 0, 0, 0, 0},
    {"transpose", NULL, 16, 65521, 65531, 0, 3, 16 * 65531 + 5, 0},
    {"transpose", NULL, 62, 100003, 0, 0, 5, 0, 0},
    {"transpose", NULL, 12, 65521, 0, 0, 2, 0, 12 * 65521 + 3},
    {"transpose", NULL, 3, 1000003, 0, 0, 0, 0, 0},
    {"transpose", NULL, 1000003, 5, 0, 0, 0, 0, 0},
    {"transpose", NULL, 7, 100003, 0, 0, 0, 0, 0},
    {"transpose", NULL, 2, 300001, 0, 0, 0, 0, 0},
    {"transpose", NULL, 300001, 2, 0, 0, 0, 0, 0},
    {"transpose", NULL, 1, 1000001, 0, 0, 0, 0, 0},
    {"transpose", NULL, 1000001, 1, 0, 0, 0, 0, 0},
    {"transpose", NULL, 4, 65536, 65539, 5, 0, 0, 0},
    {"transpose", NULL, 131071, 3, 4, 131075, 0, 0, 0},
    {"transpose", NULL, 3, 20011, 0, 0, 5, 3 * 20011 + 7, 20011 * 3 + 1},
    {"transpose", NULL, 1, 10007, 0, 0, 7, 0, 0},
    {"transpose", NULL, 29, 7919, 7920, 31, 0, 0, 0},
    {"transpose", NULL, 64, 5003, 0, 0, 0, 0, 0},
};
enum { N_STRIP_SHAPES = sizeof strip_shapes / sizeof strip_shapes[0] };

/* Which points of a shape's space a test takes. */
typedef int (*point_filter)(const at_problem *p, const at_point *pt);

/* AT_GPU_GATHERED=1: gathered strips (smem 3) only, for a run that
 * checks that path alone. */
static int is_strip(const at_problem *p, const at_point *pt)
{
    return pt->v[at_axis_index(p->family, "kind")] == 1 &&
           (!getenv("AT_GPU_GATHERED") ||
            pt->v[at_axis_index(p->family, "smem")] == 3);
}

/* A tile with a fitted side (no power of two: gen/transpose_fitted.c),
 * or with flat runs for p (a tile spanning a side whose rows are end to
 * end). */
static int is_medium(const at_problem *p, const at_point *pt)
{
    const at_family *f = p->family;
    char defs[1024];
    f->ops.defines(p, pt, f->ops.paths(p, pt), defs, sizeof defs);
    return !at_tp_pow2(pt->v[at_axis_index(f, "tile_x")]) ||
           !at_tp_pow2(pt->v[at_axis_index(f, "tile_y")]) ||
           strstr(defs, "#define AT_FLAT_IN 1\n") ||
           strstr(defs, "#define AT_FLAT_OUT 1\n");
}

/* Every point of one shape that keep takes (what, in words), on every
 * type of the size. */
static size_t verify_shape_points(const at_type *const *types, int nt,
                                  const test_problem *shape,
                                  point_filter keep, const char *what)
{
    at_err e = {0};
    test_problem u = *shape;
    u.type = types[0]->name;
    at_problem p0;
    assert_int_equal(test_problem_make(&p0, &u, &e), 0);
    at_limits l = at_device_limits(&dev);
    at_point *pts;
    size_t n, kept = 0, failed = 0;
    assert_int_equal(at_space_points(p0.family, &p0, &l, &pts, &n, &e), 0);
    for (size_t i = 0; i < n; ++i)
        if (keep(&p0, &pts[i]))
            pts[kept++] = pts[i];
    kept = sample_points(pts, kept);
    char text[256];
    at_problem_str(&p0, text, sizeof text);
    if (!kept) {
        printf("# %s: no %s points\n", text, what);
        free(pts);
        return 0;
    }
    CUmodule *mods = compile_points(&p0, pts, kept, dev.sm);
    for (int t = 0; t < nt; ++t) {
        at_problem p;
        at_measure *b;
        u.type = types[t]->name;
        assert_int_equal(test_problem_make(&p, &u, &e), 0);
        if (at_measure_create(&b, &dev, &p, 77, 0, NULL, &e))
            fail_msg("%s", e.msg);
        size_t verified = 0;
        for (size_t i = 0; i < kept; ++i) {
            char kernel[AT_KERNEL_NAME], name[160];
            at_program_kernel((int)(i % BATCH), kernel, sizeof kernel);
            p.family->ops.point_name(p.family, &pts[i], name, sizeof name);
            CUfunction fn;
            int rc = at_cu_fail(
                &e, at_cu.cuModuleGetFunction(&fn, mods[i / BATCH], kernel),
                "cuModuleGetFunction", name);
            if (!rc)
                rc = at_measure_prepare(&p, &pts[i], fn, name, &e);
            if (!rc)
                rc = at_measure_verify(b, &pts[i], fn, name, AT_CHECK_ALL,
                                       &e);
            if (rc && failed++ < 10)
                printf("# FAILED %s: %s\n", types[t]->name, e.msg);
            if (rc == AUTOTUNE_ECUDA)
                fail_msg("context lost: %s", e.msg);
            verified += !rc;
        }
        at_problem_str(&p, text, sizeof text);
        printf("# %s: %zu of %zu %s points verified, and on its check "
               "shapes\n", text, verified, kept, what);
        at_measure_destroy(b);
    }
    for (size_t g = 0; g < (kept + BATCH - 1) / BATCH; ++g)
        at_cu.cuModuleUnload(mods[g]);
    free(mods);
    free(pts);
    return failed;
}

static void verify_strips(int bytes)
{
    const at_type *types[8];
    int nt = types_of_size(bytes, types);
    size_t failed = 0;
    for (int s = 0; s < N_STRIP_SHAPES; ++s)
        failed += verify_shape_points(types, nt, &strip_shapes[s], is_strip,
                                      "strip");
    assert_int_equal(failed, 0);
}

/* Medium-thin shapes, whose tiles may take a fitted side (the short side
 * rounded up to 32) and flat runs: 89 rows (96; flat stores), 150 (160,
 * padded lds), 165 columns (192; flat loads), 213 rows of a batch (224;
 * flat stores); every fitted point, and every point with flat runs, of
 * each verified on it and on its check shapes. Fitted sides span at most
 * 2048 bytes, so 16-byte elements take the first alone. */
static const test_problem fitted_shapes[] = {
    {"transpose", NULL, 89, 60013, 0, 0, 0, 0, 0},
    {"transpose", NULL, 150, 20011, 20016, 153, 0, 0, 0},
    {"transpose", NULL, 60013, 165, 0, 0, 0, 0, 0},
    {"transpose", NULL, 213, 7919, 7923, 0, 3, 0, 0},
};
enum { N_FITTED_SHAPES = sizeof fitted_shapes / sizeof fitted_shapes[0] };

static void verify_medium(int bytes)
{
    const at_type *types[8];
    int nt = types_of_size(bytes, types);
    size_t failed = 0;
    for (int s = 0; s < N_FITTED_SHAPES; ++s)
        failed += verify_shape_points(types, nt, &fitted_shapes[s],
                                      is_medium, "fitted or flat tile");
    assert_int_equal(failed, 0);
}

#define MEDIUM(bytes)                                                       \
    static void medium_thin_points_##bytes##_bytes(void **state)            \
    {                                                                       \
        (void)state;                                                        \
        verify_medium(bytes);                                               \
    }
MEDIUM(1)
MEDIUM(2)
MEDIUM(4)
MEDIUM(8)
MEDIUM(16)

#define STRIPS(bytes)                                                       \
    static void strip_points_##bytes##_bytes(void **state)                  \
    {                                                                       \
        (void)state;                                                        \
        verify_strips(bytes);                                               \
    }
STRIPS(1)
STRIPS(2)
STRIPS(4)
STRIPS(8)
STRIPS(16)

/* Kernels with the family's signature and launch (a 1-D grid of 32x32
 * tiles, 32x8 threads) and a planted bug each. */
#define WRONG_HEAD                                                           \
    "extern \"C\" __global__ void at_kernel(const unsigned *in,"             \
    " unsigned *out, int rows, int cols, long long ld_in, long long ld_out," \
    " int batch, long long stride_in, long long stride_out) {"               \
    " long long nx = (cols + 31) / 32, ny = (rows + 31) / 32;"               \
    " for (long long t = blockIdx.x; t < nx * ny * batch; t += gridDim.x) {" \
    " long long z = t / (nx * ny), x0 = t % nx * 32,"                        \
    " y0 = t / nx % ny * 32;"                                                \
    " for (int j = threadIdx.y; j < 32; j += 8) {"                           \
    " long long r = y0 + j, c = x0 + threadIdx.x;"
#define WRONG_TAIL " } } }"

static const char *wrong_kernels[] = {
    /* skips the last input row */
    WRONG_HEAD
    " if (r < rows - 1 && c < cols) out[z * stride_out + c * ld_out + r] ="
    " in[z * stride_in + r * ld_in + c];" WRONG_TAIL,
    /* right, and also writes into the output's padding */
    WRONG_HEAD
    " if (r < rows && c < cols) out[z * stride_out + c * ld_out + r] ="
    " in[z * stride_in + r * ld_in + c];"
    " if (r == 0 && c < cols && ld_out > rows)"
    " out[z * stride_out + c * ld_out + rows] = 0;" WRONG_TAIL,
    /* copies instead of transposing */
    WRONG_HEAD
    " if (r < rows && c < cols && c < rows && r < cols)"
    " out[z * stride_out + r * ld_out + c] = in[z * stride_in + r * ld_in"
    " + c];" WRONG_TAIL,
    /* right for one matrix, but places matrices as if stride_out were
     * cols * ld_out */
    WRONG_HEAD
    " if (r < rows && c < cols) out[z * cols * ld_out + c * ld_out + r] ="
    " in[z * stride_in + r * ld_in + c];" WRONG_TAIL,
};

static void verifier_rejects_wrong_kernels(void **state)
{
    (void)state;
    at_err e = {0};
    test_problem u = {"transpose", "f32", 1000, 1537, 0, 0, 0, 0, 0};
    at_problem p;
    at_measure *b;
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    if (at_measure_create(&b, &dev, &p, 7, 0, NULL, &e))
        fail_msg("%s", e.msg);
    /* Launched as the 32x32 tile, 32x8 threads point. */
    at_point pt;
    char params[] = "tile_x=32 tile_y=32 block_x=32 block_y=8 vec=1 pack=0 "
                    "smem=1 tiles=1 ldg=0 restrict=0 kind=0 steps=1 flat=0";
    assert_int_equal(at_point_parse(p.family, params, &pt, &e), 0);
    const char *expect[] = {"differ", "outside the matrix", "differ",
                            "batch"};
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
        assert_int_equal(at_measure_prepare(&p, &pt, fn, name, &e), 0);
        int rc = at_measure_verify(b, &pt, fn, name, AT_CHECK_ALL, &e);
        printf("# %s: %s\n", name, e.msg);
        assert_int_equal(rc, AUTOTUNE_EWRONG);
        assert_non_null(strstr(e.msg, name));
        assert_non_null(strstr(e.msg, expect[i]));
        at_cu.cuModuleUnload(mod);
        free(cubin);
    }
    at_measure_destroy(b);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress through prove */
    at_err e = {0};
    if (at_device_open(&dev, 0, &e))
        return at_skip_all(e.msg);
    if (at_device_push(&dev, &e))
        return at_skip_all(e.msg);
    printf("# device: %s, sm_%d, %d SMs\n", dev.name, dev.sm, dev.sms);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(verifier_rejects_wrong_kernels),
        cmocka_unit_test(every_point_1_byte),
        cmocka_unit_test(every_point_2_bytes),
        cmocka_unit_test(every_point_4_bytes),
        cmocka_unit_test(every_point_8_bytes),
        cmocka_unit_test(every_point_16_bytes),
        cmocka_unit_test(every_point_1_byte_rows_off_sectors),
        cmocka_unit_test(every_point_2_bytes_rows_off_sectors),
        cmocka_unit_test(strip_points_1_bytes),
        cmocka_unit_test(strip_points_2_bytes),
        cmocka_unit_test(strip_points_4_bytes),
        cmocka_unit_test(strip_points_8_bytes),
        cmocka_unit_test(strip_points_16_bytes),
        cmocka_unit_test(medium_thin_points_1_bytes),
        cmocka_unit_test(medium_thin_points_2_bytes),
        cmocka_unit_test(medium_thin_points_4_bytes),
        cmocka_unit_test(medium_thin_points_8_bytes),
        cmocka_unit_test(medium_thin_points_16_bytes),
    };
    /* AT_GPU_TESTS=every_point_8*: some tests only (the whole file takes
     * longer than a lease's call). */
    if (getenv("AT_GPU_TESTS"))
        cmocka_set_test_filter(getenv("AT_GPU_TESTS"));
    int rc = AT_RUN_TESTS(tests);
    at_device_pop();
    at_device_close(&dev);
    return rc;
}
