/* The SQLite tuning cache: round trip through a fresh handle, a miss for a
 * change of any key part, corrupt cubins discarded, lookup by architecture,
 * replacement, plain errors for bad paths, and the default path. No GPU. */
#include "tap.h"

#include <ftw.h>
#include <grp.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/store/store.h"

static const char *const env_names[] = {"AUTOTUNE_CACHE", "XDG_CACHE_HOME",
                                        "HOME"};
#define N_ENV (sizeof env_names / sizeof env_names[0])

/* Per test: a temp dir with the cache in it. Teardown closes, frees and
 * removes what a failed assertion (a longjmp) would otherwise leave. */
typedef struct fixture {
    char dir[32];
    char db[64];
    at_cache *c;
    at_entry got;
    char *env[N_ENV]; /* saved values, restored in teardown */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/at-cache-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->db, sizeof f->db, "%s/cache.db", f->dir);
    for (size_t i = 0; i < N_ENV; ++i) {
        const char *v = getenv(env_names[i]);
        f->env[i] = v ? strdup(v) : NULL;
    }
    *state = f;
    return 0;
}

/* Pre-order pass: make every directory writable again (a test may leave one
 * at 0555), so the depth-first pass can empty it. */
static int make_writable(const char *p, const struct stat *sb, int type,
                         struct FTW *ftw)
{
    (void)sb, (void)ftw;
    if (type == FTW_D)
        chmod(p, 0700);
    return 0;
}

static int remove_entry(const char *p, const struct stat *sb, int type,
                        struct FTW *ftw)
{
    (void)sb, (void)type, (void)ftw;
    return remove(p);
}

static int teardown(void **state)
{
    fixture *f = *state;
    at_cache_close(f->c);
    at_entry_free(&f->got);
    for (size_t i = 0; i < N_ENV; ++i) {
        if (f->env[i])
            setenv(env_names[i], f->env[i], 1);
        else
            unsetenv(env_names[i]);
        free(f->env[i]);
    }
    nftw(f->dir, make_writable, 16, FTW_PHYS);
    int rc = nftw(f->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(f);
    return rc;
}

/* Deterministic but irregular bytes, so a byte-level mix-up shows. */
static void fill_cubin(unsigned char *p, size_t n, uint32_t seed)
{
    uint32_t x = seed;
    for (size_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

static void sample_key(at_key *k)
{
    memset(k, 0, sizeof *k);
    snprintf(k->gpu, sizeof k->gpu, "NVIDIA H200");
    k->cc = 90;
    k->sms = 132;
    k->driver = 12040;
    snprintf(k->driver_build, sizeof k->driver_build, "550.54.15");
    snprintf(k->nvrtc, sizeof k->nvrtc, "12.4");
    snprintf(k->template_hash, sizeof k->template_hash, "0123456789abcdef");
    snprintf(k->space_hash, sizeof k->space_hash, "fedcba9876543210");
    snprintf(k->family, sizeof k->family, "transpose");
    snprintf(k->type, sizeof k->type, "f32");
    /* A family's key text: ld_in beyond 32 bits. */
    snprintf(k->problem, sizeof k->problem,
             "rows=8192 cols=4096 ld_in=5000000000 ld_out=8192 batch=3 "
             "stride_in=40960000000016 stride_out=33554464");
}

static void sample_entry(at_entry *en, const at_key *k, unsigned char *cubin,
                         size_t n)
{
    memset(en, 0, sizeof *en);
    en->key = *k;
    snprintf(en->point, sizeof en->point, "t64x8_v4");
    snprintf(en->params, sizeof en->params, "tile_x=64 tile_y=8 vec=4");
    en->cubin = cubin;
    en->cubin_size = n;
    en->median_ms = 0.123456789012345;
    en->gbps = 3456.78;
    en->copy_gbps = 3801.25;
    en->frac_copy = en->gbps / en->copy_gbps;
    en->registers = 32;
    en->shared_bytes = 8448;
    en->local_bytes = 16;
    en->seed = 0xfedcba9876543210ULL; /* top bit set: the int64 cast */
    en->tune_seconds = 12.5;
    en->points = 211;
    snprintf(en->created, sizeof en->created, "2024-05-01T12:34:56Z");
}

static void assert_key_equal(const at_key *want, const at_key *got)
{
    assert_string_equal(got->gpu, want->gpu);
    assert_int_equal(got->cc, want->cc);
    assert_int_equal(got->sms, want->sms);
    assert_int_equal(got->driver, want->driver);
    assert_string_equal(got->driver_build, want->driver_build);
    assert_string_equal(got->nvrtc, want->nvrtc);
    assert_string_equal(got->template_hash, want->template_hash);
    assert_string_equal(got->space_hash, want->space_hash);
    assert_string_equal(got->family, want->family);
    assert_string_equal(got->type, want->type);
    assert_string_equal(got->problem, want->problem);
}

/* Everything but created, which put may fill in. Doubles are stored as
 * SQLite REALs (IEEE doubles), so they come back bit for bit. */
static void assert_entry_equal(const at_entry *want, const at_entry *got)
{
    assert_key_equal(&want->key, &got->key);
    assert_string_equal(got->point, want->point);
    assert_string_equal(got->params, want->params);
    assert_non_null(got->cubin);
    assert_int_equal(got->cubin_size, want->cubin_size);
    assert_memory_equal(got->cubin, want->cubin, want->cubin_size);
    assert_true(got->median_ms == want->median_ms);
    assert_true(got->gbps == want->gbps);
    assert_true(got->copy_gbps == want->copy_gbps);
    assert_true(got->frac_copy == want->frac_copy);
    assert_int_equal(got->registers, want->registers);
    assert_int_equal(got->shared_bytes, want->shared_bytes);
    assert_int_equal(got->local_bytes, want->local_bytes);
    assert_int_equal(got->seed, want->seed);
    assert_true(got->tune_seconds == want->tune_seconds);
    assert_int_equal(got->points, want->points);
}

/* Direct SQLite access, as another tool (or a bad disk) would touch the
 * file. blob, if given, is bound to ?1. Returns the rows changed. */
static int sql_change(const char *path, const char *sql, const void *blob,
                      int n)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    if (blob)
        assert_int_equal(sqlite3_bind_blob(st, 1, blob, n, SQLITE_STATIC),
                         SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    int changed = sqlite3_changes(db);
    assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
    return changed;
}

static int sql_count(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(db, "SELECT count(*) FROM wisdom", -1, &st, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int n = sqlite3_column_int(st, 0);
    assert_int_equal(sqlite3_step(st), SQLITE_DONE);
    assert_int_equal(sqlite3_finalize(st), SQLITE_OK);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
    return n;
}

static void open_cache(fixture *f)
{
    at_err e = {0};
    int rc = at_cache_open(&f->c, f->db, &e);
    if (rc)
        fail_msg("at_cache_open(%s): %d %s", f->db, rc, e.msg);
    assert_non_null(f->c);
}

static void put(fixture *f, const at_entry *en)
{
    at_err e = {0};
    int rc = at_cache_put(f->c, en, 1, &e);
    if (rc)
        fail_msg("at_cache_put: %d %s", rc, e.msg);
}

static void round_trip_through_new_handle(void **state)
{
    fixture *f = *state;
    unsigned char cubin[384];
    fill_cubin(cubin, sizeof cubin, 1);
    at_key k;
    at_entry en;
    sample_key(&k);
    sample_entry(&en, &k, cubin, sizeof cubin);

    open_cache(f);
    assert_string_equal(at_cache_path(f->c), f->db);
    put(f, &en);
    at_cache_close(f->c);
    f->c = NULL;

    /* A new handle sees only what reached the file. */
    open_cache(f);
    at_err e = {0};
    assert_int_equal(at_cache_get(f->c, &k, &f->got, &e), 1);
    assert_int_equal(e.code, 0);
    assert_entry_equal(&en, &f->got);
    assert_true(f->got.created[0] != '\0');
    assert_string_equal(f->got.created, en.created);
    at_entry_free(&f->got);
    assert_null(f->got.cubin);
}

/* Each key part, changed alone by the smallest step. */
enum part_kind { P_STR, P_INT };
static const struct {
    const char *name;
    size_t off;
    enum part_kind kind;
} key_parts[] = {
    {"gpu", offsetof(at_key, gpu), P_STR},
    {"cc", offsetof(at_key, cc), P_INT},
    {"sms", offsetof(at_key, sms), P_INT},
    {"driver", offsetof(at_key, driver), P_INT},
    {"driver_build", offsetof(at_key, driver_build), P_STR},
    {"nvrtc", offsetof(at_key, nvrtc), P_STR},
    {"template_hash", offsetof(at_key, template_hash), P_STR},
    {"space_hash", offsetof(at_key, space_hash), P_STR},
    {"family", offsetof(at_key, family), P_STR},
    {"type", offsetof(at_key, type), P_STR},
    {"problem", offsetof(at_key, problem), P_STR},
};

static void any_key_change_is_a_miss(void **state)
{
    fixture *f = *state;
    unsigned char cubin[256];
    fill_cubin(cubin, sizeof cubin, 2);
    at_key k;
    at_entry en;
    sample_key(&k);
    sample_entry(&en, &k, cubin, sizeof cubin);
    open_cache(f);
    put(f, &en);

    for (size_t i = 0; i < sizeof key_parts / sizeof key_parts[0]; ++i) {
        at_key m = k;
        char *p = (char *)&m + key_parts[i].off;
        switch (key_parts[i].kind) {
        case P_STR:
            p[strlen(p) - 1]++; /* "NVIDIA H200" -> "NVIDIA H201" */
            break;
        case P_INT:
            ++*(int *)(void *)p;
            break;
        }
        at_err e = {0};
        int rc = at_cache_get(f->c, &m, &f->got, &e);
        if (rc != 0)
            fail_msg("changed %s: at_cache_get gave %d, want 0 (miss): %s",
                     key_parts[i].name, rc, e.msg);
        assert_int_equal(e.code, 0);
        assert_null(f->got.cubin);
    }
    /* The misses were misses of the changed part, not of the entry. */
    at_err e = {0};
    assert_int_equal(at_cache_get(f->c, &k, &f->got, &e), 1);
    assert_entry_equal(&en, &f->got);
    assert_int_equal(sql_count(f->db), 1);
}

/* A cache file of autotune 0.1 (transpose columns) is refused with a
 * message that says what to do, and left as it was. */
static void cache_of_version_0_1_is_refused(void **state)
{
    fixture *f = *state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    const char *old =
        "CREATE TABLE wisdom(key TEXT PRIMARY KEY, gpu TEXT NOT NULL,"
        " cc INTEGER NOT NULL, sms INTEGER NOT NULL, driver INTEGER NOT NULL,"
        " driver_build TEXT NOT NULL, nvrtc TEXT NOT NULL,"
        " template_hash TEXT NOT NULL, space_hash TEXT NOT NULL,"
        " family TEXT NOT NULL, type TEXT NOT NULL, rows INTEGER NOT NULL,"
        " cols INTEGER NOT NULL, ld_in INTEGER NOT NULL,"
        " ld_out INTEGER NOT NULL, point TEXT NOT NULL, params TEXT NOT NULL,"
        " cubin BLOB NOT NULL, entry_hash TEXT NOT NULL, median_ms REAL,"
        " gbps REAL, copy_gbps REAL, frac_copy REAL, registers INTEGER,"
        " shared_bytes INTEGER, local_bytes INTEGER, seed INTEGER,"
        " tune_seconds REAL, points INTEGER, created TEXT NOT NULL);"
        "INSERT INTO wisdom VALUES('old key', 'NVIDIA H200', 90, 132, 12040,"
        " '550.54.15', '12.4', '0123456789abcdef', 'fedcba9876543210',"
        " 'transpose', 'f32', 64, 64, 64, 64, 'p', 'params', x'00',"
        " 'hash', 1, 2, 3, 0.5, 32, 0, 0, 1, 1.0, 10,"
        " '2024-01-01T00:00:00Z');";
    assert_int_equal(sqlite3_exec(db, old, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    at_err e = {0};
    assert_int_equal(at_cache_open(&f->c, f->db, &e), AUTOTUNE_ESQLITE);
    assert_null(f->c);
    assert_non_null(strstr(e.msg, "autotune 0.1"));
    assert_non_null(strstr(e.msg, "AUTOTUNE_CACHE"));
    assert_int_equal(sql_count(f->db), 1); /* its row is still there */
}

static void corrupt_cubin_is_a_discarded_miss(void **state)
{
    fixture *f = *state;
    unsigned char cubin[300], flipped[300];
    fill_cubin(cubin, sizeof cubin, 3);
    memcpy(flipped, cubin, sizeof flipped);
    flipped[150] ^= 0x10;
    const struct {
        const char *sql;
        const void *blob;
        const char *says;
    } damage[] = {
        {"UPDATE wisdom SET cubin = zeroblob(100)", NULL, "corrupt"},
        {"UPDATE wisdom SET cubin = substr(cubin, 1, length(cubin) - 1)",
         NULL, "corrupt"},
        {"UPDATE wisdom SET cubin = ?1", flipped, "corrupt"},
        {"UPDATE wisdom SET cubin = x''", NULL, "no cubin"},
        /* the point and its parameters are covered by the hash too */
        {"UPDATE wisdom SET params = replace(params, '=', '= ')", NULL,
         "corrupt"},
        {"UPDATE wisdom SET point = point || 'x'", NULL, "corrupt"},
    };
    at_key k;
    at_entry en;
    sample_key(&k);
    sample_entry(&en, &k, cubin, sizeof cubin);
    open_cache(f);

    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; ++i) {
        for (int by_arch = 0; by_arch < 2; ++by_arch) {
            put(f, &en);
            assert_int_equal(sql_count(f->db), 1);
            assert_int_equal(
                sql_change(f->db, damage[i].sql, damage[i].blob,
                           (int)sizeof flipped),
                1);
            at_err e = {0};
            int rc = by_arch ? at_cache_find_arch(f->c, &k, &f->got, &e)
                             : at_cache_get(f->c, &k, &f->got, &e);
            if (rc != 0)
                fail_msg("%s (%s): gave %d, want 0 (miss)", damage[i].sql,
                         by_arch ? "find_arch" : "get", rc);
            assert_int_equal(e.code, 0);
            if (!strstr(e.msg, damage[i].says))
                fail_msg("%s: message \"%s\" does not say \"%s\"",
                         damage[i].sql, e.msg, damage[i].says);
            assert_null(f->got.cubin);
            assert_int_equal(sql_count(f->db), 0);
        }
    }
}

/* Two GPUs of one architecture often store the same cubin: damage to one
 * row must not take the other with it. */
static void corrupt_row_spares_a_twin(void **state)
{
    fixture *f = *state;
    unsigned char cubin[256];
    fill_cubin(cubin, sizeof cubin, 9);
    at_key ka, kb;
    at_entry a, b;
    sample_key(&ka);
    kb = ka;
    snprintf(kb.gpu, sizeof kb.gpu, "another GPU of the same architecture");
    sample_entry(&a, &ka, cubin, sizeof cubin);
    sample_entry(&b, &kb, cubin, sizeof cubin);
    open_cache(f);
    put(f, &a);
    put(f, &b);
    assert_int_equal(sql_count(f->db), 2);
    assert_int_equal(sql_change(f->db,
                                "UPDATE wisdom SET cubin = zeroblob(10) "
                                "WHERE gpu = 'another GPU of the same "
                                "architecture'",
                                NULL, 0),
                     1);
    at_err e = {0};
    assert_int_equal(at_cache_get(f->c, &kb, &f->got, &e), 0);
    assert_non_null(strstr(e.msg, "corrupt"));
    assert_int_equal(sql_count(f->db), 1);
    assert_int_equal(at_cache_get(f->c, &ka, &f->got, &e), 1);
    at_entry_free(&f->got);
}

static void find_arch_ignores_device_not_problem(void **state)
{
    fixture *f = *state;
    unsigned char c200[200], c100[200];
    fill_cubin(c200, sizeof c200, 4);
    fill_cubin(c100, sizeof c100, 5);
    at_key k;
    at_entry h200, h100;
    sample_key(&k);
    sample_entry(&h200, &k, c200, sizeof c200);
    snprintf(h200.created, sizeof h200.created, "2024-06-01T00:00:00Z");
    /* An older entry of the same architecture from another GPU. */
    sample_entry(&h100, &k, c100, sizeof c100);
    snprintf(h100.key.gpu, sizeof h100.key.gpu, "NVIDIA H100 80GB HBM3");
    h100.key.sms = 114;
    snprintf(h100.point, sizeof h100.point, "t32x8_v2");
    snprintf(h100.created, sizeof h100.created, "2024-01-01T00:00:00Z");
    open_cache(f);
    put(f, &h200);
    put(f, &h100);

    /* What emitting without a device knows: no GPU, SMs or driver. */
    at_key q;
    memset(&q, 0, sizeof q);
    q.cc = 90;
    memcpy(q.template_hash, k.template_hash, sizeof q.template_hash);
    memcpy(q.family, k.family, sizeof q.family);
    memcpy(q.type, k.type, sizeof q.type);
    memcpy(q.problem, k.problem, sizeof q.problem);
    memcpy(q.space_hash, k.space_hash, sizeof q.space_hash);

    at_err e = {0};
    assert_int_equal(at_cache_find_arch(f->c, &q, &f->got, &e), 1);
    assert_int_equal(e.code, 0);
    assert_entry_equal(&h200, &f->got); /* the newer of the two */
    at_entry_free(&f->got);

    at_key other = q;
    other.cc = 80;
    assert_int_equal(at_cache_find_arch(f->c, &other, &f->got, &e), 0);
    other = q;
    snprintf(other.template_hash, sizeof other.template_hash,
             "0123456789abcdee");
    assert_int_equal(at_cache_find_arch(f->c, &other, &f->got, &e), 0);
    other = q;
    snprintf(other.space_hash, sizeof other.space_hash, "fedcba9876543211");
    assert_int_equal(at_cache_find_arch(f->c, &other, &f->got, &e), 0);
    other = q;
    snprintf(other.problem, sizeof other.problem, "rows=4096");
    assert_int_equal(at_cache_find_arch(f->c, &other, &f->got, &e), 0);
    assert_int_equal(e.code, 0);
    assert_null(f->got.cubin);
}

static void put_same_key_replaces(void **state)
{
    fixture *f = *state;
    unsigned char c1[128], c2[512];
    fill_cubin(c1, sizeof c1, 6);
    fill_cubin(c2, sizeof c2, 7);
    at_key k;
    at_entry old, young;
    sample_key(&k);
    sample_entry(&old, &k, c1, sizeof c1);
    sample_entry(&young, &k, c2, sizeof c2);
    snprintf(young.point, sizeof young.point, "t32x32_v1");
    snprintf(young.params, sizeof young.params, "tile_x=32 tile_y=32 vec=1");
    young.median_ms = 0.0987;
    young.gbps = 4012.5;
    young.frac_copy = young.gbps / young.copy_gbps;
    young.registers = 40;
    young.points = 300;
    young.created[0] = '\0'; /* put stamps the time */

    /* Two handles at once, as two tuning processes. */
    at_cache *other = NULL;
    at_err e = {0};
    open_cache(f);
    assert_int_equal(at_cache_open(&other, f->db, &e), 0);
    put(f, &old);
    int rc = at_cache_put(other, &young, 1, &e);
    at_cache_close(other);
    assert_int_equal(rc, 0);

    assert_int_equal(sql_count(f->db), 1);
    assert_int_equal(at_cache_get(f->c, &k, &f->got, &e), 1);
    assert_entry_equal(&young, &f->got);
    /* "YYYY-MM-DDTHH:MM:SSZ" */
    assert_int_equal(strlen(f->got.created), 20);
    assert_int_equal(f->got.created[10], 'T');
    assert_int_equal(f->got.created[19], 'Z');
}

static void bad_paths_fail_plainly(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    assert_int_equal(at_cache_open(&f->c, "/nonexistent-dir-xyz/c.db", &e),
                     AUTOTUNE_EIO);
    assert_null(f->c);
    assert_int_equal(e.code, AUTOTUNE_EIO);
    if (!strstr(e.msg, "/nonexistent-dir-xyz"))
        fail_msg("message does not name the directory: %s", e.msg);

    char file[128], under[160];
    snprintf(file, sizeof file, "%s/plain", f->dir);
    FILE *fp = fopen(file, "w");
    assert_non_null(fp);
    assert_int_equal(fclose(fp), 0);
    snprintf(under, sizeof under, "%s/c.db", file);
    at_err e2 = {0};
    assert_int_equal(at_cache_open(&f->c, under, &e2), AUTOTUNE_EIO);
    assert_null(f->c);
    assert_int_equal(e2.code, AUTOTUNE_EIO);
    if (!strstr(e2.msg, "not a directory") || !strstr(e2.msg, file))
        fail_msg("message: %s", e2.msg);
}

/* 0 if opening path is refused with AUTOTUNE_EIO, "not writable" and
 * what; else says why on stderr and returns 1. No cmocka asserts: it may
 * run in a forked child. */
static int open_refused(const char *path, const char *what)
{
    at_cache *c = NULL;
    at_err e = {0};
    int rc = at_cache_open(&c, path, &e);
    if (rc == AUTOTUNE_EIO && !c && strstr(e.msg, "not writable") &&
        strstr(e.msg, what))
        return 0;
    fprintf(stderr, "at_cache_open(%s): %d %s\n", path, rc, e.msg);
    at_cache_close(c);
    return 1;
}

static void unwritable_paths_fail_plainly(void **state)
{
    fixture *f = *state;
    char ro[128], ro_db[160], rw[128], rw_db[160];
    snprintf(ro, sizeof ro, "%s/ro", f->dir);
    snprintf(ro_db, sizeof ro_db, "%s/c.db", ro);
    snprintf(rw, sizeof rw, "%s/rw", f->dir);
    snprintf(rw_db, sizeof rw_db, "%s/c.db", rw);
    assert_int_equal(mkdir(ro, 0555), 0);
    assert_int_equal(mkdir(rw, 0755), 0);
    /* A cache file that exists but may not be written. */
    at_err e = {0};
    assert_int_equal(at_cache_open(&f->c, rw_db, &e), 0);
    at_cache_close(f->c);
    f->c = NULL;
    assert_int_equal(chmod(rw_db, 0444), 0);

    if (geteuid() != 0) {
        assert_int_equal(open_refused(ro_db, ro), 0);
        assert_int_equal(open_refused(rw_db, rw_db), 0);
        return;
    }
    /* Root ignores permission bits, and cmocka 1.1.5 prints a skip as
     * "not ok # SKIP", which prove counts as a failure: check as nobody,
     * in a child, instead. */
    const uid_t nobody = 65534;
    assert_int_equal(chmod(f->dir, 0711), 0);
    assert_int_equal(chown(ro, nobody, nobody), 0); /* theirs, not root's */
    assert_int_equal(chown(rw, nobody, nobody), 0);
    assert_int_equal(chown(rw_db, nobody, nobody), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setgroups(0, NULL) || setgid(nobody) || setuid(nobody))
            _exit(2);
        _exit(open_refused(ro_db, ro) | open_refused(rw_db, rw_db));
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void assert_is_dir(const char *p)
{
    struct stat st;
    if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
        fail_msg("%s is not a directory", p);
}

static void default_path_from_environment(void **state)
{
    fixture *f = *state; /* teardown restores the environment */
    char buf[256], want[256], dir[256];
    at_err e = {0};

    /* An explicit path is taken as is; its directory is not created. */
    snprintf(want, sizeof want, "%s/explicit/c.db", f->dir);
    assert_int_equal(setenv("AUTOTUNE_CACHE", want, 1), 0);
    assert_int_equal(setenv("XDG_CACHE_HOME", "/nonexistent-xdg", 1), 0);
    assert_int_equal(at_cache_default_path(buf, sizeof buf, &e), 0);
    assert_string_equal(buf, want);
    snprintf(dir, sizeof dir, "%s/explicit", f->dir);
    assert_int_equal(access(dir, F_OK), -1);

    snprintf(dir, sizeof dir, "%s/xdg", f->dir);
    assert_int_equal(unsetenv("AUTOTUNE_CACHE"), 0);
    assert_int_equal(setenv("XDG_CACHE_HOME", dir, 1), 0);
    assert_int_equal(setenv("HOME", "/nonexistent-home", 1), 0);
    assert_int_equal(at_cache_default_path(buf, sizeof buf, &e), 0);
    snprintf(want, sizeof want, "%s/xdg/autotune/cache.db", f->dir);
    assert_string_equal(buf, want);
    snprintf(dir, sizeof dir, "%s/xdg/autotune", f->dir);
    assert_is_dir(dir);
    /* The created directory is good enough to open the cache in. */
    assert_int_equal(at_cache_open(&f->c, buf, &e), 0);
    at_cache_close(f->c);
    f->c = NULL;

    snprintf(dir, sizeof dir, "%s/home", f->dir);
    assert_int_equal(unsetenv("XDG_CACHE_HOME"), 0);
    assert_int_equal(setenv("HOME", dir, 1), 0);
    assert_int_equal(at_cache_default_path(buf, sizeof buf, &e), 0);
    snprintf(want, sizeof want, "%s/home/.cache/autotune/cache.db", f->dir);
    assert_string_equal(buf, want);
    snprintf(dir, sizeof dir, "%s/home/.cache/autotune", f->dir);
    assert_is_dir(dir);

    /* Empty counts as unset, as the XDG spec says. */
    assert_int_equal(setenv("AUTOTUNE_CACHE", "", 1), 0);
    assert_int_equal(setenv("XDG_CACHE_HOME", "", 1), 0);
    assert_int_equal(at_cache_default_path(buf, sizeof buf, &e), 0);
    assert_string_equal(buf, want);

    assert_int_equal(unsetenv("AUTOTUNE_CACHE"), 0);
    assert_int_equal(unsetenv("XDG_CACHE_HOME"), 0);
    assert_int_equal(unsetenv("HOME"), 0);
    assert_int_equal(at_cache_default_path(buf, sizeof buf, &e),
                     AUTOTUNE_EIO);
    assert_int_equal(e.code, AUTOTUNE_EIO);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(round_trip_through_new_handle),
        T(any_key_change_is_a_miss),
        T(cache_of_version_0_1_is_refused),
        T(corrupt_cubin_is_a_discarded_miss),
        T(corrupt_row_spares_a_twin),
        T(find_arch_ignores_device_not_problem),
        T(put_same_key_replaces),
        T(bad_paths_fail_plainly),
        T(unwritable_paths_fail_plainly),
        T(default_path_from_environment),
    };
    return AT_RUN_TESTS(tests);
}
