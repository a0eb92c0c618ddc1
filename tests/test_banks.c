/* gen/transpose_smem.c: a packed padded tile's layout, chosen by a count
 * of its shared-memory wavefronts. Checked against a count over every
 * warp and every step of the tile (the model counts one warp's pass and
 * multiplies), on every packed geometry of the space; and through the
 * family: the defines and the launch's shared memory. */
#include <string.h>

#include "tap.h"
#include "test_problem.h"

#include "gen/arch.h"
#include "gen/transpose.h"

enum { WARP = 32 };

/* The most distinct addresses a bank gets among 32 lanes, bank by bank. */
static int wavefronts(const long *a)
{
    int most = 0;
    for (int bank = 0; bank < WARP; ++bank) {
        int n = 0;
        for (int l = 0; l < WARP; ++l) {
            int first = a[l] % WARP == bank;
            for (int m = 0; m < l && first; ++m)
                first = a[m] != a[l];
            n += first;
        }
        most = n > most ? n : most;
    }
    return most;
}

static long at(const at_tp_tile *t, at_tp_banks b, long g, long c)
{
    const long row = t->tx + b.cskew * (t->tx / 32) + b.extra;
    return g * row + c + b.cskew * (c / 32);
}

/* Every warp, every step, as templates/transpose.cu's at_put_idx and
 * at_store_idx walk the tile (thread tid = ty * block_x + tx). */
static long full_count(const at_tp_tile *t, at_tp_banks b)
{
    const int ch = t->vec * t->pack, g = t->ty / t->pack;
    const int threads = t->bx * t->by;
    long total = 0, a[WARP];
    for (int w = 0; w < threads / WARP; ++w) {
        for (int i = 0; i < g / t->by; ++i)
            for (int j = 0; j < t->tx / (t->bx * ch); ++j)
                for (int k = 0; k < ch; ++k) {
                    for (int l = 0; l < WARP; ++l) {
                        const int tid = w * WARP + l;
                        const int tx = tid % t->bx, ty = tid / t->bx;
                        a[l] = at(t, b, ty + i * t->by,
                                  (long)(tx + j * t->bx) * ch + k);
                    }
                    total += wavefronts(a);
                }
        for (int i = 0; i < t->tx / t->by; ++i)
            for (int j = 0; j < g / (t->bx * t->vec); ++j)
                for (int k = 0; k < t->vec; ++k) {
                    for (int l = 0; l < WARP; ++l) {
                        const int tid = w * WARP + l;
                        const int tx = tid % t->bx, ty = tid / t->bx;
                        a[l] = at(t, b, (long)(tx + j * t->bx) * t->vec + k,
                                  ty + i * t->by);
                    }
                    total += wavefronts(a);
                }
    }
    return total;
}

/* One wavefront an access: each warp's put and column-read instructions. */
static long conflict_free(const at_tp_tile *t)
{
    const int ch = t->vec * t->pack, g = t->ty / t->pack;
    const long warps = t->bx * t->by / WARP;
    return warps * ((long)(g / t->by) * (t->tx / (t->bx * ch)) * ch +
                    (long)(t->tx / t->by) * (g / (t->bx * t->vec)) * t->vec);
}

/* The packed geometries the space allows (gen/transpose.c's valid(), the
 * power-of-two sides): element bytes e. Returns how many were put in
 * out (at most max). */
static int geometries(at_tp_tile *out, int max)
{
    static const int sides[] = {32, 64, 128, 256, 512, 1024};
    static const int bxs[] = {8, 16, 32, 64}, bys[] = {1, 2, 4, 8, 16, 32};
    int n = 0;
    for (int e = 1; e <= 2; ++e)
        for (int x = 0; x < 6; ++x)
            for (int y = 0; y < 6; ++y)
                for (int i = 0; i < 4; ++i)
                    for (int j = 0; j < 6; ++j)
                        for (int vec = 1; vec <= 4; vec *= 2) {
                            const at_tp_tile t = {sides[x], sides[y], bxs[i],
                                                  bys[j], vec, 4 / e};
                            const int th = t.bx * t.by, ch = vec * t.pack;
                            const int g = t.ty / t.pack;
                            if (t.tx * e < 64 || t.ty * e < 64 ||
                                t.tx * e > 1024 || t.ty * e > 1024 ||
                                th % 32 || th < 128 || th > 1024 ||
                                t.tx % (t.bx * ch) || g % t.by ||
                                t.tx % t.by || g % (t.bx * vec) ||
                                (long)t.tx * t.ty * e / th > 128)
                                continue;
                            if (n < max)
                                out[n] = t;
                            n++;
                        }
    return n;
}

/* The 1-byte winner of i8 19194x22735 (tile 128x256, blocks 16x32, vec
 * 2): one unit of padding puts 16 lanes on 4 banks; the chosen layout
 * is conflict-free in both passes. */
static void winner_conflict_free(void **state)
{
    (void)state;
    const at_tp_tile t = {128, 256, 16, 32, 2, 4};
    const at_tp_banks plain = {0, 1};
    const at_tp_banks b = at_tp_bank_layout(&t);
    assert_int_equal(b.cskew, 2);
    assert_int_equal(b.extra, 1);
    assert_int_equal(at_tp_bank_wavefronts(&t, b), conflict_free(&t));
    assert_int_equal(full_count(&t, b), conflict_free(&t));
    /* The put's 4-way stores: 1024 wavefronts a tile where 256 do. */
    assert_int_equal(full_count(&t, plain), conflict_free(&t) + 768);
}

/* On every packed geometry: the model's count is the full count, for
 * the plain layout and the chosen one; the chosen one is never worse,
 * and the plain one stays where nothing does better. */
static void model_matches_full_count(void **state)
{
    (void)state;
    at_tp_tile all[512];
    const int n = geometries(all, 512);
    assert_in_range(n, 200, 512);
    int better = 0;
    for (int i = 0; i < n; ++i) {
        const at_tp_tile *t = &all[i];
        const at_tp_banks plain = {0, 1};
        const at_tp_banks b = at_tp_bank_layout(t);
        const long wp = at_tp_bank_wavefronts(t, plain);
        const long wb = at_tp_bank_wavefronts(t, b);
        assert_int_equal(wp, full_count(t, plain));
        assert_int_equal(wb, full_count(t, b));
        assert_true(wb <= wp);
        assert_true(wb >= conflict_free(t));
        if (wb == wp) {
            assert_int_equal(b.cskew, 0);
            assert_int_equal(b.extra, 1);
        }
        better += wb < wp;
    }
    assert_true(better > 0);
}

static void point(at_problem *p, at_point *pt, const char *type,
                  const char *params)
{
    at_err e = {0};
    test_problem u = {"transpose", type, 19194, 22735, 0, 0, 0, 0, 0, NULL};
    assert_int_equal(test_problem_make(p, &u, &e), 0);
    assert_int_equal(at_point_parse(p->family, params, pt, &e), 0);
}

/* Through the family: smem 3 of the winner's geometry names its layout
 * (with AT_SMEM 1, the template's padded tile) and its launch makes room
 * for it (288 rows of 137 units); smem 1 of the same geometry is the
 * template's default (a unit a row), as is an unpacked point's; smem 3
 * is no point where it would be smem 1 (unpacked, or a geometry one unit
 * a row serves best). */
static void family_defines_and_shared_memory(void **state)
{
    (void)state;
    at_problem p;
    at_point pt;
    char defs[4096];
    at_launch g;
    const char *winner = "tile_x=128 tile_y=256 block_x=16 block_y=32 vec=2 "
                         "pack=1 tiles=1 ldg=1 restrict=1 kind=0 steps=1 "
                         "flat=0 smem=";
    char params[256];
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    snprintf(params, sizeof params, "%s3", winner);
    point(&p, &pt, "i8", params);
    assert_true(p.family->ops.valid(&p, &pt, &l, NULL, 0));
    p.family->ops.defines(&p, &pt, 0, defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_SMEM 1\n"));
    assert_non_null(strstr(defs, "#define AT_CSKEW 2\n#define AT_ROW_EXTRA 1\n"));
    p.family->ops.launch(&p, &pt, &g);
    assert_int_equal(g.smem, (256 + 32) * 137);
    char name[128];
    p.family->ops.point_name(p.family, &pt, name, sizeof name);
    assert_string_equal(name, "tile128x256_blk16x32_ept64_vec2_pk_padb_tpb1_"
                              "ldg1_rst1");

    snprintf(params, sizeof params, "%s1", winner);
    point(&p, &pt, "i8", params);
    p.family->ops.defines(&p, &pt, 0, defs, sizeof defs);
    assert_null(strstr(defs, "AT_CSKEW"));
    p.family->ops.launch(&p, &pt, &g);
    assert_int_equal(g.smem, (256 + 32) * 129);

    point(&p, &pt, "f32",
          "tile_x=64 tile_y=64 block_x=16 block_y=16 vec=2 pack=0 smem=1 "
          "tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0");
    p.family->ops.defines(&p, &pt, 0, defs, sizeof defs);
    assert_null(strstr(defs, "AT_CSKEW"));
    p.family->ops.launch(&p, &pt, &g);
    assert_int_equal(g.smem, (64 + 7) * 65 * 4);
    pt.v[SMEM] = 3;
    assert_false(p.family->ops.valid(&p, &pt, &l, NULL, 0));

    /* f16 128x128, blocks 16x16, vec 1: one unit a row is already its
     * best (valid as smem 1). */
    point(&p, &pt, "f16",
          "tile_x=128 tile_y=128 block_x=16 block_y=16 vec=1 pack=1 smem=1 "
          "tiles=1 ldg=1 restrict=1 kind=0 steps=1 flat=0");
    assert_true(p.family->ops.valid(&p, &pt, &l, NULL, 0));
    pt.v[SMEM] = 3;
    char why[256] = "";
    assert_false(p.family->ops.valid(&p, &pt, &l, why, sizeof why));
    assert_non_null(strstr(why, "smem 3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(winner_conflict_free),
        cmocka_unit_test(model_matches_full_count),
        cmocka_unit_test(family_defines_and_shared_memory),
    };
    return AT_RUN_TESTS(tests);
}
