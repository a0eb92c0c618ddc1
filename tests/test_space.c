/* The transpose family's space, constraints, names, expansion, launch
 * geometry and CPU reference, and problem validation. */
#include "test_problem.h"
#include "tap.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/expand.h"
#include "gen/family.h"
#include "gen/occupancy.h"
#include "gen/transpose.h"

static const at_family *F;

static at_problem problem(const char *type, int64_t rows, int64_t cols)
{
    at_problem p;
    at_err e = {0};
    test_problem u = {"transpose", type, rows, cols, 0, 0};
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    return p;
}

/* The space of a transpose of type, rows x cols with output rows ld_out
 * apart (0: rows) for l: its problem in *p, its points (malloc'd). */
static at_point *space_of(const char *type, int64_t rows, int64_t cols,
                          int64_t ld_out, const at_limits *l, at_problem *p,
                          size_t *n)
{
    at_err e = {0};
    test_problem u = {"transpose", type, rows, cols, 0, ld_out};
    assert_int_equal(test_problem_make(p, &u, &e), 0);
    at_point *pts;
    assert_int_equal(at_space_points(F, p, l, &pts, n, &e), 0);
    return pts;
}

static int is_pow2(int v)
{
    return v > 0 && (v & (v - 1)) == 0;
}

/* A point with flat runs (flat 1). */
static at_point flat(at_point pt)
{
    pt.v[12] = 1;
    return pt;
}

/* tile_x tile_y block_x block_y vec pack smem tiles ldg restrict kind
 * steps: a tile point */
static at_point point(int tx, int ty, int bx, int by, int vec, int pack,
                      int smem, int tiles)
{
    at_point pt;
    memset(&pt, 0, sizeof pt);
    int v[] = {tx, ty, bx, by, vec, pack, smem, tiles, 1, 1, 0, 1, 0};
    memcpy(pt.v, v, sizeof v);
    return pt;
}

static void types_table(void **state)
{
    (void)state;
    char list[256] = "";
    size_t used = 0;
    int sizes = 0;
    for (int i = 0; at_type_at(i); ++i) {
        const at_type *t = at_type_at(i);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 i ? ", " : "", t->name);
        assert_ptr_equal(at_type_find(t->name), t);
        sizes |= t->bytes;
    }
    assert_string_equal(list, at_type_list());
    assert_int_equal(sizes, 1 | 2 | 4 | 8 | 16); /* every size */
    assert_null(at_type_find("f128"));
    assert_null(at_type_find(NULL));
}

/* Argument types: the element types first, then the rest; each found by
 * both its names, its lanes dividing it, its list complete. */
static void arg_types_table(void **state)
{
    (void)state;
    char list[1024] = "";
    size_t used = 0;
    int i = 0;
    for (; at_arg_type_at(i); ++i) {
        const at_type *t = at_arg_type_at(i);
        used += (size_t)snprintf(list + used, sizeof list - used,
                                 "%s%s (%s)", i ? ", " : "", t->name,
                                 t->ctype);
        assert_ptr_equal(at_arg_type_find(t->name), t);
        assert_ptr_equal(at_arg_type_find(t->ctype), t);
        if (at_type_at(i))
            assert_ptr_equal(at_type_at(i), t);
        else
            assert_null(at_type_find(t->name)); /* no transpose type */
        assert_true(t->lane > 0 && t->bytes % t->lane == 0);
        assert_true(t->fp == 0 || t->fp == t->lane);
    }
    assert_true(i > 20);
    assert_string_equal(list, at_arg_type_list());
    assert_string_equal(at_arg_type_find("float2")->name, "f32x2");
    assert_string_equal(at_arg_type_find("half2")->name, "f16x2");
    assert_string_equal(at_arg_type_find("cuFloatComplex")->name, "c64");
    assert_null(at_arg_type_find("float3"));
    assert_null(at_arg_type_find(NULL));
}

static void sizes_and_invariants(void **state)
{
    (void)state;
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    assert_int_equal(at_space_size(F),
                     18 * 18 * 4 * 6 * 5 * 2 * 3 * 2 * 2 * 2 * 2 * 3 * 2);
    for (int t = 0; at_type_at(t); ++t) {
        const at_type *type = at_type_at(t);
        if (!at_family_takes(F, type))
            continue;
        at_problem p = problem(type->name, 8192, 8192);
        at_point *pts;
        size_t n;
        at_err e = {0};
        assert_int_equal(at_space_points(F, &p, &l, &pts, &n, &e), 0);
        assert_true(n > 100 && n < 4000);
        const int eb = type->bytes;
        int wide = 0, swizzled = 0, several = 0, packed = 0;
        /* Check each kept point against the rules restated here, not the
         * predicate's own code. */
        for (size_t i = 0; i < n; ++i) {
            const int *v = pts[i].v;
            int threads = v[2] * v[3];
            int k = v[5] ? 4 / eb : 1, unit = v[5] ? 4 : eb;
            assert_int_equal(threads % 32, 0);
            assert_true(threads >= 128 && threads <= l.max_threads);
            /* Tiles only: strips are for a short side. */
            assert_true(v[10] == KIND_TILE && v[11] == 1);
            assert_true(v[5] == 0 || eb < 4);
            assert_true(v[4] * unit <= 16);
            /* Unpacked small elements: the fallback's few points. */
            if (eb < 4 && !v[5])
                assert_true(v[4] == 1 && v[6] == 1 && v[7] == 1 &&
                            v[0] * v[1] / threads <= 32);
            /* No fitted side: 8192 is a power of two. */
            assert_true(is_pow2(v[0]) && is_pow2(v[1]));
            assert_true(v[0] * eb >= 64 && v[0] * eb <= 1024);
            assert_true(v[1] * eb >= 64 && v[1] * eb <= 1024);
            assert_int_equal(v[0] % (v[2] * v[4] * k), 0);
            assert_int_equal((v[1] / k) % v[3], 0);
            assert_int_equal(v[0] % v[3], 0);
            assert_int_equal((v[1] / k) % (v[2] * v[4]), 0);
            assert_true((long)v[0] * v[1] * eb / threads <= 128);
            /* Tiles keep rows more for skewed stores: a 32-byte sector's
             * elements but one for unpacked 2 bytes and more, a whole
             * sector's for packed ones, none for unpacked bytes. */
            int skew = v[5] && eb < 4 ? 32 / eb
                       : eb == 1  ? 0
                                  : 32 / eb - 1;
            assert_true((v[1] + skew) * (v[0] + 1) * eb <= l.max_smem);
            assert_true(v[6] == 1 || (v[0] * unit) % 128 == 0);
            assert_int_equal(v[8], v[9]);
            wide += v[4] * unit == 16;
            swizzled += v[6] == 2;
            several += v[7] > 1;
            packed += v[5];
        }
        /* 16-byte accesses, swizzles and several tiles a block for every
         * type; packed words for the small ones. */
        assert_true(wide > 0 && swizzled > 0 && several > 0);
        assert_true(eb >= 4 || packed > 0);
        /* Names are unique and parameters round-trip. */
        char (*names)[128] = calloc(n, sizeof *names);
        assert_non_null(names);
        for (size_t i = 0; i < n; ++i) {
            F->ops.point_name(F, &pts[i], names[i], sizeof names[i]);
            char params[256];
            at_point back;
            at_point_params(F, &pts[i], params, sizeof params);
            assert_int_equal(at_point_parse(F, params, &back, &e), 0);
            assert_memory_equal(&back, &pts[i], sizeof back);
        }
        qsort(names, n, sizeof *names,
              (int (*)(const void *, const void *))strcmp);
        for (size_t i = 1; i < n; ++i)
            assert_string_not_equal(names[i - 1], names[i]);
        printf("# %s: %zu points (%d with 16-byte accesses, %d swizzled, %d "
               "with several tiles a block, %d packed)\n", type->name, n,
               wide, swizzled, several, packed);
        free(names);
        free(pts);
    }
}

static void rejections_say_why(void **state)
{
    (void)state;
    at_limits l = {90, 1024, 48 * 1024};
    at_problem f32 = problem("f32", 100, 100), f64 = problem("f64", 100, 100);
    at_problem i8 = problem("i8", 100, 100), c128 = problem("c128", 100, 100);
    /* Tiles take read-only loads (ldg=1 restrict=1) alone: plain ones, or
     * either half of the pair, are refused. */
    at_point ldg_only = point(32, 32, 32, 8, 1, 0, 1, 1);
    ldg_only.v[9] = 0;
    at_point plain = ldg_only;
    plain.v[8] = 0;
    at_point rst_only = plain;
    rst_only.v[9] = 1;
    struct {
        const at_problem *p;
        at_point pt;
        const char *why;
    } cases[] = {
        {&f32, point(32, 32, 8, 4, 1, 0, 1, 1), "fewer than 128"},
        {&f32, point(32, 32, 8, 18, 1, 0, 1, 1), "multiple of 32"},
        {&f32, point(64, 64, 64, 32, 1, 0, 1, 1), "exceeds the limit 1024"},
        {&f64, point(32, 32, 8, 16, 4, 0, 1, 1), "exceeds 16"},
        {&f32, point(32, 32, 8, 16, 1, 1, 1, 1), "packing is for"},
        {&i8, point(64, 64, 8, 16, 4, 0, 1, 1), "fallback"},
        {&i8, point(64, 64, 8, 16, 1, 0, 2, 1), "fallback"},
        {&i8, point(64, 64, 8, 16, 1, 0, 1, 2), "fallback"},
        {&i8, point(256, 64, 8, 16, 1, 0, 1, 1), "fallback"},
        {&f32, point(8, 32, 32, 8, 1, 0, 1, 1), "sides must span"},
        {&c128, point(128, 32, 32, 8, 1, 0, 1, 1), "sides must span"},
        {&f32, point(32, 64, 16, 8, 4, 0, 1, 1), "not walked"},
        {&f32, point(64, 32, 32, 8, 2, 0, 1, 1), "transposed tile"},
        {&f32, point(256, 256, 32, 8, 1, 0, 1, 1), "bytes a thread"},
        {&f64, point(128, 64, 32, 32, 1, 0, 1, 1), "shared memory"},
        {&f32, point(16, 64, 16, 8, 1, 0, 2, 1), "swizzle"},
        {&f32, ldg_only, "read-only loads"},
        {&f32, plain, "ldg=0 restrict=0"},
        {&f64, rst_only, "read-only loads"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char why[256] = "";
        assert_int_equal(F->ops.valid(cases[i].p, &cases[i].pt, &l, why,
                                  sizeof why), 0);
        if (!strstr(why, cases[i].why))
            fail_msg("case %zu: reason '%s' lacks '%s'", i, why, cases[i].why);
    }
    char why[256] = "";
    at_point ok = point(32, 32, 32, 8, 1, 0, 1, 1);
    assert_int_equal(F->ops.valid(&f32, &ok, &l, why, sizeof why), 1);
    at_point pk = point(128, 128, 8, 16, 4, 1, 2, 2);
    assert_int_equal(F->ops.valid(&i8, &pk, &l, why, sizeof why), 1);
    /* The default point is valid for every type, thin shapes (a strip)
     * included. */
    const int64_t shapes[][2] = {{100, 100}, {4, 100000}, {100000, 1},
                                 {64, 1000}, {17, 1000}};
    for (int t = 0; at_type_at(t); ++t)
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] &&
                           at_family_takes(F, at_type_at(t));
             ++i) {
            at_problem p = problem(at_type_at(t)->name, shapes[i][0],
                                   shapes[i][1]);
            at_point d;
            F->ops.default_point(&p, 90, &d);
            if (!F->ops.valid(&p, &d, &l, why, sizeof why))
                fail_msg("default point of %s %" PRId64 "x%" PRId64 ": %s",
                         p.type->name, shapes[i][0], shapes[i][1], why);
            assert_int_equal(d.v[10] == KIND_STRIP,
                             at_tp_strips_alone(&p) != 0);
        }
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
    at_problem p = problem("f16", 10, 20);
    at_point pt = point(64, 32, 16, 8, 2, 1, 2, 4);
    at_err e = {0};
    char *src = at_expand(&p, &pt, "my_kernel", NULL, &e);
    assert_non_null(src);
    const char *want[] = {"#define AT_ELEM_BYTES 2\n", "#define AT_TILE_X 64\n",
                          "#define AT_TILE_Y 32\n", "#define AT_VEC 2\n",
                          "#define AT_PACK 2\n", "#define AT_SMEM 2\n",
                          "#define AT_TILES 4\n",
                          "#define AT_KERNEL my_kernel\n",
                          "#line 1 \"templates/transpose.cu\"\n",
                          "tile64x32_blk16x8_ept16_vec2_pk_swz_tpb4_ldg1_rst1"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i)
        if (!strstr(src, want[i]))
            fail_msg("expansion lacks '%s'", want[i]);
    assert_non_null(strstr(src, F->template_src));
    /* Types of one size expand alike: they share compiled variants. */
    at_problem q = problem("bf16", 10, 20);
    char *src2 = at_expand(&q, &pt, "my_kernel", NULL, &e);
    assert_non_null(src2);
    assert_string_equal(src, src2);
    free(src);
    free(src2);
}

/* The value a source #defines name to, -1 if it does not. */
static int defined(const char *src, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "#define %s ", name);
    const char *c = strstr(src, key);
    return c ? atoi(c + strlen(key)) : -1;
}

/* A variant holds the optional code paths its problem needs and no
 * others; every path on request. */
/* Case i's problem (into *p) at its point, expanded (the case fails if
 * either step does). */
static char *expand_case(size_t i, const test_problem *u,
                         const at_point *pt, at_problem *p)
{
    at_err e = {0};
    if (test_problem_make(p, u, &e))
        fail_msg("case %zu: %s", i, e.msg);
    char *src = at_expand(p, pt, "k", NULL, &e);
    if (!src)
        fail_msg("case %zu: %s", i, e.msg);
    return src;
}

static void code_paths_follow_the_problem(void **state)
{
    (void)state;
    typedef struct {
        test_problem u;
        at_point pt;
        int skew, thin, wide, edge;
    } want_t;
    const at_point f32 = point(64, 64, 16, 32, 4, 0, 2, 1);
    const at_point f16pk = point(64, 64, 16, 16, 2, 1, 2, 1);
    const want_t cases[] = {
        /* Output rows on 32-byte sectors, whole tiles: nothing extra. */
        {{"transpose", "f32", 8192, 8192, 0, 0}, f32, 0, 0, 0, 0},
        /* An odd ld_out: skewed stores, where the type can skew (every
         * type but unpacked bytes); the edge tiles of 8191 rows take the
         * element path. */
        {{"transpose", "f32", 8191, 8192, 0, 0}, f32, 1, 0, 0, 1},
        {{"transpose", "f64", 4096, 4096, 0, 4097},
         point(64, 64, 16, 32, 2, 0, 1, 1), 1, 0, 0, 1},
        {{"transpose", "f16", 8191, 8192, 0, 0}, f16pk, 1, 0, 0, 1},
        {{"transpose", "i8", 8191, 8192, 0, 0},
         point(64, 64, 32, 8, 1, 0, 1, 1), 0, 0, 0, 1},
        /* Whole tiles, input rows off the vector width (4 floats). */
        {{"transpose", "f32", 8192, 8192, 8194, 0}, f32, 0, 0, 0, 1},
        /* Aligned rows, matrices off the sectors; whole tiles. */
        {{"transpose", "f32", 64, 64, 0, 0, 3, 64 * 64, 64 * 64 + 4}, f32,
         1, 0, 0, 0},
        /* Matrices off the vector width. */
        {{"transpose", "f32", 64, 64, 0, 0, 3, 64 * 64 + 2, 64 * 64}, f32,
         0, 0, 0, 1},
        /* Vectors. */
        {{"transpose", "f32", 1, 4096, 0, 0}, f32, 1, 1, 0, 1}, /* ld_out 1 */
        {{"transpose", "f32", 4096, 1, 0, 0}, f32, 0, 1, 0, 1},
        /* 2^32 tiles: 64-bit tile indices (nothing is allocated). */
        {{"transpose", "f32", 4096, 4096, 0, 0, 1 << 20, 0, 0}, f32, 0, 0,
         1, 0},
        {{"transpose", "f32", 4096, 4096, 0, 0, (1 << 20) - 1, 0, 0}, f32,
         0, 0, 0, 0},
        /* A tile spanning the rows, output rows end to end (flat stores);
         * spanning the columns, input rows end to end (flat loads). */
        {{"transpose", "f16", 89, 60013, 0, 0},
         flat(point(64, 128, 16, 16, 2, 1, 2, 1)), 1, 0, 0, 1},
        {{"transpose", "f32", 60013, 165, 0, 0},
         flat(point(256, 32, 32, 8, 1, 0, 1, 1)), 1, 0, 0, 1},
        {{"transpose", "f32", 60013, 165, 166, 0},
         flat(point(256, 32, 32, 8, 1, 0, 1, 1)), 1, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        at_problem p;
        at_err e = {0};
        char *src = expand_case(i, &cases[i].u, &cases[i].pt, &p);
        if (defined(src, "AT_SKEW") != cases[i].skew ||
            defined(src, "AT_THIN") != cases[i].thin ||
            defined(src, "AT_WIDE") != cases[i].wide ||
            defined(src, "AT_EDGE") != cases[i].edge)
            fail_msg("case %zu: AT_SKEW %d AT_THIN %d AT_WIDE %d AT_EDGE "
                     "%d, want %d %d %d %d", i, defined(src, "AT_SKEW"),
                     defined(src, "AT_THIN"), defined(src, "AT_WIDE"),
                     defined(src, "AT_EDGE"), cases[i].skew, cases[i].thin,
                     cases[i].wide, cases[i].edge);
        /* Flat runs for a flat point whose tile spans a side whose rows
         * are end to end (restated). */
        const int64_t *v = p.v;
        const int *t = cases[i].pt.v;
        assert_int_equal(defined(src, "AT_FLAT_OUT"),
                         t[12] && v[TP_ROWS] <= t[1] &&
                             v[TP_LD_OUT] == v[TP_ROWS]);
        assert_int_equal(defined(src, "AT_FLAT_IN"),
                         t[12] && v[TP_COLS] <= t[0] &&
                             v[TP_LD_IN] == v[TP_COLS]);
        free(src);
        const at_point *one[] = {&cases[i].pt};
        src = at_expand_program_paths(&p, one, 1, AT_PATHS_ALL, &e);
        assert_non_null(src);
        /* Every path, but skewing only where the type can. */
        const int packed = cases[i].pt.v[5] && p.type->bytes < 4;
        assert_int_equal(defined(src, "AT_SKEW"),
                         packed || p.type->bytes > 1);
        assert_int_equal(defined(src, "AT_THIN"), 1);
        assert_int_equal(defined(src, "AT_WIDE"), 1);
        assert_int_equal(defined(src, "AT_EDGE"), 1);
        /* Shifted loads for packed points only. */
        assert_int_equal(defined(src, "AT_SHIFT_IN"), packed);
        /* Flat runs for flat points alone. */
        assert_int_equal(defined(src, "AT_FLAT_IN"), cases[i].pt.v[12]);
        assert_int_equal(defined(src, "AT_FLAT_OUT"), cases[i].pt.v[12]);
        free(src);
    }
    char text[256];
    F->ops.paths_text(0, text, sizeof text);
    assert_string_equal(text, "without skewed stores (AT_SKEW), vector copy "
                              "(AT_THIN), 64-bit tile indices (AT_WIDE), "
                              "edge tiles (AT_EDGE), "
                              "shifted word loads (AT_SHIFT_IN), flat loads "
                              "(AT_FLAT_IN), flat stores (AT_FLAT_OUT)");
    F->ops.paths_text(AT_PATHS_ALL, text, sizeof text);
    assert_string_equal(text, "with skewed stores (AT_SKEW), vector copy "
                              "(AT_THIN), 64-bit tile indices (AT_WIDE), "
                              "edge tiles (AT_EDGE), "
                              "shifted word loads (AT_SHIFT_IN), flat loads "
                              "(AT_FLAT_IN), flat stores (AT_FLAT_OUT)");
}

/* Packed 1- and 2-byte points whose input rows or matrices are off the
 * vector width load shifted words; output rows off it are off the 32-byte
 * sector too, and stored skewed (aligned words). Unpacked points and wider
 * types shift neither. */
static void shifted_loads_and_skewed_stores_follow_the_rows(void **state)
{
    (void)state;
    typedef struct {
        test_problem u;
        at_point pt;
        int in, skew, edge;
    } want_t;
    const at_point i8pk = point(64, 64, 16, 16, 1, 1, 1, 1);  /* words */
    const at_point i8pk4 = point(256, 64, 16, 16, 4, 1, 2, 1); /* 16 B */
    const want_t cases[] = {
        {{"transpose", "i8", 8192, 8192, 0, 0}, i8pk, 0, 0, 0},
        /* Odd sides: rows off the word on both sides. */
        {{"transpose", "i8", 8191, 8209, 0, 0}, i8pk, 1, 1, 1},
        /* Input rows on the word, off a 16-byte vector. */
        {{"transpose", "i8", 8192, 8192, 8196, 0}, i8pk4, 1, 0, 1},
        {{"transpose", "i8", 8192, 8192, 8196, 0}, i8pk, 0, 0, 0},
        /* Output rows on the word, off the sector: skewed, the whole
         * tiles on words without the element path. */
        {{"transpose", "u8", 8192, 8192, 0, 8196}, i8pk, 0, 1, 0},
        {{"transpose", "u8", 8192, 8192, 0, 8196}, i8pk4, 0, 1, 1},
        /* Output matrices off the word. */
        {{"transpose", "u8", 64, 64, 0, 0, 3, 64 * 64, 64 * 64 + 2}, i8pk,
         0, 1, 1},
        {{"transpose", "f16", 8192, 8191, 0, 0},
         point(64, 64, 16, 16, 2, 1, 2, 1), 1, 0, 1},
        /* Unpacked bytes and wider types: the element path (wider types
         * skewed). */
        {{"transpose", "i8", 8191, 8209, 0, 0},
         point(64, 64, 32, 8, 1, 0, 1, 1), 0, 0, 1},
        {{"transpose", "f32", 8191, 8209, 0, 0},
         point(64, 64, 16, 32, 1, 0, 2, 1), 0, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        at_problem p;
        char *src = expand_case(i, &cases[i].u, &cases[i].pt, &p);
        if (defined(src, "AT_SHIFT_IN") != cases[i].in ||
            defined(src, "AT_SKEW") != cases[i].skew ||
            defined(src, "AT_EDGE") != cases[i].edge)
            fail_msg("case %zu: AT_SHIFT_IN %d AT_SKEW %d AT_EDGE %d, want "
                     "%d %d %d", i, defined(src, "AT_SHIFT_IN"),
                     defined(src, "AT_SKEW"), defined(src, "AT_EDGE"),
                     cases[i].in, cases[i].skew, cases[i].edge);
        free(src);
    }
}

/* Whether p's kernel at pt has the element path. */
static int has_edge(const at_problem *p, const at_point *pt)
{
    char defs[1024];
    F->ops.defines(p, pt, F->ops.paths(p, pt), defs, sizeof defs);
    return defined(defs, "AT_EDGE") == 1;
}

/* A kernel without the element path takes whole tiles on rows on its
 * vectors alone: it is checked on the whole shapes, each of which is such
 * a shape for every such point of the space (so compiled for it, it has
 * no element path either), an odd shape's kernel on the odd ones; the
 * API runs such a kernel only on buffers on its vectors. */
/* Gathered strips (smem 3): short input rows (8 to 64) of 1- and 2-byte
 * elements whose output runs are end to end, a word of positions a
 * thread, 2 or 4 tiles a block, ldg; each within the architecture's
 * shared memory (sm_80 and later: cp.async), its launch asking for what
 * the template lays out (gen/transpose_strip.c's count). */
static void gathered_strips_where_runs_end_to_end(void **state)
{
    (void)state;
    static const struct {
        int sm;
        const char *type;
        int64_t rows, cols, ld_out;
        int gathered;
    } cases[] = {
        /* 128, 256 and 512 threads x 2 or 4 tiles; 1024 threads would
         * lay out 2 x 31 x 4128 bytes, 250 KB */
        {90, "u8", 31, 100003, 0, 6},
        {90, "bf16", 31, 100003, 0, 6},
        /* 2 x 2048 x 65 bytes for 512 threads: 260 KB */
        {90, "i8", 64, 100003, 0, 4},
        /* 8 rows: 1024 threads too (2 x 4096 x 9 bytes, 72 KB) */
        {90, "u8", 8, 100003, 0, 8},
        /* sm_80's 163 KB: 512 threads of 31 rows (126 KB) in, of 48
         * rows (196 KB) out */
        {80, "u8", 31, 100003, 0, 6},
        {80, "u8", 48, 100003, 0, 4},
        {90, "u8", 48, 100003, 0, 6},
        {75, "u8", 31, 100003, 0, 0},
        {90, "u8", 7, 100003, 0, 0},
        {90, "u8", 100003, 31, 0, 0},
        {90, "f32", 31, 100003, 0, 0},
        {90, "u8", 31, 100003, 32, 0},
    };
    const int smem = at_axis_index(F, "smem"), kind = at_axis_index(F, "kind");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        at_limits l;
        assert_true(at_limits_for_arch(cases[c].sm, &l));
        at_problem p;
        size_t n;
        at_point *pts = space_of(cases[c].type, cases[c].rows,
                                 cases[c].cols, cases[c].ld_out, &l, &p, &n);
        int gathered = 0;
        for (size_t i = 0; i < n; ++i) {
            const int *v = pts[i].v;
            if (v[kind] != KIND_STRIP || v[smem] != 3)
                continue;
            ++gathered;
            const int threads = v[2] * v[3];
            assert_int_equal(v[4] * p.type->bytes, 4);
            assert_true(v[11] >= 2 && v[8] == 1 && v[5] == 0);
            at_launch g;
            F->ops.launch(&p, &pts[i], &g);
            const int rows = (int)cases[c].rows;
            const int tile = rows * (threads * 4 + 32),
                      staged = threads * 4 * (rows | 1);
            assert_int_equal(g.smem, 2 * (tile > staged ? tile : staged));
            assert_true((int)g.smem <= l.max_smem);
            char name[128];
            F->ops.point_name(F, &pts[i], name, sizeof name);
            assert_non_null(strstr(name, "_gth_"));
        }
        if (gathered != cases[c].gathered)
            fail_msg("sm_%d %s %" PRId64 "x%" PRId64 " ld_out %" PRId64
                     ": %d gathered points, expected %d", cases[c].sm,
                     cases[c].type, cases[c].rows, cases[c].cols,
                     cases[c].ld_out, gathered, cases[c].gathered);
        free(pts);
    }
}

static void whole_tile_kernels_take_whole_shapes(void **state)
{
    (void)state;
    const char *types[] = {"u8", "f16", "f32", "f64", "c128"};
    at_limits l;
    at_limits_for_arch(90, &l);
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        at_problem sq = problem(types[t], 8192, 8192);
        at_problem odd = problem(types[t], 1000, 1537);
        at_problem ck[AT_TP_CHECKS];
        int skews = 0, on_sectors = 0;
        for (int i = 0; i < AT_TP_CHECKS; ++i) {
            const char *label;
            at_err e = {0};
            assert_int_equal(F->ops.check_problem(&sq, i, &ck[i], &label, &e),
                             0);
            const int off = ck[i].v[TP_LD_OUT] * sq.type->bytes % 32 != 0 ||
                            (ck[i].v[TP_BATCH] > 1 &&
                             ck[i].v[TP_STRIDE_OUT] * sq.type->bytes % 32);
            skews += i >= AT_TP_ODD_CHECKS && off;
            on_sectors += i >= AT_TP_ODD_CHECKS && !off;
        }
        /* A kernel with skewed stores is checked skewed and unskewed. */
        assert_true(skews > 0 && on_sectors > 0);
        at_point *pts;
        size_t n, whole = 0;
        at_err e = {0};
        assert_int_equal(at_space_points(F, &sq, &l, &pts, &n, &e), 0);
        for (size_t k = 0; k < n; ++k) {
            if (pts[k].v[KIND] != KIND_TILE)
                continue;
            const int w = !has_edge(&sq, &pts[k]);
            whole += w;
            for (int i = 0; i < AT_TP_CHECKS; ++i) {
                assert_int_equal(F->ops.check_fits(&sq, &pts[k], i),
                                 (i >= AT_TP_ODD_CHECKS) == w);
                assert_int_equal(F->ops.check_fits(&odd, &pts[k], i),
                                 i < AT_TP_ODD_CHECKS);
                if (w && i >= AT_TP_ODD_CHECKS && has_edge(&ck[i], &pts[k]))
                    fail_msg("%s check %d needs the element path", types[t],
                             i);
            }
            /* Buffers: cudaMalloc's (256 bytes) always; 4 bytes off the
             * input's vectors only where they are 4 bytes or less. */
            const uint64_t aligned[2] = {1u << 20, 2u << 20};
            const uint64_t off[2] = {(1u << 20) + 4, 2u << 20};
            const int64_t vb = pts[k].v[VEC] * sq.type->bytes *
                               (pts[k].v[PACK] && sq.type->bytes < 4
                                    ? 4 / sq.type->bytes : 1);
            assert_int_equal(F->ops.takes(&sq, &pts[k], aligned), 1);
            assert_int_equal(F->ops.takes(&sq, &pts[k], off),
                             !w || vb <= 4);
            assert_int_equal(F->ops.takes(&odd, &pts[k], off), 1);
        }
        assert_true(whole > n / 2); /* 8192 x 8192: whole for most */
        free(pts);
    }
}

/* A strip point: 32 x by threads, vec positions, steps in flight. */
static at_point strip(int by, int vec, int steps)
{
    at_point pt = point(8, 8, 32, by, vec, 0, 1, 1);
    pt.v[10] = KIND_STRIP;
    pt.v[11] = steps;
    return pt;
}

/* Tiles taller than a thin matrix are left out only where its short
 * side's runs are end to end: with runs apart, whole words or not, they
 * compete with the strips (H100, f64 15 x 131743 with runs 67 apart: the
 * best strip 470 GB/s, a 64-row tile 1097). */
static void tiles_compete_where_runs_are_apart(void **state)
{
    (void)state;
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    static const struct {
        const char *type;
        int64_t rows, cols, ld_out;
        int apart;
    } cases[] = {
        {"f64", 15, 131743, 67, 1}, {"f64", 15, 131743, 15, 0},
        {"f32", 4, 4194304, 8, 1},  {"f32", 4, 4194304, 4, 0},
        {"i8", 3, 100000, 5, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        at_problem p;
        at_err e = {0};
        test_problem u = {"transpose", cases[c].type, cases[c].rows,
                          cases[c].cols, 0, cases[c].ld_out};
        assert_int_equal(test_problem_make(&p, &u, &e), 0);
        assert_int_equal(at_tp_strips_alone(&p), !cases[c].apart);
        at_point *pts;
        size_t n, tall = 0, strips = 0;
        assert_int_equal(at_space_points(F, &p, &l, &pts, &n, &e), 0);
        for (size_t i = 0; i < n; ++i) {
            strips += pts[i].v[10] == KIND_STRIP;
            tall += pts[i].v[10] == KIND_TILE && pts[i].v[1] > cases[c].rows;
        }
        free(pts);
        assert_true(strips > 0);
        if (cases[c].apart ? tall == 0 : tall != 0)
            fail_msg("%s %" PRId64 "x%" PRId64 " ld_out %" PRId64 ": %zu "
                     "tiles taller than the matrix", cases[c].type,
                     cases[c].rows, cases[c].cols, cases[c].ld_out, tall);
    }
}

/* Sides that are no power of two are fitted ones: a tile side of 96 to
 * 480 only as the matrix's side rounded up to 32, so one tile spans it.
 * The walk that skips the other fitted values (value_ok) keeps exactly
 * the points a walk of every point through valid keeps, in the same
 * order. */
static void fitted_sides_span_the_short_side(void **state)
{
    (void)state;
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    static const struct {
        const char *type;
        int64_t rows, cols;
        int fit_y, fit_x; /* the fitted tile_y, tile_x expected; 0: none */
    } cases[] = {
        {"f16", 89, 597876, 96, 0},   {"bf16", 150, 315067, 160, 0},
        {"bf16", 1106153, 165, 0, 192}, {"f64", 213, 134310, 224, 0},
        {"u8", 310, 81419, 320, 0},   {"f32", 300, 300, 320, 320},
        {"f32", 128, 100000, 0, 0},   {"f32", 8192, 8192, 0, 0},
        {"f32", 481, 100000, 0, 0},   {"f32x4", 100, 30000, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        at_problem p = problem(cases[c].type, cases[c].rows, cases[c].cols);
        at_err e = {0};
        at_point *pts;
        size_t n, fy = 0, fx = 0;
        assert_int_equal(at_space_points(F, &p, &l, &pts, &n, &e), 0);
        for (size_t i = 0; i < n; ++i) {
            const int tx = pts[i].v[0], ty = pts[i].v[1];
            if (!is_pow2(ty)) {
                assert_int_equal(ty, cases[c].fit_y);
                ++fy;
            }
            if (!is_pow2(tx)) {
                assert_int_equal(tx, cases[c].fit_x);
                ++fx;
            }
        }
        if ((cases[c].fit_y != 0) != (fy != 0) ||
            (cases[c].fit_x != 0) != (fx != 0))
            fail_msg("%s %" PRId64 "x%" PRId64 ": %zu fitted rows, %zu "
                     "fitted columns", cases[c].type, cases[c].rows,
                     cases[c].cols, fy, fx);
        /* Every point of the product through valid, in walk order (7.5
         * million valid calls a case: three cases, fitted rows, columns
         * and both). */
        if (c != 0 && c != 2 && c != 5) {
            free(pts);
            continue;
        }
        size_t total = at_space_size(F), k = 0;
        int idx[AT_MAX_AXES] = {0};
        for (size_t t = 0; t < total; ++t) {
            at_point pt;
            memset(&pt, 0, sizeof pt);
            for (int a = 0; a < F->n_axes; ++a)
                pt.v[a] = F->axes[a].values[idx[a]];
            if (F->ops.valid(&p, &pt, &l, NULL, 0)) {
                assert_true(k < n);
                assert_memory_equal(&pt, &pts[k], sizeof pt);
                ++k;
            }
            for (int a = F->n_axes - 1; a >= 0; --a) {
                if (++idx[a] < F->axes[a].n)
                    break;
                idx[a] = 0;
            }
        }
        assert_int_equal(k, n);
        free(pts);
    }
}

/* The share of the 64-byte blocks the rows touch that is data, counted
 * here block by block over every row of both sides (the function takes a
 * period of 64 rows and 64 matrices). */
static double blocks_share(const at_problem *p)
{
    const int64_t *v = p->v, e = p->type->bytes;
    double data = 0, blocks = 0;
    for (int side = 0; side < 2; ++side) {
        const int64_t len = (side ? v[TP_ROWS] : v[TP_COLS]) * e;
        const int64_t n = side ? v[TP_COLS] : v[TP_ROWS];
        const int64_t pitch = (side ? v[TP_LD_OUT] : v[TP_LD_IN]) * e;
        const int64_t stride = (side ? v[TP_STRIDE_OUT] : v[TP_STRIDE_IN]) * e;
        const int64_t end = (v[TP_BATCH] - 1) * stride + (n - 1) * pitch + len;
        unsigned char *seen = calloc((size_t)(end / 64 + 1), 1);
        assert_non_null(seen);
        for (int64_t z = 0; z < v[TP_BATCH]; ++z)
            for (int64_t r = 0; r < n; ++r)
                for (int64_t b = (z * stride + r * pitch) / 64;
                     b <= (z * stride + r * pitch + len - 1) / 64; ++b)
                    seen[b] = 1;
        for (int64_t b = 0; b <= end / 64; ++b)
            blocks += 64.0 * seen[b];
        data += (double)(v[TP_BATCH] * n * len);
        free(seen);
    }
    return data / blocks;
}

static void layout_share(void **state)
{
    (void)state;
    static const test_problem cases[] = {
        {"transpose", "f32", 8192, 8192, 0, 0, 0, 0, 0},
        /* 32-byte input rows 128 bytes apart: half of each block. */
        {"transpose", "f32", 64, 8, 32, 0, 0, 0, 0},
        /* 13-byte output rows 74 bytes apart (a sweep's worst). */
        {"transpose", "i8", 13, 100003, 100040, 74, 0, 0, 0},
        {"transpose", "bf16", 150, 20011, 20016, 153, 0, 0, 0},
        {"transpose", "f16", 89, 6000, 6016, 147, 3, 89 * 6016 + 5,
         6000 * 147 + 9},
        {"transpose", "u8", 3000, 700, 0, 0, 0, 0, 0},
        {"transpose", "c128", 421, 4885, 0, 0, 0, 0, 0},
    };
    const double want0[] = {1.0, 2.0 / 3.0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        at_problem p;
        at_err e = {0};
        assert_int_equal(test_problem_make(&p, &cases[i], &e), 0);
        const double got = at_tp_layout_share(&p), want = blocks_share(&p);
        printf("# %s %" PRId64 "x%" PRId64 ": %.4f (block by block %.4f)\n",
               p.type->name, p.v[TP_ROWS], p.v[TP_COLS], got, want);
        assert_true(got > 0 && got <= 1.0 + 1e-12);
        assert_true(fabs(got - want) < 0.005);
        if (i < 2)
            assert_true(fabs(got - want0[i]) < 1e-12);
    }
}

/* Strip points, restated: for a side of 1 to 64 elements (rows when rows
 * are the shorter), 128 to 1024 threads, vectors of at most 16 bytes, at
 * most 256 bytes a thread; tiles then no taller or wider than the
 * matrix. */
static void strips_serve_short_sides(void **state)
{
    (void)state;
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    static const struct {
        const char *type;
        int64_t rows, cols;
        int strips;     /* strip points, counted by hand */
        int tiles_ok;   /* tile points remain */
        int64_t ld_out; /* 0: rows */
    } cases[] = {
        /* 4 thread counts x vec 1, 2, 4 x steps 1, 2, 4 x ldg 0, 1, and
         * staged: vec 2 (32-byte groups) x 4 thread counts, vec 4 (64) x
         * 3 (1024 threads would stage 67584 bytes) x steps x ldg */
        {"f32", 4, 4194304, 72 + 42, 0},
        {"f32", 4194304, 4, 72 + 42, 0},
        /* vec x steps at most 2: (1,1) (1,2) (2,1); staged: 116-byte
         * groups for 128 and 256 threads (30624 bytes), 232-byte ones for
         * 128, x steps x ldg */
        {"f32", 29, 525943, 24 + 10, 1},
        /* 64 x 4 bytes: vec 1, one step; staged by 128 threads */
        {"f32", 64, 100000, 8 + 2, 1},
        {"f32", 65, 100000, 0, 1},
        /* a copy: vec 1..16 x steps, 16 bytes a thread at most 256 (rows
         * off 16 bytes are input rows: none realigned) */
        {"i8", 1, 1000, 4 * 5 * 3 * 2, 0},
        /* realigned stores: output rows 4099 f16 apart are off 4 bytes
         * and more. Runs of 10 bytes: vec 1, 2 and 4 x steps, vec 8 x 1
         * and 2 (256 bytes at most), x 4 thread counts x ldg; the 8 of
         * vec 2 to 8 again realigned; staged: vec 2 and 4 by 4 thread
         * counts, vec 8 by 3 (1024 threads would stage 84480 bytes), x
         * steps x ldg, and all of them again realigned */
        {"f16", 4099, 5, 11 * 8 + 8 * 8 + 2 * (6 * 4 + 2 * 3) * 2, 0},
        /* 16-byte elements: up to 16 */
        {"c128", 16, 1000, 8 + 2, 1},
        {"c128", 17, 1000, 0, 1},
        {"f32", 8192, 8192, 0, 1},
        /* runs of 3 bytes 5 apart: apart, so tiles compete; 120
         * as for a copy and staged: vec 8 (24-byte groups) by 4 thread
         * counts, vec 16 (48) by 3, x steps x ldg */
        {"i8", 3, 100000, 120 + 42, 1, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        at_problem p;
        size_t n;
        at_point *pts = space_of(cases[c].type, cases[c].rows,
                                 cases[c].cols, cases[c].ld_out, &l, &p, &n);
        int strips = 0, tiles = 0;
        const int64_t s = cases[c].rows < cases[c].cols ? cases[c].rows
                                                         : cases[c].cols;
        for (size_t i = 0; i < n; ++i) {
            const int *v = pts[i].v;
            if (v[10] == KIND_TILE) {
                ++tiles;
                if (at_tp_strips_alone(&p))
                    assert_true(v[1] <= cases[c].rows &&
                                v[0] <= cases[c].cols);
                continue;
            }
            ++strips;
            assert_true(v[2] == 32 && v[3] >= 4);
            assert_true(v[4] * p.type->bytes <= 16);
            assert_true(v[11] * v[4] * s * p.type->bytes <= 256);
            const int group = v[4] * (int)s * p.type->bytes;
            assert_true(v[6] == 1 ||
                        (group % 4 == 0 && group > 16 &&
                         v[2] * v[3] / 32 * 33 * group <= 48 * 1024));
            assert_int_equal(F->ops.paths(&p, &pts[i]) & 15, 0);
        }
        if (strips != cases[c].strips || !tiles != !cases[c].tiles_ok)
            fail_msg("%s %" PRId64 "x%" PRId64 ": %d strip and %d tile "
                     "points, expected %d and %s", cases[c].type,
                     cases[c].rows, cases[c].cols, strips, tiles,
                     cases[c].strips, cases[c].tiles_ok ? "some" : "none");
        free(pts);
    }
    /* Reasons. */
    at_problem sq = problem("f32", 100, 100), thin = problem("f32", 3, 5000);
    at_problem c64 = problem("c128", 16, 5000);
    at_point bad_tile = strip(8, 1, 1), narrow = strip(8, 1, 1);
    bad_tile.v[0] = 16;
    narrow.v[2] = 16;
    narrow.v[3] = 16;
    at_point ldg = strip(8, 1, 1), stepped = point(32, 32, 32, 8, 1, 0, 1, 1);
    ldg.v[9] = 0;
    stepped.v[11] = 2;
    /* 3 x 4 bytes: too small to stage; 16 x 16 bytes by 256 threads:
     * 8 warps x 33 x 64 words. */
    at_point staged_small = strip(8, 1, 1), staged_big = strip(8, 1, 1);
    staged_small.v[6] = 2;
    staged_big.v[6] = 2;
    /* Realigned (pack 1): not where output rows are on the vector, nor
     * where the long rows are the input's. */
    at_point aligned_ra = strip(8, 4, 1), loads_ra = strip(8, 4, 1);
    aligned_ra.v[5] = 1;
    loads_ra.v[5] = 1;
    at_problem thin_off = problem("f32", 3, 5001);
    at_problem tall_off = problem("f32", 5001, 3);
    at_problem tall = problem("f32", 5000, 3);
    struct {
        const at_problem *p;
        at_point pt;
        const char *why;
    } bad[] = {
        {&sq, strip(8, 1, 1), "at most 64"},
        {&thin, bad_tile, "no tile"},
        {&thin, narrow, "warp wide"},
        {&thin, strip(2, 1, 1), "128 to"},
        {&thin, strip(8, 8, 1), "exceeds 16"},
        {&c64, strip(8, 1, 2), "bytes a thread"},
        {&thin, ldg, "go together"},
        {&thin, staged_small, "staging is for"},
        {&c64, staged_big, "to stage exceeds"},
        {&tall, aligned_ra, "these are on it"},
        {&thin_off, loads_ra, "not output rows"},
        {&sq, stepped, "steps are for strips"},
        {&thin, point(32, 32, 32, 8, 1, 0, 1, 1), "exceeds the 3x5000"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        char why[256] = "";
        assert_int_equal(F->ops.valid(bad[i].p, &bad[i].pt, &l, why, sizeof why),
                         0);
        if (!strstr(why, bad[i].why))
            fail_msg("case %zu: reason '%s' lacks '%s'", i, why, bad[i].why);
    }
    /* A strip compiles for its short side and says so. */
    char defs[1024], text[256], name[128];
    at_point ok = strip(8, 4, 2);
    F->ops.defines(&thin, &ok, F->ops.paths(&thin, &ok), defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_STRIP 1\n"));
    assert_non_null(strstr(defs, "#define AT_SHORT 3\n"));
    assert_non_null(strstr(defs, "#define AT_SHORT_ROWS 1\n"));
    /* 4 positions of 3 f32: 48 bytes (16 a vector), a run 12 (4). */
    assert_non_null(strstr(defs, "#define AT_DENSE_BYTES 16\n"));
    assert_non_null(strstr(defs, "#define AT_RUN_BYTES 4\n"));
    F->ops.paths_text(F->ops.paths(&thin, &ok), text, sizeof text);
    assert_non_null(strstr(text, "strip"));
    F->ops.point_name(F, &ok, name, sizeof name);
    assert_string_equal(name, "strip_blk32x8_vec4_st2_ldg1_rst1");
    /* Realigned: named so, and compiled in. */
    at_point ra = strip(8, 4, 1);
    ra.v[5] = 1;
    assert_int_equal(F->ops.valid(&tall_off, &ra, &l, NULL, 0), 1);
    F->ops.point_name(F, &ra, name, sizeof name);
    assert_string_equal(name, "strip_blk32x8_vec4_st1_ra_ldg1_rst1");
    F->ops.defines(&tall_off, &ra, F->ops.paths(&tall_off, &ra), defs,
                   sizeof defs);
    assert_non_null(strstr(defs, "#define AT_REALIGN 1\n"));
    F->ops.defines(&thin, &ok, F->ops.paths(&thin, &ok), defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_REALIGN 0\n"));
    at_problem cols = problem("f32", 5000, 3);
    F->ops.defines(&cols, &ok, F->ops.paths(&cols, &ok), defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_SHORT_ROWS 0\n"));
    /* Launch: ceil(5000 / 4) groups, 256 threads x 2 steps a block. */
    at_launch g;
    F->ops.launch(&cols, &ok, &g);
    assert_int_equal(g.grid[0], 3);
    assert_int_equal(g.block[0] * g.block[1], 256);
    assert_int_equal(g.smem, 0);
    /* Check shapes keep the short side where it is (the whole shapes
     * after them are for tile kernels without the element path). */
    for (int i = 0; i < AT_TP_ODD_CHECKS; ++i) {
        at_problem ck, ck2;
        const char *label;
        at_err e = {0};
        assert_int_equal(F->ops.check_problem(&thin, i, &ck, &label, &e), 0);
        assert_int_equal(ck.v[TP_ROWS], 3);
        assert_true(ck.v[TP_COLS] > 500);
        assert_int_equal(F->ops.check_problem(&cols, i, &ck2, &label, &e), 0);
        assert_int_equal(ck2.v[TP_COLS], 3);
        assert_int_equal(ck2.v[TP_ROWS], ck.v[TP_COLS]);
        assert_non_null(strstr(label, "strip"));
        assert_int_equal(F->ops.check_problem(&sq, i, &ck, &label, &e), 0);
        assert_null(strstr(label, "strip"));
    }
}

static void launch_geometry(void **state)
{
    (void)state;
    at_launch g;
    at_point pt = point(64, 16, 16, 8, 4, 0, 1, 1);
    at_problem p = problem("f32", 3000000, 3);
    F->ops.launch(&p, &pt, &g);
    assert_int_equal(g.grid[0], 187500); /* 1 x ceil(3000000 / 16) tiles */
    assert_int_equal(g.grid[1], 1);
    assert_int_equal(g.block[0], 16);
    assert_int_equal(g.block[1], 8);
    assert_int_equal(g.smem, (16 + 7) * 65 * 4); /* 7 rows for skewing */
    pt.v[7] = 4; /* four tiles a block */
    F->ops.launch(&p, &pt, &g);
    assert_int_equal(g.grid[0], 46875);
    p = problem("f32", 100, 1000);
    F->ops.launch(&p, &pt, &g);
    assert_int_equal(g.grid[0], 28); /* ceil(16 * 7 / 4) */
    /* A batch: tiles of every matrix. */
    test_problem u = {"transpose", "f32", 64, 64, 0, 0, 4096, 0, 0};
    at_err e = {0};
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    at_point sq = point(64, 64, 32, 8, 4, 0, 1, 1);
    F->ops.launch(&p, &sq, &g);
    assert_int_equal(g.grid[0], 4096);
    /* More tiles than a grid holds: capped, the kernel loops. */
    u.batch = AT_MAX_BATCH;
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    at_point small = point(32, 32, 32, 8, 1, 0, 1, 1);
    F->ops.launch(&p, &small, &g);
    assert_int_equal(g.grid[0], 2147483647u);
}

/* A batch of 3 with wide strides and leading dimensions, for an element
 * size: every element lands where it belongs, padding and the gaps
 * between matrices keep their poison. */
static void reference_case(const char *type)
{
    test_problem u = {"transpose", type, 37, 53, 60, 41, 3,
                          37 * 60 + 7, 53 * 41 + 5};
    at_problem p;
    at_err e = {0};
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    const int eb = p.type->bytes;
    unsigned char *in = malloc(p.in_bytes), *out = malloc(p.out_bytes);
    assert_non_null(in);
    assert_non_null(out);
    for (size_t i = 0; i < p.in_bytes; ++i)
        in[i] = (unsigned char)(i * 2654435761u >> 13);
    memset(out, 0xEE, p.out_bytes);
    const int64_t *v = p.v;
    assert_int_equal(F->ops.reference_parts(&p), v[TP_ROWS] * v[TP_BATCH]);
    F->ops.reference(&p, in, out, NULL, 0, F->ops.reference_parts(&p));
    for (size_t i = 0; i < p.out_bytes / (size_t)eb; ++i) {
        int64_t z = (int64_t)i / v[TP_STRIDE_OUT];
        int64_t rem = (int64_t)i % v[TP_STRIDE_OUT];
        int64_t c = rem / v[TP_LD_OUT], r = rem % v[TP_LD_OUT];
        const unsigned char *got = out + i * (size_t)eb;
        if (c < v[TP_COLS] && r < v[TP_ROWS]) {
            const unsigned char *want =
                in + (size_t)(z * v[TP_STRIDE_IN] + r * v[TP_LD_IN] + c) *
                         (size_t)eb;
            if (memcmp(got, want, (size_t)eb))
                fail_msg("%s: out[%lld][%lld][%lld] wrong", type,
                         (long long)z, (long long)c, (long long)r);
        } else {
            for (int k = 0; k < eb; ++k)
                if (got[k] != 0xEE)
                    fail_msg("%s: element %zu outside the matrices written",
                             type, i);
        }
    }
    free(in);
    free(out);
}

static void reference_transposes_and_keeps_padding(void **state)
{
    (void)state;
    const char *types[] = {"i8", "f16", "f32", "f64", "c128"};
    for (size_t i = 0; i < sizeof types / sizeof *types; ++i)
        reference_case(types[i]);
}

/* Blocks an SM holds (the emitted kernel's __launch_bounds__): limited
 * by registers (a warp's rounded up to 256), threads, blocks and shared
 * memory (with the driver's 1 KB a block from sm_80 on), per
 * architecture. */
static void occupancy_arithmetic(void **state)
{
    (void)state;
    /* 512 threads on sm_90: 40 registers fit 3 (61440 of 64K), 54 (56
     * rounded) only 2; 32 fit 4, the threads' limit. */
    assert_int_equal(at_occupancy_blocks(90, 512, 40, 16388), 3);
    assert_int_equal(at_occupancy_blocks(90, 512, 54, 16388), 2);
    assert_int_equal(at_occupancy_blocks(90, 512, 32, 0), 4);
    /* sm_89 holds 1536 threads: 3 of 512 at most. */
    assert_int_equal(at_occupancy_blocks(89, 512, 16, 0), 3);
    /* Shared memory: 100 KB a block fits 2 in 228 KB on sm_90, 1 on
     * sm_86's 100 KB (the reserved KB takes it past). */
    assert_int_equal(at_occupancy_blocks(90, 128, 32, 100 * 1024), 2);
    assert_int_equal(at_occupancy_blocks(86, 128, 32, 99 * 1024), 1);
    /* Small blocks: the blocks' limit (32 on sm_90, 16 on sm_75). */
    assert_int_equal(at_occupancy_blocks(90, 32, 16, 0), 32);
    assert_int_equal(at_occupancy_blocks(75, 32, 16, 0), 16);
    /* 255 registers of 1024 threads do not fit; an unknown arch: 0. */
    assert_int_equal(at_occupancy_blocks(90, 1024, 255, 0), 0);
    assert_int_equal(at_occupancy_blocks(61, 256, 32, 0), 0);
    /* What __launch_bounds__(threads, blocks) leaves a thread: 3 or 4
     * blocks of 512, 40 or 32 registers; 2, 64; few small blocks, 255
     * at most; a warp's registers in units of 256 (3 blocks of 416
     * threads, 13 warps: 6 units a warp, 48 registers). And a thread's
     * registers as allocated: 50 takes 56, 32 takes 32. */
    assert_int_equal(at_occupancy_bound_regs(512, 3), 40);
    assert_int_equal(at_occupancy_bound_regs(512, 4), 32);
    assert_int_equal(at_occupancy_bound_regs(512, 2), 64);
    assert_int_equal(at_occupancy_bound_regs(64, 2), 255);
    assert_int_equal(at_occupancy_bound_regs(416, 3), 48);
    assert_int_equal(at_occupancy_bound_regs(0, 3), 0);
    assert_int_equal(at_occupancy_alloc_regs(50), 56);
    assert_int_equal(at_occupancy_alloc_regs(32), 32);
}

static void problem_validation(void **state)
{
    (void)state;
    struct {
        test_problem u;
        int code;
        const char *msg;
    } cases[] = {
        {{"nope", "f32", 1, 1, 0, 0}, AUTOTUNE_ENOT_FOUND, "unknown family"},
        {{"transpose", "f128", 1, 1, 0, 0}, AUTOTUNE_ENOT_FOUND,
         "unknown type"},
        {{"transpose", "f32", 5, 5, 0, 0, -1, 0, 0}, AUTOTUNE_ERANGE,
         "batch needs"},
        {{"transpose", "f32", 5, 5, 0, 0, 3, 24, 0}, AUTOTUNE_ERANGE,
         "overlap"},
        {{"transpose", "f32", 5, 5, 0, 0, 3, 0, 24}, AUTOTUNE_ERANGE,
         "overlap"},
        {{"transpose", "f32", 5, 5, 0, 0, -7, 0, 0}, AUTOTUNE_ERANGE,
         "batch"},
        {{"transpose", "c128", 2000000000, 2000000000, 0, 0, 0, 0, 0},
         AUTOTUNE_ERANGE, "overflows"},
        {{"transpose", "f32", 100000, 100000, 0, 0, 2147483647LL, 0, 0},
         AUTOTUNE_ERANGE, "overflows"},
        {{"transpose", "f32", 5, 5, 0, 0, 0, 0, 0, "rows=0"},
         AUTOTUNE_ERANGE, "rows needs"},
        {{"transpose", "f32", 5, -1, 0, 0}, AUTOTUNE_ERANGE, "cols needs"},
        {{"transpose", "f32", 5, 5, 4, 0}, AUTOTUNE_ERANGE, "leading"},
        {{"transpose", "f32", 3000000000LL, 5, 0, 0}, AUTOTUNE_ERANGE,
         "from 1 to 2147483647"},
        {{"transpose", "f64", 2000000000, 2000000000, 0, 0}, AUTOTUNE_ERANGE,
         "overflows"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        at_problem p;
        at_err e = {0};
        assert_int_equal(test_problem_make(&p, &cases[i].u, &e), cases[i].code);
        if (!strstr(e.msg, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, e.msg, cases[i].msg);
    }
    /* Defaults: dense rows, matrices back to back; a single matrix's
     * strides are the defaults whatever was asked, so the key does not
     * split. */
    at_problem p, q;
    at_err e = {0};
    test_problem u = {"transpose", "f16", 30, 50, 0, 0, 0, 0, 0};
    assert_int_equal(test_problem_make(&p, &u, &e), 0);
    assert_int_equal(p.v[TP_BATCH], 1);
    assert_int_equal(p.v[TP_STRIDE_IN], 30 * 50);
    assert_int_equal(p.v[TP_STRIDE_OUT], 50 * 30);
    u.stride_in = 9999;
    assert_int_equal(test_problem_make(&q, &u, &e), 0);
    assert_true(at_problem_equal(&p, &q));
    /* A batch: sized to the last matrix's rows. */
    test_problem b = {"transpose", "i8", 3, 5, 7, 4, 10, 40, 30};
    assert_int_equal(test_problem_make(&p, &b, &e), 0);
    assert_int_equal(p.in_bytes, 9 * 40 + 3 * 7);
    assert_int_equal(p.out_bytes, 9 * 30 + 5 * 4);
    char text[256];
    at_problem_str(&p, text, sizeof text);
    assert_string_equal(text, "transpose i8 3x5 ld_in=7 ld_out=4 batch=10 "
                              "stride_in=40 stride_out=30");
}

int main(void)
{
    F = at_family_find("transpose");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(types_table),
        cmocka_unit_test(arg_types_table),
        cmocka_unit_test(sizes_and_invariants),
        cmocka_unit_test(rejections_say_why),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(expansion),
        cmocka_unit_test(code_paths_follow_the_problem),
        cmocka_unit_test(shifted_loads_and_skewed_stores_follow_the_rows),
        cmocka_unit_test(strips_serve_short_sides),
        cmocka_unit_test(gathered_strips_where_runs_end_to_end),
        cmocka_unit_test(whole_tile_kernels_take_whole_shapes),
        cmocka_unit_test(launch_geometry),
        cmocka_unit_test(tiles_compete_where_runs_are_apart),
        cmocka_unit_test(fitted_sides_span_the_short_side),
        cmocka_unit_test(layout_share),
        cmocka_unit_test(reference_transposes_and_keeps_padding),
        cmocka_unit_test(problem_validation),
        cmocka_unit_test(occupancy_arithmetic),
    };
    return AT_RUN_TESTS(tests);
}
