/* The caches and the compile pool under hostile or careless conditions
 * (docs/RELIABILITY.md): caches that are not the user's, databases that
 * are not ours, forged rows, many processes at once, compile workers that
 * crash or hang. */
#include "tap.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/hash.h"
#include "runtime/store/store.h"
#include "runtime/driver/driver.h"
#include "runtime/store/sqlite_file.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/at-rel-XXXXXX");
    return at_tmpdir_make(dir);
}

static int teardown(void **state)
{
    (void)state;
    return at_tmpdir_remove(dir);
}

static int open_rc(const char *path, at_err *e)
{
    at_cache *c = NULL;
    int rc = at_cache_open(&c, path, e);
    at_cache_close(c);
    return rc;
}

/* A fresh cache named name in the test's directory. */
static at_cache *open_named(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    at_cache *c = NULL;
    at_err e = {0};
    if (at_cache_open(&c, path, &e))
        fail_msg("%s: %s", path, e.msg);
    return c;
}

static void entry(at_entry *en, const char *point, double ms)
{
    static unsigned char cubin[] = {0x7f, 'E', 'L', 'F', 1, 2, 3};
    memset(en, 0, sizeof *en);
    snprintf(en->key.gpu, sizeof en->key.gpu, "NVIDIA Test GPU");
    en->key.cc = 90;
    en->key.sms = 132;
    snprintf(en->key.family, sizeof en->key.family, "transpose");
    snprintf(en->key.type, sizeof en->key.type, "f32");
    snprintf(en->key.problem, sizeof en->key.problem, "rows=%s", point);
    snprintf(en->point, sizeof en->point, "%s", point);
    snprintf(en->params, sizeof en->params, "tile_x=32");
    en->cubin = cubin;
    en->cubin_size = sizeof cubin;
    en->median_ms = ms;
}

/* New caches are private; others' or world-writable ones are refused. */
static void caches_must_be_the_users(void **state)
{
    (void)state;
    char path[128], open_dir[128], shared[160];
    at_err e = {0};
    snprintf(path, sizeof path, "%s/new/c.db", dir);
    assert_int_equal(at_mkdirs(path, &e), 0);
    assert_int_equal(open_rc(path, &e), 0);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    *strrchr(path, '/') = '\0';
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    strcat(path, "/c.db");

    snprintf(open_dir, sizeof open_dir, "%s/open", dir);
    assert_int_equal(mkdir(open_dir, 0700), 0);
    assert_int_equal(chmod(open_dir, 0777), 0);
    snprintf(shared, sizeof shared, "%s/c.db", open_dir);
    assert_int_equal(open_rc(shared, &e), AUTOTUNE_EIO);
    assert_non_null(strstr(e.msg, "writable by others"));

    assert_int_equal(chmod(path, 0666), 0);
    assert_int_equal(open_rc(path, &e), AUTOTUNE_EIO);
    assert_non_null(strstr(e.msg, "writable by others"));
    assert_int_equal(chmod(path, 0600), 0);
    if (geteuid() == 0) { /* root can make it another user's */
        assert_int_equal(chown(path, 65534, 65534), 0);
        assert_int_equal(open_rc(path, &e), AUTOTUNE_EIO);
        assert_non_null(strstr(e.msg, "not to you"));
    }
}

/* Another program's SQLite database is refused and left byte for byte. */
static void foreign_database_untouched(void **state)
{
    (void)state;
    const char *sqls[] = {
        "CREATE TABLE users(name TEXT); INSERT INTO users VALUES('a');",
        "PRAGMA application_id = 42; CREATE TABLE wisdom(x);",
        /* our table's name, no id: issue 35 */
        "CREATE TABLE wisdom(foo); INSERT INTO wisdom VALUES(1);",
    };
    for (int i = 0; i < 3; ++i) {
        char path[128];
        snprintf(path, sizeof path, "%s/foreign%d.db", dir, i);
        sqlite3 *db;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        assert_int_equal(sqlite3_exec(db, sqls[i], 0, 0, 0), SQLITE_OK);
        sqlite3_close(db);
        chmod(path, 0600);
        char before[8192], after[8192];
        FILE *f = fopen(path, "rb");
        size_t n = fread(before, 1, sizeof before, f);
        fclose(f);
        at_err e = {0};
        assert_int_equal(open_rc(path, &e), AUTOTUNE_EIO);
        assert_non_null(strstr(e.msg, "not modified"));
        f = fopen(path, "rb");
        assert_int_equal(fread(after, 1, sizeof after, f), n);
        fclose(f);
        assert_memory_equal(before, after, n);
    }
}

/* A row with a control character in a name (an edited cache) is
 * discarded, whatever its hash says. */
static void forged_row_discarded(void **state)
{
    (void)state;
    at_cache *c = open_named("forged.db");
    at_err e = {0};
    at_entry en, got;
    entry(&en, "p1", 1.0);
    snprintf(en.key.gpu, sizeof en.key.gpu, "GPU\033]0;owned\007*/");
    assert_int_equal(at_cache_put(c, &en, 1, &e), 0);
    assert_int_equal(at_cache_get(c, &en.key, &got, &e), 0);
    assert_non_null(strstr(e.msg, "discarded"));
    at_cache_close(c);
}

/* Of two stores under one key, the faster stays unless replacing. */
static void better_entry_kept(void **state)
{
    (void)state;
    at_cache *c = open_named("better.db");
    at_err e = {0};
    at_entry fast, slow, got;
    entry(&fast, "same", 1.0);
    entry(&slow, "same", 2.0);
    assert_int_equal(at_cache_put(c, &fast, 0, &e), 0);
    assert_int_equal(at_cache_put(c, &slow, 0, &e), 0);
    assert_int_equal(at_cache_get(c, &fast.key, &got, &e), 1);
    assert_true(got.median_ms == 1.0);
    at_entry_free(&got);
    assert_int_equal(at_cache_put(c, &slow, 1, &e), 0);
    assert_int_equal(at_cache_get(c, &fast.key, &got, &e), 1);
    assert_true(got.median_ms == 2.0);
    at_entry_free(&got);
    at_cache_close(c);
}

static int count_rows(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int n = -1;
    if (sqlite3_open(path, &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM wisdom", -1, &st, 0) ==
            SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

/* 8 processes open a fresh cache at once and store, 100 times over: no
 * failure, no row lost or doubled, the fastest shared entry kept. */
static void eight_processes_fresh_cache(void **state)
{
    (void)state;
    enum { PROCS = 8, ROUNDS = 100 };
    double t0 = at_now_s();
    for (int round = 0; round < ROUNDS; ++round) {
        char path[128];
        snprintf(path, sizeof path, "%s/many%d.db", dir, round);
        pid_t pids[PROCS];
        for (int i = 0; i < PROCS; ++i) {
            if ((pids[i] = fork()) == 0) {
                at_cache *c;
                at_err e = {0};
                at_entry own, shared;
                char name[16];
                snprintf(name, sizeof name, "own%d", i);
                entry(&own, name, 1.0);
                entry(&shared, "shared", 10.0 + i);
                int rc = at_cache_open(&c, path, &e);
                rc = rc ? rc : at_cache_put(c, &own, 0, &e);
                rc = rc ? rc : at_cache_put(c, &shared, 0, &e);
                if (rc)
                    fprintf(stderr, "round %d process %d: %s\n", round, i,
                            e.msg);
                at_cache_close(c);
                _exit(rc ? 1 : 0);
            }
        }
        for (int i = 0; i < PROCS; ++i) {
            int status = 0;
            assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
        assert_int_equal(count_rows(path), PROCS + 1);
        at_cache *c;
        at_err e = {0};
        at_entry shared, got;
        entry(&shared, "shared", 0);
        assert_int_equal(at_cache_open(&c, path, &e), 0);
        assert_int_equal(at_cache_get(c, &shared.key, &got, &e), 1);
        assert_true(got.median_ms == 10.0);
        at_entry_free(&got);
        at_cache_close(c);
    }
    printf("# %d rounds of %d processes on a fresh cache: %.1f s\n", ROUNDS,
           PROCS, at_now_s() - t0);
}

/* One tune per key: a second process waits for the first's lock. */
static void tune_lock_serialises(void **state)
{
    (void)state;
    at_cache *c = open_named("lock.db");
    at_err e = {0};
    at_entry en;
    entry(&en, "locked", 1.0);
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        at_cache_held h;
        if (at_cache_lock(c, &en.key, NULL, &h, &e))
            _exit(1);
        (void)!write(pipefd[1], "x", 1);
        usleep(300000);
        at_cache_unlock(&h);
        _exit(0);
    }
    char x;
    assert_int_equal(read(pipefd[0], &x, 1), 1);
    double t0 = at_now_s();
    at_cache_held h;
    assert_int_equal(at_cache_lock(c, &en.key, NULL, &h, &e), 0);
    double waited = at_now_s() - t0;
    at_cache_unlock(&h);
    int status;
    waitpid(pid, &status, 0);
    assert_true(waited > 0.2);
    at_cache_close(c);
}

/* Two keys locked in one process (two devices' threads, tune-list): one
 * unlocked, the other still excludes another process. */
static void tune_locks_of_one_process_are_apart(void **state)
{
    (void)state;
    at_cache *c = open_named("lock2.db");
    at_err e = {0};
    at_entry a, b;
    entry(&a, "first", 1.0);
    entry(&b, "second", 1.0);
    at_cache_held ha, hb;
    assert_int_equal(at_cache_lock(c, &a.key, NULL, &ha, &e), 0);
    assert_int_equal(at_cache_lock(c, &b.key, NULL, &hb, &e), 0);
    at_cache_unlock(&ha); /* its descriptor closed: b's lock stays */
    pid_t pid = fork();
    if (pid == 0) {
        at_cache_held h;
        int got_a = at_cache_lock(c, &a.key, NULL, &h, &e) == 0;
        at_cache_unlock(&h);
        /* b: held by the parent; waiting would hang, so try once. */
        char path[1100];
        snprintf(path, sizeof path, "%s.lock", at_cache_path(c));
        int fd = open(path, O_RDWR);
        char key[2048];
        at_key_text(&b.key, key, sizeof key);
        struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET,
                          .l_start = (off_t)(at_hash(AT_HASH_INIT, key,
                                             strlen(key)) & 0x3fffffff),
                          .l_len = 1};
        int free_b = fcntl(fd, F_OFD_SETLK, &l) == 0;
        _exit(got_a && !free_b ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    at_cache_unlock(&hb);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    at_cache_close(c);
}

/* Failed variants: remembered per key, listed, forgotten on request. */
static void failed_variants_remembered(void **state)
{
    (void)state;
    at_cache *c = open_named("failed.db");
    at_err e = {0};
    at_entry a, b;
    entry(&a, "a", 1);
    entry(&b, "b", 1);
    assert_int_equal(at_cache_failed_put(c, &a.key, "p1", "hung", &e), 0);
    assert_int_equal(at_cache_failed_put(c, &a.key, "p2", "700", &e), 0);
    at_failed *f;
    size_t n;
    assert_int_equal(at_cache_failed_list(c, &a.key, &f, &n, &e), 0);
    assert_int_equal(n, 2);
    assert_string_equal(f[0].point, "p1");
    assert_string_equal(f[0].error, "hung");
    free(f);
    assert_int_equal(at_cache_failed_list(c, &b.key, &f, &n, &e), 0);
    assert_int_equal(n, 0);
    free(f);
    assert_int_equal(at_cache_failed_clear(c, &a.key, &e), 0);
    assert_int_equal(at_cache_failed_list(c, &a.key, &f, &n, &e), 0);
    assert_int_equal(n, 0);
    free(f);
    at_cache_close(c);
}

static const char *tiny =
    "extern \"C\" __global__ void at_kernel(int *p) { p[0] = 1; }";

static int compile_one(at_pool *p, const char *variant, double limit,
                       at_err *why)
{
    at_job j;
    memset(&j, 0, sizeof j);
    j.src = strdup(tiny);
    j.opts.sm = 90;
    j.opts.limit_s = limit;
    snprintf(j.variant, sizeof j.variant, "%s", variant);
    at_pool_submit(p, &j);
    at_pool_wait(p, &j);
    int rc = j.rc;
    *why = j.err;
    at_job_release(&j);
    return rc;
}

/* A compile worker that crashes or hangs fails its job, and a new
 * worker process, never this one, compiles the next. */
static void compile_worker_replaced(void **state)
{
    (void)state;
    at_pool *p;
    at_err e = {0};
    assert_int_equal(at_pool_create(&p, 1, &e), 0);
    assert_int_equal(compile_one(p, "first", 60, &e), 0);
    int pid = at_pool_worker_pid(p, 0);
    assert_true(pid > 0 && pid != getpid());
    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(compile_one(p, "crashed", 60, &e), AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "[variant crashed]"));
    assert_int_equal(compile_one(p, "after_crash", 60, &e), 0);
    int pid2 = at_pool_worker_pid(p, 0);
    assert_true(pid2 > 0 && pid2 != pid && pid2 != getpid());
    assert_int_equal(kill(pid2, SIGSTOP), 0); /* hangs from now on */
    double t0 = at_now_s();
    assert_int_equal(compile_one(p, "hung", 1, &e), AUTOTUNE_ECOMPILE);
    assert_non_null(strstr(e.msg, "time limit"));
    assert_true(at_now_s() - t0 < 10);
    assert_int_equal(compile_one(p, "after_hang", 60, &e), 0);
    int pid3 = at_pool_worker_pid(p, 0);
    assert_true(pid3 > 0 && pid3 != pid2 && pid3 != getpid());
    at_pool_destroy(p);
    assert_true(kill(pid3, 0) != 0); /* nothing left behind */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(caches_must_be_the_users),
        cmocka_unit_test(foreign_database_untouched),
        cmocka_unit_test(forged_row_discarded),
        cmocka_unit_test(better_entry_kept),
        cmocka_unit_test(eight_processes_fresh_cache),
        cmocka_unit_test(tune_lock_serialises),
        cmocka_unit_test(tune_locks_of_one_process_are_apart),
        cmocka_unit_test(failed_variants_remembered),
        cmocka_unit_test(compile_worker_replaced),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, setup, teardown);
}
