/* The reduce family without a GPU: its problem (defaults, the whole
 * array as one row, errors for fields that do not go together), its
 * space's constraints, the reference against sums worked by hand (NaN,
 * i32 wrapping, amax of INT_MIN) with its error units, the tolerance
 * growing with the point's depth, and the command line's errors for the
 * new flags. */
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/pcg.h"
#include "gen/reduce.h"

static int make(at_problem *p, const char *type, const char *text,
                at_err *e)
{
    return at_problem_make(p, "reduce", type, text, e);
}

static void problems(void **state)
{
    (void)state;
    at_problem p;
    at_err e = {0};
    assert_int_equal(make(&p, "f32", "", &e), 0);
    char key[256];
    at_problem_key_text(&p, key, sizeof key);
    assert_string_equal(key, "op=sum axis=all n=268435456 rows=1 "
                             "cols=268435456 ld=268435456 deterministic=no");
    assert_int_equal(p.out_bytes, 4);
    /* The key text parses back to the same problem. */
    at_problem q;
    assert_int_equal(make(&q, "f32", key, &e), 0);
    assert_true(at_problem_equal(&p, &q));
    assert_int_equal(make(&p, "bf16", "op=max axis=rows rows=7 cols=5 ld=8",
                          &e), 0);
    assert_int_equal(p.in_bytes, (6 * 8 + 5) * 2);
    assert_int_equal(p.out_bytes, 5 * 4); /* f32 out, one per column */
    assert_int_equal(make(&p, "i32", "axis=cols rows=3 cols=4", &e), 0);
    assert_int_equal(p.out_bytes, 3 * 8); /* 64-bit out */
    /* Beyond 2^31 elements: 64-bit counts. */
    assert_int_equal(make(&p, "f16", "n=4294967311", &e), 0);
    assert_int_equal(p.in_bytes, 4294967311ULL * 2);
    /* Fields that do not go together, and types it does not take. */
    assert_int_equal(make(&p, "f32", "axis=cols n=5", &e), AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "--n is for axis all"));
    assert_int_equal(make(&p, "f32", "rows=3 cols=5", &e), AUTOTUNE_EINVALID);
    assert_int_equal(make(&p, "f32", "axis=rows rows=3 cols=5 ld=4", &e),
                     AUTOTUNE_ERANGE);
    assert_int_equal(make(&p, "c64", "", &e), AUTOTUNE_ENOT_FOUND);
    assert_non_null(strstr(e.msg, "f16 bf16 f32 f64 i32"));
    assert_int_equal(make(&p, "f32", "op=mean", &e), AUTOTUNE_ERANGE);
}

/* The constraints: no atomics in deterministic floating sums, but for
 * min and max (order-preserving words: the same bits in any order), also
 * deterministic, and no second pass for those (atomics serve); strips
 * down columns need ld a multiple of the vector, but for 16-byte vectors
 * (shifted strips; flat points take any ld). */
static void constraints(void **state)
{
    (void)state;
    at_problem p;
    at_limits l;
    at_err e = {0};
    assert_true(at_limits_for_arch(90, &l));
    const char *texts[] = {"axis=all n=16777216", "deterministic=yes",
                           "op=min", "axis=rows rows=4096 cols=1023 ld=1025",
                           "op=max deterministic=yes"};
    for (int t = 0; t < 5; ++t) {
        assert_int_equal(make(&p, "f32", texts[t], &e), 0);
        at_point *pts;
        size_t n, atomic = 0, two = 0, wide = 0;
        assert_int_equal(at_space_points(p.family, &p, &l, &pts, &n, &e), 0);
        assert_true(n > 0);
        for (size_t i = 0; i < n; ++i) {
            atomic += pts[i].v[COMBINE] == COMBINE_ATOMIC;
            two += pts[i].v[COMBINE] == COMBINE_TWO_PASS;
            wide += !at_rd_flat(&pts[i]) && pts[i].v[VEC] > 1 &&
                    pts[i].v[VEC] < 4;
            at_point d;
            p.family->ops.default_point(&p, 90, &d);
            assert_true(p.family->ops.valid(&p, &d, &l, NULL, 0));
        }
        assert_true(t == 1 ? atomic == 0 : atomic > 0);
        assert_true(t == 2 || t == 4 ? two == 0 : two > 0);
        if (t == 3)
            /* ld 1025: no vector divides it; 4 (16 bytes) comes shifted */
            assert_int_equal(wide, 0);
        free(pts);
    }
    /* Down columns' default is the designed one (32-lane strips of
     * 16-byte loads, four in flight, one accumulator), not the first
     * valid point the repair falls back to. */
    at_point d;
    assert_int_equal(make(&p, "bf16", "axis=rows rows=16384 cols=16384", &e),
                     0);
    p.family->ops.default_point(&p, 90, &d);
    assert_true(d.v[GROUP] == 32 && d.v[VEC] == 8 && d.v[ITEMS] == 4 &&
                d.v[ACCS] == 1);
    /* Along rows a step may pass the row up to twice its length (one
     * predicated step takes the rest): rows of 127 bf16 take 4 lanes of
     * 4 items of 8 (128), not 4 lanes of 8 items (256); down columns a
     * step stays within the rows. */
    static const struct {
        const char *text, *point;
        int ok;
    } steps[] = {
        {"axis=cols rows=311518 cols=127", "threads=512 group=4 vec=8 "
         "items=4 accs=1 chunk=0 combine=0 tree=0 waves=0", 1},
        {"axis=cols rows=311518 cols=127", "threads=512 group=4 vec=8 "
         "items=8 accs=1 chunk=0 combine=0 tree=0 waves=0", 0},
        {"axis=rows rows=100 cols=4096", "threads=512 group=32 vec=8 "
         "items=8 accs=1 chunk=0 combine=0 tree=0 waves=0", 0},
        {"axis=rows rows=100 cols=4096", "threads=512 group=32 vec=8 "
         "items=2 accs=1 chunk=0 combine=0 tree=0 waves=0", 1},
    };
    for (size_t i = 0; i < sizeof steps / sizeof *steps; ++i) {
        at_point pt;
        assert_int_equal(make(&p, "bf16", steps[i].text, &e), 0);
        assert_int_equal(at_point_parse(p.family, steps[i].point, &pt, &e),
                         0);
        if (p.family->ops.valid(&p, &pt, &l, NULL, 0) != steps[i].ok)
            fail_msg("%s on %s: valid %d, expected %d", steps[i].point,
                     steps[i].text, !steps[i].ok, steps[i].ok);
    }
}

/* The sm_90 space of a problem (made into p): n points, to free. */
static at_point *space_of(const char *type, const char *text, at_problem *p,
                          size_t *n)
{
    at_limits l;
    at_err e = {0};
    at_point *pts;
    assert_true(at_limits_for_arch(90, &l));
    assert_int_equal(make(p, type, text, &e), 0);
    assert_int_equal(at_space_points(p->family, p, &l, &pts, n, &e), 0);
    return pts;
}

/* Flat points (group 0) down columns: vectors of 8 and 16 bytes where ld
 * is at most the block and the rows' padding at most an eighth of them
 * (whatever ld is, where strips need ld a multiple of the vector), or ld
 * up to AT_RD_FLAT_K blocks, that many vectors a thread (atomic totals,
 * shared memory within 46 KiB);
 * one-element vectors, a group of cols threads a row that skips the
 * padding, where cols is at most the block (narrower than 8 bytes only
 * where the padding refuses wider flat points). (Along rows:
 * flat_rows_points.) */
static void flat_points(void **state)
{
    (void)state;
    static const struct {
        const char *type, *text;
        int flat; /* flat points expected */
    } cases[] = {
        {"f16", "axis=rows rows=100003 cols=47", 1},
        {"f64", "axis=rows rows=40000 cols=340", 1},
        {"bf16", "axis=rows rows=5000 cols=161 ld=162", 1},
        {"f32", "axis=rows rows=5000 cols=600", 1},  /* 2 vectors a thread */
        {"f32", "axis=rows rows=5000 cols=100 ld=120", 1}, /* padded 20% */
        {"f64", "op=min axis=rows rows=719073 cols=39 ld=75", 1},
        {"f32", "axis=rows rows=5000 cols=600 ld=700", 0}, /* padded, > 512 */
        {"f32", "axis=rows rows=5000 cols=2100", 0},       /* ld > 4 x 512 */
        {"i32", "op=amax axis=rows rows=36716 cols=1430", 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        at_problem p;
        size_t n, flat = 0, strip_wide = 0;
        at_point *pts = space_of(cases[c].type, cases[c].text, &p, &n);
        for (size_t i = 0; i < n; ++i) {
            if (!at_rd_flat(&pts[i])) {
                strip_wide += pts[i].v[VEC] > 1;
                continue;
            }
            ++flat;
            const int padded = 8 * (p.v[RD_LD] - p.v[RD_COLS]) >
                               p.v[RD_COLS];
            if (pts[i].v[VEC] == 1) {
                assert_true(p.v[RD_COLS] <= pts[i].v[THREADS]);
                assert_true(p.type->bytes >= 8 || padded);
            } else {
                const int64_t t = pts[i].v[THREADS];
                const int k = at_rd_flat_k(&p, &pts[i]);
                assert_true(pts[i].v[VEC] * p.type->bytes >= 8);
                assert_true(p.v[RD_LD] <= AT_RD_FLAT_K * t && !padded);
                assert_int_equal(k, (p.v[RD_LD] + t - 1) / t);
                assert_true(k == 1 || pts[i].v[COMBINE] == COMBINE_ATOMIC);
                /* (the template's shared slots: 4-byte accumulators) */
                assert_true(t * pts[i].v[VEC] * k * 4 <= 46 * 1024);
            }
            at_rd_geom g;
            at_rd_geom_of(&p, &pts[i], &g);
            /* A chunk is vec rows: a segment is whole chunks. */
            assert_int_equal(g.units, 1);
            assert_true(g.split == 1 || g.seg % pts[i].v[VEC] == 0);
            assert_true(g.split * g.seg >= p.v[RD_ROWS]);
            char name[96];
            p.family->ops.point_name(p.family, &pts[i], name, sizeof name);
            assert_non_null(strstr(name, "_flat_"));
            assert_true(p.family->ops.tolerance(&p, &pts[i]) > 1);
        }
        if (cases[c].flat)
            assert_true(flat > 0);
        else
            assert_int_equal(flat, 0);
        if (c == 0) /* ld 47 is odd: wider strips are shifted ones */
            assert_true(strip_wide > 0);
        free(pts);
    }
}

/* Flat points along rows: short rows end to end and off the vector
 * alone (ld == cols at most 2048, not a multiple of the 16-byte vector,
 * no shorter than a lane's items), 16-byte loads, one accumulator, no
 * split: every row in one warp, no workspace. A chunk (8 x chunk rows a
 * warp, a thousand warps of rows or more) or a split in waves (the rows
 * shared evenly among waves x 16 warps an SM, four rows a warp or more
 * on the nominal device). */
static void flat_rows_points(void **state)
{
    (void)state;
    static const struct {
        const char *type, *text;
        int flat; /* flat points expected */
    } cases[] = {
        {"bf16", "axis=cols rows=311518 cols=127", 1},
        {"f32", "op=amax axis=cols rows=289327 cols=87", 1},
        {"f16", "axis=cols rows=100003 cols=1001", 1},
        {"f64", "axis=cols rows=200003 cols=61", 1},
        {"bf16", "axis=cols rows=311518 cols=127 ld=129", 0}, /* padded */
        {"bf16", "axis=cols rows=311518 cols=128", 0},      /* on the vector */
        {"f16", "axis=cols rows=9000 cols=47", 1},          /* waves */
        {"bf16", "axis=cols rows=2000 cols=127", 0},        /* 63 warps */
        {"f32", "axis=cols rows=100003 cols=3001", 0},      /* ld > 2048 */
        {"bf16", "axis=cols rows=148235 cols=328 ld=381", 0}, /* padded */
        {"bf16", "axis=cols rows=311518 cols=7", 0},   /* under a vector */
        {"f32", "axis=all n=268435399", 0},                 /* one row */
        {"f32", "axis=rows rows=311518 cols=127", 0},       /* down */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        at_problem p;
        size_t n, flat = 0;
        at_point *pts = space_of(cases[c].type, cases[c].text, &p, &n);
        for (size_t i = 0; i < n; ++i) {
            if (!at_rd_flat(&pts[i]) || at_rd_down(&p))
                continue;
            ++flat;
            const int *x = pts[i].v;
            assert_int_equal(x[VEC] * p.type->bytes, 16);
            assert_true(x[ITEMS] * x[VEC] <= p.v[RD_COLS]);
            assert_true(!x[CHUNK] != !x[WAVES]);
            assert_int_equal(x[ACCS], 1);
            assert_int_equal(x[COMBINE], COMBINE_LAST);
            at_rd_geom g;
            at_rd_geom_of(&p, &pts[i], &g);
            assert_int_equal(g.split, 1);
            const int64_t w = x[THREADS] / 32, rows = p.v[RD_ROWS];
            if (x[CHUNK]) {
                assert_int_equal(g.seg, 8 * x[CHUNK]);
                assert_true((rows + g.seg - 1) / g.seg >= 1024);
            } else { /* waves x 16 warps an SM, or a few less */
                const int64_t warps = x[WAVES] * 132 * 16;
                assert_true(g.seg >= 4);
                assert_true(g.units * w < warps + w);
                assert_true(warps * g.seg >= rows);
                assert_true(warps * (g.seg - 1) < rows);
            }
            /* Every row in one warp's rows, no block without one. */
            const int64_t rpb = w * g.seg;
            assert_true(g.units * rpb >= rows);
            assert_true((g.units - 1) * rpb < rows);
            assert_int_equal(p.family->ops.workspace(&p, &pts[i]), 0);
            char name[96];
            p.family->ops.point_name(p.family, &pts[i], name, sizeof name);
            assert_non_null(strstr(name, "_flat_"));
            /* The scan's depth: a lane's run, 32 lanes, the carries. */
            const double tol = p.family->ops.tolerance(&p, &pts[i]);
            assert_true(tol >= x[ITEMS] * x[VEC] + 32 +
                                   p.v[RD_COLS] / (32 * x[VEC]));
            assert_true(tol < p.v[RD_COLS] + 64);
            char defs[1024];
            p.family->ops.defines(&p, &pts[i], 0, defs, sizeof defs);
            assert_non_null(strstr(defs, "#define AT_FLAT 1\n"));
            assert_non_null(strstr(defs, "#define AT_COLS 0\n"));
        }
        if (cases[c].flat)
            assert_true(flat > 0);
        else
            assert_int_equal(flat, 0);
        free(pts);
    }
}

/* A column strip split in waves on a device of eff SMs: segments of
 * whole steps that cover the rows with none empty, as many a strip as
 * the strips fit in waves x eff x 512 / threads blocks (one where they
 * do not fit), and a workspace no larger than on the most SMs (what the
 * emitted query asks for). */
static void strip_in_waves(const at_problem *on, const at_point *pt,
                           const at_rd_geom *g, int64_t eff)
{
    const int *x = pt->v;
    const int64_t rows = on->v[RD_ROWS];
    const int64_t step = x[THREADS] / x[GROUP] * x[ITEMS];
    const int64_t blocks = x[WAVES] * eff * (512 / x[THREADS]);
    const int64_t w = x[GROUP] * x[VEC];
    assert_int_equal(g->units, (on->v[RD_COLS] + w - 1) / w);
    assert_int_equal(g->seg % step, 0);
    assert_true(g->split * g->seg >= rows);
    assert_true((g->split - 1) * g->seg < rows);
    assert_true(g->units * g->split <= blocks || g->split == 1);
    /* No smaller multiple of the step would have fit the same split. */
    const int64_t split = blocks / g->units < 1 ? 1 : blocks / g->units;
    assert_true(g->seg - step < (rows + split - 1) / split);
    at_problem most = *on;
    most.sms = AT_RD_MAX_SMS;
    assert_true(on->family->ops.workspace(on, pt) <=
                on->family->ops.workspace(&most, pt));
}

/* A split in waves: flat points with no chunk, on problems long enough
 * for four steps a block on the nominal device; the same points whatever
 * the device, and on each device about waves x SMs blocks of whole rounds
 * (SMs past AT_RD_MAX_SMS count as that many), so the emitted workspace
 * bound (cols x waves x AT_RD_MAX_SMS partials) holds everywhere. Column
 * strips split in waves too, 2 to 4 (strip_in_waves). */
static void waves_points(void **state)
{
    (void)state;
    at_problem p;
    size_t n, waves = 0, strips = 0;
    at_point *pts = space_of("f32", "op=max axis=rows rows=449061 cols=81",
                             &p, &n);
    static const int sms[] = {0, 1, 108, 132, 300};
    for (size_t s = 0; s < sizeof sms / sizeof *sms; ++s) {
        at_problem on = p;
        on.sms = sms[s];
        at_limits l;
        at_point *again;
        size_t m;
        at_err e = {0};
        assert_true(at_limits_for_arch(90, &l));
        assert_int_equal(at_space_points(on.family, &on, &l, &again, &m, &e),
                         0);
        assert_int_equal(m, n);
        assert_memory_equal(again, pts, n * sizeof *pts);
        free(again);
        const int64_t eff = sms[s] == 0 ? AT_RD_NOMINAL_SMS
                            : sms[s] > AT_RD_MAX_SMS ? AT_RD_MAX_SMS
                                                     : sms[s];
        for (size_t i = 0; i < n; ++i) {
            const int k = pts[i].v[WAVES];
            if (!k)
                continue;
            assert_int_equal(pts[i].v[CHUNK], 0);
            char name[96];
            p.family->ops.point_name(p.family, &pts[i], name, sizeof name);
            char part[16];
            snprintf(part, sizeof part, "_waves%d_", k);
            assert_non_null(strstr(name, part));
            at_rd_geom g;
            at_rd_geom_of(&on, &pts[i], &g);
            if (!at_rd_flat(&pts[i])) {
                strips += s == 0;
                strip_in_waves(&on, &pts[i], &g, eff);
                continue;
            }
            waves += s == 0;
            const int64_t lanes = at_rd_flat_lanes(&on, &pts[i]);
            assert_int_equal(g.seg % lanes, 0);
            assert_true(g.split * g.seg >= on.v[RD_ROWS]);
            assert_true((g.split - 1) * g.seg < on.v[RD_ROWS]);
            assert_true(g.split <= k * eff);
            assert_true(2 * g.split >= k * eff);
            const size_t acc = (size_t)at_rd_acc_bytes(p.type);
            assert_true(p.family->ops.workspace(&on, &pts[i]) <=
                        (size_t)on.v[RD_COLS] * (size_t)k *
                                AT_RD_MAX_SMS * acc + 4);
        }
    }
    assert_true(waves > 0);
    assert_true(strips > 0);
    free(pts);
    /* A few dozen strips of many rows (bf16 columns of 5749x13821): the
     * strips split in waves where a block a strip leaves the SMs idle. */
    pts = space_of("bf16", "axis=rows rows=5749 cols=13821", &p, &n);
    strips = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!pts[i].v[WAVES])
            continue;
        ++strips;
        assert_false(at_rd_flat(&pts[i]));
        assert_true(pts[i].v[WAVES] >= 2); /* one wave is refused */
        at_rd_geom g;
        at_rd_geom_of(&p, &pts[i], &g);
        strip_in_waves(&p, &pts[i], &g, AT_RD_NOMINAL_SMS);
        assert_true(g.split >= 2);
        assert_true(g.seg >= 4 * pts[i].v[ITEMS] * pts[i].v[THREADS] /
                                  pts[i].v[GROUP]);
    }
    assert_true(strips > 0);
    free(pts);
    /* Too few rows for waves: chunks alone. */
    pts = space_of("f16", "op=max axis=rows rows=3000 cols=47", &p, &n);
    size_t flat = 0;
    for (size_t i = 0; i < n; ++i) {
        assert_int_equal(pts[i].v[WAVES], 0);
        flat += at_rd_flat(&pts[i]);
    }
    assert_true(flat > 0);
    free(pts);
}

/* Shifted strips: down columns, 16-byte vectors of 2- and 4-byte
 * elements on an ld they do not divide (every other vector still needs
 * ld a multiple of it); their defines say so, and the check problems' ld
 * keeps the problem's ld mod 8 (so the vectors that divide one divide
 * the other, and a shifted strip is checked on rows off its vector). */
static void shift_points(void **state)
{
    (void)state;
    at_err e = {0};
    static const struct {
        const char *type, *text;
        int shift_vec; /* the shifted strips' vector, 0: none */
    } cases[] = {
        {"f16", "axis=rows rows=155 cols=705911", 8},
        {"bf16", "axis=rows rows=5000 cols=161 ld=162", 8},
        {"f32", "axis=rows rows=4000 cols=1001", 4},
        {"f64", "axis=rows rows=132920 cols=61 ld=89", 0}, /* 8 bytes */
        {"i32", "axis=rows rows=3000 cols=3001", 4},
        {"f32", "axis=rows rows=4000 cols=1000", 0}, /* ld on the vector */
        {"f16", "axis=cols rows=155 cols=705911", 0}, /* along rows */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        at_problem p;
        size_t n, shifted = 0;
        at_point *pts = space_of(cases[c].type, cases[c].text, &p, &n);
        for (size_t i = 0; i < n; ++i) {
            char defs[512];
            p.family->ops.defines(&p, &pts[i], 0, defs, sizeof defs);
            const int on = at_rd_shift(&p, &pts[i]);
            assert_non_null(strstr(defs, on ? "#define AT_SHIFT 1"
                                            : "#define AT_SHIFT 0"));
            if (!at_rd_down(&p) || at_rd_flat(&pts[i]) ||
                p.v[RD_LD] % pts[i].v[VEC] == 0) {
                assert_false(on);
                continue;
            }
            /* Off the vector: shifted, 16 bytes, or not in the space. */
            assert_true(on);
            assert_int_equal(pts[i].v[VEC], cases[c].shift_vec);
            ++shifted;
        }
        if (cases[c].shift_vec)
            assert_true(shifted > 0);
        else
            assert_int_equal(shifted, 0);
        for (int k = 0; k < AT_RD_CHECKS && at_rd_down(&p); ++k) {
            at_problem check;
            const char *label;
            assert_int_equal(p.family->ops.check_problem(&p, k, &check,
                                                         &label, &e), 0);
            assert_int_equal(check.v[RD_LD] % 8, p.v[RD_LD] % 8);
            assert_true(check.v[RD_LD] >= check.v[RD_COLS]);
        }
        free(pts);
    }
}

/* An input off the point's vectors (a view into a larger matrix): the
 * kernel does not take it (ops.takes), and the point with every path
 * takes any input (AT_ANY_BASE; a 16-byte strip of 2- or 4-byte elements
 * shifted whatever ld is). */
static void any_base(void **state)
{
    (void)state;
    at_problem p;
    at_point pt;
    at_err e = {0};
    assert_int_equal(make(&p, "bf16", "axis=rows rows=4096 cols=4096", &e),
                     0);
    assert_int_equal(at_point_parse(p.family,
                                    "threads=256 group=32 vec=8 items=4 "
                                    "accs=1 chunk=4 combine=0 tree=0 "
                                    "waves=0",
                                    &pt, &e),
                     0);
    const uint64_t on[2] = {0x7f0000001000ull, 0x7f0000002002ull};
    const uint64_t off[2] = {0x7f0000001002ull, 0x7f0000002000ull};
    assert_true(p.family->ops.takes(&p, &pt, on));
    assert_false(p.family->ops.takes(&p, &pt, off));
    char defs[512], text[128];
    p.family->ops.defines(&p, &pt, 0, defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_SHIFT 0"));
    assert_null(strstr(defs, "AT_ANY_BASE"));
    p.family->ops.defines(&p, &pt, AT_PATHS_ALL, defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_SHIFT 1"));
    assert_non_null(strstr(defs, "#define AT_ANY_BASE 1"));
    p.family->ops.paths_text(AT_PATHS_ALL, text, sizeof text);
    assert_non_null(strstr(text, "AT_ANY_BASE"));
    /* One-element vectors take any input; f64 strips do not shift. */
    pt.v[VEC] = 1;
    assert_true(p.family->ops.takes(&p, &pt, off));
    assert_int_equal(make(&p, "f64", "axis=rows rows=4096 cols=4096", &e),
                     0);
    pt.v[VEC] = 2;
    assert_false(p.family->ops.takes(&p, &pt, off));
    p.family->ops.defines(&p, &pt, AT_PATHS_ALL, defs, sizeof defs);
    assert_non_null(strstr(defs, "#define AT_SHIFT 0"));
    assert_non_null(strstr(defs, "#define AT_ANY_BASE 1"));
}

static void reference(void **state)
{
    (void)state;
    at_problem p;
    at_err e = {0};
    /* 2 x 3 f32, ld 4: rows {1, -2, 3 | pad}, {NaN, 5, 6 | pad}. */
    float in[8] = {1, -2, 3, 99, NAN, 5, 6, 99};
    float out[3], unit[3];
    assert_int_equal(make(&p, "f32", "axis=cols rows=2 cols=3 ld=4", &e), 0);
    p.family->ops.reference(&p, in, out, unit, 0, 2);
    assert_true(out[0] == 2.0f && isnan(out[1]));
    assert_true(fabsf(unit[0] - 6 * 0x1p-24f) < 1e-12f);
    assert_int_equal(make(&p, "f32", "op=sumsq axis=rows rows=2 cols=3 ld=4",
                          &e), 0);
    p.family->ops.reference(&p, in, out, unit, 0, 3);
    assert_true(isnan(out[0]) && out[1] == 29.0f && out[2] == 45.0f);
    assert_int_equal(make(&p, "f32", "op=amax axis=cols rows=2 cols=3 ld=4",
                          &e), 0);
    p.family->ops.reference(&p, in, out, unit, 0, 1);
    assert_true(out[0] == 3.0f && unit[0] == 0.0f); /* exact */
    /* i32: sums wrap modulo 2^64, amax of INT_MIN is 2^31. */
    int32_t iv[4] = {INT32_MIN, INT32_MIN, -1, 7};
    int64_t io[1];
    assert_int_equal(make(&p, "i32", "op=amax n=4", &e), 0);
    p.family->ops.reference(&p, iv, io, NULL, 0, 1);
    assert_int_equal(io[0], 2147483648LL);
    assert_int_equal(make(&p, "i32", "op=sum n=4", &e), 0);
    p.family->ops.reference(&p, iv, io, NULL, 0, 1);
    assert_int_equal(io[0], -4294967296LL + 6);
    assert_string_equal(p.family->ops.verify_kernel(&p), "at_compare_bits");
}

/* i32's NaN check (the third check problem; the measurement gives check
 * problem k stream k + 1) plants INT_MIN and INT_MAX among random bits,
 * so every variant meets amax of INT_MIN (2^31: 32-bit unsigned in the
 * kernel) and the extremes of min and max before its time counts, while
 * other outputs keep random bits only (a dropped element still shows);
 * the problem's own input (stream 0) stays every pattern. */
static void i32_check_plants_extremes(void **state)
{
    (void)state;
    at_problem p, check;
    at_err e = {0};
    const char *label;
    assert_int_equal(make(&p, "i32", "op=amax axis=cols rows=4096 "
                          "cols=4096", &e), 0);
    assert_int_equal(p.family->ops.check_problem(&p, 2, &check, &label, &e),
                     0);
    assert_non_null(strstr(label, "NaNs"));
    const size_t words = (size_t)check.v[RD_ROWS] * (size_t)check.v[RD_LD];
    uint32_t *w = malloc(words * 4), *plain = malloc(words * 4);
    assert_true(w && plain);
    at_pcg g;
    at_pcg_seed(&g, 5, 1);
    for (size_t i = 0; i < words; ++i)
        plain[i] = w[i] = at_pcg_next(&g);
    p.family->ops.input(&check, 5, 3, w, 0, words);
    p.family->ops.input(&check, 5, 0, plain, 0, words);
    size_t mins = 0, maxs = 0, changed = 0;
    for (size_t i = 0; i < words; ++i) {
        mins += w[i] == 0x80000000u;
        maxs += w[i] == 0x7FFFFFFFu;
        changed += w[i] != plain[i];
    }
    /* Once in 509 words each; stream 0 left the random bits alone. */
    assert_true(mins >= words / 509 && mins <= words / 509 + 1);
    assert_true(maxs >= words / 509 && maxs <= words / 509 + 1);
    assert_int_equal(changed, mins + maxs);
    int64_t *out = malloc((size_t)check.v[RD_ROWS] * 8);
    assert_non_null(out);
    p.family->ops.reference(&check, w, out, NULL, 0, check.v[RD_ROWS]);
    /* Some rows' amax is 2^31, and a good share of the others' is not. */
    int64_t top = 0;
    for (int64_t r = 0; r < check.v[RD_ROWS]; ++r)
        top += out[r] == 2147483648LL;
    assert_true(top > 0 && top < check.v[RD_ROWS] * 3 / 4);
    free(out);
    free(w);
    free(plain);
}

/* A longer walk per thread rounds more: the tolerance grows with it; a
 * contender gets the any-order bound. */
static void tolerance(void **state)
{
    (void)state;
    at_problem p;
    at_err e = {0};
    assert_int_equal(make(&p, "f32", "n=16777216", &e), 0);
    at_point a = {{0}}, b;
    assert_int_equal(at_point_parse(p.family, "threads=256 group=256 vec=4 "
                                    "items=4 accs=1 chunk=4 combine=0 tree=0 "
                                    "waves=0",
                                    &a, &e), 0);
    b = a;
    b.v[CHUNK] = 64;
    double ta = p.family->ops.tolerance(&p, &a), tb = p.family->ops.tolerance(&p, &b);
    assert_true(ta > 16 && tb > ta && tb < 16777216.0 / 64);
    assert_true(p.family->ops.tolerance(&p, NULL) > 16777216.0);
    assert_string_equal(p.family->ops.verify_kernel(&p), "at_compare_f32");
}

/* The share of the 64-byte blocks padded rows touch that is elements,
 * worked by hand: f32 rows of 40 at ld 56 (160 bytes every 224) touch 3
 * blocks each, none shared: 160 / 192; i32 rows of 20 at ld 24 (80
 * bytes every 96), two of them: blocks 0-1 and 1-2, 160 bytes in 3
 * blocks; f32 rows of 64 at ld 80 start on blocks and skip whole ones:
 * 1, as rows end to end and whole arrays. */
static void layout_share(void **state)
{
    (void)state;
    static const struct {
        const char *type, *text;
        double share;
    } cases[] = {
        {"f32", "axis=rows rows=2543863 cols=40 ld=56", 160.0 / 192},
        {"i32", "axis=cols rows=2 cols=20 ld=24", 160.0 / 192},
        {"f32", "axis=cols rows=1000 cols=64 ld=80", 1},
        {"f32", "axis=rows rows=1000 cols=64", 1},
        {"f64", "axis=all n=1000", 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        at_problem p;
        at_err e = {0};
        assert_int_equal(make(&p, cases[c].type, cases[c].text, &e), 0);
        const double got = at_rd_layout_share(&p);
        if (got < cases[c].share - 1e-9 || got > cases[c].share + 1e-9)
            fail_msg("%s %s: %.6f, expected %.6f", cases[c].type,
                     cases[c].text, got, cases[c].share);
    }
}

static void cli_errors(void **state)
{
    (void)state;
    const char *bin = getenv("AUTOTUNE_BIN");
    if (!bin)
        skip();
    char cmd[1024];
    const char *bad[] = {"--op mean", "--axis diagonal", "--n 5 --axis cols",
                         "--type c64", "--rows 3 --cols 5",
                         "--n -1", "--deterministic maybe --n 5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(cmd, sizeof cmd, "%s reduce --arch sm_90 -o /dev/null %s "
                 ">/dev/null 2>&1", bin, bad[i]);
        int st = system(cmd);
        if (st == 0)
            fail_msg("accepted: %s", bad[i]);
    }
    snprintf(cmd, sizeof cmd, "%s space reduce --deterministic --n 1000 "
             ">/dev/null 2>&1", bin);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(problems),   cmocka_unit_test(constraints),
        cmocka_unit_test(flat_points),  cmocka_unit_test(flat_rows_points),
        cmocka_unit_test(waves_points),
        cmocka_unit_test(shift_points),
        cmocka_unit_test(any_base),
        cmocka_unit_test(reference),  cmocka_unit_test(tolerance),
        cmocka_unit_test(i32_check_plants_extremes),
        cmocka_unit_test(layout_share), cmocka_unit_test(cli_errors),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
