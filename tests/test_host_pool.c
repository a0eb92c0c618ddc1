/* The host buffer pool (runtime/driver/driver.h) without a GPU: reuse, the
 * smallest fitting buffer, the bound and its eviction, trim, whole-length
 * writes (ASan checks them), two threads at once, and no driver call
 * with no driver loaded (the table's entries are NULL: one would crash). */
#include "tap.h"

#include <pthread.h>
#include <string.h>

#include "runtime/driver/driver.h"

#define MIB ((size_t)1 << 20)

static size_t idle_buffers(void)
{
    size_t n = 99;
    at_host_pool_idle(&n, NULL);
    return n;
}

static size_t idle_bytes(void)
{
    size_t n = 99;
    at_host_pool_idle(NULL, &n);
    return n;
}

/* Each test starts and ends with an empty pool. */
static int empty(void **state)
{
    (void)state;
    at_host_pool_trim();
    return idle_buffers() == 0 && idle_bytes() == 0 ? 0 : -1;
}

static void *take(size_t bytes)
{
    at_err e = {0};
    void *p = at_host_take(bytes, &e);
    assert_non_null(p);
    assert_int_equal(e.code, 0);
    return p;
}

static void given_buffer_comes_back(void **state)
{
    (void)state;
    char *p = take(3 * MIB);
    memset(p, 0x5A, 3 * MIB);
    at_host_give(p);
    assert_int_equal(idle_buffers(), 1);
    assert_true(idle_bytes() >= 3 * MIB);
    assert_ptr_equal(take(3 * MIB), p); /* the same size */
    assert_int_equal(idle_buffers(), 0);
    at_host_give(p);
    assert_ptr_equal(take(1000), p); /* a smaller one fits */
    at_host_give(p);
    at_host_give(NULL); /* a no-op */
    assert_int_equal(idle_buffers(), 1);
}

static void smallest_fitting_is_taken(void **state)
{
    (void)state;
    void *a = take(8 * MIB), *b = take(4 * MIB), *c = take(16 * MIB);
    at_host_give(a);
    at_host_give(c);
    at_host_give(b);
    assert_int_equal(idle_buffers(), 3);
    assert_ptr_equal(take(3 * MIB), b);
    assert_ptr_equal(take(5 * MIB), a);
    void *d = take(5 * MIB); /* only c fits */
    assert_ptr_equal(d, c);
    assert_int_equal(idle_buffers(), 0);
    void *f = take(20 * MIB); /* none idle: fresh */
    assert_true(f != a && f != b && f != c);
    at_host_give(a);
    at_host_give(b);
    at_host_give(c);
    at_host_give(f);
    assert_int_equal(idle_buffers(), 4);
}

static void over_the_bound_is_freed(void **state)
{
    (void)state;
    size_t big = AT_HOST_POOL_MAX + 1;
    char *p = take(big);
    p[0] = 1;
    p[big - 1] = 2;
    void *small = take(MIB);
    at_host_give(small);
    at_host_give(p);
    assert_int_equal(idle_buffers(), 1); /* small only */
    assert_true(idle_bytes() < MIB * 4);
    p = take(big); /* fresh: nothing idle fits */
    assert_int_equal(idle_buffers(), 1);
    at_host_give(p);
    assert_int_equal(idle_buffers(), 1);
}

/* Within the bound, the least recently given idle buffers make room. */
static void least_recent_evicted(void **state)
{
    (void)state;
    char *a = take(200 * MIB), *b = take(200 * MIB), *c = take(200 * MIB);
    a[0] = 'a';
    b[0] = 'b';
    c[0] = 'c';
    at_host_give(a);
    at_host_give(b);
    assert_int_equal(idle_bytes(), 400 * MIB);
    at_host_give(c); /* 600 MiB: a goes */
    assert_int_equal(idle_buffers(), 2);
    assert_int_equal(idle_bytes(), 400 * MIB);
    assert_true(idle_bytes() <= AT_HOST_POOL_MAX);
    /* The two taken now are b and c, marks and all (a fresh buffer at a
     * freed one's address would not have its mark). */
    char *x = take(200 * MIB), *y = take(200 * MIB);
    assert_int_equal(idle_buffers(), 0);
    assert_true((x == b && y == c) || (x == c && y == b));
    assert_int_equal(x[0] + y[0], 'b' + 'c');
    at_host_give(x);
    at_host_give(y);
}

static void trim_empties(void **state)
{
    (void)state;
    void *p[5];
    for (int i = 0; i < 5; ++i)
        p[i] = take((size_t)(i + 1) * MIB);
    for (int i = 0; i < 5; ++i)
        at_host_give(p[i]);
    assert_int_equal(idle_buffers(), 5);
    at_host_pool_trim();
    assert_int_equal(idle_buffers(), 0);
    assert_int_equal(idle_bytes(), 0);
    at_host_pool_trim(); /* again: nothing to do */
    assert_int_equal(idle_buffers(), 0);
}

static void writable_whole_length(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, 4095, 2 * MIB, 2 * MIB + 1, 5 * MIB + 3};
    const size_t n = sizeof sizes / sizeof sizes[0];
    for (int round = 0; round < 2; ++round) { /* fresh, then reused */
        void *p[sizeof sizes / sizeof sizes[0]];
        for (size_t i = 0; i < n; ++i) {
            p[i] = take(sizes[i]);
            memset(p[i], (int)i, sizes[i]);
        }
        for (size_t i = 0; i < n; ++i) {
            const unsigned char *q = p[i];
            for (size_t j = 0; j < sizes[i]; j += 4093)
                assert_int_equal(q[j], i);
            if (sizes[i])
                assert_int_equal(q[sizes[i] - 1], i);
            at_host_give(p[i]);
        }
    }
    /* A small request served by a bigger idle buffer. */
    void *big = take(6 * MIB);
    at_host_pool_trim();
    at_host_give(big);
    char *s = take(100);
    assert_ptr_equal(s, big);
    memset(s, 7, 6 * MIB); /* all of it is the buffer's */
    at_host_give(s);
}

enum { THREADS = 2, ROUNDS = 2000, HELD = 2 };

static void *churn(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg, x = id * 2654435761u + 1;
    for (int r = 0; r < ROUNDS; ++r) {
        unsigned char *p[HELD];
        size_t n[HELD];
        for (int h = 0; h < HELD; ++h) {
            x = x * 1664525u + 1013904223u;
            n[h] = (size_t)(x >> 8) % (3 * MIB) + 1;
            at_err e = {0};
            if (!(p[h] = at_host_take(n[h], &e)))
                return "take failed";
            p[h][0] = p[h][n[h] - 1] = (unsigned char)(id * HELD + h + 1);
        }
        for (int h = 0; h < HELD; ++h) {
            /* Another holder of the same buffer would have written its
             * own mark. */
            if (p[h][0] != (unsigned char)(id * HELD + h + 1) ||
                p[h][n[h] - 1] != p[h][0])
                return "a buffer given to two takers";
            at_host_give(p[h]);
        }
    }
    return NULL;
}

static void threads_take_and_give(void **state)
{
    (void)state;
    pthread_t th[THREADS];
    for (uintptr_t i = 0; i < THREADS; ++i)
        assert_int_equal(pthread_create(&th[i], NULL, churn, (void *)i), 0);
    for (int i = 0; i < THREADS; ++i) {
        void *why = NULL;
        assert_int_equal(pthread_join(th[i], &why), 0);
        if (why)
            fail_msg("%s", (const char *)why);
    }
    /* Everything given back is idle: buffers of 2 or 4 MiB (3 MiB at
     * most asked, whole huge pages), each taken again exactly once. */
    size_t n = idle_buffers(), bytes = idle_bytes();
    assert_true(n >= HELD && n <= 2 * THREADS * HELD);
    assert_true(bytes >= n * 2 * MIB && bytes <= n * 4 * MIB);
    assert_int_equal(bytes % (2 * MIB), 0);
    void *all[2 * THREADS * HELD];
    for (size_t i = 0; i < n; ++i) {
        all[i] = take(1);
        for (size_t j = 0; j < i; ++j)
            assert_ptr_not_equal(all[i], all[j]);
    }
    assert_int_equal(idle_buffers(), 0);
    assert_int_equal(idle_bytes(), 0);
    for (size_t i = 0; i < n; ++i)
        at_host_give(all[i]);
    assert_int_equal(idle_buffers(), n);
    assert_int_equal(idle_bytes(), bytes);
}

/* Nothing calls the driver: neither before any load nor after a failed
 * one (the table stays NULL; a call through it would crash). */
static void no_driver_no_calls(void **state)
{
    (void)state;
    for (int loaded = 0; loaded < 2; ++loaded) {
        if (loaded) {
            at_err e = {0};
            assert_int_equal(at_cu_load(&e), AUTOTUNE_ENO_DRIVER);
        }
        assert_int_equal(at_cu_ready(), 0);
        assert_null(at_cu.cuCtxGetCurrent);
        assert_null(at_cu.cuMemHostRegister);
        assert_null(at_cu.cuMemHostUnregister);
        void *p = take(3 * MIB), *big = take(AT_HOST_POOL_MAX + 1);
        at_host_give(p);
        at_host_give(big);
        assert_ptr_equal(take(MIB), p);
        at_host_give(p);
        at_host_pool_trim();
        assert_int_equal(idle_buffers(), 0);
    }
}

#define T(f) cmocka_unit_test_setup_teardown(f, empty, empty)

int main(void)
{
    setenv("AUTOTUNE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    const struct CMUnitTest tests[] = {
        T(no_driver_no_calls),
        T(given_buffer_comes_back),
        T(smallest_fitting_is_taken),
        T(over_the_bound_is_freed),
        T(least_recent_evicted),
        T(trim_empties),
        T(writable_whole_length),
        T(threads_take_and_give),
    };
    return AT_RUN_TESTS(tests);
}
