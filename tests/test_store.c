/* The tuning store's conformance: the same cases against the SQLite file
 * and, where tests/store.sh started a throwaway PostgreSQL server
 * ($AUTOTUNE_TEST_PG), against PostgreSQL: a round trip, the faster and
 * the higher effort kept, lookups by architecture and partial key,
 * failed variants, hostile text in every field, a corrupt entry
 * discarded, export-style import and removal, and 16 processes x 50
 * rounds on one fresh store (every key tuned once). PostgreSQL's own:
 * a database not ours refused untouched, a schema of another version
 * refused (schema 1 upgraded), a store that is down a clear error (its password never
 * shown), and the server killed in the middle of writes (no partial
 * entry, a clear error). No GPU. */
#include "tap.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>

#include "runtime/store/pq.h"
#include "runtime/store/store.h"

enum { SQLITE, PG, N_BACKENDS };
static char where[N_BACKENDS][1024]; /* the file, the URI ("" skipped) */
static char dir[] = "/tmp/at-store-XXXXXX";
static const char *const names[] = {"sqlite", "postgresql"};

static at_cache *open_store(int b)
{
    at_cache *c = NULL;
    at_err e = {0};
    int rc = at_cache_open(&c, where[b], &e);
    if (rc)
        fail_msg("%s: %s", names[b], e.msg);
    return c;
}

/* A fresh store: the file removed, or every row of the server's deleted. */
static at_cache *fresh(int b)
{
    if (b == SQLITE) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "rm -f %s %s.lock", where[b], where[b]);
        assert_int_equal(system(cmd), 0);
    }
    at_cache *c = open_store(b);
    size_t n1, n2;
    at_err e = {0};
    assert_int_equal(at_cache_clear(c, &n1, &n2, &e), 0);
    return c;
}

static void fill_cubin(unsigned char *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (unsigned char)(seed >> 24);
    }
}

static unsigned char cubin[4096];

static void sample(at_entry *en, const char *problem, double ms)
{
    memset(en, 0, sizeof *en);
    at_key *k = &en->key;
    snprintf(k->gpu, sizeof k->gpu, "NVIDIA H100 80GB HBM3");
    k->cc = 90;
    k->sms = 132;
    k->driver = 13000;
    snprintf(k->driver_build, sizeof k->driver_build, "580.159.04");
    snprintf(k->nvrtc, sizeof k->nvrtc, "13.0");
    snprintf(k->template_hash, sizeof k->template_hash, "0123456789abcdef");
    snprintf(k->space_hash, sizeof k->space_hash, "fedcba9876543210");
    snprintf(k->family, sizeof k->family, "transpose");
    snprintf(k->type, sizeof k->type, "f32");
    snprintf(k->problem, sizeof k->problem, "%s", problem);
    snprintf(en->point, sizeof en->point, "tile64x64_blk32x8");
    snprintf(en->params, sizeof en->params, "tile_x=64 block_x=32");
    fill_cubin(cubin, sizeof cubin, 7);
    en->cubin = cubin;
    en->cubin_size = sizeof cubin;
    en->median_ms = ms;
    en->gbps = 3141.592653589793;
    en->copy_gbps = 3300.25;
    en->frac_copy = en->gbps / en->copy_gbps;
    en->registers = 40;
    en->shared_bytes = 8448;
    en->seed = 0xfedcba9876543210ULL; /* the top bit: int64's cast */
    en->tune_seconds = 11.75;
    en->points = 1234;
    en->effort = AUTOTUNE_EXHAUSTIVE;
    snprintf(en->profile, sizeof en->profile, "0.5 tile_x=64\n");
    snprintf(en->created, sizeof en->created, "2026-11-26T01:02:03Z");
}

static void put(at_cache *c, const at_entry *en, int replace)
{
    at_err e = {0};
    if (at_cache_put(c, en, replace, &e))
        fail_msg("put: %s", e.msg);
}

/* 1 hit (*got filled), 0 miss. */
static int get(at_cache *c, const at_key *k, at_entry *got)
{
    at_err e = {0};
    int rc = at_cache_get(c, k, got, &e);
    if (rc < 0)
        fail_msg("get: %s", e.msg);
    return rc;
}

#define EACH_BACKEND(b)                                                      \
    for (int b = 0; b < N_BACKENDS; ++b)                                     \
        if (!where[b][0]) {                                                  \
            printf("# %s: not run (%s)\n", names[b],                         \
                   "no AUTOTUNE_TEST_PG: tests/store.sh starts a server");  \
        } else

static void round_trip_through_a_new_handle(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        at_entry en, got;
        sample(&en, "rows=8192 cols=8192", 0.125);
        put(c, &en, 0);
        at_cache_close(c);
        c = open_store(b);
        assert_int_equal(get(c, &en.key, &got), 1);
        assert_string_equal(got.key.problem, en.key.problem);
        assert_string_equal(got.point, en.point);
        assert_string_equal(got.params, en.params);
        assert_int_equal(got.cubin_size, en.cubin_size);
        assert_memory_equal(got.cubin, en.cubin, en.cubin_size);
        assert_true(got.median_ms == en.median_ms);
        assert_true(got.gbps == en.gbps);
        assert_true(got.frac_copy == en.frac_copy);
        assert_int_equal(got.seed, en.seed);
        assert_int_equal(got.points, en.points);
        assert_string_equal(got.profile, en.profile);
        assert_string_equal(got.created, en.created);
        at_entry_free(&got);
        at_entry other = en;
        snprintf(other.key.problem, sizeof other.key.problem, "rows=1");
        assert_int_equal(get(c, &other.key, &got), 0);
        at_cache_close(c);
    }
}

static void the_faster_and_the_higher_effort_stay(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        at_entry en, got;
        sample(&en, "rows=4096 cols=4096", 1.0);
        put(c, &en, 0);
        en.median_ms = 2.0; /* slower: the stored one stays */
        put(c, &en, 0);
        assert_int_equal(get(c, &en.key, &got), 1);
        assert_true(got.median_ms == 1.0);
        at_entry_free(&got);
        en.median_ms = 0.5; /* faster: replaces */
        put(c, &en, 0);
        en.effort = AUTOTUNE_MEASURE; /* faster, but a lower effort */
        en.median_ms = 0.25;
        put(c, &en, 0);
        assert_int_equal(get(c, &en.key, &got), 1);
        assert_true(got.median_ms == 0.5);
        assert_int_equal(got.effort, AUTOTUNE_EXHAUSTIVE);
        at_entry_free(&got);
        put(c, &en, 1); /* --retune replaces whatever is there */
        assert_int_equal(get(c, &en.key, &got), 1);
        assert_true(got.median_ms == 0.25);
        assert_int_equal(got.effort, AUTOTUNE_MEASURE);
        at_entry_free(&got);
        at_cache_close(c);
    }
}

static int count(const at_entry *en, void *arg)
{
    (void)en;
    ++*(int *)arg;
    return 0;
}

static void lookups_by_architecture_and_partial_key(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        at_entry en, got;
        at_err e = {0};
        sample(&en, "rows=100 cols=200", 0.3);
        put(c, &en, 0);
        snprintf(en.key.gpu, sizeof en.key.gpu, "NVIDIA H200");
        snprintf(en.created, sizeof en.created, "2026-11-26T09:00:00Z");
        en.median_ms = 0.2;
        put(c, &en, 0);
        at_key arch = {.cc = 90};
        snprintf(arch.template_hash, sizeof arch.template_hash, "%s",
                 en.key.template_hash);
        snprintf(arch.space_hash, sizeof arch.space_hash, "%s",
                 en.key.space_hash);
        snprintf(arch.family, sizeof arch.family, "transpose");
        snprintf(arch.type, sizeof arch.type, "f32");
        snprintf(arch.problem, sizeof arch.problem, "rows=100 cols=200");
        assert_int_equal(at_cache_find_arch(c, &arch, &got, &e), 1);
        assert_string_equal(got.key.gpu, "NVIDIA H200"); /* the newest */
        at_entry_free(&got);
        int n = 0;
        at_key like = {0};
        snprintf(like.gpu, sizeof like.gpu, "NVIDIA H200");
        assert_int_equal(at_cache_each(c, &like, count, &n, NULL, &e), 0);
        assert_int_equal(n, 1);
        n = 0;
        assert_int_equal(at_cache_each(c, NULL, count, &n, NULL, &e), 0);
        assert_int_equal(n, 2);
        assert_int_equal(at_cache_any(c, &like, &e), 1);
        like.cc = 80;
        assert_int_equal(at_cache_any(c, &like, &e), 0);
        at_cache_close(c);
    }
}

static void failed_variants_are_remembered_and_forgotten(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        at_entry en;
        at_err e = {0};
        sample(&en, "rows=7 cols=9", 1);
        assert_int_equal(at_cache_failed_put(c, &en.key, "p1", "CUDA_ERROR_"
                                             "LAUNCH_FAILED (719)", &e), 0);
        assert_int_equal(at_cache_failed_put(c, &en.key, "p0", "701", &e), 0);
        assert_int_equal(at_cache_failed_put(c, &en.key, "p1", "again", &e),
                         0);
        at_failed *f = NULL;
        size_t n = 0;
        assert_int_equal(at_cache_failed_list(c, &en.key, &f, &n, &e), 0);
        assert_int_equal(n, 2);
        assert_string_equal(f[0].point, "p0");
        assert_string_equal(f[1].error, "again");
        free(f);
        assert_int_equal(at_cache_failed_clear(c, &en.key, &e), 0);
        assert_int_equal(at_cache_failed_list(c, &en.key, &f, &n, &e), 0);
        assert_int_equal(n, 0);
        free(f);
        at_cache_close(c);
    }
}

/* Text a user, a spec file or a forger could put in a field: quotes,
 * backslashes, SQL, placeholders, format directives, the longest
 * texts. Stored and read back as given; a control character or a
 * non-ASCII byte in a name is a discarded, reported miss on reading. */
static void hostile_text_in_every_field(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "it's", "a\\b\\\\c", "'); DROP TABLE autotune.wisdom; --",
        "x'); DELETE FROM wisdom; --", "$1 $2 ?1 %s %n %999999d",
        "\"quoted\" `tick` ;", "rows=1 cols=2 op=max -- comment"};
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
            at_entry en, got;
            sample(&en, texts[i], 1.0 + (double)i);
            snprintf(en.key.gpu, sizeof en.key.gpu, "%s", texts[i]);
            snprintf(en.key.driver_build, sizeof en.key.driver_build, "%s",
                     texts[i]);
            snprintf(en.key.family, sizeof en.key.family, "%s", texts[i]);
            snprintf(en.point, sizeof en.point, "%s", texts[i]);
            snprintf(en.params, sizeof en.params, "%s", texts[i]);
            snprintf(en.profile, sizeof en.profile, "%s", texts[i]);
            put(c, &en, 0);
            assert_int_equal(get(c, &en.key, &got), 1);
            assert_string_equal(got.key.gpu, texts[i]);
            assert_string_equal(got.key.driver_build, en.key.driver_build);
            assert_string_equal(got.key.family, en.key.family); /* 31 */
            assert_string_equal(got.point, texts[i]);
            assert_string_equal(got.params, texts[i]);
            assert_string_equal(got.profile, ""); /* not a profile: dropped */
            at_entry_free(&got);
        }
        /* The longest texts each field holds. */
        at_entry en, got;
        sample(&en, "", 1);
        memset(en.key.problem, 'p', sizeof en.key.problem - 1);
        memset(en.key.gpu, 'g', sizeof en.key.gpu - 1);
        memset(en.point, 'q', sizeof en.point - 1);
        memset(en.params, 'r', sizeof en.params - 1);
        put(c, &en, 0);
        assert_int_equal(get(c, &en.key, &got), 1);
        assert_string_equal(got.key.problem, en.key.problem);
        assert_string_equal(got.params, en.params);
        at_entry_free(&got);
        /* A control character in a name: stored, then refused on reading
         * as corrupt or forged (discarded, said, a miss). */
        sample(&en, "rows=1\ncols=2", 1);
        snprintf(en.point, sizeof en.point, "p\x1b[31m");
        at_err e = {0};
        int rc = at_cache_put(c, &en, 0, &e);
        if (rc == 0) {
            memset(&e, 0, sizeof e);
            assert_int_equal(at_cache_get(c, &en.key, &got, &e), 0);
            assert_non_null(strstr(e.msg, "control character"));
        } else {
            assert_non_null(strstr(e.msg, "INSERT")); /* refused plainly */
        }
        /* Non-UTF-8 bytes: PostgreSQL refuses them (a plain error naming
         * the statement); SQLite stores them, and reading discards. */
        sample(&en, "rows=\xff\xfe", 1);
        memset(&e, 0, sizeof e);
        rc = at_cache_put(c, &en, 0, &e);
        if (rc == 0) {
            assert_int_equal(at_cache_get(c, &en.key, &got, &e), 0);
        } else {
            assert_int_equal(rc, b == PG ? AUTOTUNE_ESTORE : AUTOTUNE_ESQLITE);
            assert_non_null(strstr(e.msg, "INSERT"));
        }
        at_cache_close(c);
    }
}

/* Another program (or a bad disk) changes a stored cubin. */
static void tamper(int b, const char *problem)
{
    if (b == SQLITE) {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(where[b], &db), SQLITE_OK);
        char sql[256];
        snprintf(sql, sizeof sql, "UPDATE wisdom SET cubin = x'00ff00' "
                 "WHERE problem = '%s'", problem);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(db);
        return;
    }
    PGconn *conn;
    at_err e = {0};
    assert_int_equal(at_pq_connect(where[b], &conn, &e), 0);
    const char *v[] = {problem};
    assert_int_equal(at_pq_run(conn, "test", "tamper", "UPDATE "
                               "autotune.wisdom SET cubin = '\\x00ff00' "
                               "WHERE problem = $1", 1, v, &e), 0);
    at_pq.PQfinish(conn);
}

static void a_corrupt_entry_is_a_discarded_miss(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        at_entry en, got;
        sample(&en, "rows=33 cols=44", 1);
        put(c, &en, 0);
        tamper(b, "rows=33 cols=44");
        at_err e = {0};
        assert_int_equal(at_cache_get(c, &en.key, &got, &e), 0);
        assert_int_equal(e.code, 0);
        assert_non_null(strstr(e.msg, "corrupt"));
        int n = 0;
        assert_int_equal(at_cache_each(c, NULL, count, &n, NULL, &e), 0);
        assert_int_equal(n, 0); /* the row is gone */
        at_cache_close(c);
    }
}

static void import_and_remove_as_the_wisdom_commands_do(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache *c = fresh(b);
        at_entry en[3];
        at_import_result res[3];
        at_err e = {0};
        for (int i = 0; i < 3; ++i) {
            char p[32];
            snprintf(p, sizeof p, "rows=%d", i + 1);
            sample(&en[i], p, 1.0);
        }
        put(c, &en[1], 0);
        en[1].median_ms = 2.0; /* slower than the stored one: kept */
        assert_int_equal(at_cache_import(c, en, 3, 0, res, &e), 0);
        assert_int_equal(res[0].outcome, AT_IMPORT_ADDED);
        assert_int_equal(res[1].outcome, AT_IMPORT_KEPT);
        assert_int_equal(res[2].outcome, AT_IMPORT_ADDED);
        size_t removed = 0;
        assert_int_equal(at_cache_remove(c, en, 2, &removed, &e), 0);
        assert_int_equal(removed, 2);
        int n = 0;
        assert_int_equal(at_cache_each(c, NULL, count, &n, NULL, &e), 0);
        assert_int_equal(n, 1);
        at_cache_close(c);
    }
}

/* 16 processes, 50 rounds each over 50 keys in a shuffled order: each
 * round takes the key's lock, looks, and on a miss "tunes" (notes it in
 * a shared log) and stores. Every key must be tuned exactly once. */
enum { PROCS = 16, ROUNDS = 50 };

static int worker(int b, int id, const char *log)
{
    at_cache *c = NULL;
    at_err e = {0};
    if (at_cache_open(&c, where[b], &e)) {
        fprintf(stderr, "worker %d: %s\n", id, e.msg);
        return 1;
    }
    int fd = open(log, O_WRONLY | O_APPEND);
    for (int r = 0; r < ROUNDS; ++r) {
        int key = (r * 7 + id * 13) % ROUNDS; /* 7 is prime to 50 */
        char p[32];
        snprintf(p, sizeof p, "n=%d", key);
        at_entry en, got;
        sample(&en, p, 1.0 + id);
        at_cache_held h;
        if (at_cache_lock(c, &en.key, NULL, &h, &e)) {
            fprintf(stderr, "worker %d lock: %s\n", id, e.msg);
            return 1;
        }
        int hit = at_cache_get(c, &en.key, &got, &e);
        if (hit < 0) {
            fprintf(stderr, "worker %d get: %s\n", id, e.msg);
            return 1;
        }
        if (hit) {
            at_entry_free(&got);
        } else {
            char line[16];
            int n = snprintf(line, sizeof line, "%d\n", key);
            if (write(fd, line, (size_t)n) != n ||
                at_cache_put(c, &en, 0, &e)) {
                fprintf(stderr, "worker %d put: %s\n", id, e.msg);
                return 1;
            }
        }
        at_cache_unlock(&h);
    }
    close(fd);
    at_cache_close(c);
    return 0;
}

static void sixteen_processes_tune_each_key_once(void **state)
{
    (void)state;
    EACH_BACKEND(b)
    {
        at_cache_close(fresh(b));
        char log[64];
        snprintf(log, sizeof log, "%s/tuned.log", dir);
        int fd = open(log, O_CREAT | O_TRUNC | O_WRONLY, 0600);
        assert_true(fd >= 0);
        close(fd);
        pid_t pids[PROCS];
        for (int i = 0; i < PROCS; ++i) {
            pids[i] = fork();
            assert_true(pids[i] >= 0);
            if (pids[i] == 0)
                _exit(worker(b, i, log));
        }
        int failed = 0;
        for (int i = 0; i < PROCS; ++i) {
            int st = 0;
            waitpid(pids[i], &st, 0);
            failed += !WIFEXITED(st) || WEXITSTATUS(st) != 0;
        }
        assert_int_equal(failed, 0);
        int tuned[ROUNDS] = {0}, k;
        FILE *f = fopen(log, "r");
        assert_non_null(f);
        while (fscanf(f, "%d", &k) == 1)
            if (k >= 0 && k < ROUNDS)
                ++tuned[k];
        fclose(f);
        for (int i = 0; i < ROUNDS; ++i)
            if (tuned[i] != 1)
                fail_msg("%s: key %d tuned %d times", names[b], i, tuned[i]);
        at_cache *c = open_store(b);
        int n = 0;
        at_err e = {0};
        assert_int_equal(at_cache_each(c, NULL, count, &n, NULL, &e), 0);
        assert_int_equal(n, ROUNDS);
        at_cache_close(c);
        printf("# %s: %d processes x %d rounds, each of %d keys tuned once\n",
               names[b], PROCS, ROUNDS, ROUNDS);
    }
}

/* PostgreSQL only from here. */
static int skip_pg(void)
{
    if (where[PG][0])
        return 0;
    printf("# not run: no AUTOTUNE_TEST_PG (tests/store.sh starts a "
           "server)\n");
    return 1;
}

static void a_database_not_ours_is_refused_untouched(void **state)
{
    (void)state;
    const char *other = getenv("AUTOTUNE_TEST_PG_OTHER");
    if (skip_pg() || !other)
        return;
    at_cache *c = NULL;
    at_err e = {0};
    assert_int_equal(at_cache_open(&c, other, &e), AUTOTUNE_ESTORE);
    assert_non_null(strstr(e.msg, "not ours, not modified"));
    PGconn *conn;
    assert_int_equal(at_pq_connect(other, &conn, &e), 0);
    PGresult *r;
    assert_int_equal(at_pq_exec(conn, "test", "look", "SELECT (SELECT "
                                "count(*) FROM pg_namespace WHERE nspname = "
                                "'autotune') || ' ' || (SELECT name FROM "
                                "customers)", 0, NULL, NULL, NULL, &r, &e),
                     0);
    assert_string_equal(at_pq.PQgetvalue(r, 0, 0), "0 kept");
    at_pq.PQclear(r);
    at_pq.PQfinish(conn);
}

static void a_schema_of_another_version_is_refused(void **state)
{
    (void)state;
    if (skip_pg())
        return;
    at_cache_close(open_store(PG));
    PGconn *conn;
    at_err e = {0};
    assert_int_equal(at_pq_connect(where[PG], &conn, &e), 0);
    assert_int_equal(at_pq_run(conn, "test", "bump", "UPDATE autotune.meta "
                               "SET value = '3' WHERE name = 'schema'", 0,
                               NULL, &e), 0);
    at_cache *c = NULL;
    int rc = at_cache_open(&c, where[PG], &e);
    at_pq_run(conn, "test", "restore", "UPDATE autotune.meta SET value = "
              "'2' WHERE name = 'schema'", 0, NULL, &e);
    assert_int_equal(rc, AUTOTUNE_ESTORE);
    assert_non_null(strstr(e.msg, "schema=3"));
    assert_non_null(strstr(e.msg, "reads schema=2 only"));
    /* Schema 1 (0.x's stores, without the jobs table) is upgraded. */
    assert_int_equal(at_pq_run(conn, "test", "downgrade", "DROP TABLE "
                               "autotune.jobs", 0, NULL, &e), 0);
    assert_int_equal(at_pq_run(conn, "test", "downgrade", "UPDATE "
                               "autotune.meta SET value = '1' WHERE name = "
                               "'schema'", 0, NULL, &e), 0);
    at_cache_close(open_store(PG));
    char v[64];
    assert_int_equal(at_pq_value(conn, "test", "look", "SELECT value || "
                                 "(SELECT count(*) FROM autotune.jobs) FROM"
                                 " autotune.meta WHERE name = 'schema'", 0,
                                 NULL, v, sizeof v, &e), 1);
    assert_string_equal(v, "20");
    at_pq.PQfinish(conn);
}

static void a_store_that_is_down_is_a_clear_error(void **state)
{
    (void)state;
    if (skip_pg())
        return;
    at_cache *c = NULL;
    at_err e = {0};
    int rc = at_cache_open(&c, "postgresql://me:s3cret@/autotune?host="
                           "/nonexistent&port=1", &e);
    assert_int_equal(rc, AUTOTUNE_ESTORE);
    assert_non_null(strstr(e.msg, "PQconnectdb"));
    assert_non_null(strstr(e.msg, "postgresql://me:***@/autotune"));
    assert_null(strstr(e.msg, "s3cret"));
    assert_non_null(strstr(e.msg, "AUTOTUNE_STORE_FALLBACK=1"));
    /* Allowed, the local cache serves, and says so on stderr. */
    char local[1100];
    snprintf(local, sizeof local, "%s/fallback.db", dir);
    setenv("AUTOTUNE_STORE_FALLBACK", local, 1);
    memset(&e, 0, sizeof e);
    rc = at_cache_open(&c, "postgresql:///autotune?host=/nonexistent&port=1",
                       &e);
    unsetenv("AUTOTUNE_STORE_FALLBACK");
    assert_int_equal(rc, 0);
    assert_string_equal(at_cache_path(c), local);
    at_cache_close(c);
    /* A fallback that is itself a store: one line saying what it takes. */
    setenv("AUTOTUNE_STORE_FALLBACK", "postgresql:///x", 1);
    memset(&e, 0, sizeof e);
    rc = at_cache_open(&c, "postgresql:///autotune?host=/nonexistent&port=1",
                       &e);
    unsetenv("AUTOTUNE_STORE_FALLBACK");
    assert_int_equal(rc, AUTOTUNE_EINVALID);
    assert_non_null(strstr(e.msg, "it takes 1 or a local file"));
    /* A refusal is no reason to fall back: the store is there. */
    const char *other = getenv("AUTOTUNE_TEST_PG_OTHER");
    if (other) {
        setenv("AUTOTUNE_STORE_FALLBACK", "1", 1);
        rc = at_cache_open(&c, other, &e);
        unsetenv("AUTOTUNE_STORE_FALLBACK");
        assert_int_equal(rc, AUTOTUNE_ESTORE);
    }
}

/* A writer stores entries as fast as it can; the server is killed (-9)
 * under it. The writer's next store fails with a message naming the
 * statement and the store; after a restart every entry reads back whole:
 * no partial entry. */
static void a_server_killed_mid_write_leaves_no_partial_entry(void **state)
{
    (void)state;
    const char *ctl = getenv("AUTOTUNE_TEST_PG_CTL");
    const char *ctl_dir = getenv("AUTOTUNE_TEST_PG_DIR");
    if (skip_pg() || !ctl || !ctl_dir)
        return;
    at_cache_close(fresh(PG));
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(pipefd[0]);
        at_cache *c = NULL;
        at_err e = {0};
        if (at_cache_open(&c, where[PG], &e))
            _exit(2);
        static unsigned char big[1 << 20];
        for (int i = 0;; ++i) {
            at_entry en;
            char p[32];
            snprintf(p, sizeof p, "big=%d", i);
            sample(&en, p, 1);
            fill_cubin(big, sizeof big, (uint32_t)i);
            en.cubin = big;
            en.cubin_size = sizeof big;
            if (at_cache_put(c, &en, 0, &e)) {
                dprintf(pipefd[1], "%d %s", i, e.msg);
                _exit(0);
            }
        }
    }
    close(pipefd[1]);
    usleep(700 * 1000); /* some commits, one in flight */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "sh %s kill %s", ctl, ctl_dir);
    assert_int_equal(system(cmd), 0);
    char msg[1200] = "";
    ssize_t n = read(pipefd[0], msg, sizeof msg - 1);
    close(pipefd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    assert_true(n > 0);
    msg[n] = '\0';
    printf("# the writer's error: %s\n", msg);
    assert_non_null(strstr(msg, "INSERT INTO autotune.wisdom"));
    assert_non_null(strstr(msg, "[store postgresql://"));
    int stored = atoi(msg);
    snprintf(cmd, sizeof cmd, "sh %s restart %s", ctl, ctl_dir);
    assert_int_equal(system(cmd), 0);
    at_cache *c = open_store(PG);
    int seen = 0;
    char *warned = NULL;
    size_t warned_n = 0;
    FILE *warn = open_memstream(&warned, &warned_n);
    at_err e = {0};
    assert_int_equal(at_cache_each(c, NULL, count, &seen, warn, &e), 0);
    fclose(warn);
    at_cache_close(c);
    printf("# %d entries stored before the kill, %d read back whole\n",
           stored, seen);
    assert_string_equal(warned, ""); /* no corrupt or partial row */
    free(warned);
    assert_true(seen == stored || seen == stored + 1); /* a commit whose
                                                         * answer was lost */
}

static int group_setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(where[SQLITE], sizeof where[SQLITE], "%s/cache.db", dir);
    const char *pg = getenv("AUTOTUNE_TEST_PG");
    snprintf(where[PG], sizeof where[PG], "%s", pg ? pg : "");
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return at_tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_through_a_new_handle),
        cmocka_unit_test(the_faster_and_the_higher_effort_stay),
        cmocka_unit_test(lookups_by_architecture_and_partial_key),
        cmocka_unit_test(failed_variants_are_remembered_and_forgotten),
        cmocka_unit_test(hostile_text_in_every_field),
        cmocka_unit_test(a_corrupt_entry_is_a_discarded_miss),
        cmocka_unit_test(import_and_remove_as_the_wisdom_commands_do),
        cmocka_unit_test(sixteen_processes_tune_each_key_once),
        cmocka_unit_test(a_database_not_ours_is_refused_untouched),
        cmocka_unit_test(a_schema_of_another_version_is_refused),
        cmocka_unit_test(a_store_that_is_down_is_a_clear_error),
        cmocka_unit_test(a_server_killed_mid_write_leaves_no_partial_entry),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
