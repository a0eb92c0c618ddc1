/* Effort levels and nearest-size reuse without a GPU: the planner over a
 * cache built here (entries keyed as a tune on an sm_90 GPU would key
 * them), the problem distance, and the cache's rule for which of two
 * entries of one key stays. */
#include "tap.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/distance.h"
#include "gen/emit.h"
#include "gen/space.h"
#include "runtime/store/store.h"
#include "runtime/plan/plan.h"

typedef struct fixture {
    char dir[32], db[64];
    at_cache *c;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/at-effort-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->db, sizeof f->db, "%s/cache.db", f->dir);
    at_err e = {0};
    if (at_cache_open(&f->c, f->db, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    at_cache_close(f->c);
    char path[128];
    const char *ext[] = {"", "-wal", "-shm", ".lock"};
    for (int i = 0; i < 4; ++i) {
        snprintf(path, sizeof path, "%s%s", f->db, ext[i]);
        unlink(path);
    }
    rmdir(f->dir);
    free(f);
    return 0;
}

static void problem(at_problem *p, const char *type, const char *text)
{
    at_err e = {0};
    assert_int_equal(at_problem_begin(p, "transpose", type, &e), 0);
    assert_int_equal(at_problem_set_text(p, text, &e), 0);
    assert_int_equal(at_problem_finish(p, &e), 0);
}

/* The i-th valid point of p's space on sm_90. */
static void nth_point(const at_problem *p, size_t i, at_point *pt)
{
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    at_point *pts = NULL;
    size_t n = 0;
    at_err e = {0};
    assert_int_equal(at_space_points(p->family, p, &l, &pts, &n, &e), 0);
    assert_true(i < n);
    *pt = pts[i];
    free(pts);
}

/* Stores p's entry with point pt as a GPU-less key for sm_90, with a
 * profile of n points (prof, their times ms; fastest first). */
static void put_entry(at_cache *c, const at_problem *p, const at_point *pt,
                      double ms, int effort, const at_point *const *prof,
                      const double *prof_ms, int n)
{
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    at_entry en;
    memset(&en, 0, sizeof en);
    at_err e = {0};
    assert_int_equal(at_key_fill(&en.key, NULL, p, &l, &e), 0);
    p->family->ops.point_name(p->family, pt, en.point, sizeof en.point);
    at_point_params(p->family, pt, en.params, sizeof en.params);
    static const unsigned char cubin[] = "\177ELF not a real cubin";
    en.cubin = (void *)cubin;
    en.cubin_size = sizeof cubin;
    en.median_ms = ms;
    en.effort = effort;
    size_t at = 0;
    for (int i = 0; i < n; ++i) {
        char params[256];
        at_point_params(p->family, prof[i], params, sizeof params);
        at += (size_t)snprintf(en.profile + at, sizeof en.profile - at,
                               "%.6g %s\n", prof_ms[i], params);
    }
    assert_int_equal(at_cache_put(c, &en, 0, &e), 0);
}

static void put(at_cache *c, const at_problem *p, const at_point *pt,
                double ms, int effort)
{
    put_entry(c, p, pt, ms, effort, NULL, NULL, 0);
}

static int plan(fixture *f, const at_problem *p, int effort, at_plan *pl,
                at_err *e)
{
    at_plan_env env = {.cache = f->c, .sm = 90, .no_device = "no GPU here"};
    at_tune_opts o = {.effort = effort};
    return at_plan_get(&env, p, &o, pl, e);
}

static void distance_rules(void **state)
{
    (void)state;
    at_problem a, b, c, h;
    problem(&a, "f32", "rows=4096 cols=4096");
    problem(&b, "f32", "rows=4096 cols=4096");
    problem(&c, "f32", "rows=4097 cols=4096");
    problem(&h, "f16", "rows=4096 cols=4096");
    assert_true(at_problem_distance(&a, &b) == 0);
    assert_true(isinf(at_problem_distance(&a, &h)));
    /* Symmetric; an odd row count costs its alignment penalty (rows,
     * ld_out) beyond the logarithms. */
    double d = at_problem_distance(&a, &c);
    assert_true(fabs(d - at_problem_distance(&c, &a)) < 1e-12);
    assert_true(d > 2 * AT_ALIGN_PENALTY && d < 2 * AT_ALIGN_PENALTY + 0.01);
    assert_int_equal(at_align_class(4096, 4), 16);
    assert_int_equal(at_align_class(6, 1), 2);
    assert_int_equal(at_align_class(3, 4), 4);
    assert_int_equal(at_align_class(7, 1), 1);
}

/* Nearest: by distance, never the problem itself, never another type,
 * and only a point valid for the new problem. */
static void nearest_choice(void **state)
{
    fixture *f = *state;
    at_problem p1k, p4k, p8k, p4kh, q;
    problem(&p1k, "f32", "rows=1024 cols=1024");
    problem(&p4k, "f32", "rows=4096 cols=4096");
    problem(&p8k, "f32", "rows=8192 cols=8192");
    problem(&p4kh, "f16", "rows=4000 cols=4000");
    at_point a, b, c;
    nth_point(&p1k, 3, &a);
    nth_point(&p4k, 100, &b);
    nth_point(&p8k, 200, &c);
    put(f->c, &p1k, &a, 0.01, AUTOTUNE_EXHAUSTIVE);
    put(f->c, &p4k, &b, 0.1, AUTOTUNE_EXHAUSTIVE);
    put(f->c, &p8k, &c, 0.4, AUTOTUNE_EXHAUSTIVE);
    at_point hp;
    nth_point(&p4kh, 0, &hp);
    put(f->c, &p4kh, &hp, 0.05, AUTOTUNE_EXHAUSTIVE);
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    struct {
        const char *text;
        const at_problem *want;
        const at_point *pt;
    } cases[] = {
        {"rows=4000 cols=4000", &p4k, &b},
        {"rows=1500 cols=1000", &p1k, &a},
        {"rows=7000 cols=9000", &p8k, &c},
        {"rows=4096 cols=4096", &p1k, NULL}, /* itself: not its own */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        problem(&q, "f32", cases[i].text);
        at_key key;
        at_err e = {0};
        assert_int_equal(at_key_fill(&key, NULL, &q, &l, &e), 0);
        at_near nr;
        assert_int_equal(at_near_find(f->c, &key, 0, &q, &l, &nr, &e), 1);
        if (cases[i].pt) {
            assert_true(at_problem_equal(&nr.from, cases[i].want));
            assert_memory_equal(&nr.pt, cases[i].pt, sizeof nr.pt);
        } else {
            /* 4096's nearest other is 8192 or 1024, both 2 octaves x2
             * fields away: never 4096 itself. */
            assert_false(at_problem_equal(&nr.from, &p4k));
        }
        assert_true(nr.distance > 0);
        at_entry_free(&nr.en);
    }
}

/* A point the new problem's constraints refuse is passed over for the
 * next nearest: a strip point (a side of at most 64) of a thin problem,
 * nearest to a wider one that strips cannot serve. */
static void nearest_skips_invalid_point(void **state)
{
    fixture *f = *state;
    at_problem thin, square, q;
    problem(&thin, "f32", "rows=48 cols=8192");
    problem(&square, "f32", "rows=1024 cols=1024");
    problem(&q, "f32", "rows=100 cols=8192");
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    at_point *pts = NULL;
    size_t n = 0;
    at_err e = {0};
    assert_int_equal(at_space_points(thin.family, &thin, &l, &pts, &n, &e),
                     0);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; ++i)
        if (!thin.family->ops.valid(&q, &pts[i], &l, NULL, 0))
            bad = i;
    assert_true(bad < n); /* strips of 48 rows do not serve 100 */
    at_point good;
    nth_point(&square, 0, &good);
    assert_true(square.family->ops.valid(&q, &good, &l, NULL, 0));
    put(f->c, &thin, &pts[bad], 0.4, AUTOTUNE_EXHAUSTIVE);
    put(f->c, &square, &good, 0.001, AUTOTUNE_EXHAUSTIVE);
    at_key key;
    assert_int_equal(at_key_fill(&key, NULL, &q, &l, &e), 0);
    at_near nr;
    assert_true(at_problem_distance(&q, &thin) <
                at_problem_distance(&q, &square));
    assert_int_equal(at_near_find(f->c, &key, 0, &q, &l, &nr, &e), 1);
    assert_true(at_problem_equal(&nr.from, &square));
    at_entry_free(&nr.en);
    /* With a valid point of the thin problem stored, it is chosen. */
    size_t ok = n;
    for (size_t i = 0; i < n && ok == n; ++i)
        if (thin.family->ops.valid(&q, &pts[i], &l, NULL, 0))
            ok = i;
    assert_true(ok < n);
    put(f->c, &thin, &pts[ok], 0.3, AUTOTUNE_EXHAUSTIVE);
    free(pts);
    assert_int_equal(at_near_find(f->c, &key, 0, &q, &l, &nr, &e), 1);
    assert_true(at_problem_equal(&nr.from, &thin));
    at_entry_free(&nr.en);
}

/* Profiles steer the choice: the nearest problem's winner is fast only
 * there; a point all three neighbours kept near their best wins, said
 * as reused from the nearest that kept it, under its own name. */
static void profiles_steer_choice(void **state)
{
    fixture *f = *state;
    at_problem p2k, p4k, p8k, q;
    problem(&p2k, "f32", "rows=2048 cols=2048");
    problem(&p4k, "f32", "rows=4096 cols=4096");
    problem(&p8k, "f32", "rows=8192 cols=8192");
    problem(&q, "f32", "rows=5000 cols=5000");
    at_point a, b, c, d;
    nth_point(&p4k, 10, &a);
    nth_point(&p4k, 20, &b);
    nth_point(&p4k, 30, &c);
    nth_point(&p4k, 40, &d);
    const double ms4[] = {1.0, 1.02}, ms8[] = {4.0, 4.04}, ms2[] = {0.25,
                                                                   0.2575};
    const at_point *prof4[] = {&a, &c}, *prof8[] = {&b, &c},
                   *prof2[] = {&d, &c};
    put_entry(f->c, &p4k, &a, ms4[0], 0, prof4, ms4, 2);
    put_entry(f->c, &p8k, &b, ms8[0], 0, prof8, ms8, 2);
    put_entry(f->c, &p2k, &d, ms2[0], 0, prof2, ms2, 2);
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    at_key key;
    at_err e = {0};
    assert_int_equal(at_key_fill(&key, NULL, &q, &l, &e), 0);
    at_near nr;
    assert_int_equal(at_near_find(f->c, &key, 0, &q, &l, &nr, &e), 1);
    assert_memory_equal(&nr.pt, &c, sizeof c);
    assert_true(at_problem_equal(&nr.from, &p4k)); /* nearest that kept c */
    assert_int_equal(nr.own, 0);
    assert_int_equal(nr.neighbours, 3);
    assert_true(nr.score > 1.0 && nr.score < 1.03);
    at_entry_free(&nr.en);
    at_plan pl;
    assert_int_equal(plan(f, &q, AUTOTUNE_ESTIMATE, &pl, &e), 0);
    assert_int_equal(pl.how, AUTOTUNE_HOW_REUSED);
    assert_memory_equal(&pl.pt, &c, sizeof c);
    char name[128];
    q.family->ops.point_name(q.family, &c, name, sizeof name);
    assert_string_equal(pl.name, name);
    assert_non_null(strstr(pl.fig.from, "rows=4096 cols=4096"));
    at_plan_free(&pl);
    /* A profile the cache cannot read is no profile: the nearest's best
     * point alone then (4096 is nearest, and nobody else kept a). */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE wisdom SET profile = "
                                  "'x\x01garbage'", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(at_near_find(f->c, &key, 0, &q, &l, &nr, &e), 1);
    assert_memory_equal(&nr.pt, &a, sizeof a);
    assert_int_equal(nr.own, 1);
    at_entry_free(&nr.en);
}

/* A tune's profile keeps its AT_PROFILE fastest points, written fastest
 * first; a time that is no time is not kept. */
static void profile_keeps_fastest(void **state)
{
    (void)state;
    at_tuned *t = calloc(1, sizeof *t);
    assert_non_null(t);
    for (int i = 0; i < 200; ++i) { /* times 1..200 ms in a scrambled order */
        char params[32];
        int v = (i * 73) % 200 + 1;
        snprintf(params, sizeof params, "tile_x=%d", v);
        at_profile_offer(t, params, v);
    }
    at_profile_offer(t, "tile_x=0", 0);
    at_profile_offer(t, "tile_x=-1", NAN);
    char text[AT_PROFILE_TEXT];
    at_profile_text(t, text, sizeof text);
    const char *at = text;
    double ms;
    char params[256];
    int lines = 0;
    while (at_profile_next(&at, &ms, params, sizeof params) > 0) {
        ++lines;
        assert_true(ms == lines);
        char want[32];
        snprintf(want, sizeof want, "tile_x=%d", lines);
        assert_string_equal(params, want);
    }
    assert_int_equal(lines, AT_PROFILE);
    char why[80];
    assert_true(at_profile_valid(text, why, sizeof why));
    assert_false(at_profile_valid("0.1 tile_x=1\nnot a line\n", why,
                                  sizeof why));
    free(t);
}

/* Estimate: the nearest tuned problem's point, said as reused; nothing
 * near: the default point; wisdom-only: the exact entry or NOT_FOUND. */
static void effort_levels(void **state)
{
    fixture *f = *state;
    at_problem p4k, q;
    problem(&p4k, "f32", "rows=4096 cols=4096");
    problem(&q, "f32", "rows=3000 cols=5000");
    at_plan pl;
    at_err e = {0};
    /* An empty cache: estimate gives the default point. */
    assert_int_equal(plan(f, &q, AUTOTUNE_ESTIMATE, &pl, &e), 0);
    assert_int_equal(pl.how, AUTOTUNE_HOW_DEFAULT);
    at_point def = pl.pt;
    at_plan_free(&pl);
    assert_int_equal(plan(f, &q, AUTOTUNE_WISDOM_ONLY, &pl, &e),
                     AUTOTUNE_ENOT_FOUND);
    assert_non_null(strstr(e.msg, "WISDOM_ONLY"));
    at_plan_free(&pl);
    at_point b;
    nth_point(&p4k, 100, &b);
    assert_memory_not_equal(&b, &def, sizeof b);
    put(f->c, &p4k, &b, 0.1, AUTOTUNE_MEASURE);
    assert_int_equal(plan(f, &q, AUTOTUNE_ESTIMATE, &pl, &e), 0);
    assert_int_equal(pl.how, AUTOTUNE_HOW_REUSED);
    assert_int_equal(pl.fig.how, AUTOTUNE_HOW_REUSED);
    assert_memory_equal(&pl.pt, &b, sizeof b);
    assert_non_null(strstr(pl.fig.from, "rows=4096 cols=4096"));
    assert_non_null(strstr(pl.why, "not verified"));
    assert_true(pl.fig.median_ms == 0); /* another problem's: not claimed */
    at_provenance pv;
    at_plan_provenance(&pl, "test", &pv);
    assert_int_equal(pv.how, AUTOTUNE_HOW_REUSED);
    assert_string_equal(pv.from, pl.from);
    /* Its header claims no figure and says it never ran here (issue 35:
     * it said "median 0.0000 ms" as if measured). */
    char cu[96], text[8192];
    snprintf(cu, sizeof cu, "%s/reused.cu", f->dir);
    assert_int_equal(at_emit(cu, &pl.p, &pl.pt, "reused_launcher", &pv, &e),
                     0);
    FILE *hf = fopen(cu, "r");
    assert_non_null(hf);
    text[fread(text, 1, sizeof text - 1, hf)] = '\0';
    fclose(hf);
    assert_non_null(strstr(text, "measured: nothing on this problem"));
    assert_non_null(strstr(text, "NOT VERIFIED: this point never ran"));
    assert_null(strstr(text, "median 0.0000"));
    at_plan_free(&pl);
    /* The exact problem: cached at every effort (no device: whatever
     * effort found it). */
    for (int eff = AUTOTUNE_ESTIMATE; eff <= AUTOTUNE_WISDOM_ONLY; ++eff) {
        assert_int_equal(plan(f, &p4k, eff, &pl, &e), 0);
        assert_int_equal(pl.how, AUTOTUNE_HOW_CACHED);
        assert_int_equal(pl.fig.effort, AUTOTUNE_MEASURE);
        at_plan_free(&pl);
    }
}

/* Of two entries for one key, the higher effort stays; at one effort,
 * the faster. */
static void effort_order_in_cache(void **state)
{
    fixture *f = *state;
    at_problem p;
    problem(&p, "f32", "rows=2048 cols=2048");
    at_point a, b;
    nth_point(&p, 1, &a);
    nth_point(&p, 2, &b);
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    at_key key;
    at_err e = {0};
    assert_int_equal(at_key_fill(&key, NULL, &p, &l, &e), 0);
    at_entry got;
    char name_a[128], name_b[128];
    p.family->ops.point_name(p.family, &a, name_a, sizeof name_a);
    p.family->ops.point_name(p.family, &b, name_b, sizeof name_b);
    put(f->c, &p, &a, 0.05, AUTOTUNE_MEASURE);
    put(f->c, &p, &b, 0.09, AUTOTUNE_EXHAUSTIVE); /* slower, but whole */
    assert_int_equal(at_cache_find_arch(f->c, &key, &got, &e), 1);
    assert_string_equal(got.point, name_b);
    assert_int_equal(got.effort, AUTOTUNE_EXHAUSTIVE);
    at_entry_free(&got);
    put(f->c, &p, &a, 0.01, AUTOTUNE_MEASURE); /* faster, but budgeted */
    assert_int_equal(at_cache_find_arch(f->c, &key, &got, &e), 1);
    assert_string_equal(got.point, name_b);
    at_entry_free(&got);
    put(f->c, &p, &a, 0.08, AUTOTUNE_EXHAUSTIVE);
    assert_int_equal(at_cache_find_arch(f->c, &key, &got, &e), 1);
    assert_string_equal(got.point, name_a);
    at_entry_free(&got);
}

/* A cache of autotune 0.2 (no effort column) opens, its entries taken as
 * searches of the whole space. */
static void old_file_gains_effort(void **state)
{
    fixture *f = *state;
    at_cache_close(f->c);
    f->c = NULL;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DROP TABLE wisdom; CREATE TABLE "
        "wisdom(key TEXT PRIMARY KEY, gpu TEXT NOT NULL, cc INTEGER NOT "
        "NULL, sms INTEGER NOT NULL, driver INTEGER NOT NULL, driver_build "
        "TEXT NOT NULL, nvrtc TEXT NOT NULL, template_hash TEXT NOT NULL, "
        "space_hash TEXT NOT NULL, family TEXT NOT NULL, type TEXT NOT "
        "NULL, problem TEXT NOT NULL, point TEXT NOT NULL, params TEXT NOT "
        "NULL, cubin BLOB NOT NULL, entry_hash TEXT NOT NULL, median_ms "
        "REAL, gbps REAL, copy_gbps REAL, frac_copy REAL, registers "
        "INTEGER, shared_bytes INTEGER, local_bytes INTEGER, seed INTEGER, "
        "tune_seconds REAL, points INTEGER, created TEXT NOT NULL)", NULL,
        NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    at_err e = {0};
    assert_int_equal(at_cache_open(&f->c, f->db, &e), 0);
    at_problem p;
    problem(&p, "f32", "rows=512 cols=512");
    at_point a;
    nth_point(&p, 0, &a);
    put(f->c, &p, &a, 0.01, 0); /* 0: stored as EXHAUSTIVE */
    at_limits l;
    assert_true(at_limits_for_arch(90, &l));
    at_key key;
    assert_int_equal(at_key_fill(&key, NULL, &p, &l, &e), 0);
    at_entry got;
    assert_int_equal(at_cache_find_arch(f->c, &key, &got, &e), 1);
    assert_int_equal(got.effort, AUTOTUNE_EXHAUSTIVE);
    at_entry_free(&got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(distance_rules),
        cmocka_unit_test_setup_teardown(nearest_choice, setup, teardown),
        cmocka_unit_test_setup_teardown(nearest_skips_invalid_point, setup,
                                        teardown),
        cmocka_unit_test(profile_keeps_fastest),
        cmocka_unit_test_setup_teardown(profiles_steer_choice, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(effort_levels, setup, teardown),
        cmocka_unit_test_setup_teardown(effort_order_in_cache, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(old_file_gains_effort, setup,
                                        teardown),
    };
    return AT_RUN_TESTS(tests);
}
