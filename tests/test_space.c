/* The transpose family's space, constraints, names, expansion, launch
 * geometry and CPU reference, and problem validation. */
#include "tap.h"

#include <stdlib.h>
#include <string.h>

#include "../gen/expand.h"
#include "../gen/family.h"

static const at_family *F;

static at_problem problem(const char *type, int64_t rows, int64_t cols)
{
    at_problem p;
    at_err e = {0};
    autotune_problem u = {"transpose", type, rows, cols, 0, 0};
    assert_int_equal(at_problem_init(&p, &u, &e), 0);
    return p;
}

static at_point point(int tx, int ty, int bx, int by, int vec, int pad)
{
    at_point pt;
    memset(&pt, 0, sizeof pt);
    int v[] = {tx, ty, bx, by, vec, pad, 1, 1};
    memcpy(pt.v, v, sizeof v);
    return pt;
}

static void sizes_and_invariants(void **state)
{
    (void)state;
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    assert_int_equal(at_space_size(F), 4 * 4 * 5 * 6 * 3 * 2 * 2 * 2);
    const char *types[] = {"f32", "f64"};
    size_t counts[2];
    for (int t = 0; t < 2; ++t) {
        at_problem p = problem(types[t], 8192, 8192);
        at_point *pts;
        size_t n;
        at_err e = {0};
        assert_int_equal(at_space_points(F, &p, &l, &pts, &n, &e), 0);
        assert_true(n > 100 && n < at_space_size(F));
        counts[t] = n;
        /* Check each kept point against the rules restated here, not the
         * predicate's own code. */
        for (size_t i = 0; i < n; ++i) {
            const int *v = pts[i].v;
            int threads = v[2] * v[3];
            assert_int_equal(threads % 32, 0);
            assert_true(threads <= l.max_threads);
            assert_true(v[4] * p.type->bytes <= 16);
            assert_int_equal(v[0] % (v[2] * v[4]), 0);
            assert_int_equal(v[1] % (v[2] * v[4]), 0);
            assert_int_equal(v[0] % v[3], 0);
            assert_int_equal(v[1] % v[3], 0);
            assert_true(v[1] * (v[0] + v[5]) * p.type->bytes <= l.max_smem);
        }
        /* Names are unique and parameters round-trip. */
        char (*names)[128] = calloc(n, sizeof *names);
        assert_non_null(names);
        for (size_t i = 0; i < n; ++i) {
            F->point_name(&pts[i], names[i], sizeof names[i]);
            char params[256];
            at_point back;
            at_point_params(F, &pts[i], params, sizeof params);
            assert_int_equal(at_point_parse(F, params, &back, &e), 0);
            assert_memory_equal(&back, &pts[i], sizeof back);
        }
        qsort(names, n, sizeof *names, (int (*)(const void *, const void *))strcmp);
        for (size_t i = 1; i < n; ++i)
            assert_string_not_equal(names[i - 1], names[i]);
        free(names);
        free(pts);
    }
    assert_true(counts[1] < counts[0]); /* no 32-byte vectors for f64 */
}

static void rejections_say_why(void **state)
{
    (void)state;
    at_limits l = {90, 1024, 48 * 1024};
    at_problem f32 = problem("f32", 100, 100), f64 = problem("f64", 100, 100);
    struct {
        const at_problem *p;
        at_point pt;
        const char *why;
    } cases[] = {
        {&f32, point(32, 32, 4, 4, 1, 0), "multiple of 32"},
        {&f32, point(64, 64, 64, 32, 1, 0), "exceeds the limit 1024"},
        {&f64, point(32, 32, 8, 4, 4, 0), "exceeds 16"},
        {&f32, point(16, 32, 8, 4, 4, 0), "block_x*vec"},
        {&f32, point(16, 16, 32, 1, 1, 0), "block_x*vec"},
        {&f32, point(128, 128, 32, 1, 1, 0), "elements per thread"},
        {&f64, point(128, 64, 32, 32, 1, 1), "shared memory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char why[256] = "";
        assert_int_equal(F->valid(cases[i].p, &cases[i].pt, &l, why,
                                  sizeof why), 0);
        if (!strstr(why, cases[i].why))
            fail_msg("case %zu: reason '%s' lacks '%s'", i, why, cases[i].why);
    }
    char why[256] = "";
    at_point ok = point(32, 32, 32, 8, 1, 1);
    assert_int_equal(F->valid(&f32, &ok, &l, why, sizeof why), 1);
}

static void parse_errors(void **state)
{
    (void)state;
    at_point pt;
    at_err e = {0};
    assert_int_equal(at_point_parse(F, "tile_x=32", &pt, &e),
                     AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "missing"));
    assert_int_equal(at_point_parse(F, "tile_x=32 bogus=1", &pt, &e),
                     AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "bogus"));
}

static void expansion(void **state)
{
    (void)state;
    at_problem p = problem("f64", 10, 20);
    at_point pt = point(64, 32, 16, 8, 2, 1);
    at_err e = {0};
    char *src = at_expand(&p, &pt, "my_kernel", &e);
    assert_non_null(src);
    const char *want[] = {"#define AT_ELEM_BYTES 8\n", "#define AT_TILE_X 64\n",
                          "#define AT_TILE_Y 32\n", "#define AT_VEC 2\n",
                          "#define AT_KERNEL my_kernel\n",
                          "#line 1 \"templates/transpose.cu\"\n",
                          "tile64x32_blk16x8_ept16_vec2_pad1_ldg1_rst1"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i)
        if (!strstr(src, want[i]))
            fail_msg("expansion lacks '%s'", want[i]);
    assert_non_null(strstr(src, F->template_src));
    free(src);
}

static void launch_geometry(void **state)
{
    (void)state;
    at_launch g;
    at_point pt = point(64, 16, 16, 8, 4, 1);
    at_problem p = problem("f32", 3000000, 3);
    F->launch(&p, &pt, &g);
    assert_int_equal(g.grid[0], 1);
    assert_int_equal(g.grid[1], 65535); /* capped; the kernel loops */
    assert_int_equal(g.block[0] * g.block[1], 128);
    assert_int_equal(g.smem, 16 * 65 * 4);
    p = problem("f32", 100, 1000);
    F->launch(&p, &pt, &g);
    assert_int_equal(g.grid[0], 16); /* ceil(1000 / 64) */
    assert_int_equal(g.grid[1], 7);  /* ceil(100 / 16) */
}

static void reference_transposes_and_keeps_padding(void **state)
{
    (void)state;
    autotune_problem u = {"transpose", "f32", 37, 53, 60, 41};
    at_problem p;
    at_err e = {0};
    assert_int_equal(at_problem_init(&p, &u, &e), 0);
    uint32_t *in = malloc(p.in_bytes), *out = malloc(p.out_bytes);
    assert_non_null(in);
    assert_non_null(out);
    for (size_t i = 0; i < p.in_bytes / 4; ++i)
        in[i] = (uint32_t)i * 2654435761u;
    for (size_t i = 0; i < p.out_bytes / 4; ++i)
        out[i] = 0xDEADBEEFu;
    F->reference(&p, in, out, 0, p.rows);
    for (int64_t c = 0; c < p.cols; ++c)
        for (int64_t r = 0; r < p.ld_out; ++r)
            assert_int_equal(out[c * p.ld_out + r],
                             r < p.rows ? in[r * p.ld_in + c] : 0xDEADBEEFu);
    free(in);
    free(out);
}

static void problem_validation(void **state)
{
    (void)state;
    struct {
        autotune_problem u;
        int code;
        const char *msg;
    } cases[] = {
        {{"nope", "f32", 1, 1, 0, 0}, AUTOTUNE_ENOT_FOUND, "unknown family"},
        {{"transpose", "f16", 1, 1, 0, 0}, AUTOTUNE_ENOT_FOUND, "unknown type"},
        {{"transpose", "f32", 0, 5, 0, 0}, AUTOTUNE_ERANGE, "positive"},
        {{"transpose", "f32", 5, -1, 0, 0}, AUTOTUNE_ERANGE, "positive"},
        {{"transpose", "f32", 5, 5, 4, 0}, AUTOTUNE_ERANGE, "leading"},
        {{"transpose", "f32", 3000000000LL, 5, 0, 0}, AUTOTUNE_ERANGE,
         "at most"},
        {{"transpose", "f64", 2000000000, 2000000000, 0, 0}, AUTOTUNE_ERANGE,
         "overflows"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        at_problem p;
        at_err e = {0};
        assert_int_equal(at_problem_init(&p, &cases[i].u, &e), cases[i].code);
        if (!strstr(e.msg, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, e.msg, cases[i].msg);
    }
}

int main(void)
{
    F = at_family_find("transpose");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_and_invariants),
        cmocka_unit_test(rejections_say_why),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(expansion),
        cmocka_unit_test(launch_geometry),
        cmocka_unit_test(reference_transposes_and_keeps_padding),
        cmocka_unit_test(problem_validation),
    };
    return AT_RUN_TESTS(tests);
}
