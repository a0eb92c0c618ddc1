/* NVRTC compiles every 6th point of the transpose space, for every
 * element size, for sm_90 with every optional code path of the template
 * compiled in (so every line of it is compiled at every such point); the
 * paths a tune of 8192 x 8192 compiles (none of them) at every 8th point;
 * every strip point (every 4th of the larger strip spaces), every
 * gathered one; each thinned sweep with a point for every axis value it
 * would leave out; the reductions' distinct variants in a sample; and
 * every point under `make check-full`
 * (AUTOTUNE_CHECK_FULL=1), which also compiles everything for sm_80: a
 * second architecture finds little the first does not and doubles the
 * suite's time. Through the compile pool
 * and its worker processes, with one source that fails on purpose among
 * them. Needs NVRTC, not a GPU.
 *
 * `make check` builds this one without sanitizers: NVRTC in a worker
 * forked from a sanitized binary allocates through AddressSanitizer's
 * malloc and compiled at half the speed; `make check-full` runs the
 * sanitized build as well. */
#include "test_problem.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/expand.h"
#include "gen/family.h"
#include "runtime/driver/driver.h"

/* Points per NVRTC program, as the tuner compiles them. */
enum { BATCH = 16 };

static int full_suite(void);

/* Which code paths a sweep compiles: all of them (AT_PATHS_ALL), or the
 * problem's own (NEEDED). */
enum { NEEDED = 0 };

/* Points pts[0..n) of problem p compiled for sm as 16-point programs,
 * plus one program in the middle that must fail; every kernel of every
 * cubin is found by name. Returns the points compiled. */
static size_t compile_points(const at_problem *p, const at_point *pts,
                             size_t n, int sm, unsigned paths)
{
    const at_family *f = p->family;
    at_err e = {0};
    size_t progs = (n + BATCH - 1) / BATCH;
    /* One extra job, in the middle, that must fail. */
    size_t bad = progs / 2, total = progs + 1;
    at_job *jobs = calloc(total, sizeof *jobs);
    int *count = calloc(total, sizeof *count);
    at_pool *pool;
    assert_non_null(jobs);
    assert_non_null(count);
    /* Every core: no thread times a GPU here. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    assert_int_equal(at_pool_create(&pool, cores > 0 ? (int)cores : 1, &e),
                     0);
    for (size_t i = 0, k = 0; i < total; ++i) {
        at_job *j = &jobs[i];
        j->opts.sm = sm;
        j->opts.limit_s = 600;
        j->index = i;
        if (i == bad) {
            snprintf(j->variant, sizeof j->variant, "broken_on_purpose");
            j->src = strdup("extern \"C\" __global__ void at_kernel() "
                            "{ this_is_not_cuda; }\n");
        } else {
            const at_point *sel[BATCH];
            count[i] = (int)(n - k < BATCH ? n - k : BATCH);
            for (int q = 0; q < count[i]; ++q)
                sel[q] = &pts[k + (size_t)q];
            f->ops.point_name(f, sel[0], j->variant, sizeof j->variant);
            j->src = paths == NEEDED
                         ? at_expand_program(p, sel, NULL, count[i], &e)
                         : at_expand_program_paths(p, sel, count[i],
                                                   paths, &e);
            k += (size_t)count[i];
        }
        assert_non_null(j->src);
        at_pool_submit(pool, j);
    }
    size_t ok = 0;
    for (size_t i = 0; i < total; ++i) {
        at_job *j = &jobs[i];
        at_pool_wait(pool, j);
        if (i == bad) {
            assert_int_equal(j->rc, AUTOTUNE_ECOMPILE);
            assert_non_null(strstr(j->err.msg, "broken_on_purpose"));
            assert_non_null(strstr(j->err.msg, "this_is_not_cuda"));
        } else if (j->rc) {
            fail_msg("%s", j->err.msg);
        } else {
            /* A cubin is an ELF image with each point's kernel. */
            assert_true(j->size > 4);
            assert_memory_equal(j->cubin, "\x7f" "ELF", 4);
            for (int q = 0; q < count[i]; ++q) {
                char kernel[32];
                at_program_kernel(q, kernel, sizeof kernel);
                if (!at_elf_kernel_hash(j->cubin, j->size, kernel))
                    fail_msg("%s: no %s in the cubin", j->variant, kernel);
                ++ok;
            }
        }
        at_job_release(j);
    }
    at_pool_destroy(pool);
    assert_int_equal(ok, n);
    free(count);
    free(jobs);
    return ok;
}

/* pts[0..n) thinned in place to every every-th, plus, for each value an
 * axis takes among them that those leave out, the first point with it:
 * a thinned sweep still compiles every value of every axis. Returns the
 * count kept. */
static size_t thin_points(const at_family *f, at_point *pts, size_t n,
                          size_t every)
{
    at_point *all = malloc(n * sizeof *all);
    assert_non_null(all);
    memcpy(all, pts, n * sizeof *all);
    size_t kept = 0;
    for (size_t i = 0; i < n; i += every)
        pts[kept++] = all[i];
    for (int a = 0; a < f->n_axes; ++a)
        for (size_t i = 0; i < n; ++i) {
            size_t j = 0;
            while (j < kept && pts[j].v[a] != all[i].v[a])
                ++j;
            if (j == kept)
                pts[kept++] = all[i];
        }
    free(all);
    return kept;
}

/* Every point of the space for an element size (types of one size expand
 * to the same source) in the full suite; outside it every 6th with every
 * path (each path is in every point; CI's 20 minutes: at every 5th and
 * strip spaces thinned over 110 points a clean clone's CI took 18:56 and
 * 20:25 on one tree), every 8th of the problem's own paths, and every
 * 4th strip point of the strip spaces of over 60 points (2 s a point on
 * CI's two cores; every 3rd, 19:36 on 2026-11-29); each with a point for
 * every axis value those leave out. */
static void compile_size(int bytes, int sm, unsigned paths, int rows,
                         int cols, int strips_only)
{
    const at_family *f = at_family_find("transpose");
    const at_type *type = NULL;
    for (int i = 0; at_type_at(i) && !type; ++i)
        if (at_type_at(i)->bytes == bytes && at_family_takes(f, at_type_at(i)))
            type = at_type_at(i);
    assert_non_null(type);
    test_problem u = {"transpose", type->name, rows, cols, 0, 0};
    at_problem p;
    at_limits l;
    at_err e = {0};
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    assert_true(at_limits_for_arch(sm, &l));
    at_point *pts;
    size_t n;
    assert_int_equal(at_space_points(f, &p, &l, &pts, &n, &e), 0);
    if (strips_only) {
        /* 2: gathered strips alone (smem 3). */
        const int kind = at_axis_index(f, "kind");
        const int smem = at_axis_index(f, "smem");
        size_t kept = 0;
        for (size_t i = 0; i < n; ++i)
            if (pts[i].v[kind] == 1 &&
                (strips_only != 2 || pts[i].v[smem] == 3))
                pts[kept++] = pts[i];
        assert_true(kept > 0);
        n = kept;
    }
    size_t space = n;
    const size_t every = full_suite()                  ? 1
                         : strips_only == 1            ? (n > 60 ? 4 : 1)
                         : strips_only                 ? 1
                         : paths == NEEDED             ? 8
                                                       : 6;
    if (every > 1)
        n = thin_points(f, pts, n, every);
    size_t ok = compile_points(&p, pts, n, sm, paths);
    printf("# %d-byte elements (%s and its kind), %dx%d, sm_%d, %s: %zu of "
           "%zu %spoints compiled in %zu programs, plus one failing on "
           "purpose\n",
           bytes, type->name, rows, cols, sm,
           paths == NEEDED ? "the problem's own paths" : "every path", ok,
           space,
           strips_only == 2 ? "gathered strip "
           : strips_only    ? "strip "
                            : "",
           (n + BATCH - 1) / BATCH);
    free(pts);
}

/* sm_90 always; other architectures in the full suite only. */
static int full_suite(void)
{
    const char *v = getenv("AUTOTUNE_CHECK_FULL");
    return v && strcmp(v, "1") == 0;
}

/* Every path (4099 x 2053: the problem's own would be the skewed stores). */
#define EVERY_POINT(bytes, sm)                                              \
    static void every_point_##bytes##_bytes_sm##sm(void **state)           \
    {                                                                       \
        (void)state;                                                        \
        compile_size(bytes, sm, AT_PATHS_ALL, 4099, 2053, 0);               \
    }
EVERY_POINT(1, 90)
EVERY_POINT(2, 90)
EVERY_POINT(4, 90)
EVERY_POINT(8, 90)
EVERY_POINT(16, 90)
EVERY_POINT(1, 80)
EVERY_POINT(2, 80)
EVERY_POINT(4, 80)
EVERY_POINT(8, 80)
EVERY_POINT(16, 80)

/* The paths of 8192 x 8192 (none): what a tune of it compiles. */
#define OWN_PATHS(bytes)                                                    \
    static void own_paths_##bytes##_bytes_sm90(void **state)               \
    {                                                                       \
        (void)state;                                                        \
        compile_size(bytes, 90, NEEDED, 8192, 8192, 0);                     \
    }
OWN_PATHS(1)
OWN_PATHS(2)
OWN_PATHS(4)
OWN_PATHS(8)
OWN_PATHS(16)

/* Every strip point, for sm_90 (and sm_80 in the full suite; a strip is
 * compiled for its short side): short rows of 1 (a copy), 3 and the most
 * a point of the size takes, short columns of 6, long sides no vector
 * divides. */
static void strips(int bytes)
{
    const int most = 256 / bytes < 64 ? 256 / bytes : 64;
    const int shapes[][2] = {{1, 4099}, {3, 4099}, {most, 1031}, {4099, 6}};
    for (int sm = 90; sm >= (full_suite() ? 80 : 90); sm -= 10)
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
            compile_size(bytes, sm, NEEDED, shapes[i][0], shapes[i][1], 1);
}

#define STRIPS(bytes)                                                       \
    static void strip_points_##bytes##_bytes(void **state)                  \
    {                                                                       \
        (void)state;                                                        \
        strips(bytes);                                                      \
    }
STRIPS(1)
STRIPS(2)
STRIPS(4)
STRIPS(8)
STRIPS(16)

/* Every gathered strip point (short input rows of 1- and 2-byte
 * elements, smem 3): the fewest rows it takes, an odd count (its staged
 * words whole vectors) and the most; sm_80 too in the full suite. Only
 * 64 rows are among the strips' shapes above. */
static void gathered_points(void **state)
{
    (void)state;
    const int rows[] = {8, 31, 64};
    for (int sm = 90; sm >= (full_suite() ? 80 : 90); sm -= 10)
        for (int bytes = 1; bytes <= 2; ++bytes)
            for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
                compile_size(bytes, sm, NEEDED, rows[i], 100003, 2);
}

/* Reductions: the points of a problem whose sources differ (chunk is a
 * launch argument, not a define: points apart only there are one
 * variant), every one or every stride-th; every second of those with
 * every path (AT_ANY_BASE, the API's variant for an input off the
 * vectors), the rest as the tuner builds them. */
static size_t reduce_points(const char *type, const char *op,
                            const char *shape, int sm, int stride)
{
    char text[160];
    at_problem p;
    at_limits l;
    at_err e = {0};
    snprintf(text, sizeof text, "op=%s %s", op, shape);
    assert_int_equal(at_problem_begin(&p, "reduce", type, &e), 0);
    assert_int_equal(at_problem_set_text(&p, text, &e), 0);
    assert_int_equal(at_problem_finish(&p, &e), 0);
    assert_true(at_limits_for_arch(sm, &l));
    at_point *pts;
    size_t n, kept = 0, distinct = 0;
    assert_int_equal(at_space_points(p.family, &p, &l, &pts, &n, &e), 0);
    char (*seen)[512] = calloc(n, sizeof *seen);
    assert_non_null(seen);
    for (size_t i = 0; i < n; ++i) {
        char defs[512];
        p.family->ops.defines(&p, &pts[i], 0, defs, sizeof defs);
        size_t k = 0;
        while (k < distinct && strcmp(seen[k], defs) != 0)
            ++k;
        if (k < distinct)
            continue;
        snprintf(seen[distinct++], sizeof seen[0], "%s", defs);
        if ((distinct - 1) % (size_t)stride == 0)
            pts[kept++] = pts[i];
    }
    /* The even ones first, then the odd ones with every path. */
    at_point *odd = malloc((kept / 2 + 1) * sizeof *odd);
    assert_non_null(odd);
    size_t half = 0, n_odd = 0;
    for (size_t i = 0; i < kept; ++i) {
        if (i % 2)
            odd[n_odd++] = pts[i];
        else
            pts[half++] = pts[i];
    }
    memcpy(pts + half, odd, n_odd * sizeof *odd);
    free(odd);
    size_t ok = compile_points(&p, pts, half, sm, NEEDED);
    if (n_odd)
        ok += compile_points(&p, pts + half, n_odd, sm, AT_PATHS_ALL);
    printf("# reduce %s %s %s, sm_%d: %zu of %zu distinct variants (%zu "
           "points) compiled\n", type, op, shape, sm, ok, distinct, n);
    free(seen);
    free(pts);
    return ok;
}

/* Along rows (whole array and a matrix) and down columns, every op and
 * type: every 16th distinct variant of f32 sum (every 24th on the narrow
 * columns, whose odd ld adds flat and shifted strips), every 80th of the
 * rest (all of them in the full suite, which adds sm_80; NVRTC compiles
 * about 4 a second on 2 cores: at every 8th and 12th of f32 sum a clean
 * clone's CI took 19:36, 2026-11-29). */
static void reduce_variants(int sm)
{
    static const char *const types[] = {"f32", "bf16", "f16", "f64", "i32"};
    static const char *const ops[] = {"sum", "max", "min", "sumsq", "amax"};
    /* The last: narrow columns with an odd ld, where flat points and
     * shifted strips come in. */
    static const char *const shapes[] = {
        "axis=all n=16777216", "axis=cols rows=4096 cols=1024",
        "axis=rows rows=4096 cols=1024", "axis=rows rows=4099 cols=333"};
    for (int t = 0; t < 5; ++t)
        for (int o = 0; o < 5; ++o)
            for (int s = 0; s < 4; ++s) {
                int most = t == 0 && o == 0;
                reduce_points(types[t], ops[o], shapes[s], sm,
                              full_suite() ? 1
                              : most       ? (s == 3 ? 24 : 16)
                                           : 80);
            }
}

static void reduce_points_sm90(void **state)
{
    (void)state;
    reduce_variants(90);
}

static void reduce_points_sm80(void **state)
{
    (void)state;
    reduce_variants(80);
}

int main(void)
{
    at_err e = {0};
    if (at_nvrtc_load(&e))
        return at_skip_all(e.msg);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_point_1_bytes_sm90),
        cmocka_unit_test(every_point_2_bytes_sm90),
        cmocka_unit_test(every_point_4_bytes_sm90),
        cmocka_unit_test(every_point_8_bytes_sm90),
        cmocka_unit_test(every_point_16_bytes_sm90),
        cmocka_unit_test(own_paths_1_bytes_sm90),
        cmocka_unit_test(own_paths_2_bytes_sm90),
        cmocka_unit_test(own_paths_4_bytes_sm90),
        cmocka_unit_test(own_paths_8_bytes_sm90),
        cmocka_unit_test(own_paths_16_bytes_sm90),
        cmocka_unit_test(strip_points_1_bytes),
        cmocka_unit_test(strip_points_2_bytes),
        cmocka_unit_test(strip_points_4_bytes),
        cmocka_unit_test(strip_points_8_bytes),
        cmocka_unit_test(strip_points_16_bytes),
        cmocka_unit_test(gathered_points),
        cmocka_unit_test(reduce_points_sm90),
        cmocka_unit_test(reduce_points_sm80),
        cmocka_unit_test(every_point_1_bytes_sm80),
        cmocka_unit_test(every_point_2_bytes_sm80),
        cmocka_unit_test(every_point_4_bytes_sm80),
        cmocka_unit_test(every_point_8_bytes_sm80),
        cmocka_unit_test(every_point_16_bytes_sm80),
    };
    /* The last six (sm_80) run in the full suite only: not registered
     * at all otherwise (prove counts cmocka's skips as failures). */
    size_t n = sizeof tests / sizeof tests[0] - (full_suite() ? 0 : 6);
    cmocka_set_message_output(CM_OUTPUT_TAP);
    /* AT_SWEEP_ONLY=reduce*: one part, while working on it. */
    if (getenv("AT_SWEEP_ONLY"))
        cmocka_set_test_filter(getenv("AT_SWEEP_ONLY"));
    return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
