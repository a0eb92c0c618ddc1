/* The compiled-variant cache: a round trip through a fresh handle, a miss
 * for a change of source, architecture, NVRTC or options, a corrupt cubin
 * discarded (and the next lookup a plain miss), many puts across the
 * batch boundary, and the default path. No GPU. */
#include "tap.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "runtime/store/store.h"

typedef struct fixture {
    char dir[32], db[64];
    at_cubins *c;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/at-cubins-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->db, sizeof f->db, "%s/cubins.db", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    at_cubins_close(f->c, NULL);
    char p[96];
    const char *suffix[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; ++i) {
        snprintf(p, sizeof p, "%s%s", f->db, suffix[i]);
        unlink(p);
    }
    int rc = rmdir(f->dir);
    free(f);
    return rc;
}

static const at_cubin_key key90 = {90, "13.0",
                                   "--gpu-architecture=sm_90 --std=c++17"};

static void reopen(fixture *f)
{
    at_err e = {0};
    assert_int_equal(at_cubins_close(f->c, &e), 0);
    f->c = NULL;
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0);
}

static void round_trip_and_misses(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0);
    const char *src = "/* variant a */ kernel text";
    unsigned char cubin[300];
    for (size_t i = 0; i < sizeof cubin; ++i)
        cubin[i] = (unsigned char)(i * 37 + 11);
    const char *kern = "at_kernel";
    assert_int_equal(at_cubins_put(f->c, &key90, 1, &src, &kern, cubin,
                                   sizeof cubin, &e), 0);
    reopen(f); /* read by a new handle */
    void *got = NULL;
    size_t n = 0;
    char kernel[AT_KERNEL_NAME];
    assert_int_equal(at_cubins_get(f->c, &key90, src, &got, &n, kernel, &e),
                     1);
    assert_int_equal(n, sizeof cubin);
    assert_memory_equal(got, cubin, sizeof cubin);
    assert_string_equal(kernel, "at_kernel");
    free(got);
    /* Any other part: a miss. */
    at_cubin_key k = key90;
    k.sm = 80;
    assert_int_equal(at_cubins_get(f->c, &k, src, &got, &n, kernel, &e), 0);
    k = key90;
    k.nvrtc = "13.1";
    assert_int_equal(at_cubins_get(f->c, &k, src, &got, &n, kernel, &e), 0);
    k = key90;
    k.options = "--gpu-architecture=sm_90 --std=c++17 -Ofc=mid";
    assert_int_equal(at_cubins_get(f->c, &k, src, &got, &n, kernel, &e), 0);
    assert_int_equal(at_cubins_get(f->c, &key90, "/* variant b */", &got, &n,
                                   kernel, &e), 0);
    assert_null(got);
    assert_string_equal(e.msg, "");
}

static void corrupt_cubin_is_discarded(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0);
    const char *srcs[] = {"corruptible a", "corruptible b"};
    const char *kerns[] = {"at_kernel_0", "at_kernel_1"};
    const char *src = srcs[1];
    unsigned char cubin[64] = {1, 2, 3};
    /* One cubin, two variants: a corrupt cubin takes both. */
    at_cubins_batch_begin(f->c);
    assert_int_equal(at_cubins_put(f->c, &key90, 2, srcs, kerns, cubin,
                                   sizeof cubin, &e), 0);
    assert_int_equal(at_cubins_batch_end(f->c, &e), 0);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE blobs SET cubin = "
                                      "zeroblob(64)", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    void *got = NULL;
    size_t n = 0;
    char kernel[AT_KERNEL_NAME];
    int64_t blob;
    assert_int_equal(at_cubins_find(f->c, &key90, srcs[0], &blob, kernel, &e),
                     1);
    assert_string_equal(kernel, "at_kernel_0");
    assert_int_equal(at_cubins_get(f->c, &key90, src, &got, &n, kernel, &e),
                     0);
    assert_int_equal(e.code, 0);
    assert_non_null(strstr(e.msg, "corrupt; discarded"));
    assert_null(got);
    at_err_clear(&e);
    assert_int_equal(at_cubins_get(f->c, &key90, src, &got, &n, kernel, &e),
                     0);
    assert_string_equal(e.msg, ""); /* gone, not corrupt again */
    assert_int_equal(at_cubins_find(f->c, &key90, srcs[0], &blob, kernel, &e),
                     0); /* its sibling too */
}

/* More puts in a batch than a transaction holds: all of them readable
 * afterwards. */
static void many_puts(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0);
    enum { N = 600 };
    char src[64];
    at_cubins_batch_begin(f->c);
    for (int i = 0; i < N; ++i) {
        snprintf(src, sizeof src, "source %d", i);
        int v = i;
        const char *sp = src, *kn = "k";
        assert_int_equal(at_cubins_put(f->c, &key90, 1, &sp, &kn, &v,
                                       sizeof v, &e), 0);
    }
    assert_int_equal(at_cubins_batch_end(f->c, &e), 0);
    reopen(f);
    for (int i = 0; i < N; ++i) {
        snprintf(src, sizeof src, "source %d", i);
        void *got = NULL;
        size_t n = 0;
        char kernel[AT_KERNEL_NAME];
        assert_int_equal(at_cubins_get(f->c, &key90, src, &got, &n, kernel,
                                       &e), 1);
        assert_int_equal(n, sizeof(int));
        assert_int_equal(*(int *)got, i);
        free(got);
    }
    const char *sp = "empty", *kn = "k";
    assert_int_equal(at_cubins_put(f->c, &key90, 1, &sp, &kn, "", 0, &e),
                     AUTOTUNE_EINVALID);
}

/* Whether another connection can write now (no wait for a lock). */
static int others_can_write(const char *path)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE; COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    return rc == SQLITE_OK;
}

/* No put holds the file's write lock, in a batch or not: another process
 * (a GPU worker, another device's tune of the same list) writes the file
 * at once. (A reference kernel's put that stayed open made a background
 * tune's worker fail with 'database is locked' after 30 s; a batch held
 * open made two devices' tunes wait for each other.) A batch's puts wait
 * in memory: this handle finds them at once, another once the batch
 * ends. */
static void no_put_holds_the_write_lock(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    at_cubins *other = NULL;
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0);
    assert_int_equal(at_cubins_open(&other, f->db, &e), 0);
    const char *src = "one put", *kern = "k";
    int v = 7;
    void *got = NULL;
    size_t n = 0;
    char kernel[AT_KERNEL_NAME];
    assert_int_equal(at_cubins_put(f->c, &key90, 1, &src, &kern, &v,
                                   sizeof v, &e), 0);
    assert_true(others_can_write(f->db));
    assert_int_equal(at_cubins_get(other, &key90, src, &got, &n, kernel, &e),
                     1);
    free(got);
    at_cubins_batch_begin(f->c);
    src = "a batch's put";
    assert_int_equal(at_cubins_put(f->c, &key90, 1, &src, &kern, &v,
                                   sizeof v, &e), 0);
    assert_true(others_can_write(f->db));
    assert_int_equal(at_cubins_get(f->c, &key90, src, &got, &n, kernel, &e),
                     1);
    assert_int_equal(n, sizeof v);
    assert_int_equal(memcmp(got, &v, sizeof v), 0);
    free(got);
    assert_int_equal(at_cubins_get(other, &key90, src, &got, &n, kernel, &e),
                     0);
    assert_int_equal(at_cubins_batch_end(f->c, &e), 0);
    assert_int_equal(at_cubins_get(other, &key90, src, &got, &n, kernel, &e),
                     1);
    free(got);
    at_cubins_close(other, NULL);
}

/* A cubin found while its put waited in memory is still read after the
 * batch was written (its id then names the written row). */
static void a_waiting_put_is_read_after_it_is_written(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0);
    at_cubins_batch_begin(f->c);
    const char *src = "waits", *kern = "k";
    int v = 42;
    assert_int_equal(at_cubins_put(f->c, &key90, 1, &src, &kern, &v,
                                   sizeof v, &e), 0);
    int64_t blob = 0;
    char kernel[AT_KERNEL_NAME];
    assert_int_equal(at_cubins_find(f->c, &key90, src, &blob, kernel, &e), 1);
    assert_string_equal(kernel, "k");
    assert_int_equal(at_cubins_batch_end(f->c, &e), 0);
    void *got = NULL;
    size_t n = 0;
    assert_int_equal(at_cubins_blob(f->c, blob, &got, &n, &e), 1);
    assert_int_equal(n, sizeof v);
    assert_int_equal(memcmp(got, &v, sizeof v), 0);
    free(got);
}

/* Opening a file already set up writes nothing: it opens at once while
 * another process holds the write lock (two devices' GPU workers open
 * the caches while each other's tunes write them). */
static void opening_takes_no_write_lock(void **state)
{
    fixture *f = *state;
    at_err e = {0};
    assert_int_equal(at_cubins_open(&f->c, f->db, &e), 0); /* set up */
    at_cubins_close(f->c, NULL);
    f->c = NULL;
    sqlite3 *db;
    assert_int_equal(sqlite3_open(f->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL),
                     SQLITE_OK);
    double t0 = at_now_s();
    int rc = at_cubins_open(&f->c, f->db, &e);
    double took = at_now_s() - t0;
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(db);
    assert_int_equal(rc, 0);
    assert_true(took < 1.0);
}

static void default_path(void **state)
{
    (void)state;
    char buf[256];
    at_err e = {0};
    char *saved = getenv("AUTOTUNE_CUBIN_CACHE");
    saved = saved ? strdup(saved) : NULL;
    unsetenv("AUTOTUNE_CUBIN_CACHE");
    assert_int_equal(at_cubins_default_path("/x/cache.db", buf, sizeof buf,
                                            &e), 0);
    assert_string_equal(buf, "/x/cache-cubins.db");
    assert_int_equal(at_cubins_default_path("/x/wisdom", buf, sizeof buf, &e),
                     0);
    assert_string_equal(buf, "/x/wisdom-cubins.db");
    setenv("AUTOTUNE_CUBIN_CACHE", "/y/c.db", 1);
    assert_int_equal(at_cubins_default_path("/x/cache.db", buf, sizeof buf,
                                            &e), 0);
    assert_string_equal(buf, "/y/c.db");
    if (saved)
        setenv("AUTOTUNE_CUBIN_CACHE", saved, 1);
    else
        unsetenv("AUTOTUNE_CUBIN_CACHE");
    free(saved);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(round_trip_and_misses, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(corrupt_cubin_is_discarded, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(many_puts, setup, teardown),
        cmocka_unit_test_setup_teardown(no_put_holds_the_write_lock, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            a_waiting_put_is_read_after_it_is_written, setup, teardown),
        cmocka_unit_test_setup_teardown(opening_takes_no_write_lock, setup,
                                        teardown),
        cmocka_unit_test(default_path),
    };
    return AT_RUN_TESTS(tests);
}
